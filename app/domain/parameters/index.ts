// Typed, year-aware accessors over the ACA parameter file.
//
// Every number the eligibility and rating code uses comes from the parameter tree in this folder
// (one block per file, registered in ./registry.ts), read only through parameter()
// (./parameter-file.ts), which validates it at load; these functions know each value's meaning, not the file's layout.
// See docs/reference/eligibility-rules.md for the rules and caveats.
// A year that the file does not hold raises MissingParameterError rather than
// silently borrowing a neighbouring year (docs/decisions/010-parameter-lookups.md).

import type { CsrLevel } from "../eligibility/csr";
import { MissingParameterError, parameter, parameterEntry, parameterKeys } from "./parameter-file";

export { MissingParameterError } from "./parameter-file";

// ---------------------------------------------------------------------------
// Small helpers.

const STATE_CODE = /^[A-Z]{2}$/;

/** Normalises a two-letter USPS state code (upper-case) and rejects anything else. */
export function normaliseStateCode(stateCode: string): string {
  const code = stateCode.trim().toUpperCase();
  if (!STATE_CODE.test(code)) throw new RangeError(`not a two-letter state code: "${stateCode}"`);
  return code;
}

/** Converts an FPL fraction from the file (1.38) to whole percent (138), exactly. */
export function fractionToPercent(fraction: number): number {
  return Math.round(fraction * 100);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Validates an ISO calendar date (YYYY-MM-DD) and returns its year. */
export function isoDateYear(isoDate: string): number {
  const m = ISO_DATE.exec(isoDate);
  if (!m) throw new RangeError(`not an ISO calendar date (YYYY-MM-DD): "${isoDate}"`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) {
    throw new RangeError(`not a real calendar date: "${isoDate}"`);
  }
  return y;
}

// ---------------------------------------------------------------------------
// Poverty guidelines (HHS; 26 CFR 1.36B-1(h)).

/** Years for which the file holds HHS poverty guidelines. */
export function guidelineYears(): number[] {
  return parameterKeys("povertyGuidelines").map(Number);
}

/** HHS poverty guideline in dollars for a household: base + perAdditional × (size − 1), AK/HI own columns. */
export function povertyGuideline(guidelineYear: number, stateCode: string, householdSize: number): number {
  if (!Number.isInteger(householdSize) || householdSize < 1) {
    throw new RangeError(`household size must be a whole number of at least 1, got ${householdSize}`);
  }
  const table = parameter("povertyGuidelines", guidelineYear);
  const state = normaliseStateCode(stateCode);
  const column = state === "AK" ? table.AK : state === "HI" ? table.HI : table.contiguous;
  return column.base + column.perAdditional * (householdSize - 1);
}

/** Guideline year used for the premium tax credit and CSR of a coverage year (the prior year's guidelines). */
export function ptcGuidelineYear(coverageYear: number): number {
  return parameter("ptcGuidelineYear", coverageYear);
}

/**
 * Guideline year that Medicaid/CHIP and the NY Essential Plan use on a coverage date: the
 * current calendar year's guidelines, or the previous year's while the current ones are not yet
 * in the file (HHS publishes in mid-January; docs/decisions/011-current-year-guideline.md).
 */
export function currentGuidelineYear(coverageDate: string): number {
  const year = isoDateYear(coverageDate);
  const loaded = guidelineYears();
  if (loaded.includes(year)) return year;
  if (loaded.includes(year - 1)) return year - 1;
  throw new MissingParameterError("current-year poverty guidelines", year, `coverage date ${coverageDate}`);
}

// ---------------------------------------------------------------------------
// Applicable percentage (26 USC 36B(b)(3)(A); 26 CFR 1.36B-3(g); Rev. Procs.).

/** One band of the applicable-percentage table, in FPL fractions and decimal percentages. */
export interface ApplicablePercentageBand {
  fromFpl: number;
  toFpl: number | null;
  initial: number;
  final: number;
}

/** The applicable-percentage table of one coverage year, with its credit floor and 400% cliff. */
export interface ApplicablePercentageTable {
  coverageYear: number;
  bands: ApplicablePercentageBand[];
  /** No credit below this FPL fraction (36B(c)(1)(A)). */
  minFplForCredit: number;
  /** No credit above this FPL fraction when cliffAbove400 is set; null when there is no cap. */
  maxFplForCredit: number | null;
  maxInclusive: boolean;
  cliffAbove400: boolean;
  source: string;
}

/** The applicable-percentage table for a coverage year (a `sameAs` year answers its base's table), or MissingParameterError. */
export function applicablePercentageTable(coverageYear: number): ApplicablePercentageTable {
  // Read for every credit test and income line of every household: made once per year, frozen and
  // shared (the file never changes after load; a year it lacks throws again every time).
  const known = percentageTables.get(coverageYear);
  if (known) return known;
  const made = makeApplicablePercentageTable(coverageYear);
  for (const band of made.bands) Object.freeze(band);
  Object.freeze(made.bands);
  percentageTables.set(coverageYear, Object.freeze(made));
  return made;
}

const percentageTables = new Map<number, ApplicablePercentageTable>();

function makeApplicablePercentageTable(coverageYear: number): ApplicablePercentageTable {
  const { value: table, reference } = parameterEntry("applicablePercentage", coverageYear);
  const cliffAbove400 = table.cliffAbove400;
  // A year without the cliff has no upper limit whatever the table says.
  const maxFplForCredit = cliffAbove400 ? table.maxFplForCredit : null;
  if (cliffAbove400 && maxFplForCredit === null) {
    throw new MissingParameterError("maxFplForCredit", coverageYear, "cliffAbove400 is set without a limit");
  }
  return {
    coverageYear,
    bands: table.bands.map((b) => ({ ...b })),
    minFplForCredit: table.minFplForCredit,
    maxFplForCredit,
    maxInclusive: table.maxInclusive ?? true,
    cliffAbove400,
    source: reference,
  };
}

// ---------------------------------------------------------------------------
// Cost-sharing reductions (45 CFR 155.305(g); AV 45 CFR 156.420(a)).

/** One CSR income band in FPL fractions; the lower edge is inclusive or exclusive as the rule says. */
export interface CsrBand {
  variant: CsrLevel;
  actuarialValue: number;
  lowerFpl: number;
  lowerInclusive: boolean;
  upperFpl: number;
}

/** CSR income bands (unchanged 2014 through 2027: the block holds one entry, so no year is asked). */
export function csrBands(): CsrBand[] {
  return parameter("csrBands").map((b) => {
    const lowerInclusive = b.fplAtLeast !== undefined;
    const lowerFpl = b.fplAtLeast ?? b.fplAbove;
    if (lowerFpl === undefined) throw new MissingParameterError("CSR band lower edge", b.variant);
    return { variant: b.variant, actuarialValue: b.avPercent, lowerFpl, lowerInclusive, upperFpl: b.fplAtMost };
  });
}

// ---------------------------------------------------------------------------
// Medicaid expansion and the coverage gap (42 USC 1396a; KFF status page, Jan 2026).

/** The uniform adult Medicaid expansion line as an FPL fraction (1.38 = 133% + 5-point disregard). */
export function medicaidExpansionThresholdFpl(): number {
  return parameter("medicaidExpansionThreshold");
}

/**
 * States that have not expanded Medicaid for a coverage year. The list is effective-dated: an entry
 * keyed 2026 holds from 2026 until a later entry replaces it; a year before the first entry is missing.
 */
export function nonExpansionStates(coverageYear: number): readonly string[] {
  return parameter("medicaidNonExpansionStates", coverageYear).states;
}

/** True when the state has adopted the ACA Medicaid expansion for the coverage year. */
export function isMedicaidExpansionState(stateCode: string, coverageYear: number): boolean {
  return !nonExpansionStates(coverageYear).includes(normaliseStateCode(stateCode));
}

// Wisconsin is not an ACA expansion state but its Medicaid covers adults up to the PTC floor
// (100% FPL), so nobody there falls into the coverage gap. The file records this only as the
// prose note on WI in the medicaidNonExpansionStates block, so the state list lives here; a unit test
// checks that every state listed has that note (docs/decisions/013-wisconsin-medicaid.md).
const MEDICAID_TO_CREDIT_FLOOR_STATES: readonly string[] = ["WI"];

/** Non-expansion states whose Medicaid covers adults below the PTC floor, so they have no coverage gap. */
export function medicaidToCreditFloorStates(): readonly string[] {
  return MEDICAID_TO_CREDIT_FLOOR_STATES;
}

/** The file's prose notes on non-expansion states (WI, GA), from the list in force for the year. */
export function nonExpansionStateNotes(coverageYear: number): Readonly<Record<string, string>> {
  return parameter("medicaidNonExpansionStates", coverageYear).notes;
}

// ---------------------------------------------------------------------------
// NY Essential Plan (BHP / 1332 waiver periods).

/** The state whose Essential Plan the parameter file describes. */
export const ESSENTIAL_PLAN_STATE = "NY";

/** One period of the NY Essential Plan income limit. */
export interface EssentialPlanPeriod {
  from: string;
  to: string | null;
  authority: string;
  upperFpl: number;
}

/** The NY Essential Plan income limit in force on a coverage date (200% / 250% / 200% from 2026-07-01). */
export function essentialPlanPeriodOn(coverageDate: string): EssentialPlanPeriod {
  isoDateYear(coverageDate);
  const { key: from, value } = parameterEntry("nyEssentialPlanIncomeLimit", coverageDate);
  // A limit holds until the day before the next one takes effect.
  const next = parameterKeys("nyEssentialPlanIncomeLimit").find((k) => k > from);
  const to = next === undefined ? null : dayBefore(next);
  return { from, to, authority: value.authority, upperFpl: value.upperFpl };
}

function dayBefore(isoDate: string): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** Inclusive age range [min, max] of Essential Plan eligibility (19–64). */
export function essentialPlanAgeRange(): readonly [number, number] {
  return parameter("nyEssentialPlanAgeRange");
}

/** Monthly Essential Plan premium (believed $0 after July 2026; unverified, see the file). */
export function essentialPlanPremiumMonthly(): number {
  return parameter("nyEssentialPlanPremium");
}

// ---------------------------------------------------------------------------
// Age rating (45 CFR 147.102(d)-(e); CMS default curve and state curves).

// Fixed by regulation rather than by year, so not in the year-keyed file as numbers:
// children are people under 21, and only the three oldest covered children under 21 are
// rated (45 CFR 147.102(c)(1); CMS 2023 PUF FAQ).
/** Age below which a covered child counts toward the three-children rule. */
export const CHILD_RATING_AGE_LIMIT = 21;
/** Most children under 21 whose premiums are taken into account. */
export const MAX_RATED_CHILDREN = 3;
/** Age whose rate anchors every curve (factor 1.000). */
export const AGE_CURVE_ANCHOR_AGE = 21;

interface AgeRangeFactor {
  from: number;
  to: number; // inclusive; Infinity for "64+"
  factor: number;
}

function parseCurve(raw: Record<string, number>, name: string): AgeRangeFactor[] {
  const ranges = Object.entries(raw).map(([label, factor]) => {
    let m: RegExpExecArray | null;
    if ((m = /^(\d+)-(\d+)$/.exec(label))) return { from: Number(m[1]), to: Number(m[2]), factor };
    if ((m = /^(\d+)\+$/.exec(label))) return { from: Number(m[1]), to: Infinity, factor };
    if ((m = /^(\d+)$/.exec(label))) return { from: Number(m[1]), to: Number(m[1]), factor };
    throw new MissingParameterError("age-curve label", label, `unreadable label in ${name}`);
  });
  return ranges.sort((a, b) => a.from - b.from);
}

const curveCache = new Map<string, AgeRangeFactor[]>();

function curveFor(key: string, raw: Record<string, number>): AgeRangeFactor[] {
  let curve = curveCache.get(key);
  if (!curve) {
    curve = parseCurve(raw, key);
    curveCache.set(key, curve);
  }
  return curve;
}

/** States with no age rating (community rated: NY, VT). */
export function isCommunityRated(stateCode: string): boolean {
  return parameter("ageRatingExemptStates").includes(normaliseStateCode(stateCode));
}

/** True when the state has its own age curve in the file (AL, DC, MA, MN, MS, OR, UT). */
export function stateUsesOwnAgeCurve(stateCode: string): boolean {
  return normaliseStateCode(stateCode) in parameter("ageCurveStateSpecific");
}

/** Which curve rates ages in a state: "none" (community rated), the state's own, or the federal default. */
export function ageCurveKind(stateCode: string): "none" | "state" | "federalDefault" {
  if (isCommunityRated(stateCode)) return "none";
  return stateUsesOwnAgeCurve(stateCode) ? "state" : "federalDefault";
}

/** Age factor for a state's curve relative to that curve's age-21 factor (1.0 where ages are not rated). */
export function ageCurveFactor(stateCode: string, age: number): number {
  if (!Number.isInteger(age) || age < 0) throw new RangeError(`age must be a whole number ≥ 0, got ${age}`);
  const state = normaliseStateCode(stateCode);
  const kind = ageCurveKind(state);
  if (kind === "none") return 1;
  const curve =
    kind === "state"
      ? curveFor(state, parameter("ageCurveStateSpecific")[state])
      : curveFor("federalDefault", parameter("ageCurveFederalDefault"));
  const lookup = (a: number): number => {
    const band = curve.find((r) => a >= r.from && a <= r.to);
    if (!band) throw new MissingParameterError("age-curve factor", `${state} age ${a}`);
    return band.factor;
  };
  // DC's published curve is not anchored at 21 = 1.0; dividing by the age-21 factor uses ratios only.
  return lookup(age) / lookup(AGE_CURVE_ANCHOR_AGE);
}

// ---------------------------------------------------------------------------
// Family tiers (community-rated states; CMS State Specific Rating Variations via PolicyEngine).

/** Family-tier names used by NY and VT. */
export type FamilyTierName =
  "ONE_ADULT" | "TWO_ADULTS" | "ONE_ADULT_AND_CHILDREN" | "TWO_ADULTS_AND_CHILDREN" | "CHILD_ONLY";

/** Tier factors of one family-tier state, applied to the single-adult rate. */
export interface FamilyTierFactors {
  state: string;
  factors: Partial<Record<FamilyTierName, number>>;
  /** Factor each adult beyond two adds (PolicyEngine convention), or null when the file gives none. */
  extraAdultFactor: number | null;
  /** NY young-adult (26–29 dependent) rider, or null. */
  youngAdultRider: { multiplier: number; fromYear: number } | null;
  validFrom: number | null;
  source: string;
}

// Ages written in the file's prose (the notes of the familyTiers and nyYoungAdultRider blocks):
// dependents under 26 count as children; a dependent aged 26–29 triggers NY's young-adult rider.
/** Dependents younger than this count as children for family tiers. */
export const FAMILY_TIER_DEPENDENT_CHILD_AGE_LIMIT = 26;
/** Oldest age covered by NY's young-adult rider (a dependent aged 26 through this age). */
export const YOUNG_ADULT_RIDER_MAX_AGE = 29;

/** True when the state prices households by family tier rather than by summing members. */
export function usesFamilyTiers(stateCode: string): boolean {
  return normaliseStateCode(stateCode) in parameter("familyTiers");
}

/** Family-tier factors for a state, or MissingParameterError when the state has none. */
export function familyTierFactors(stateCode: string): FamilyTierFactors {
  const state = normaliseStateCode(stateCode);
  const { key, value: tiers, reference } = parameterEntry("familyTiers");
  const raw = tiers[state];
  if (!raw) throw new MissingParameterError("family-tier factors", state);
  const factors: Partial<Record<FamilyTierName, number>> = {
    ONE_ADULT: raw.ONE_ADULT,
    TWO_ADULTS: raw.TWO_ADULTS,
    ONE_ADULT_AND_CHILDREN: raw.ONE_ADULT_AND_CHILDREN,
    TWO_ADULTS_AND_CHILDREN: raw.TWO_ADULTS_AND_CHILDREN,
  };
  if (raw.CHILD_ONLY !== undefined) factors.CHILD_ONLY = raw.CHILD_ONLY;
  const rider = state === "NY" ? parameterEntry("nyYoungAdultRider") : null;
  return {
    state,
    factors,
    extraAdultFactor: raw.extraAdultBeyondTwo ?? null,
    youngAdultRider: rider ? { multiplier: rider.value, fromYear: Number(rider.key) } : null,
    validFrom: Number(key),
    source: reference,
  };
}

// ---------------------------------------------------------------------------
// Federal maximum out-of-pocket limits (used for the family MOOP when a plan gives none).

/** Federal self-only and other-than-self-only out-of-pocket limits for a plan year. */
export function federalOutOfPocketLimits(planYear: number): { selfOnly: number; family: number } {
  const limits = parameter("maxOutOfPocket", planYear);
  return { selfOnly: limits.selfOnly, family: limits.otherThanSelfOnly };
}
