// The cost sharing "your year" reads (./my-year.ts), from a plan variant's deductible, maximum and
// key benefits as the Benefits and Cost Sharing PUF states them (docs/yearly-cost.md "Your year").

import { planCostShareOf, type KeyBenefitKey, type KeyBenefitsText } from "../cost-share";
import type { DoctorKind, DrugTierKind } from "./assumptions";
import type { MyPlanCostShare } from "./my-year";
import { parseBenefitCostShare, type ServiceCostShare } from "./usage-level";

/** The benefit row each formulary tier is priced from (assumptions.ts DRUG_TIER_BENEFIT, by the plan store's key). */
const TIER_KEYS: ReadonlyArray<[Exclude<DrugTierKind, "preventive">, KeyBenefitKey]> = [
  ["generic", "genericDrugs"],
  ["preferredBrand", "preferredBrandDrugs"],
  ["nonPreferredBrand", "nonPreferredBrandDrugs"],
  ["specialty", "specialtyDrugs"],
];
const VISIT_KEYS: ReadonlyArray<[DoctorKind, KeyBenefitKey]> = [
  ["primary", "primaryCare"],
  ["specialist", "specialist"],
];

/** An out-of-network cost share the member pays in full (100% coinsurance, "Not Covered") is no cover at all. */
function outOfNetworkShare(text: KeyBenefitsText[KeyBenefitKey]): ServiceCostShare | null {
  const oon = text?.outOfNetwork;
  if (!oon) return null;
  const parsed = parseBenefitCostShare(oon.copay.display, oon.coinsurance.display);
  if (!parsed || parsed.coinsurance >= 1) return null;
  return parsed;
}

export function myPlanCostShareOf(
  deductible: { individual: number | null; family: number | null },
  moop: { individual: number | null; family: number | null },
  keyBenefits: KeyBenefitsText,
): MyPlanCostShare {
  const { costShare } = planCostShareOf(deductible, moop, keyBenefits);
  const drugTiers: MyPlanCostShare["drugTiers"] = {};
  for (const [tier, key] of TIER_KEYS) {
    const text = keyBenefits[key];
    const parsed = text ? parseBenefitCostShare(text.copay.display, text.coinsurance.display) : null;
    if (parsed) drugTiers[tier] = parsed;
  }
  const outOfNetwork: MyPlanCostShare["outOfNetwork"] = {};
  for (const [kind, key] of VISIT_KEYS) {
    const parsed = outOfNetworkShare(keyBenefits[key]);
    if (parsed) outOfNetwork[kind] = parsed;
  }
  return {
    deductible: deductible.individual,
    familyDeductible: deductible.family,
    moop: moop.individual,
    familyMoop: moop.family,
    services: costShare.services,
    drugTiers,
    outOfNetwork,
  };
}
