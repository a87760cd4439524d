// The shopper's own yearly cost of one plan variant, as a range (docs/yearly-cost.md "Your year"):
// premiums after credit plus the out-of-pocket cost of the usage level's care, the chosen drugs and
// the chosen doctors, priced with the variant's own deductible, out-of-pocket maximum and cost sharing.
//   typical    = 12 × premium after credit + out-of-pocket for the usage level + drugs + doctors
//   bad_year   = the same with the `high` level of care (BAD_YEAR_USAGE)
//   worst_case = 12 × premium after credit + the applicable maximum (family when more than one person
//                is covered). Chosen care outside the plan's cover (drugs not covered, doctors out of
//                network) is counted toward that maximum too (decision 332); parts.outside_max says how
//                much of it there is, which in reality no maximum caps.
// Pure; amounts in full precision inside, rounded to cents once at the end.

import { federalOutOfPocketLimits } from "../parameters";
import { roundCents } from "../pricing";
import {
  BAD_YEAR_USAGE,
  DRUG_TIER_BENEFIT,
  PRICE_PER_FILL,
  UNLISTED_DRUG_TIER,
  VISIT_COST,
  drugTierKind,
  type DoctorKind,
  type DrugTierKind,
} from "./assumptions";
import {
  SERVICE_ALLOWED_COST,
  USAGE_PROFILES,
  type ServiceCostShare,
  type ServiceKind,
  type UsageLevel,
} from "./usage-level";

/** Coverage of a chosen drug or doctor on this plan, as the coverage look-up answers it. */
export type CoverageAnswer = "Covered" | "NotCovered" | "PartialCovered" | "GenericCovered" | "DataNotProvided";

export interface MyDrug {
  rxcui: string;
  fillsPerYear: number;
  coverage: CoverageAnswer;
  /** The plan's formulary tier for it (the generic's, with GenericCovered); null when not stated. */
  tier: string | null;
  /** The tier other plans list it on: the price of a fill when this plan's tier is not known. */
  usualTier?: string | null;
  priorAuthorization?: boolean;
  stepTherapy?: boolean;
  quantityLimit?: boolean;
}

export interface MyDoctor {
  npi: string;
  visitsPerYear: number;
  kind: DoctorKind;
  coverage: CoverageAnswer;
}

/** The variant's cost sharing the model reads; a null limit is one the data does not state. */
export interface MyPlanCostShare {
  deductible: number | null;
  familyDeductible?: number | null;
  moop: number | null;
  familyMoop?: number | null;
  /** In-network cost sharing of the usage level's services (PlanCostShare.services). */
  services: Record<ServiceKind, ServiceCostShare>;
  /** In-network cost sharing by formulary tier, from the benefit rows; a missing tier is not stated. */
  drugTiers: Partial<Record<Exclude<DrugTierKind, "preventive">, ServiceCostShare>>;
  /** Out-of-network cost sharing of a visit; missing = the plan pays nothing out of network. */
  outOfNetwork: Partial<Record<DoctorKind, ServiceCostShare>>;
}

export interface MyYearInput {
  /** Household premium per month after the credit. */
  monthlyPremiumAfterCredit: number;
  costShare: MyPlanCostShare;
  usage: UsageLevel;
  coveredMembers: number;
  planYear: number;
  drugs: readonly MyDrug[];
  doctors: readonly MyDoctor[];
}

export interface DrugPart {
  rxcui: string;
  coverage: CoverageAnswer;
  tier: string | null;
  fills_per_year: number;
  /** Out-of-pocket for the year's fills in a typical year. */
  yearly_cost: number;
  /** False when the plan does not cover it: nothing caps what it costs. */
  counts_toward_max: boolean;
  prior_authorization: boolean;
  step_therapy: boolean;
}

export interface DoctorPart {
  npi: string;
  /** null when the network is not known. */
  in_network: boolean | null;
  kind: DoctorKind;
  visits_per_year: number;
  yearly_cost: number;
  counts_toward_max: boolean;
}

/** Something the figures had to assume; `low`/`high` are the yearly dollars it could take. */
export type Unknown =
  | { kind: "drug_coverage"; rxcui: string; low: number; high: number }
  | { kind: "doctor_network"; npi: string; low: number; high: number }
  | { kind: "drug_tier"; rxcui: string }
  | { kind: "drug_cost_share"; rxcui: string; tier: string }
  | { kind: "deductible" }
  | { kind: "out_of_pocket_max"; assumed: number };

export interface MyYearlyCost {
  typical: number;
  bad_year: number;
  worst_case: number;
  parts: {
    premiums: number;
    drugs: DrugPart[];
    doctors: DoctorPart[];
    other_care: { usage: UsageLevel; yearly_cost: number };
    /** The maximum worst_case adds: the family one when more than one person is covered. */
    out_of_pocket_max: number;
    /** What care outside the plan's cover costs in a bad year, uncapped (0 when all of it is covered). */
    outside_max: number;
  };
  unknowns: Unknown[];
}

/** One priced unit of care: a fill, a visit, a service of the usage level. */
interface Unit {
  cost: number;
  share: ServiceCostShare;
  /** Paid outside the in-network deductible and maximum (not covered, or out of network). */
  outside: boolean;
  part: number;
}

/** What a member pays on `cost` after the deductible: copay, then coinsurance on the rest, never more than the cost. */
function memberShare(cost: number, share: ServiceCostShare): number {
  const afterCopay = Math.max(0, cost - share.copay);
  return Math.min(cost, share.copay + share.coinsurance * afterCopay);
}

interface Limits {
  deductible: number;
  familyDeductible: number;
  moop: number;
  familyMoop: number;
}

/**
 * Walks each member's units in order; returns what is paid per part and in total. Care outside the
 * plan's cover earns no deductible credit but is counted toward the same maximum (decision 332: the
 * figures never pass premiums + the maximum); `outside` is what it would cost uncapped. Only what a
 * member pays is credited to the deductibles (decision 335).
 */
function walk(limits: Limits, members: Unit[][], parts: number): { byPart: number[]; paid: number; outside: number } {
  const byPart = new Array<number>(parts).fill(0);
  let familyDeductibleLeft = limits.familyDeductible;
  let familyMoopLeft = limits.familyMoop;
  let paid = 0;
  let outside = 0;
  for (const units of members) {
    let deductibleLeft = limits.deductible;
    let moopLeft = limits.moop;
    for (const unit of units) {
      if (unit.outside) {
        const full = unit.share.covered === false ? unit.cost : memberShare(unit.cost, unit.share);
        outside += full;
        const owed = Math.min(full, moopLeft, familyMoopLeft);
        moopLeft -= owed;
        familyMoopLeft -= owed;
        paid += owed;
        byPart[unit.part] += owed;
        continue;
      }
      let owed = 0;
      let rest = unit.cost;
      if (unit.share.subjectToDeductible) {
        // Only what the member pays is credited to the deductibles: a member at the maximum pays
        // nothing more, so the family deductible is not credited with care the plan paid for.
        const toDeductible = Math.min(rest, deductibleLeft, familyDeductibleLeft, moopLeft, familyMoopLeft);
        owed += toDeductible;
        rest -= toDeductible;
        deductibleLeft -= toDeductible;
        familyDeductibleLeft -= toDeductible;
      }
      if (rest > 0) owed += memberShare(rest, unit.share);
      owed = Math.min(owed, moopLeft, familyMoopLeft);
      moopLeft -= owed;
      familyMoopLeft -= owed;
      paid += owed;
      byPart[unit.part] += owed;
    }
  }
  return { byPart, paid, outside };
}

const FREE: ServiceCostShare = { copay: 0, coinsurance: 0, subjectToDeductible: false, covered: true };
/** A cost share the data does not state: the member pays until the deductible is met, then nothing (as the usage estimate assumes). */
const UNSTATED: ServiceCostShare = { copay: 0, coinsurance: 0, subjectToDeductible: true, covered: true };
const NOT_COVERED: ServiceCostShare = { copay: 0, coinsurance: 0, subjectToDeductible: false, covered: false };

function assertCount(name: string, n: number, max: number): void {
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new RangeError(`${name} must be a whole number 0-${max}, got ${n}`);
}

/** How one drug is priced on this plan: the tier kind, the fill price, its cost share in network, and whether coverage is known. */
function drugTerms(drug: MyDrug, costShare: MyPlanCostShare) {
  const covered =
    drug.coverage === "Covered" || drug.coverage === "PartialCovered" || drug.coverage === "GenericCovered";
  const ownTier = drugTierKind(drug.tier);
  const tier = ownTier ?? drugTierKind(drug.usualTier) ?? UNLISTED_DRUG_TIER;
  const price = PRICE_PER_FILL[tier];
  const stated = tier === "preventive" ? FREE : costShare.drugTiers[tier];
  return {
    covered,
    known: drug.coverage !== "DataNotProvided",
    ownTier,
    tier,
    price,
    share: stated ?? UNSTATED,
    stated,
  };
}

function visitTerms(doctor: MyDoctor, costShare: MyPlanCostShare) {
  const inNetwork = doctor.coverage === "Covered" || doctor.coverage === "PartialCovered";
  const service: ServiceKind = doctor.kind === "primary" ? "primaryCare" : "specialist";
  return {
    inNetwork,
    known: doctor.coverage !== "DataNotProvided" && doctor.coverage !== "GenericCovered",
    cost: VISIT_COST[doctor.kind],
    share: costShare.services[service],
    outOfNetwork: costShare.outOfNetwork[doctor.kind] ?? NOT_COVERED,
  };
}

/**
 * The chosen care and the usage level's care, unit by unit, for the walk: the first covered member
 * takes the chosen drugs and sees the chosen doctors (fills and visits spread month by month), then
 * every member has the usage level's year. `assume` decides unknown coverage: as covered, or not.
 */
function unitsOf(input: MyYearInput, usage: UsageLevel, assume: "covered" | "not_covered"): Unit[][] {
  const { costShare } = input;
  const drugs = input.drugs.map((drug) => {
    const t = drugTerms(drug, costShare);
    const covered = t.known ? t.covered : assume === "covered";
    return { count: drug.fillsPerYear, cost: t.price, share: covered ? t.share : NOT_COVERED, outside: !covered };
  });
  const doctors = input.doctors.map((doctor) => {
    const t = visitTerms(doctor, costShare);
    const inNetwork = t.known ? t.inNetwork : assume === "covered";
    return {
      count: doctor.visitsPerYear,
      cost: t.cost,
      share: inNetwork ? t.share : t.outOfNetwork,
      outside: !inNetwork,
    };
  });
  const chosen = [...drugs, ...doctors];
  const first: Unit[] = [];
  const most = Math.max(0, ...chosen.map((c) => c.count));
  for (let round = 0; round < most; round++) {
    chosen.forEach((c, part) => {
      if (round < c.count) first.push({ cost: c.cost, share: c.share, outside: c.outside, part });
    });
  }
  const other = chosen.length;
  const members: Unit[][] = [];
  for (let m = 0; m < input.coveredMembers; m++) {
    const units = m === 0 ? first : [];
    for (const { service, count } of USAGE_PROFILES[usage]) {
      const share = costShare.services[service];
      for (let i = 0; i < count; i++)
        units.push({ cost: SERVICE_ALLOWED_COST[service], share, outside: share.covered === false, part: other });
    }
    members.push(units);
  }
  return members;
}

/** The household's limits: unstated ones replaced by the federal maximum (stated in unknowns). */
function limitsOf(input: MyYearInput, unknowns: Unknown[]): Limits & { applicableMax: number } {
  const { costShare, coveredMembers, planYear } = input;
  const federal = federalOutOfPocketLimits(planYear);
  if (costShare.deductible === null) unknowns.push({ kind: "deductible" });
  const moop = costShare.moop ?? federal.selfOnly;
  // ACA §1302(c)(1): the other-than-self-only limit is twice the self-only one (the ratio from the parameter file).
  const familyMoop =
    costShare.familyMoop ?? (costShare.moop === null ? federal.family : moop * (federal.family / federal.selfOnly));
  const applicableMax = coveredMembers > 1 ? familyMoop : moop;
  if (costShare.moop === null) unknowns.push({ kind: "out_of_pocket_max", assumed: applicableMax });
  return {
    deductible: costShare.deductible ?? 0,
    familyDeductible: coveredMembers > 1 ? (costShare.familyDeductible ?? Infinity) : Infinity,
    moop,
    familyMoop: coveredMembers > 1 ? familyMoop : Infinity,
    applicableMax,
  };
}

function checkInput(input: MyYearInput): void {
  if (!Number.isFinite(input.monthlyPremiumAfterCredit) || input.monthlyPremiumAfterCredit < 0)
    throw new RangeError(`monthly premium after credit must be ≥ 0, got ${input.monthlyPremiumAfterCredit}`);
  assertCount("covered members", input.coveredMembers, 100);
  if (input.coveredMembers < 1) throw new RangeError("at least one covered member");
  for (const d of input.drugs) assertCount(`fills a year of ${d.rxcui}`, d.fillsPerYear, 365);
  for (const d of input.doctors) assertCount(`visits a year to ${d.npi}`, d.visitsPerYear, 365);
}

/** The shopper's yearly cost of one plan variant: typical, bad year and worst case, with the parts and what was assumed. */
export function myYearlyCost(input: MyYearInput): MyYearlyCost {
  checkInput(input);
  const unknowns: Unknown[] = [];
  const limits = limitsOf(input, unknowns);
  const partCount = input.drugs.length + input.doctors.length + 1;
  const typicalWalk = walk(limits, unitsOf(input, input.usage, "covered"), partCount);
  const badWalk = walk(limits, unitsOf(input, BAD_YEAR_USAGE, "covered"), partCount);
  const premiums = input.monthlyPremiumAfterCredit * 12;

  // Unknown coverage: priced as covered; the range is what the part costs if it turns out not to be.
  const pessimistic =
    input.drugs.some((d) => d.coverage === "DataNotProvided") ||
    input.doctors.some((d) => d.coverage === "DataNotProvided" || d.coverage === "GenericCovered")
      ? walk(limits, unitsOf(input, input.usage, "not_covered"), partCount)
      : typicalWalk;

  const drugs = input.drugs.map((drug, i): DrugPart => {
    const t = drugTerms(drug, input.costShare);
    if (!t.known)
      unknowns.push({
        kind: "drug_coverage",
        rxcui: drug.rxcui,
        low: roundCents(typicalWalk.byPart[i]),
        high: roundCents(pessimistic.byPart[i]),
      });
    else if (t.covered && t.ownTier === null) unknowns.push({ kind: "drug_tier", rxcui: drug.rxcui });
    if ((t.covered || !t.known) && !t.stated && t.tier !== "preventive")
      unknowns.push({ kind: "drug_cost_share", rxcui: drug.rxcui, tier: DRUG_TIER_BENEFIT[t.tier] });
    return {
      rxcui: drug.rxcui,
      coverage: drug.coverage,
      tier: drug.tier,
      fills_per_year: drug.fillsPerYear,
      yearly_cost: roundCents(typicalWalk.byPart[i]),
      counts_toward_max: t.covered || !t.known,
      prior_authorization: drug.priorAuthorization === true,
      step_therapy: drug.stepTherapy === true,
    };
  });
  const doctors = input.doctors.map((doctor, j): DoctorPart => {
    const i = input.drugs.length + j;
    const t = visitTerms(doctor, input.costShare);
    if (!t.known)
      unknowns.push({
        kind: "doctor_network",
        npi: doctor.npi,
        low: roundCents(typicalWalk.byPart[i]),
        high: roundCents(pessimistic.byPart[i]),
      });
    return {
      npi: doctor.npi,
      in_network: t.known ? t.inNetwork : null,
      kind: doctor.kind,
      visits_per_year: doctor.visitsPerYear,
      yearly_cost: roundCents(typicalWalk.byPart[i]),
      counts_toward_max: t.inNetwork || !t.known,
    };
  });
  // Premiums for the year and out-of-pocket each to the cent, then added: what a person adding them up gets.
  const year = roundCents(premiums);
  return {
    typical: roundCents(year + roundCents(typicalWalk.paid)),
    bad_year: roundCents(year + roundCents(badWalk.paid)),
    worst_case: roundCents(year + roundCents(limits.applicableMax)),
    parts: {
      premiums: year,
      drugs,
      doctors,
      other_care: { usage: input.usage, yearly_cost: roundCents(typicalWalk.byPart[partCount - 1]) },
      out_of_pocket_max: roundCents(limits.applicableMax),
      outside_max: roundCents(badWalk.outside),
    },
    unknowns,
  };
}

/**
 * The same figures for another premium: `withPremiums(myYearlyCost({ ...input, monthlyPremiumAfterCredit: 0 }), p)`
 * equals `myYearlyCost({ ...input, monthlyPremiumAfterCredit: p })` (the out-of-pocket part depends on
 * the cost sharing alone, so a list works it out once per plan variant and household).
 */
export function withPremiums(outOfPocket: MyYearlyCost, monthlyPremiumAfterCredit: number): MyYearlyCost {
  if (outOfPocket.parts.premiums !== 0) throw new RangeError("withPremiums takes a result worked out for a $0 premium");
  const year = roundCents(monthlyPremiumAfterCredit * 12);
  return {
    ...outOfPocket,
    typical: roundCents(year + outOfPocket.typical),
    bad_year: roundCents(year + outOfPocket.bad_year),
    worst_case: roundCents(year + outOfPocket.worst_case),
    parts: { ...outOfPocket.parts, premiums: year },
  };
}
