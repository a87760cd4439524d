// Who may buy a catastrophic plan (42 USC 18022(e); 45 CFR 156.155): every person the plan covers
// under 30, or a hardship exemption — which, from plan year 2026, people whose projected income rules
// out the premium tax credit get in HealthCare.gov states (CMS guidance of 2025-09-04; the
// catastrophicEligibility block; docs/decisions/313-catastrophic-plans-listed-by-law.md).

import { parameter } from "../parameters/parameter-file";
import { normaliseStateCode } from "../parameters";

/** Why catastrophic plans are offered to this household, or null when they are not. */
export type CatastrophicReason = "under_30" | "hardship_exemption" | "income_hardship";

export interface CatastrophicFacts {
  planYear: number;
  state: string;
  /** Ages (on the coverage start date) of everyone the plan would cover. */
  coveredAges: readonly number[];
  /** The request says the household holds a hardship exemption. */
  hardshipExemption: boolean;
  /** Someone needs the credit (a coverage family) but the household's income rules it out (<100% or >400%). */
  creditRuledOutByIncome: boolean;
}

/** Why catastrophic plans may be sold to this household, or null when the law does not allow it. */
export function catastrophicReason(f: CatastrophicFacts): CatastrophicReason | null {
  const rule = parameter("catastrophicEligibility", f.planYear);
  if (f.coveredAges.length > 0 && f.coveredAges.every((age) => age < rule.underAge)) return "under_30";
  if (f.hardshipExemption) return "hardship_exemption";
  if (rule.incomeHardship && f.creditRuledOutByIncome) {
    const state = normaliseStateCode(f.state);
    const types = parameter("marketplaceType", f.planYear);
    if (rule.incomeHardshipExchanges.some((exchange) => types[exchange].includes(state))) return "income_hardship";
  }
  return null;
}
