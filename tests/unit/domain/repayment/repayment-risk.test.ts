import { describe, expect, it } from "vitest";
import { estimateHousehold, type HouseholdInput } from "../../../../app/domain/eligibility/household-eligibility";
import {
  impliedBenchmarkMonthly,
  repaymentRisk,
  riskIncomes,
  type RepaymentRiskRow,
} from "../../../../app/domain/repayment/repayment-risk";

// The repayment at tax time (26 USC 36B(f)(2); docs/decisions/320): allowed = 12 × the monthly credit
// at the year-end income (benchmark − applicable % × income / 12, to the cent), advance = 12 × the
// amount applied a month, repayment = max(0, advance − allowed), capped by Form 8962 Table 5 in tax
// years that have a cap (2025: Rev. Proc. 2024-40; none from 2026, P.L. 119-21 s.71305).

const row = (rows: RepaymentRiskRow[], scenario: RepaymentRiskRow["scenario"]) =>
  rows.find((r) => r.scenario === scenario)!;

describe("repayment risk, plan year 2027 (no cap, no credit above 400%)", () => {
  // NY single 40 at $40,000 with a $600.00 benchmark. Guideline for the 2027 credit: 2026's $15,960.
  // 40,000 / 15,960 = 250.6% → 250 → band 250-300 starts at 8.66% → contribution 0.0866 × 40,000 / 12
  // = 288.6667; credit = 600 − 288.6667 = 311.3333 → $311.33 a month; advance = 12 × 311.33 = 3,735.96.
  const household: HouseholdInput = { coverageYear: 2027, state: "NY", income: 40_000, people: [{ age: 40 }] };
  const base = { household, coverageFamily: [0], benchmarkMonthly: 600 };

  it("takes the engine's own credit at the expected income", () => {
    expect(estimateHousehold(household, () => 600).aptc).toBeCloseTo(311.3333, 4);
  });

  it("shows +10%, +25%, +50% and the dollar above 400% with the full credit taken", () => {
    const rows = repaymentRisk({ ...base, appliedMonthly: 311.33 });
    expect(rows.map((r) => [r.scenario, r.income])).toEqual([
      ["rise_10", 44_000],
      ["rise_25", 50_000],
      ["rise_50", 60_000],
      // 4 × 15,960 = 63,840 still has a credit (the line is inclusive); the next dollar has none.
      ["above_400_fpl", 63_841],
    ]);
    for (const r of rows) expect(r.advanceCredit).toBe(3735.96);
    // +10%: 44,000 / 15,960 = 275.7% → 275 → 8.66% + (25/50) × (10.22% − 8.66%) = 9.44%;
    // contribution 0.0944 × 44,000 / 12 = 346.1333; credit 253.8667 → 253.87; × 12 = 3,046.44;
    // repayment 3,735.96 − 3,046.44 = 689.52 (no cap in 2027).
    expect(row(rows, "rise_10")).toMatchObject({ allowedCredit: 3046.44, repayment: 689.52, cap: null });
    // +25%: 50,000 → 313% → flat 10.22%: 0.1022 × 50,000 / 12 = 425.8333; credit 174.1667 → 174.17;
    // × 12 = 2,090.04; repayment 3,735.96 − 2,090.04 = 1,645.92.
    expect(row(rows, "rise_25")).toMatchObject({ allowedCredit: 2090.04, repayment: 1645.92 });
    // +50%: 60,000 → 375% → 10.22%: 0.1022 × 60,000 / 12 = 511.00; credit 89.00; × 12 = 1,068.00;
    // repayment 3,735.96 − 1,068.00 = 2,667.96.
    expect(row(rows, "rise_50")).toMatchObject({ allowedCredit: 1068, repayment: 2667.96 });
    // 63,841 > 63,840: no credit allowed; every advance dollar is repaid: 12 × 311.33 = 3,735.96.
    expect(row(rows, "above_400_fpl")).toMatchObject({ allowedCredit: 0, repayment: 3735.96, cap: null });
  });

  it("repays less when less is taken in advance, and nothing while the advance stays under the allowed credit", () => {
    // $150.00 a month in advance: 12 × 150 = 1,800.00.
    const rows = repaymentRisk({ ...base, appliedMonthly: 150 });
    expect(row(rows, "rise_10").repayment).toBe(0); // 1,800.00 < 3,046.44 allowed (the rest is a refund)
    expect(row(rows, "rise_25").repayment).toBe(0); // 1,800.00 < 2,090.04
    expect(row(rows, "rise_50").repayment).toBe(732); // 1,800.00 − 1,068.00
    expect(row(rows, "above_400_fpl").repayment).toBe(1800); // 1,800.00 − 0
    // Nothing in advance: nothing to repay anywhere.
    for (const r of repaymentRisk({ ...base, appliedMonthly: 0 })) expect(r.repayment).toBe(0);
  });

  it("keeps the people who enrolled with the credit as the family, and allows nothing to a family of nobody", () => {
    const rows = repaymentRisk({ ...base, coverageFamily: [], appliedMonthly: 0 });
    for (const r of rows) expect([r.allowedCredit, r.advanceCredit, r.repayment]).toEqual([0, 0, 0]);
  });

  it("recovers the benchmark from a federal credit by the same rules", () => {
    // 311.33 + 288.6667 = 599.9967: at +10% the credit is 599.9967 − 346.1333 = 253.8633 → 253.86.
    const benchmark = impliedBenchmarkMonthly(household, 311.33)!;
    expect(benchmark).toBeCloseTo(599.996667, 5);
    const rows = repaymentRisk({ ...base, benchmarkMonthly: benchmark, appliedMonthly: 311.33 });
    expect(row(rows, "rise_10").allowedCredit).toBe(3046.32); // 12 × 253.86
    expect(impliedBenchmarkMonthly(household, 0)).toBeNull();
    // Above 400% our rules allow no credit, so there is nothing to recover a benchmark from.
    expect(impliedBenchmarkMonthly({ ...household, income: 70_000 }, 50)).toBeNull();
  });
});

describe("repayment risk, plan year 2026 (no cap: P.L. 119-21 s.71305)", () => {
  it("TX single 40 at $40,000: the dollar above 400% repays 12 × the monthly credit", () => {
    // 2026 credit uses 2025's guideline, $15,650. 40,000 / 15,650 = 255.6% → 255 → 8.44% + (5/50) ×
    // (9.96% − 8.44%) = 8.592% → 8.59%; contribution 0.0859 × 40,000 / 12 = 286.3333;
    // credit 600 − 286.3333 = 313.6667 → 313.67; advance 12 × 313.67 = 3,764.04.
    const household: HouseholdInput = { coverageYear: 2026, state: "TX", income: 40_000, people: [{ age: 40 }] };
    expect(estimateHousehold(household, () => 600).aptc).toBeCloseTo(313.6667, 4);
    const rows = repaymentRisk({ household, coverageFamily: [0], benchmarkMonthly: 600, appliedMonthly: 313.67 });
    // Line: 4 × 15,650 = 62,600 → 62,601.
    expect(row(rows, "above_400_fpl")).toMatchObject({
      income: 62_601,
      allowedCredit: 0,
      advanceCredit: 3764.04,
      repayment: 3764.04,
    });
  });
});

describe("repayment risk, plan year 2025 (the Table 5 caps)", () => {
  // TX single 40 at $30,000, benchmark $500.00. 2025 credit uses 2024's guideline, $15,060; the
  // enhanced table (ARPA/IRA). 30,000 / 15,060 = 199.2% → 199 → 0% + (49/50) × 2% = 1.96%;
  // contribution 0.0196 × 30,000 / 12 = 49.00; credit 451.00; advance 12 × 451 = 5,412.00.
  const household: HouseholdInput = { coverageYear: 2025, state: "TX", income: 30_000, people: [{ age: 40 }] };
  const rows = repaymentRisk({ household, coverageFamily: [0], benchmarkMonthly: 500, appliedMonthly: 451 });

  it("caps the repayment below 400% by the single column", () => {
    // +10%: 33,000 → 219% → 2% + (19/50) × 2% = 2.76%: 0.0276 × 33,000 / 12 = 75.90; credit 424.10;
    // × 12 = 5,089.20; excess 322.80, under the 200-300 cap of $975 (single).
    expect(row(rows, "rise_10")).toMatchObject({ income: 33_000, allowedCredit: 5089.2, repayment: 322.8, cap: 975 });
    // +25%: 37,500 → 249% → 2% + (49/50) × 2% = 3.96%: 0.0396 × 37,500 / 12 = 123.75; credit 376.25;
    // × 12 = 4,515.00; excess 897.00 < 975.
    expect(row(rows, "rise_25")).toMatchObject({ allowedCredit: 4515, repayment: 897, cap: 975 });
    // +50%: 45,000 → 298% → 4% + (48/50) × 2% = 5.92%: 0.0592 × 45,000 / 12 = 222.00; credit 278.00;
    // × 12 = 3,336.00; excess 2,076.00, capped at $975.
    expect(row(rows, "rise_50")).toMatchObject({ allowedCredit: 3336, repayment: 975, cap: 975 });
  });

  it("has no cap at 400% and above, even in 2025 when a credit is still allowed there", () => {
    // 4 × 15,060 = 60,240 → 60,241 → 400% → 8.5% (no cliff in 2025): 0.085 × 60,241 / 12 = 426.7071;
    // credit 73.2929 → 73.29; × 12 = 879.48; repayment 5,412.00 − 879.48 = 4,532.52, uncapped.
    expect(row(rows, "above_400_fpl")).toMatchObject({
      income: 60_241,
      allowedCredit: 879.48,
      repayment: 4532.52,
      cap: null,
    });
  });
});

describe("the year-end incomes", () => {
  it("rounds each rise to the cent and lists each income once, ascending", () => {
    // 33,333.33 × 1.10 = 36,666.663 → 36,666.66; × 1.25 = 41,666.6625 → 41,666.66; × 1.5 = 49,999.995 → 50,000.00.
    expect(riskIncomes(33_333.33, 15_960).map((r) => r.income)).toEqual([36_666.66, 41_666.66, 50_000, 63_841]);
    // Above the line already: the line's row comes first.
    expect(riskIncomes(70_000, 15_960).map((r) => r.scenario)).toEqual([
      "above_400_fpl",
      "rise_10",
      "rise_25",
      "rise_50",
    ]);
  });
});
