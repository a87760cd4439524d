// The income what-if: the monthly credit and the net price of the benchmark silver plan for this
// household across incomes from 50% to 500% of the poverty guideline, with every line's edge on
// both sides, so a raise or a job loss can be read off (docs/decisions/213-income-what-if.md).

import {
  estimateHousehold,
  incomeLines,
  type HouseholdInput,
  type IncomeLine,
} from "./eligibility/household-eligibility";
import { roundCents } from "./pricing";

/** One income of the series. */
export interface WhatIfPoint {
  /** Yearly household income, dollars (whole cents). */
  income: number;
  /** Percent of the credit's guideline, one decimal, truncated. */
  fplPercent: number;
  /** Monthly credit, cents. */
  aptcMonthly: number;
  /** Monthly benchmark premium for the people who would buy a plan at this income, or null when nobody would. */
  benchmarkMonthly: number | null;
  /** Benchmark minus credit, never below 0; null when nobody would buy a plan. */
  netBenchmarkMonthly: number | null;
  /** How many people would be on Medicaid/CHIP, the Essential Plan or Medicare, and in the coverage family. */
  medicaidChip: number;
  essentialPlan: number;
  medicare: number;
  coverageFamily: number;
  /** True for the household's own income. */
  own: boolean;
}

export interface WhatIf {
  points: WhatIfPoint[];
  lines: IncomeLine[];
  /** The range shown, percent of the credit's guideline. */
  fromPercent: number;
  toPercent: number;
}

const FROM_PERCENT = 50;
const TO_PERCENT = 500;
const STEP_PERCENT = 10;

/**
 * The series. `benchmarkFor` prices the benchmark for a coverage family (indexes ascending), as the
 * household's own estimate does; it is called once per distinct family.
 */
export function whatIfSeries(
  household: HouseholdInput,
  benchmarkFor: (coverageFamily: readonly number[]) => number | null,
): WhatIf {
  const lines = incomeLines(household);
  const own = estimateHousehold(household, () => null);
  const guideline = own.ptcGuideline;
  const incomes = new Set<number>();
  const cents = (x: number) => Math.round(x * 100) / 100;
  for (let pct = FROM_PERCENT; pct <= TO_PERCENT; pct += STEP_PERCENT) incomes.add(cents((pct * guideline) / 100));
  const low = (FROM_PERCENT * guideline) / 100;
  const high = (TO_PERCENT * guideline) / 100;
  for (const line of lines) {
    // Both sides of each line, a cent apart: the chart shows the step where it is.
    for (const x of line.side === "at_or_below"
      ? [line.amount, line.amount + 0.01]
      : [line.amount - 0.01, line.amount]) {
      const income = cents(x);
      if (income >= low && income <= high) incomes.add(income);
    }
  }
  const ownIncome = household.income;
  incomes.add(ownIncome);
  const memo = new Map<string, number | null>();
  const priced = (family: readonly number[]) => {
    const key = family.join(",");
    if (!memo.has(key)) memo.set(key, benchmarkFor(family));
    return memo.get(key)!;
  };
  const points = [...incomes]
    .sort((a, b) => a - b)
    .map((income): WhatIfPoint => {
      const e = estimateHousehold({ ...household, income }, priced);
      const benchmark = e.coverageFamily.length > 0 ? priced(e.coverageFamily) : null;
      const aptc = roundCents(e.aptc);
      return {
        income,
        fplPercent: e.fplPercent,
        aptcMonthly: aptc,
        benchmarkMonthly: benchmark === null ? null : roundCents(benchmark),
        netBenchmarkMonthly: benchmark === null ? null : roundCents(Math.max(0, benchmark - aptc)),
        medicaidChip: e.medicaidChipMembers.length,
        essentialPlan: e.essentialPlanMembers.length,
        medicare: e.medicareMembers.length,
        coverageFamily: e.coverageFamily.length,
        own: income === ownIncome,
      };
    });
  return { points, lines, fromPercent: FROM_PERCENT, toPercent: TO_PERCENT };
}
