import { money, type Words } from "./format";

/** One row of the answer's repayment_risk (app/schemas/shopping.ts RepaymentRiskRow). */
export interface RepaymentRiskRowFacts {
  scenario: "rise_10" | "rise_25" | "rise_50" | "above_400_fpl";
  income: number;
  allowed_credit: number;
  advance_credit: number;
  repayment: number;
  cap: number | null;
}

/** What the piece reads of the eligibility answer. */
export interface CreditChoiceFacts {
  year: number;
  aptc: number;
  aptc_applied: number;
  repayment_risk: readonly RepaymentRiskRowFacts[];
}

/** The results list's sentence on the credit its prices use: all of it, or the part chosen. */
export function creditInPricesSentence(eligibility: CreditChoiceFacts, { t, lang }: Words): string {
  if (eligibility.aptc_applied >= eligibility.aptc) {
    return t("results.pricesWithCredit", { amount: money(eligibility.aptc, lang) });
  }
  return t("repaymentRisk.pricesWithPart", {
    amount: money(eligibility.aptc_applied, lang),
    credit: money(eligibility.aptc, lang),
  });
}
