// A plan's cost sharing in the words a person reads ("$30 Copay after deductible") and in the
// numbers the yearly estimate reads (./yearly-cost/), from the Benefits and Cost Sharing PUF's
// in-network tier-1 text for the plan's key benefits.

import { parseBenefitCostShare, type PlanCostShare, type ServiceCostShare, type ServiceKind } from "./yearly-cost";

/** What these rules read of one PUF cost-share amount (the plan store's CostShareValue has more). */
interface CostShareText {
  display: string | null;
  notApplicable: boolean;
}

/** A benefit's copay and coinsurance in one network tier, as the PUF states them. */
export interface TierCostShareText {
  copay: CostShareText;
  coinsurance: CostShareText;
  /** The visits' out-of-network cost share, when the PUF states one. */
  outOfNetwork?: { copay: CostShareText; coinsurance: CostShareText };
}

/** The benefits a plan list shows and the yearly estimate prices, by the plan store's key. */
export type KeyBenefitKey =
  | "primaryCare"
  | "specialist"
  | "emergencyRoom"
  | "urgentCare"
  | "genericDrugs"
  | "preferredBrandDrugs"
  | "nonPreferredBrandDrugs"
  | "specialtyDrugs"
  | "imaging"
  | "inpatientStay";

export type KeyBenefitsText = Partial<Record<KeyBenefitKey, TierCostShareText>>;

/** The key benefits a plan list shows, in order, under the answer's names. */
const KEY_BENEFIT_LABELS: ReadonlyArray<[KeyBenefitKey, string]> = [
  ["primaryCare", "primary_care"],
  ["specialist", "specialist"],
  ["genericDrugs", "generic_drugs"],
  ["emergencyRoom", "emergency_room"],
  ["urgentCare", "urgent_care"],
];

/** The key benefit each service of the yearly estimate is priced from. */
const SERVICE_KEYS: Readonly<Record<ServiceKind, KeyBenefitKey>> = {
  primaryCare: "primaryCare",
  specialist: "specialist",
  urgentCare: "urgentCare",
  imaging: "imaging",
  genericDrug: "genericDrugs",
  preferredBrandDrug: "preferredBrandDrugs",
  emergencyRoom: "emergencyRoom",
  inpatientStay: "inpatientStay",
};

/** "$30 Copay after deductible" / "20% Coinsurance" / "No Charge": what a person pays, in the PUF's words. */
export function describeTierCostShare(share: TierCostShareText | undefined): string | null {
  if (!share) return null;
  const parts = [share.copay, share.coinsurance]
    .filter((v) => v.display && !v.notApplicable)
    .map((v) => v.display!.trim());
  if (parts.length === 0) return null;
  // "No Charge" twice says nothing more than once.
  return [...new Set(parts)].join(", ");
}

/** The plan list's `key_benefits`: each shown benefit's words, null when the data does not say. */
export function keyBenefitWords(keyBenefits: KeyBenefitsText): Record<string, string | null> {
  return Object.fromEntries(KEY_BENEFIT_LABELS.map(([key, label]) => [label, describeTierCostShare(keyBenefits[key])]));
}

/**
 * The cost sharing the yearly estimate reads. `complete` is false when a
 * figure it needs is not in the data: an unknown service is assumed to cost
 * the member everything until the deductible is met, then nothing.
 */
export function planCostShareOf(
  deductible: { individual: number | null; family: number | null },
  moop: { individual: number | null; family: number | null },
  keyBenefits: KeyBenefitsText,
): { costShare: PlanCostShare; complete: boolean } {
  let complete = deductible.individual !== null && moop.individual !== null;
  const services = {} as Record<ServiceKind, ServiceCostShare>;
  for (const [service, key] of Object.entries(SERVICE_KEYS) as Array<[ServiceKind, KeyBenefitKey]>) {
    const share = keyBenefits[key];
    const parsed = share ? parseBenefitCostShare(share.copay.display, share.coinsurance.display) : null;
    if (parsed) services[service] = parsed;
    else {
      complete = false;
      services[service] = { copay: 0, coinsurance: 0, subjectToDeductible: true, covered: true };
    }
  }
  return {
    complete,
    costShare: {
      deductible: deductible.individual ?? 0,
      moop: moop.individual ?? 0,
      familyDeductible: deductible.family,
      familyMoop: moop.family,
      services,
    },
  };
}

// ------------------------------------------------------------ cost-share parts, for words in any language

/** When a copay or coinsurance applies, as the PUF's text qualifies it. */
export type CostShareQualifier = "afterDeductible" | "beforeDeductible" | "withDeductible" | "perStay" | "perDay";

/**
 * One part of a PUF cost-share text ("$300 Copay per Stay after deductible, 20% Coinsurance"), as
 * facts a page words in its own language: an amount and its qualifiers. `text` is a part these rules
 * do not read, shown as the data gives it.
 */
export type CostSharePart =
  | { kind: "copay"; dollars: string; qualifiers: CostShareQualifier[] }
  | { kind: "coinsurance"; percent: number; qualifiers: CostShareQualifier[] }
  | { kind: "fullCost" }
  | { kind: "noCharge"; qualifiers: CostShareQualifier[] }
  | { kind: "text"; text: string };

const QUALIFIERS: ReadonlyArray<[RegExp, CostShareQualifier]> = [
  [/^after\s+deductible/i, "afterDeductible"],
  [/^before\s+deductible/i, "beforeDeductible"],
  [/^with\s+deductible/i, "withDeductible"],
  [/^per\s+stay/i, "perStay"],
  [/^per\s+day/i, "perDay"],
];

/** The qualifiers of a part's tail (" per Stay after deductible"), or null when any of it is not one. */
function qualifiersOf(tail: string): CostShareQualifier[] | null {
  const out: CostShareQualifier[] = [];
  let rest = tail.trim();
  while (rest) {
    const hit = QUALIFIERS.find(([pattern]) => pattern.test(rest));
    if (!hit) return null;
    out.push(hit[1]);
    rest = rest.replace(hit[0], "").trim();
  }
  return out;
}

const percentOf = (text: string) => {
  const n = Number(text);
  return Number.isInteger(n) ? n : Number(n.toFixed(2));
};

/**
 * A PUF cost-share text (describeTierCostShare's words) split into parts: "$25" is a copay,
 * a bare "30.00%" coinsurance, a bare "100.00%" the full cost. Empty text has no parts.
 */
export function costShareParts(text: string | null | undefined): CostSharePart[] {
  if (!text || !text.trim()) return [];
  return text.split(/,\s*/).map((raw): CostSharePart => {
    const part = raw.trim();
    if (/^\$[\d,]+(\.\d+)?$/.test(part)) return { kind: "copay", dollars: part, qualifiers: [] };
    const bare = /^(\d+(?:\.\d+)?)%$/.exec(part);
    if (bare)
      return Number(bare[1]) >= 100
        ? { kind: "fullCost" }
        : { kind: "coinsurance", percent: percentOf(bare[1]), qualifiers: [] };
    const coins = /^(\d+(?:\.\d+)?)%\s+coinsurance(.*)$/i.exec(part);
    const coinsQualifiers = coins ? qualifiersOf(coins[2]) : null;
    if (coins && coinsQualifiers)
      return { kind: "coinsurance", percent: percentOf(coins[1]), qualifiers: coinsQualifiers };
    const copay = /^(\$[\d,]+(?:\.\d+)?)\s+copay(.*)$/i.exec(part);
    const copayQualifiers = copay ? qualifiersOf(copay[2]) : null;
    if (copay && copayQualifiers) return { kind: "copay", dollars: copay[1], qualifiers: copayQualifiers };
    const free = /^no charge(.*)$/i.exec(part);
    const freeQualifiers = free ? qualifiersOf(free[1]) : null;
    if (free && freeQualifiers) return { kind: "noCharge", qualifiers: freeQualifiers };
    return { kind: "text", text: part };
  });
}
