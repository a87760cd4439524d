// A leaf module (no imports): the browser words these kinds without loading the eligibility rules.

/** Which line: the programme or price step that changes at it (the API's `income_lines[].kind`). */
export const INCOME_LINE_KINDS = [
  "medicaid_adults",
  "coverage_gap",
  "medicaid_children",
  "medicaid_pregnancy",
  "essential_plan",
  "csr_94",
  "csr_87",
  "csr_73",
  "premium_tax_credit",
] as const;
export type IncomeLineKind = (typeof INCOME_LINE_KINDS)[number];
