/**
 * Store rows → the shapes of ./types: cost limits, cost-shares, benefits,
 * SBC examples, key benefits and rate tables. Pure functions of the rows
 * they are given; no SQL here.
 */
import type { benefits, planVariants, sbcScenarios } from "../../../db/plan-store";
import { describeCostShare, STANDARD_COMPONENT_ID, VARIANT_ID } from "../../../db/plan-store-values";
import type { CsrLevel } from "../../domain/eligibility/csr";
import type {
  BenefitDetail,
  CostLimit,
  CostShareValue,
  Deductible,
  KeyBenefits,
  RateTable,
  SbcScenarios,
} from "./types";

export type VariantRow = typeof planVariants.$inferSelect;
export type BenefitRow = typeof benefits.$inferSelect;
export type VariantLimits = Pick<
  VariantRow,
  | "variantId"
  | "planId"
  | "suffix"
  | "csrLevel"
  | "deductibleIndividualRaw"
  | "deductibleIndividual"
  | "deductibleFamilyRaw"
  | "deductibleFamily"
  | "drugDeductibleIndividualRaw"
  | "drugDeductibleIndividual"
  | "drugDeductibleFamilyRaw"
  | "drugDeductibleFamily"
  | "moopIndividualRaw"
  | "moopIndividual"
  | "moopFamilyRaw"
  | "moopFamily"
>;
export type KeyBenefitRow = Pick<
  BenefitRow,
  | "variantId"
  | "benefitName"
  | "copayInnTier1"
  | "copayInnTier1Amount"
  | "coinsInnTier1"
  | "coinsInnTier1Rate"
  | "copayOutOfNet"
  | "copayOutOfNetAmount"
  | "coinsOutOfNet"
  | "coinsOutOfNetRate"
>;

/** A list of ids as the JSON text the `IN (SELECT value FROM json_each(…))` queries take; repeats dropped. */
export const json = (list: readonly string[]) => JSON.stringify([...new Set(list)]);

export function normalizeZip(zip: string | undefined): string | undefined {
  if (zip === undefined) return undefined;
  const m = /^\s*([0-9]{5})(?:-?[0-9]{4})?\s*$/.exec(zip);
  return m ? m[1] : undefined;
}

export function planIdOf(id: string): string | undefined {
  const t = id.trim().toUpperCase();
  if (STANDARD_COMPONENT_ID.test(t)) return t;
  const m = VARIANT_ID.exec(t);
  return m ? m[1] : undefined;
}

export function csrKey(level: number | null): CsrLevel | null {
  return level === 94 ? "94" : level === 87 ? "87" : level === 73 ? "73" : null;
}

export function limitOf(
  individual: number | null,
  individualRaw: string | null,
  family: number | null,
  familyRaw: string | null,
): CostLimit {
  return { individual, family, individualDisplay: individualRaw, familyDisplay: familyRaw };
}

export function deductibleOf(v: VariantLimits): Deductible {
  const d: Deductible = limitOf(
    v.deductibleIndividual,
    v.deductibleIndividualRaw,
    v.deductibleFamily,
    v.deductibleFamilyRaw,
  );
  if (v.drugDeductibleIndividualRaw !== null || v.drugDeductibleFamilyRaw !== null) {
    d.drug = limitOf(
      v.drugDeductibleIndividual,
      v.drugDeductibleIndividualRaw,
      v.drugDeductibleFamily,
      v.drugDeductibleFamilyRaw,
    );
  }
  return d;
}

export function moopOf(v: VariantLimits): CostLimit {
  return limitOf(v.moopIndividual, v.moopIndividualRaw, v.moopFamily, v.moopFamilyRaw);
}

export function costShareValue(raw: string | null, value: number | null): CostShareValue {
  const d = describeCostShare(raw);
  return {
    display: raw,
    value,
    noCharge: d.noCharge,
    afterDeductible: d.afterDeductible,
    notApplicable: d.notApplicable,
  };
}

export function benefitDetail(b: BenefitRow): BenefitDetail {
  const detail: BenefitDetail = {
    name: b.benefitName,
    covered: b.isCovered,
    isEhb: b.isEhb,
    inNetwork: {
      copay: costShareValue(b.copayInnTier1, b.copayInnTier1Amount),
      coinsurance: costShareValue(b.coinsInnTier1, b.coinsInnTier1Rate),
    },
    outOfNetwork: {
      copay: costShareValue(b.copayOutOfNet, b.copayOutOfNetAmount),
      coinsurance: costShareValue(b.coinsOutOfNet, b.coinsOutOfNetRate),
    },
    limit: b.quantLimitOnSvc || b.limitQty !== null ? { quantity: b.limitQty, unit: b.limitUnit } : null,
    exclusions: b.exclusions,
    explanation: b.explanation,
    excludedFromInNetworkMoop: b.isExclFromInnMoop,
    excludedFromOutOfNetworkMoop: b.isExclFromOonMoop,
  };
  if (b.copayInnTier2 !== null || b.coinsInnTier2 !== null) {
    detail.inNetworkTier2 = {
      copay: costShareValue(b.copayInnTier2, b.copayInnTier2Amount),
      coinsurance: costShareValue(b.coinsInnTier2, b.coinsInnTier2Rate),
    };
  }
  return detail;
}

export const KEY_BENEFITS: Array<[keyof KeyBenefits, string]> = [
  ["primaryCare", "primary care visit to treat an injury or illness"],
  ["specialist", "specialist visit"],
  ["emergencyRoom", "emergency room services"],
  ["urgentCare", "urgent care centers or facilities"],
  ["genericDrugs", "generic drugs"],
  ["preferredBrandDrugs", "preferred brand drugs"],
  ["nonPreferredBrandDrugs", "non-preferred brand drugs"],
  ["specialtyDrugs", "specialty drugs"],
  ["imaging", "x-rays and diagnostic imaging"],
  ["inpatientStay", "inpatient hospital services (e.g., hospital stay)"],
];

export const KEY_BENEFIT_NAMES = JSON.stringify(KEY_BENEFITS.map(([, name]) => name));

export function keyBenefitsOf(rows: KeyBenefitRow[]): KeyBenefits {
  const out: KeyBenefits = {};
  for (const [key, name] of KEY_BENEFITS) {
    const b = rows.find((r) => r.benefitName.trim().toLowerCase() === name);
    if (!b) continue;
    out[key] = {
      copay: costShareValue(b.copayInnTier1, b.copayInnTier1Amount),
      coinsurance: costShareValue(b.coinsInnTier1, b.coinsInnTier1Rate),
    };
    // Out of network: read for the visits a chosen doctor is priced at (docs/yearly-cost.md, "Doctors").
    if ((key === "primaryCare" || key === "specialist") && (b.copayOutOfNet !== null || b.coinsOutOfNet !== null))
      out[key].outOfNetwork = {
        copay: costShareValue(b.copayOutOfNet, b.copayOutOfNetAmount),
        coinsurance: costShareValue(b.coinsOutOfNet, b.coinsOutOfNetRate),
      };
  }
  return out;
}

const SCENARIO_KEYS = {
  having_a_baby: "havingABaby",
  managing_diabetes: "managingDiabetes",
  simple_fracture: "simpleFracture",
} as const;

export function sbcOf(rows: Array<typeof sbcScenarios.$inferSelect>): SbcScenarios {
  const out: SbcScenarios = {};
  for (const r of rows) {
    const parts = [r.deductible, r.copayment, r.coinsurance, r.limit];
    out[SCENARIO_KEYS[r.scenario]] = {
      deductible: r.deductible,
      copayment: r.copayment,
      coinsurance: r.coinsurance,
      limit: r.limit,
      total: parts.every((p) => p !== null) ? (parts as number[]).reduce((a, b) => a + b, 0) : null,
    };
  }
  return out;
}

export const URL_KEYS = {
  summary_of_benefits: "summaryOfBenefits",
  formulary: "formulary",
  provider_directory: "providerDirectory",
  brochure: "brochure",
  enrollment: "enrollment",
} as const;

/** The variant the plan's list-level fields come from: -01, else the lowest on-exchange suffix, else any. */
export function baseVariant<V extends { suffix: string }>(variants: V[]): V | undefined {
  const sorted = [...variants].sort((a, b) => a.suffix.localeCompare(b.suffix));
  return sorted.find((v) => v.suffix === "01") ?? sorted.find((v) => v.suffix !== "00") ?? sorted[0];
}

export function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}

/** A rate row as read by `.values()`, in the order of RATE_COLUMNS (./queries.server.ts). */
export type RateValues = [
  string,
  number,
  string,
  string,
  number,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
];

/** Rate rows → per plan, per rating area: age rates and family tiers (the earliest effective date wins). */
export function rateTablesFrom(rows: RateValues[]): Map<string, Map<number, RateTable>> {
  const out = new Map<string, Map<number, RateTable>>();
  for (const [planId, area, ageBand, tobacco, individual, tobaccoRate, couple, p1, p2, p3, c1, c2, c3] of rows) {
    let byArea = out.get(planId);
    if (!byArea) out.set(planId, (byArea = new Map()));
    let table = byArea.get(area);
    if (!table) byArea.set(area, (table = { ageRates: {} }));
    if (ageBand === "Family Option") {
      table.familyTiers ??= {
        individual,
        couple,
        primarySubscriberAndOneDependent: p1,
        primarySubscriberAndTwoDependents: p2,
        primarySubscriberAndThreeOrMoreDependents: p3,
        coupleAndOneDependent: c1,
        coupleAndTwoDependents: c2,
        coupleAndThreeOrMoreDependents: c3,
      };
    } else if (!(ageBand in table.ageRates)) {
      // Without tobacco rating everyone pays the one rate (puf-formats.md §4).
      table.ageRates[ageBand] = {
        individual,
        tobacco: tobacco === "no_preference" ? (tobaccoRate ?? individual) : tobaccoRate,
      };
    }
  }
  return out;
}
