// Estimated yearly cost of a plan for a usage level: premium after credit × 12 plus the
// out-of-pocket cost of a fixed year of care priced with the plan's own cost sharing, capped at
// the plan's out-of-pocket maximum. The method and its assumptions: docs/yearly-cost.md.

import { federalOutOfPocketLimits } from "../parameters";

/** How much care a household member uses in a year (the plans API's `usage`; its schema is built from this list). */
export const USAGE_LEVELS = ["low", "medium", "high"] as const;
export type UsageLevel = (typeof USAGE_LEVELS)[number];

/** The services a usage profile is made of (one BenCS PUF benefit each; see SERVICE_BENEFIT_NAMES). */
export type ServiceKind =
  | "primaryCare"
  | "specialist"
  | "urgentCare"
  | "imaging"
  | "genericDrug"
  | "preferredBrandDrug"
  | "emergencyRoom"
  | "inpatientStay";

/** The Benefits and Cost Sharing PUF benefit name each service is read from. */
export const SERVICE_BENEFIT_NAMES: Readonly<Record<ServiceKind, string>> = {
  primaryCare: "Primary Care Visit to Treat an Injury or Illness",
  specialist: "Specialist Visit",
  urgentCare: "Urgent Care Centers or Facilities",
  imaging: "X-rays and Diagnostic Imaging",
  genericDrug: "Generic Drugs",
  preferredBrandDrug: "Preferred Brand Drugs",
  emergencyRoom: "Emergency Room Services",
  inpatientStay: "Inpatient Hospital Services (e.g., Hospital Stay)",
};

/**
 * Assumed allowed (negotiated) cost of one unit of each service: a visit, a 30-day fill, an ER
 * visit, a hospital stay. These are our round-number assumptions, not a published price list; they
 * are sized so that a year of care lands in the range of the CMS Summary of Benefits and Coverage
 * examples (total example costs about $2,800 for a simple fracture, $5,600 for a year of managing
 * type 2 diabetes, $12,700 for having a baby). See docs/yearly-cost.md; change them here only.
 */
export const SERVICE_ALLOWED_COST: Readonly<Record<ServiceKind, number>> = {
  primaryCare: 150,
  specialist: 250,
  urgentCare: 200,
  imaging: 300,
  genericDrug: 15,
  preferredBrandDrug: 300,
  emergencyRoom: 2000,
  inpatientStay: 15000,
};

/** One line of a usage profile: how many units of a service a member uses in the year. */
export interface UsageLine {
  service: ServiceKind;
  count: number;
}

/**
 * Care per covered member per year, by level, in the order the year is assumed to unfold (routine
 * care and prescriptions first, the acute event last). Our assumptions (docs/yearly-cost.md):
 * low = one sick visit and a short generic prescription; medium = a few visits, one specialist
 * referral with imaging, an urgent-care visit and a monthly generic; high = a chronic condition
 * (monthly specialist care, two generics and a brand drug) plus an ER visit and a hospital stay.
 */
export const USAGE_PROFILES: Readonly<Record<UsageLevel, readonly UsageLine[]>> = {
  low: [
    { service: "primaryCare", count: 1 },
    { service: "genericDrug", count: 2 },
  ],
  medium: [
    { service: "primaryCare", count: 3 },
    { service: "specialist", count: 2 },
    { service: "urgentCare", count: 1 },
    { service: "imaging", count: 1 },
    { service: "genericDrug", count: 12 },
  ],
  high: [
    { service: "primaryCare", count: 6 },
    { service: "specialist", count: 6 },
    { service: "urgentCare", count: 1 },
    { service: "imaging", count: 3 },
    { service: "genericDrug", count: 24 },
    { service: "preferredBrandDrug", count: 12 },
    { service: "emergencyRoom", count: 1 },
    { service: "inpatientStay", count: 1 },
  ],
};

/** A plan's in-network cost sharing for one service (copay and/or coinsurance, before or after the deductible). */
export interface ServiceCostShare {
  /** Dollar copay per unit (0 when none). */
  copay: number;
  /** Coinsurance as a decimal (0.3 = 30%; 0 when none), applied to the allowed cost after any copay. */
  coinsurance: number;
  /** True when the member pays the full allowed cost until the deductible is met ("after deductible"). */
  subjectToDeductible: boolean;
  /** False when the plan does not cover the service: the member pays all of it, outside the MOOP. */
  covered?: boolean;
}

/** The plan cost sharing the yearly estimate reads (in-network, tier 1). */
export interface PlanCostShare {
  /** Individual (per-person) deductible in dollars. */
  deductible: number;
  /** Individual (per-person) out-of-pocket maximum in dollars. */
  moop: number;
  /** Family deductible; null/absent means each member meets only their own. */
  familyDeductible?: number | null;
  /** Family out-of-pocket maximum; null/absent means the federal family/self-only ratio × moop. */
  familyMoop?: number | null;
  services: Record<ServiceKind, ServiceCostShare>;
}

/** Input of estimateYearlyCost. */
export interface YearlyCostInput {
  /** Household premium per month after the credit (netPremium), full precision. */
  monthlyPremiumAfterCredit: number;
  costShare: PlanCostShare;
  usage: UsageLevel;
  /** Covered members; each is assumed to use the chosen level of care (default 1). */
  coveredMembers?: number;
  /** Plan year; needed only to derive a family MOOP the plan does not state. */
  planYear?: number;
}

/** The yearly estimate, in full precision (round at the edge). */
export interface YearlyCostEstimate {
  usage: UsageLevel;
  premiumYearly: number;
  outOfPocketYearly: number;
  totalYearly: number;
  /** True when the out-of-pocket maximum (individual or family) capped the estimate. */
  reachedOutOfPocketMax: boolean;
  /** Assumed allowed cost of the year's care for the household, before cost sharing. */
  allowedCostYearly: number;
}

function assertAmount(name: string, x: number): void {
  if (!Number.isFinite(x) || x < 0) throw new RangeError(`${name} must be a finite amount ≥ 0, got ${x}`);
}

function memberShare(cost: number, share: ServiceCostShare): number {
  // Coinsurance applies to what is left after the copay; the member never pays more than the cost.
  const afterCopay = Math.max(0, cost - share.copay);
  return Math.min(cost, share.copay + share.coinsurance * afterCopay);
}

/**
 * Expected out-of-pocket cost for a year of care at a usage level: each member walks through the
 * profile; deductible-first services consume the (individual, then family) deductible; everything the
 * member pays for covered care counts toward the individual and family out-of-pocket maxima.
 */
export function expectedOutOfPocket(
  costShare: PlanCostShare,
  usage: UsageLevel,
  coveredMembers = 1,
  planYear?: number,
): { outOfPocket: number; reachedOutOfPocketMax: boolean; allowedCost: number } {
  assertAmount("deductible", costShare.deductible);
  assertAmount("out-of-pocket maximum", costShare.moop);
  if (!Number.isInteger(coveredMembers) || coveredMembers < 1) {
    throw new RangeError(`covered members must be a whole number ≥ 1, got ${coveredMembers}`);
  }
  let familyMoop = costShare.familyMoop ?? null;
  if (familyMoop === null && coveredMembers > 1) {
    if (planYear === undefined) throw new RangeError("planYear is needed to derive a family out-of-pocket maximum");
    // ACA §1302(c)(1): the other-than-self-only limit is twice the self-only limit; take the ratio from the file.
    const limits = federalOutOfPocketLimits(planYear);
    familyMoop = costShare.moop * (limits.family / limits.selfOnly);
  }
  let familyMoopLeft = familyMoop ?? Infinity;
  let familyDeductibleLeft = costShare.familyDeductible ?? Infinity;
  let total = 0;
  let allowed = 0;
  let capped = false;

  for (let member = 0; member < coveredMembers; member++) {
    let deductibleLeft = costShare.deductible;
    let moopLeft = costShare.moop;
    for (const { service, count } of USAGE_PROFILES[usage]) {
      const share = costShare.services[service];
      if (!share) throw new RangeError(`plan cost share is missing service "${service}"`);
      assertAmount(`${service} copay`, share.copay);
      if (!(share.coinsurance >= 0 && share.coinsurance <= 1)) {
        throw new RangeError(`${service} coinsurance must be between 0 and 1, got ${share.coinsurance}`);
      }
      const cost = SERVICE_ALLOWED_COST[service];
      for (let unit = 0; unit < count; unit++) {
        allowed += cost;
        if (share.covered === false) {
          total += cost; // not covered: paid in full and not counted toward the MOOP
          continue;
        }
        let owed = 0;
        let rest = cost;
        const room = Math.min(moopLeft, familyMoopLeft);
        if (share.subjectToDeductible) {
          // Only what the member pays counts toward the deductibles: a member at the maximum pays
          // nothing more, so the family deductible is not credited with care the plan paid for.
          const toDeductible = Math.min(rest, deductibleLeft, familyDeductibleLeft, room);
          owed += toDeductible;
          rest -= toDeductible;
          deductibleLeft -= toDeductible;
          familyDeductibleLeft -= toDeductible;
        }
        if (rest > 0) owed += memberShare(rest, share);
        if (owed > room) {
          owed = room;
          capped = true;
        }
        moopLeft -= owed;
        familyMoopLeft -= owed;
        total += owed;
      }
    }
  }
  return { outOfPocket: total, reachedOutOfPocketMax: capped, allowedCost: allowed };
}

/** Estimated yearly cost: premium after credit × 12 + expected out-of-pocket for the usage level. */
export function estimateYearlyCost(input: YearlyCostInput): YearlyCostEstimate {
  assertAmount("monthly premium after credit", input.monthlyPremiumAfterCredit);
  const oop = expectedOutOfPocket(input.costShare, input.usage, input.coveredMembers ?? 1, input.planYear);
  const premiumYearly = input.monthlyPremiumAfterCredit * 12;
  return {
    usage: input.usage,
    premiumYearly,
    outOfPocketYearly: oop.outOfPocket,
    totalYearly: premiumYearly + oop.outOfPocket,
    reachedOutOfPocketMax: oop.reachedOutOfPocketMax,
    allowedCostYearly: oop.allowedCost,
  };
}

// ---------------------------------------------------------------------------
// Reading BenCS PUF cost-share text ("$20", "$250 Copay after deductible", "30.00% Coinsurance
// after deductible", "No Charge", "Not Applicable"; puf-formats.md §5).

const NOT_APPLICABLE = /^(not applicable|n\/a)?$/i;

interface ParsedPart {
  amount: number;
  afterDeductible: boolean;
}

function parsePart(text: string | null | undefined, kind: "copay" | "coinsurance"): ParsedPart | null | "invalid" {
  const t = (text ?? "").trim();
  if (NOT_APPLICABLE.test(t)) return null;
  const afterDeductible = /after deductible/i.test(t);
  if (/^no charge/i.test(t)) return { amount: 0, afterDeductible };
  const m = kind === "copay" ? /^\$\s*([\d,]+(?:\.\d+)?)/.exec(t) : /^([\d.]+)\s*%/.exec(t);
  if (!m) return "invalid";
  const n = Number(m[1].replace(/,/g, ""));
  if (!Number.isFinite(n)) return "invalid";
  return { amount: kind === "copay" ? n : n / 100, afterDeductible };
}

/**
 * Cost share of one BenCS PUF benefit from its in-network tier-1 copay and coinsurance text; null when
 * the text cannot be read (the caller decides how to report an unknown cost share).
 */
export function parseBenefitCostShare(
  copayText: string | null | undefined,
  coinsuranceText: string | null | undefined,
  isCovered = true,
): ServiceCostShare | null {
  if (!isCovered) return { copay: 0, coinsurance: 0, subjectToDeductible: false, covered: false };
  const copay = parsePart(copayText, "copay");
  const coins = parsePart(coinsuranceText, "coinsurance");
  if (copay === "invalid" || coins === "invalid") return null;
  if (copay === null && coins === null) return null;
  return {
    copay: copay?.amount ?? 0,
    coinsurance: coins?.amount ?? 0,
    subjectToDeductible: Boolean(copay?.afterDeductible || coins?.afterDeductible),
    covered: true,
  };
}
