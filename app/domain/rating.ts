// Premium rating: Rate PUF age bands, the three-oldest-children rule, tobacco rates, derived ages,
// family tiers in community-rated states, and the benchmark (second-lowest-cost silver) premium.
//
// Sources: 45 CFR 147.102 (age, tobacco, family composition); CMS Rate PUF age labels
// (docs/reference/puf-formats.md §4, §9); CMS State Specific Rating Variations (NY, VT);
// 26 USC 36B(b)(3)(B) and 26 CFR 1.36B-3(f) (benchmark plan).

import {
  AGE_CURVE_ANCHOR_AGE,
  CHILD_RATING_AGE_LIMIT,
  FAMILY_TIER_DEPENDENT_CHILD_AGE_LIMIT,
  MAX_RATED_CHILDREN,
  MissingParameterError,
  YOUNG_ADULT_RIDER_MAX_AGE,
  ageCurveFactor,
  familyTierFactors,
  isCommunityRated,
  normaliseStateCode,
  usesFamilyTiers,
  type FamilyTierName,
} from "./parameters";
import type { Relationship } from "./eligibility/relationship";

export type { Relationship };

/** A covered household member as the rating rules see them. */
export interface Member {
  age: number;
  usesTobacco: boolean;
  relationship: Relationship;
  /** Carried for callers; pregnancy does not change a marketplace premium (not rated). */
  isPregnant?: boolean;
}

/** One Rate PUF row's amounts for an age band: the non-tobacco rate and, if the plan rates tobacco, the tobacco rate. */
export interface AgeRate {
  individual: number;
  tobacco: number | null;
}

/** A plan's monthly rates in one rating area, keyed by Rate PUF age label ("0-14", "15" … "63", "64 and over"). */
export interface RateTable {
  ageRates: Record<string, AgeRate>;
}

/** Raised when a plan's rate table cannot price a member (no row for the age and no age-21 row to derive from). */
export class MissingRateError extends Error {
  readonly ageBand: string;
  constructor(ageBand: string, detail: string) {
    super(`plan rate table has no rate for age band "${ageBand}": ${detail}`);
    this.name = "MissingRateError";
    this.ageBand = ageBand;
  }
}

// Rate PUF Age labels from plan year 2018 on (puf-formats.md §4): one band for 0–14, single
// years 15–63, one band for 64 and over. These are the file format's labels, not policy values.
const PUF_CHILD_BAND_LAST_AGE = 14;
const PUF_TOP_BAND_FIRST_AGE = 64;
/** Rate PUF label of the child band (ages 0–14). */
export const CHILD_BAND_LABEL = "0-14";
/** Rate PUF label of the top band (ages 64 and over). */
export const TOP_BAND_LABEL = "64 and over";

function assertAge(age: number): void {
  if (!Number.isInteger(age) || age < 0) throw new RangeError(`age must be a whole number ≥ 0, got ${age}`);
}

/** Rate PUF age label for an age: "0-14", "15" … "63", "64 and over". */
export function ageBandLabel(age: number): string {
  assertAge(age);
  if (age <= PUF_CHILD_BAND_LAST_AGE) return CHILD_BAND_LABEL;
  if (age >= PUF_TOP_BAND_FIRST_AGE) return TOP_BAND_LABEL;
  return String(age);
}

// ---------------------------------------------------------------------------
// Three oldest children under 21 (45 CFR 147.102(c)(1)).

/**
 * True for a child-only policy: every member is under 21 and nobody is a spouse (a married couple
 * under 21 is an adult policy). Child-only offerings are for people under 21 (45 CFR 156.200(c)(2)).
 */
export function isChildOnlyPolicy(members: readonly Member[]): boolean {
  return (
    members.length > 0 &&
    members.every((m) => m.age < CHILD_RATING_AGE_LIMIT) &&
    !members.some((m) => m.relationship === "spouse")
  );
}

function isRatingChild(member: Member, childOnlyPolicy: boolean): boolean {
  if (member.age >= CHILD_RATING_AGE_LIMIT) return false;
  // On a child-only policy every member is a child; otherwise the subscriber and spouse are
  // rated as themselves even when under 21.
  return childOnlyPolicy || member.relationship === "child" || member.relationship === "other";
}

/**
 * Members whose premiums count, in input order: everyone except children under 21 beyond the
 * three oldest (45 CFR 147.102(c)(1)). Among children of the same age a tobacco user is counted
 * first, then input order: which of two identical children is "the fourth" cannot change a price,
 * so reordering the people never does (docs/decisions/211-per-person-programmes.md).
 */
export function ratedMembers<M extends Member>(members: readonly M[]): M[] {
  members.forEach((m) => assertAge(m.age));
  const childOnly = isChildOnlyPolicy(members);
  const children = members
    .map((m, index) => ({ m, index }))
    .filter(({ m }) => isRatingChild(m, childOnly))
    .sort((a, b) => b.m.age - a.m.age || Number(b.m.usesTobacco) - Number(a.m.usesTobacco) || a.index - b.index);
  const unrated = new Set(children.slice(MAX_RATED_CHILDREN).map(({ index }) => index));
  return members.filter((_, index) => !unrated.has(index));
}

// ---------------------------------------------------------------------------
// Per-member and household premiums.

/** Options for pricing members. */
export interface PremiumOptions {
  /** Price tobacco users at the non-tobacco rate (the benchmark and APTC never include the surcharge). */
  excludeTobaccoSurcharge?: boolean;
}

/**
 * Monthly premium of one member on a plan: the plan's own rate row for the member's age band (tobacco
 * rate for a tobacco user where the plan has one); a missing band is derived from the plan's age-21
 * rate with the state's age curve (federal default or the state's own).
 */
export function memberPremium(
  rateTable: RateTable,
  member: Member,
  stateCode: string,
  options: PremiumOptions = {},
): number {
  assertAge(member.age);
  const state = normaliseStateCode(stateCode);
  // Community-rated states (NY, VT) do not rate tobacco (tobacco ratio 1:1).
  const wantsTobacco = member.usesTobacco && !options.excludeTobaccoSurcharge && !isCommunityRated(state);
  const label = ageBandLabel(member.age);
  const row = rateTable.ageRates[label];
  if (row) return pickRate(row, wantsTobacco);

  const anchorLabel = ageBandLabel(AGE_CURVE_ANCHOR_AGE);
  const anchor = rateTable.ageRates[anchorLabel];
  if (!anchor) {
    throw new MissingRateError(label, `and no age-${AGE_CURVE_ANCHOR_AGE} rate to derive it from`);
  }
  return pickRate(anchor, wantsTobacco) * ageCurveFactor(state, member.age);
}

function pickRate(row: AgeRate, wantsTobacco: boolean): number {
  return wantsTobacco && row.tobacco !== null ? row.tobacco : row.individual;
}

/**
 * Monthly household premium on a plan: in family-tier states (NY, VT) the single-adult rate × tier
 * factor; elsewhere the sum of member premiums over the rated members.
 */
export function householdPremium(
  rateTable: RateTable,
  members: readonly Member[],
  stateCode: string,
  coverageYear: number,
  options: PremiumOptions = {},
): number {
  return householdRater(members, stateCode, coverageYear, options)(rateTable);
}

/**
 * householdPremium for one household on any number of rate tables: who is rated, each one's age
 * band and tobacco rate, and the family tier depend on the household alone, so they are worked out
 * once here and a plan list of hundreds of plans only looks rates up (the same sums, in the same
 * order, as memberPremium member by member).
 */
export function householdRater(
  members: readonly Member[],
  stateCode: string,
  coverageYear: number,
  options: PremiumOptions = {},
): (rateTable: RateTable) => number {
  if (members.length === 0) throw new RangeError("a household needs at least one covered member");
  const state = normaliseStateCode(stateCode);
  if (usesFamilyTiers(state)) {
    const tier = familyTier(members);
    return (rateTable) => familyTierPremium(singleAdultRate(rateTable), tier, state, coverageYear);
  }
  const communityRated = isCommunityRated(state);
  const rated = ratedMembers(members).map((m) => ({
    age: m.age,
    label: ageBandLabel(m.age),
    wantsTobacco: m.usesTobacco && !options.excludeTobaccoSurcharge && !communityRated,
  }));
  const anchorLabel = ageBandLabel(AGE_CURVE_ANCHOR_AGE);
  return (rateTable) => {
    let sum = 0;
    for (const m of rated) {
      const row = rateTable.ageRates[m.label];
      if (row) {
        sum += pickRate(row, m.wantsTobacco);
        continue;
      }
      const anchor = rateTable.ageRates[anchorLabel];
      if (!anchor) throw new MissingRateError(m.label, `and no age-${AGE_CURVE_ANCHOR_AGE} rate to derive it from`);
      sum += pickRate(anchor, m.wantsTobacco) * ageCurveFactor(state, m.age);
    }
    return sum;
  };
}

/** Single-adult rate of a community-rated plan: its age-21 row, or its one rate when every row is the same. */
export function singleAdultRate(rateTable: RateTable): number {
  const anchor = rateTable.ageRates[ageBandLabel(AGE_CURVE_ANCHOR_AGE)];
  if (anchor) return anchor.individual;
  const distinct = new Set(Object.values(rateTable.ageRates).map((r) => r.individual));
  if (distinct.size === 1) return [...distinct][0];
  throw new MissingRateError(
    ageBandLabel(AGE_CURVE_ANCHOR_AGE),
    "a community-rated plan needs its single-adult (age-21) rate",
  );
}

// ---------------------------------------------------------------------------
// Family tiers (NY, VT).

/** A household's family-tier composition (NY convention; see docs/decisions/016-family-tiers.md). */
export interface FamilyTier {
  /** Tier name when young-adult dependents count as children with the NY rider. */
  tier: FamilyTierName;
  /** Subscriber, spouse, and dependents too old to count as children (30+). */
  adults: number;
  /** Dependents under 26 (everyone, on a child-only policy). */
  children: number;
  /** Dependents aged 26–29 (NY young-adult option). */
  youngAdultDependents: number;
}

function tierName(adults: number, children: number): FamilyTierName {
  if (adults === 0) return "CHILD_ONLY";
  if (adults === 1) return children > 0 ? "ONE_ADULT_AND_CHILDREN" : "ONE_ADULT";
  return children > 0 ? "TWO_ADULTS_AND_CHILDREN" : "TWO_ADULTS";
}

/** Classifies a household into a family tier: adults, children (dependents under 26), young-adult dependents (26–29). */
export function familyTier(members: readonly Member[]): FamilyTier {
  if (members.length === 0) throw new RangeError("a household needs at least one covered member");
  members.forEach((m) => assertAge(m.age));
  if (isChildOnlyPolicy(members)) {
    return { tier: "CHILD_ONLY", adults: 0, children: members.length, youngAdultDependents: 0 };
  }
  let adults = 0;
  let children = 0;
  let youngAdultDependents = 0;
  for (const m of members) {
    const dependent = m.relationship === "child" || m.relationship === "other";
    if (!dependent) adults += 1;
    else if (m.age < FAMILY_TIER_DEPENDENT_CHILD_AGE_LIMIT) children += 1;
    else if (m.age <= YOUNG_ADULT_RIDER_MAX_AGE) youngAdultDependents += 1;
    else adults += 1;
  }
  if (adults === 0) {
    // Only dependents listed, at least one of them 21 or older: the oldest is the subscriber.
    const oldest = Math.max(...members.map((m) => m.age));
    adults = 1;
    if (oldest < FAMILY_TIER_DEPENDENT_CHILD_AGE_LIMIT) children -= 1;
    else youngAdultDependents -= 1;
  }
  return {
    tier: tierName(adults, children + youngAdultDependents),
    adults,
    children,
    youngAdultDependents,
  };
}

/**
 * Monthly household premium in a family-tier state: single-adult rate × tier factor, + the extra-adult
 * factor per adult beyond two, × the NY young-adult rider when a 26–29 dependent is covered.
 */
export function familyTierPremium(
  singleAdultRateMonthly: number,
  tier: FamilyTier,
  stateCode: string,
  coverageYear: number,
): number {
  const f = familyTierFactors(stateCode);
  if (f.validFrom !== null && coverageYear < f.validFrom) {
    throw new MissingParameterError(`${f.state} family-tier factors`, coverageYear, `valid from ${f.validFrom}`);
  }
  const riderApplies =
    tier.youngAdultDependents > 0 && f.youngAdultRider !== null && coverageYear >= f.youngAdultRider.fromYear;
  // Without the rider a 26–29 dependent is simply another adult on the policy.
  const adults = riderApplies ? tier.adults : tier.adults + tier.youngAdultDependents;
  const children = riderApplies ? tier.children + tier.youngAdultDependents : tier.children;
  const name = tier.tier === "CHILD_ONLY" ? "CHILD_ONLY" : tierName(adults, children);
  const base = f.factors[name];
  if (base === undefined) throw new MissingParameterError(`${f.state} family-tier factor`, name);
  const extraAdults = Math.max(0, adults - 2);
  if (extraAdults > 0 && f.extraAdultFactor === null) {
    throw new MissingParameterError(`${f.state} extra-adult tier factor`, coverageYear);
  }
  const factor = base + extraAdults * (f.extraAdultFactor ?? 0);
  const rider = riderApplies && f.youngAdultRider ? f.youngAdultRider.multiplier : 1;
  return singleAdultRateMonthly * factor * rider;
}

// ---------------------------------------------------------------------------
// Benchmark (second-lowest-cost silver plan).

/**
 * Benchmark premium from the household premiums of every silver plan offered: the second-lowest, each
 * plan counted separately (two plans tied for lowest make that price the benchmark); with one silver
 * plan, that plan; with none, null (docs/decisions/015-benchmark-ties.md).
 */
export function benchmarkPremium(silverPlanPremiums: readonly number[]): number | null {
  for (const p of silverPlanPremiums) {
    if (!Number.isFinite(p) || p < 0) throw new RangeError(`silver premium must be a finite amount ≥ 0, got ${p}`);
  }
  const sorted = [...silverPlanPremiums].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  return sorted.length === 1 ? sorted[0] : sorted[1];
}

/** One silver plan offered to the household: its rate table and the EHB share of its premium (default 1). */
export interface SilverPlanRates {
  rateTable: RateTable;
  ehbShare?: number;
}

/**
 * Household benchmark premium (monthly) from the silver plans offered: each plan's household premium
 * without tobacco surcharge × its EHB share (26 CFR 1.36B-3(j)), then the second-lowest.
 */
export function householdBenchmarkPremium(
  silverPlans: readonly SilverPlanRates[],
  members: readonly Member[],
  stateCode: string,
  coverageYear: number,
): number | null {
  const premiums = silverPlans.map(({ rateTable, ehbShare = 1 }) => {
    if (!(ehbShare > 0 && ehbShare <= 1)) throw new RangeError(`EHB share must be in (0, 1], got ${ehbShare}`);
    return householdPremium(rateTable, members, stateCode, coverageYear, { excludeTobaccoSurcharge: true }) * ehbShare;
  });
  return benchmarkPremium(premiums);
}
