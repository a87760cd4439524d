// Income at 100, 138, 150, 200, 250 and 400% FPL and one dollar either side, coverage years 2026
// and 2027. Single person, benchmark $600.00 a month. Sources: eligibility-rules.md §1–§4;
// 2026 table Rev. Proc. 2025-25; 2027 table Rev. Proc. 2026-26; CSR 45 CFR 155.305(g).
//
// Guidelines: 2027 coverage uses the 2026 guideline, 15,960 for one person; 2026 coverage uses
// the 2025 guideline, 15,650. FPL% = floor(100 × income / guideline). aptc = 600 − pct × income / 12.
import { describe, expect, it } from "vitest";
import { estimateApplicant } from "../../../helpers/applicant-estimate";

const BENCHMARK = 600;

interface Row {
  year: 2026 | 2027;
  income: number;
  fpl: number;
  pct: number | null; // null: no credit
  aptc: number;
  csr: "94" | "87" | "73" | null;
  gap?: boolean;
}

// TX: non-expansion state, so below 138% stays on the credit and below 100% is the coverage gap.
const TX_ROWS: Row[] = [
  // ---- 2027 (guideline 15,960) ----
  // 100%: 1.00 × 15,960 = 15,960.
  // $15,959: floor(1,595,900 / 15,960) = 99% → below the 100% floor: no credit, TX coverage gap.
  { year: 2027, income: 15_959, fpl: 99, pct: null, aptc: 0, csr: null, gap: true },
  // $15,960: 100% → 2.15% flat band; 600 − 0.0215 × 15,960 / 12 = 600 − 28.595 = 571.405; CSR 94.
  { year: 2027, income: 15_960, fpl: 100, pct: 0.0215, aptc: 571.405, csr: "94" },
  // $15,961: 100% → 2.15%; 600 − 0.0215 × 15,961 / 12 = 600 − 28.596792 = 571.403208.
  { year: 2027, income: 15_961, fpl: 100, pct: 0.0215, aptc: 571.403208, csr: "94" },
  // 138%: 1.38 × 15,960 = 22,024.80 (step band 133–150: 3.23% → 4.30%).
  // $22,023.80: floor(2,202,380 / 15,960) = 137% → 3.23 + 4/17 × 1.07 = 3.4818% → 3.48%;
  //   600 − 0.0348 × 22,023.80 / 12 = 600 − 63.86902 = 536.13098.
  { year: 2027, income: 22_023.8, fpl: 137, pct: 0.0348, aptc: 536.13098, csr: "94" },
  // $22,024.80: 138% → 3.23 + 5/17 × 1.07 = 3.5447% → 3.54%; 600 − 0.0354 × 22,024.80 / 12 = 600 − 64.97316.
  { year: 2027, income: 22_024.8, fpl: 138, pct: 0.0354, aptc: 535.02684, csr: "94" },
  // $22,025.80: 138% → 3.54%; 600 − 0.0354 × 22,025.80 / 12 = 600 − 64.97611 = 535.02389.
  { year: 2027, income: 22_025.8, fpl: 138, pct: 0.0354, aptc: 535.02389, csr: "94" },
  // 150%: 1.5 × 15,960 = 23,940.
  // $23,939: 149% → 3.23 + 16/17 × 1.07 = 4.2371% → 4.24%; 600 − 0.0424 × 23,939 / 12 = 600 − 84.584467.
  { year: 2027, income: 23_939, fpl: 149, pct: 0.0424, aptc: 515.415533, csr: "94" },
  // $23,940: 150% → 4.30%; 600 − 0.043 × 23,940 / 12 = 600 − 85.785 = 514.215; CSR 94 (at most 150%).
  { year: 2027, income: 23_940, fpl: 150, pct: 0.043, aptc: 514.215, csr: "94" },
  // $23,941: still 150% for the table → 4.30%; 600 − 85.788583 = 514.211417; CSR 87 (more than 150% in dollars).
  { year: 2027, income: 23_941, fpl: 150, pct: 0.043, aptc: 514.211417, csr: "87" },
  // 200%: 31,920.
  // $31,919: 199% → 4.30 + 49/50 × 2.48 = 6.7304% → 6.73%; 600 − 0.0673 × 31,919 / 12 = 600 − 179.012392.
  { year: 2027, income: 31_919, fpl: 199, pct: 0.0673, aptc: 420.987608, csr: "87" },
  // $31,920: 200% → 6.78%; 600 − 0.0678 × 31,920 / 12 = 600 − 180.348 = 419.652; CSR 87.
  { year: 2027, income: 31_920, fpl: 200, pct: 0.0678, aptc: 419.652, csr: "87" },
  // $31,921: 200% → 6.78%; 600 − 180.35365 = 419.64635; CSR 73.
  { year: 2027, income: 31_921, fpl: 200, pct: 0.0678, aptc: 419.64635, csr: "73" },
  // 250%: 39,900.
  // $39,899: 249% → 6.78 + 49/50 × 1.88 = 8.6224% → 8.62%; 600 − 0.0862 × 39,899 / 12 = 600 − 286.607817.
  { year: 2027, income: 39_899, fpl: 249, pct: 0.0862, aptc: 313.392183, csr: "73" },
  // $39,900: 250% → 8.66%; 600 − 0.0866 × 39,900 / 12 = 600 − 287.945 = 312.055; CSR 73.
  { year: 2027, income: 39_900, fpl: 250, pct: 0.0866, aptc: 312.055, csr: "73" },
  // $39,901: 250% → 8.66%; 600 − 287.952217 = 312.047783; no CSR above 250%.
  { year: 2027, income: 39_901, fpl: 250, pct: 0.0866, aptc: 312.047783, csr: null },
  // 400%: 63,840.
  // $63,839: 399% → 10.22%; 600 − 0.1022 × 63,839 / 12 = 600 − 543.695483 = 56.304517.
  { year: 2027, income: 63_839, fpl: 399, pct: 0.1022, aptc: 56.304517, csr: null },
  // $63,840: 400% (inclusive) → 10.22%; 600 − 0.1022 × 63,840 / 12 = 600 − 543.704 = 56.296.
  { year: 2027, income: 63_840, fpl: 400, pct: 0.1022, aptc: 56.296, csr: null },
  // $63,841: truncates to 400% but is above 4 × 15,960 in dollars → 2027 cliff: no credit.
  { year: 2027, income: 63_841, fpl: 400, pct: null, aptc: 0, csr: null },

  // ---- 2026 (guideline 15,650) ----
  // $15,649: 99% → no credit, gap.
  { year: 2026, income: 15_649, fpl: 99, pct: null, aptc: 0, csr: null, gap: true },
  // $15,650: 100% → 2.10%; 600 − 0.021 × 15,650 / 12 = 600 − 27.3875 = 572.6125.
  { year: 2026, income: 15_650, fpl: 100, pct: 0.021, aptc: 572.6125, csr: "94" },
  // $15,651: 100% → 2.10%; 600 − 27.38925 = 572.61075.
  { year: 2026, income: 15_651, fpl: 100, pct: 0.021, aptc: 572.61075, csr: "94" },
  // 138%: 1.38 × 15,650 = 21,597.
  // $21,596: 137% → 3.14 + 4/17 × 1.05 = 3.3871% → 3.39%; 600 − 0.0339 × 21,596 / 12 = 600 − 61.0087.
  { year: 2026, income: 21_596, fpl: 137, pct: 0.0339, aptc: 538.9913, csr: "94" },
  // $21,597: 138% → 3.14 + 5/17 × 1.05 = 3.4488% → 3.45%; 600 − 0.0345 × 21,597 / 12 = 600 − 62.091375.
  { year: 2026, income: 21_597, fpl: 138, pct: 0.0345, aptc: 537.908625, csr: "94" },
  // $21,598: 138% → 3.45%; 600 − 62.09425 = 537.90575.
  { year: 2026, income: 21_598, fpl: 138, pct: 0.0345, aptc: 537.90575, csr: "94" },
  // 150%: 23,475.
  // $23,474: 149% → 3.14 + 16/17 × 1.05 = 4.1282% → 4.13%; 600 − 0.0413 × 23,474 / 12 = 600 − 80.789683.
  { year: 2026, income: 23_474, fpl: 149, pct: 0.0413, aptc: 519.210317, csr: "94" },
  // $23,475: 150% → 4.19%; 600 − 0.0419 × 23,475 / 12 = 600 − 81.966875 = 518.033125; CSR 94.
  { year: 2026, income: 23_475, fpl: 150, pct: 0.0419, aptc: 518.033125, csr: "94" },
  // $23,476: 150% → 4.19%; 600 − 81.970367 = 518.029633; CSR 87.
  { year: 2026, income: 23_476, fpl: 150, pct: 0.0419, aptc: 518.029633, csr: "87" },
  // 200%: 31,300.
  // $31,299: 199% → 4.19 + 49/50 × 2.41 = 6.5518% → 6.55%; 600 − 0.0655 × 31,299 / 12 = 600 − 170.840375.
  { year: 2026, income: 31_299, fpl: 199, pct: 0.0655, aptc: 429.159625, csr: "87" },
  // $31,300: 200% → 6.60%; 600 − 0.066 × 31,300 / 12 = 600 − 172.15 = 427.85; CSR 87.
  { year: 2026, income: 31_300, fpl: 200, pct: 0.066, aptc: 427.85, csr: "87" },
  // $31,301: 200% → 6.60%; 600 − 172.1555 = 427.8445; CSR 73.
  { year: 2026, income: 31_301, fpl: 200, pct: 0.066, aptc: 427.8445, csr: "73" },
  // 250%: 39,125.
  // $39,124: 249% → 6.60 + 49/50 × 1.84 = 8.4032% → 8.40%; 600 − 0.084 × 39,124 / 12 = 600 − 273.868.
  { year: 2026, income: 39_124, fpl: 249, pct: 0.084, aptc: 326.132, csr: "73" },
  // $39,125: 250% → 8.44%; 600 − 0.0844 × 39,125 / 12 = 600 − 275.179167 = 324.820833; CSR 73.
  { year: 2026, income: 39_125, fpl: 250, pct: 0.0844, aptc: 324.820833, csr: "73" },
  // $39,126: 250% → 8.44%; 600 − 275.1862 = 324.8138; no CSR.
  { year: 2026, income: 39_126, fpl: 250, pct: 0.0844, aptc: 324.8138, csr: null },
  // 400%: 62,600.
  // $62,599: 399% → 9.96%; 600 − 0.0996 × 62,599 / 12 = 600 − 519.5717 = 80.4283.
  { year: 2026, income: 62_599, fpl: 399, pct: 0.0996, aptc: 80.4283, csr: null },
  // $62,600: 400% → 9.96%; 600 − 0.0996 × 62,600 / 12 = 600 − 519.58 = 80.42.
  { year: 2026, income: 62_600, fpl: 400, pct: 0.0996, aptc: 80.42, csr: null },
  // $62,601: above 4 × 15,650 = 62,600 → 2026 cliff: no credit.
  { year: 2026, income: 62_601, fpl: 400, pct: null, aptc: 0, csr: null },
];

describe("boundaries in TX (non-expansion), single, benchmark $600", () => {
  it.each(TX_ROWS)("$year income $income", (row) => {
    const r = estimateApplicant({
      coverageYear: row.year,
      state: "TX",
      income: row.income,
      householdSize: 1,
      applicantAge: 35,
      benchmarkMonthly: BENCHMARK,
    });
    expect(r.fplPercent).toBe(row.fpl);
    expect(r.applicablePercentage).toBe(row.pct);
    expect(r.aptc).toBeCloseTo(row.aptc, 6);
    expect(r.csr).toBe(row.csr);
    expect(r.ptcEligible).toBe(row.pct !== null);
    expect(r.in_coverage_gap).toBe(row.gap ?? false);
    expect(r.is_medicaid_chip).toBe(false);
    expect(r.essential_plan).toBeUndefined();
    if (row.pct !== null) expect(r.expectedContributionMonthly).toBeCloseTo((row.pct * row.income) / 12, 9);
    else expect(r.expectedContributionMonthly).toBeNull();
  });
});

describe("Medicaid line at 138% of the CURRENT guideline, AZ (expansion state)", () => {
  // 2026 coverage (date 2026-01-01): Medicaid uses the 2026 guideline 15,960 → 1.38 × 15,960 = 22,024.80,
  // while the credit uses the 2025 guideline 15,650. 2027 coverage (2027-01-01): the 2027 guideline is
  // not published yet, so the 2026 one (15,960) is current → the same $22,024.80 line.
  it.each([2026, 2027] as const)(
    "%i: at and one dollar below the line is Medicaid, one dollar above is not",
    (year) => {
      const at = (income: number) =>
        estimateApplicant({ coverageYear: year, state: "AZ", income, householdSize: 1, benchmarkMonthly: BENCHMARK });
      for (const income of [22_023.8, 22_024.8]) {
        const r = at(income);
        expect(r.is_medicaid_chip).toBe(true);
        expect(r.aptc).toBe(0);
        expect(r.csr).toBeNull();
        expect(r.applicablePercentage).toBeNull();
        expect(r.in_coverage_gap).toBe(false);
      }
      const above = at(22_025.8);
      expect(above.is_medicaid_chip).toBe(false);
      // 2027: 138% of 15,960 → 3.54% (as in TX above): 600 − 0.0354 × 22,025.80 / 12 = 535.02389.
      // 2026: floor(2,202,580 / 15,650) = 140% → 3.14 + 7/17 × 1.05 = 3.5724% → 3.57%;
      //       600 − 0.0357 × 22,025.80 / 12 = 600 − 65.526755 = 534.473245.
      const expected = year === 2027 ? 535.02389 : 534.473245;
      expect(above.aptc).toBeCloseTo(expected, 6);
      expect(above.csr).toBe("94");
    },
  );

  it("2026: 138% of the 2025 guideline ($21,597) is still Medicaid on the 2026 guideline", () => {
    // 21,597 ≤ 22,024.80 (138% of 15,960), so Medicaid; the credit's own 138% figure does not decide it.
    const r = estimateApplicant({
      coverageYear: 2026,
      state: "AZ",
      income: 21_597,
      householdSize: 1,
      benchmarkMonthly: 600,
    });
    expect(r.fplPercent).toBe(138);
    expect(r.is_medicaid_chip).toBe(true);
    expect(r.aptc).toBe(0);
  });

  it("below 100% in an expansion state is Medicaid, not the coverage gap", () => {
    const r = estimateApplicant({
      coverageYear: 2027,
      state: "AZ",
      income: 9_000,
      householdSize: 1,
      benchmarkMonthly: 600,
    });
    expect(r.is_medicaid_chip).toBe(true);
    expect(r.in_coverage_gap).toBe(false);
    expect(r.aptc).toBe(0);
  });
});
