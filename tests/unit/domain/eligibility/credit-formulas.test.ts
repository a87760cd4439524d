import { describe, expect, it } from "vitest";
import {
  applicablePercentage,
  csrLevel,
  fplPercent,
  premiumTaxCreditMonthly,
} from "../../../../app/domain/eligibility/credit-formulas";
import { estimateApplicant } from "../../../helpers/applicant-estimate";
import { MissingParameterError } from "../../../../app/domain/parameters";
import { householdBenchmarkPremium, type RateTable } from "../../../../app/domain/rating";
import { netPremium, roundCents } from "../../../../app/domain/pricing";

describe("fplPercent", () => {
  it("truncates to a whole percent of the guideline", () => {
    // 36,000 / 15,960 = 2.2556 → 225%.
    expect(fplPercent(36_000, 1, "TX", 2026)).toBe(225);
    // 80,000 / (15,960 + 3 × 5,680 = 33,000) = 2.4242 → 242%.
    expect(fplPercent(80_000, 4, "TX", 2026)).toBe(242);
    // Exactly 4 × 15,650 = 62,600 → 400%; one cent less → 399%.
    expect(fplPercent(62_600, 1, "TX", 2025)).toBe(400);
    expect(fplPercent(62_599.99, 1, "TX", 2025)).toBe(399);
  });

  it("uses the Alaska column", () => {
    // 40,000 / 19,950 = 2.005 → 200% (on the 48-state column it would be 250%).
    expect(fplPercent(40_000, 1, "AK", 2026)).toBe(200);
    expect(fplPercent(40_000, 1, "TX", 2026)).toBe(250);
  });
});

describe("applicablePercentage", () => {
  it("interpolates linearly and rounds to 0.01%", () => {
    // 2027 at 225%: 6.78 + (225 − 200)/50 × (8.66 − 6.78) = 6.78 + 0.94 = 7.72%.
    expect(applicablePercentage(2027, 225)).toBe(0.0772);
    // 2026 at 182%: 4.19 + 32/50 × 2.41 = 5.7324% → 5.73%.
    expect(applicablePercentage(2026, 182)).toBe(0.0573);
    // 2027 at 242%: 6.78 + 42/50 × 1.88 = 8.3592% → 8.36%.
    expect(applicablePercentage(2027, 242)).toBe(0.0836);
  });

  it("rounds an exact half of 0.01% up", () => {
    // 2026 at 175%: 4.19 + 25/50 × 2.41 = 5.395% exactly → 5.40%.
    expect(applicablePercentage(2026, 175)).toBe(0.054);
  });

  it("steps at 133% and is flat 300–400%", () => {
    // 2027: 132% → 2.15% flat band; 133% → 3.23% start of the next band.
    expect(applicablePercentage(2027, 132)).toBe(0.0215);
    expect(applicablePercentage(2027, 133)).toBe(0.0323);
    expect(applicablePercentage(2027, 300)).toBe(0.1022);
    expect(applicablePercentage(2027, 400)).toBe(0.1022);
  });

  it("has no value above 400% in a cliff year but caps at 8.5% without the cliff", () => {
    expect(applicablePercentage(2027, 401)).toBeNull();
    expect(applicablePercentage(2025, 600)).toBe(0.085);
  });

  it("refuses fractional percents and absent years", () => {
    expect(() => applicablePercentage(2027, 225.5)).toThrow(RangeError);
    expect(() => applicablePercentage(2023, 200)).toThrow(MissingParameterError);
  });
});

describe("csrLevel", () => {
  it("needs APTC eligibility", () => {
    // 20,000 is 1.278 × 15,650: the 94 band, but only for an APTC-eligible household.
    expect(csrLevel(20_000, 15_650, true)).toBe("94");
    expect(csrLevel(20_000, 15_650, false)).toBeNull();
  });
});

describe("premiumTaxCreditMonthly", () => {
  it("is the benchmark minus the contribution, never negative", () => {
    // 500 − 0.0772 × 36,000 / 12 = 500 − 231.60 = 268.40.
    expect(premiumTaxCreditMonthly(500, 36_000, 0.0772)).toBeCloseTo(268.4, 10);
    // 200 − 231.60 < 0 → 0.
    expect(premiumTaxCreditMonthly(200, 36_000, 0.0772)).toBe(0);
  });
});

describe("derived examples (eligibility-rules.md §9)", () => {
  it("2027 TX single age 35 at $36,000: 225%, 7.72%, $231.60/month, CSR 73, non-zero aptc", () => {
    // Three silver plans in the rating area, each with only an age-21 rate; age 35 is derived with
    // the federal default curve (1.222): 400 × 1.222 = 488.80; 420 × 1.222 = 513.24; 450 × 1.222 = 549.90.
    // Benchmark = second-lowest = 513.24.
    const silver = (rate21: number): { rateTable: RateTable } => ({
      rateTable: { ageRates: { "21": { individual: rate21, tobacco: rate21 * 1.5 } } },
    });
    const members = [{ age: 35, usesTobacco: false, relationship: "self" as const }];
    const benchmark = householdBenchmarkPremium([silver(450), silver(400), silver(420)], members, "TX", 2027);
    expect(benchmark).toBeCloseTo(513.24, 10);

    const r = estimateApplicant({
      coverageYear: 2027,
      state: "TX",
      income: 36_000,
      householdSize: 1,
      applicantAge: 35,
      benchmarkMonthly: benchmark!,
    });
    expect(r.fplPercent).toBe(225);
    expect(r.applicablePercentage).toBe(0.0772);
    // 0.0772 × 36,000 = 2,779.20 a year; / 12 = 231.60 a month.
    expect(r.expectedContributionMonthly).toBeCloseTo(231.6, 10);
    expect(r.csr).toBe("73");
    // aptc = 513.24 − 231.60 = 281.64.
    expect(roundCents(r.aptc)).toBe(281.64);
    expect(r.is_medicaid_chip).toBe(false);
    expect(r.in_coverage_gap).toBe(false);
    // Cheapest silver at 488.80 − 281.64 = 207.16 a month after the credit.
    expect(roundCents(netPremium(488.8, r.aptc))).toBe(207.16);
  });

  it("2026 single at $28,500: 182%, 5.73%, $1,633.05 a year", () => {
    // 28,500 / 15,650 = 1.8211 → 182%; 0.0573 × 28,500 = 1,633.05.
    const r = estimateApplicant({
      coverageYear: 2026,
      state: "OH",
      income: 28_500,
      householdSize: 1,
      benchmarkMonthly: 500,
    });
    expect(r.fplPercent).toBe(182);
    expect(r.applicablePercentage).toBe(0.0573);
    expect(r.expectedContributionMonthly! * 12).toBeCloseTo(1_633.05, 9);
    // 500 − 1,633.05 / 12 = 500 − 136.0875 = 363.9125.
    expect(r.aptc).toBeCloseTo(363.9125, 9);
    expect(r.csr).toBe("87");
  });

  it("2026 single at $62,700: above 4 × 15,650 = 62,600, so no credit", () => {
    const r = estimateApplicant({
      coverageYear: 2026,
      state: "OH",
      income: 62_700,
      householdSize: 1,
      benchmarkMonthly: 900,
    });
    expect(r.ptcEligible).toBe(false);
    expect(r.aptc).toBe(0);
    expect(r.applicablePercentage).toBeNull();
    expect(r.reasons.join(" ")).toMatch(/outside 100%–400%/);
  });

  it("2027 household of four at $80,000: 242%, 8.36%, $6,688 a year", () => {
    // 80,000 / 33,000 = 2.4242 → 242%; 8.36% × 80,000 = 6,688; monthly 557.333….
    const r = estimateApplicant({
      coverageYear: 2027,
      state: "MO",
      income: 80_000,
      householdSize: 4,
      benchmarkMonthly: 1_800,
    });
    expect(r.fplPercent).toBe(242);
    expect(r.applicablePercentage).toBe(0.0836);
    expect(r.expectedContributionMonthly! * 12).toBeCloseTo(6_688, 9);
    // 1,800 − 6,688 / 12 = 1,800 − 557.3333 = 1,242.6667.
    expect(roundCents(r.aptc)).toBe(1_242.67);
    expect(r.csr).toBe("73");
  });
});

describe("coverage gap and Medicaid by state", () => {
  const below100 = { coverageYear: 2027, income: 10_000, householdSize: 1, benchmarkMonthly: 500 } as const;
  const inCoverageGap = (h: typeof below100 & { state: string }) => estimateApplicant(h).in_coverage_gap;
  const medicaidChipEligible = (h: typeof below100 & { state: string }) => estimateApplicant(h).is_medicaid_chip;

  it("TX and GA below 100% are in the coverage gap", () => {
    expect(inCoverageGap({ ...below100, state: "TX" })).toBe(true);
    expect(inCoverageGap({ ...below100, state: "GA" })).toBe(true);
    expect(medicaidChipEligible({ ...below100, state: "TX" })).toBe(false);
  });

  it("WI below 100% is Medicaid (BadgerCare to 100%), never the gap", () => {
    const r = estimateApplicant({ ...below100, state: "WI" });
    expect(r.in_coverage_gap).toBe(false);
    expect(r.is_medicaid_chip).toBe(true);
    expect(r.aptc).toBe(0);
  });

  it("WI between 100% and 138% gets the credit, not Medicaid", () => {
    // 2027, 20,000 / 15,960 = 1.2531 → 125%, 2.15%; 500 − 0.0215 × 20,000 / 12 = 500 − 35.8333 = 464.1667.
    const r = estimateApplicant({
      coverageYear: 2027,
      state: "WI",
      income: 20_000,
      householdSize: 1,
      benchmarkMonthly: 500,
    });
    expect(r.is_medicaid_chip).toBe(false);
    expect(r.aptc).toBeCloseTo(464.166667, 6);
    expect(r.csr).toBe("94");
  });

  it("an expansion state is never in the gap", () => {
    expect(inCoverageGap({ ...below100, state: "MI" })).toBe(false);
    expect(medicaidChipEligible({ ...below100, state: "MI" })).toBe(true);
  });

  it("uses the Hawaii column for the credit", () => {
    // HI 2027 coverage, one person: guideline 18,360. 50,000 / 18,360 = 2.7233 → 272%:
    // 8.66 + 22/50 × (10.22 − 8.66) = 9.3464% → 9.35%; 700 − 0.0935 × 50,000 / 12 = 700 − 389.5833 = 310.4167.
    const r = estimateApplicant({
      coverageYear: 2027,
      state: "HI",
      income: 50_000,
      householdSize: 1,
      benchmarkMonthly: 700,
    });
    expect(r.fplPercent).toBe(272);
    expect(r.applicablePercentage).toBe(0.0935);
    expect(r.aptc).toBeCloseTo(310.416667, 6);
  });
});

describe("input checking", () => {
  const base = { coverageYear: 2027, state: "TX", income: 30_000, householdSize: 1, benchmarkMonthly: 500 };

  it("throws MissingParameterError for a coverage year the file does not hold", () => {
    expect(() => estimateApplicant({ ...base, coverageYear: 2028 })).toThrow(MissingParameterError);
    expect(() => estimateApplicant({ ...base, coverageYear: 2028 })).toThrow(/2028/);
  });

  it("rejects a coverage date outside the coverage year and bad numbers", () => {
    expect(() => estimateApplicant({ ...base, coverageDate: "2026-12-31" })).toThrow(RangeError);
    expect(() => estimateApplicant({ ...base, income: Number.NaN })).toThrow(RangeError);
    expect(() => estimateApplicant({ ...base, householdSize: 0 })).toThrow(RangeError);
    expect(() => estimateApplicant({ ...base, benchmarkMonthly: -1 })).toThrow(RangeError);
    expect(() => estimateApplicant({ ...base, state: "T" })).toThrow(RangeError);
  });

  it("gives a zero credit but keeps CSR when the benchmark is below the contribution", () => {
    // 2027, 36,000: contribution 231.60 > benchmark 200 → aptc 0, still credit-eligible, CSR 73.
    const r = estimateApplicant({ ...base, income: 36_000, benchmarkMonthly: 200 });
    expect(r.aptc).toBe(0);
    expect(r.ptcEligible).toBe(true);
    expect(r.csr).toBe("73");
  });
});
