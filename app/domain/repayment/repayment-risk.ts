// What the household pays back at tax time if its income for the year ends higher than it expected
// (26 USC 36B(f)(2); 26 CFR 1.36B-4): the credit it is allowed at the year-end income, recomputed
// with the same benchmark and the same applicable-percentage rules the engine used for the advance,
// against the advance it took (12 × the monthly amount applied), capped where the tax year has a cap
// (./repayment-cap.ts). From tax year 2026 nothing caps it, and above 400% of the guideline no
// credit is allowed at all, so every advance dollar is repaid (docs/decisions/320-repayment-risk.md).

import { estimateHousehold, type HouseholdInput } from "../eligibility/household-eligibility";
import { roundCents } from "../pricing";
import { repaymentCap, UNCAPPED_FROM_PERCENT } from "./repayment-cap";

/** Year-end incomes shown: the expected income raised by these whole percents, and just above the 400% line. */
export const INCOME_RISES_PERCENT = [10, 25, 50] as const;

export type RepaymentScenario = "rise_10" | "rise_25" | "rise_50" | "above_400_fpl";

/** One year-end income and what it means at tax time; yearly dollars, to the cent. */
export interface RepaymentRiskRow {
  scenario: RepaymentScenario;
  /** Household income for the year, dollars. */
  income: number;
  /** The credit allowed at that income: 12 × the monthly credit at that income (to the cent). */
  allowedCredit: number;
  /** The credit taken in advance: 12 × the monthly amount applied. */
  advanceCredit: number;
  /** max(0, advance − allowed), at most the year's cap where there is one. */
  repayment: number;
  /** The year's cap at that income (Table 5), or null when nothing caps the repayment there. */
  cap: number | null;
}

export interface RepaymentRiskInput {
  /** The household as shopped: its expected yearly income, size, place and plan year. */
  household: HouseholdInput;
  /** The people who enrol with the credit (the estimate's coverage family), indexes into household.people. */
  coverageFamily: readonly number[];
  /** The family's monthly benchmark (SLCSP, EHB share, no tobacco); null: no credit at any income. */
  benchmarkMonthly: number | null;
  /** The credit taken in advance each month, dollars (at most the monthly credit). */
  appliedMonthly: number;
}

const toCents = (dollars: number) => Math.round(dollars * 100);

/** The year-end incomes asked about, ascending, each once. */
export function riskIncomes(
  income: number,
  ptcGuideline: number,
): Array<{ scenario: RepaymentScenario; income: number }> {
  const cents = toCents(income);
  const rows: Array<{ scenario: RepaymentScenario; income: number }> = INCOME_RISES_PERCENT.map((rise) => ({
    scenario: `rise_${rise}` as RepaymentScenario,
    income: Math.round((cents * (100 + rise)) / 100) / 100,
  }));
  // Just above the line: the next whole dollar over 400% of the guideline (the line itself still has a credit).
  const line = (UNCAPPED_FROM_PERCENT * ptcGuideline) / 100;
  rows.push({ scenario: "above_400_fpl", income: Math.floor(line) + 1 });
  const seen = new Set<number>();
  return rows
    .sort((a, b) => a.income - b.income)
    .filter((row) => (seen.has(row.income) ? false : (seen.add(row.income), true)));
}

/**
 * The monthly credit the family is allowed at a year-end income, to the cent, by the engine's own
 * rules: the same people (those who enrolled with the credit stay the coverage family whatever the
 * income), the same benchmark, the year's applicable percentage, floor and 400% cliff.
 */
export function allowedMonthlyCredit(
  input: Omit<RepaymentRiskInput, "appliedMonthly">,
  income: number,
): { monthly: number; fplPercentWhole: number } {
  const { household, coverageFamily, benchmarkMonthly } = input;
  const size = household.householdSize ?? household.people.length;
  const people = coverageFamily.map((i) => household.people[i]);
  if (people.length === 0 || benchmarkMonthly === null) {
    const probe = estimateHousehold({ ...household, income, householdSize: size }, () => null);
    return { monthly: 0, fplPercentWhole: probe.fplPercentWhole };
  }
  const estimate = estimateHousehold({ ...household, income, householdSize: size, people }, () => benchmarkMonthly);
  return { monthly: roundCents(estimate.aptc), fplPercentWhole: estimate.fplPercentWhole };
}

/** The repayment at each year-end income of riskIncomes, ascending by income. */
export function repaymentRisk(input: RepaymentRiskInput): RepaymentRiskRow[] {
  const { household, appliedMonthly } = input;
  if (!Number.isFinite(appliedMonthly) || appliedMonthly < 0) {
    throw new RangeError(`the credit applied must be dollars ≥ 0, got ${appliedMonthly}`);
  }
  const size = household.householdSize ?? household.people.length;
  const ptcGuideline = estimateHousehold({ ...household, householdSize: size }, () => null).ptcGuideline;
  const advanceCents = toCents(roundCents(12 * appliedMonthly));
  return riskIncomes(household.income, ptcGuideline).map(({ scenario, income }) => {
    const { monthly, fplPercentWhole } = allowedMonthlyCredit(input, income);
    const allowedCents = 12 * toCents(monthly);
    const excessCents = Math.max(0, advanceCents - allowedCents);
    const cap = repaymentCap(household.coverageYear, fplPercentWhole, size);
    const repaymentCents = cap === null ? excessCents : Math.min(excessCents, toCents(cap));
    return {
      scenario,
      income,
      allowedCredit: allowedCents / 100,
      advanceCredit: advanceCents / 100,
      repayment: repaymentCents / 100,
      cap,
    };
  });
}

/**
 * The benchmark that gives a credit computed elsewhere (the federal estimate) under our rules:
 * credit + applicable percentage × income / 12. Null when our rules allow no credit at that income,
 * or the credit is 0 (nothing to recover the benchmark from).
 */
export function impliedBenchmarkMonthly(household: HouseholdInput, aptcMonthly: number): number | null {
  if (!(aptcMonthly > 0)) return null;
  const estimate = estimateHousehold(household, () => 0);
  if (!estimate.ptcEligible || estimate.applicablePercentage === null) return null;
  return aptcMonthly + (estimate.applicablePercentage * household.income) / 12;
}
