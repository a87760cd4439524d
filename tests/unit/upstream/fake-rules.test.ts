import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../../../mocks/cms-api/dataset";
import {
  acaParameters,
  applicablePercentage,
  benchmarkPremium,
  FakeApiError,
  householdEligibility,
} from "../../../mocks/cms-api/rules";

// The fake upstream's own eligibility arithmetic, checked by hand against the
// published rules (eligibility-rules.md) and the fixture's rates
// (tests/fixtures/upstream: Dallas silver at age 35 = 464.36, 482.69, 501.02).
const ds = loadDataset(path.resolve(import.meta.dirname, "../../fixtures/upstream"));
const p = acaParameters();
const DALLAS = { countyfips: "48113", state: "TX", zipcode: "75001" };
const single = (income: number, age = 35) => ({ income, people: [{ age }] });

describe("fake upstream eligibility (independent of the service's code)", () => {
  it("TX scenario: Dallas, single, age 35, $36,000, 2027 → csr 73 and aptc 251.09", () => {
    // 2027 coverage uses the 2026 guideline 15,960. 36,000 / 15,960 = 2.2556 → 2.25 (truncated).
    // pct = 6.78% + (2.25 − 2.00) / 0.50 × (8.66% − 6.78%) = 7.72%; contribution = 36,000 × 0.0772 / 12 = 231.60.
    // Benchmark = second-lowest silver at 35 in Dallas = 482.69 (44444TX0040001 is not sold in Dallas).
    // aptc = 482.69 − 231.60 = 251.09; 2.2556 is in (2.00, 2.50] → CSR 73.
    const result = householdEligibility(ds, p, 2027, DALLAS, single(36_000));
    expect(result.aptc).toBeCloseTo(251.09, 6);
    expect(result.csr).toBe("73");
    expect(result.isMedicaidChip).toBe(false);
    expect(result.inCoverageGap).toBe(false);
  });

  it("honours partial-county service areas: the Collin-only plan counts for ZIP 75002, not for 75007", () => {
    // In 75002 the silver plans at 35 are 427.70 (44444), 464.36, 482.69 → benchmark 464.36.
    expect(
      benchmarkPremium(ds, 2027, { countyfips: "48085", state: "TX", zipcode: "75002" }, single(36_000)),
    ).toBeCloseTo(464.36, 6);
    expect(
      benchmarkPremium(ds, 2027, { countyfips: "48085", state: "TX", zipcode: "75007" }, single(36_000)),
    ).toBeCloseTo(482.69, 6);
  });

  it("rates only the three oldest children under 21 and answers CSR 87 at exactly 200% FPL, the children on CHIP", () => {
    // Household of 6: guideline 15,960 + 5 × 5,680 = 44,360; income 88,720 = 200.00% → pct 6.78%.
    // The children are at or below TX's 206% children's line: CHIP, so outside the coverage family.
    // Benchmark (22222TX0020001) for the parents: 2 × 504.81 (age 40) = 1,009.62.
    // aptc = 1,009.62 − 88,720 × 0.0678 / 12 = 1,009.62 − 501.268 = 508.352.
    const household = {
      income: 88_720,
      people: [{ age: 40 }, { age: 40 }, { age: 12 }, { age: 10 }, { age: 8 }, { age: 5 }],
    };
    const result = householdEligibility(ds, p, 2027, DALLAS, household);
    expect(result.aptc).toBeCloseTo(508.352, 6);
    expect(result.csr).toBe("87");
    expect(result.people.map((x) => x.isMedicaidChip)).toEqual([false, false, true, true, true, true]);
    expect(result.people.map((x) => x.aptc > 0)).toEqual([true, true, false, false, false, false]);
    // The benchmark itself: 2 × 504.81 + 3 × 302.18 (age 0-14; the 4th child is free) = 1,916.16.
    expect(benchmarkPremium(ds, 2027, DALLAS, household)).toBeCloseTo(1916.16, 6);
    const threeKids = { income: 88_720, people: household.people.slice(0, 5) };
    expect(benchmarkPremium(ds, 2027, DALLAS, household)).toBeCloseTo(benchmarkPremium(ds, 2027, DALLAS, threeKids), 6);
  });

  it("cuts the credit off above 400% FPL in 2027", () => {
    // 4 × 15,960 = 63,840 → pct 10.22%; contribution = 63,840 × 0.1022 / 12 = 543.704.
    // Benchmark at 60 = 1,072.03 → aptc = 528.326. One dollar more: no credit.
    expect(householdEligibility(ds, p, 2027, DALLAS, single(63_840, 60)).aptc).toBeCloseTo(528.326, 6);
    expect(householdEligibility(ds, p, 2027, DALLAS, single(63_841, 60)).aptc).toBe(0);
  });

  it("puts TX below 100% FPL in the coverage gap, with no credit", () => {
    const result = householdEligibility(ds, p, 2027, DALLAS, single(12_000));
    expect(result).toMatchObject({ aptc: 0, csr: null, isMedicaidChip: false, inCoverageGap: true });
  });

  it("sends an adult at or below 138% FPL in an expansion state (AZ) to Medicaid", () => {
    // 1.38 × 15,960 (current guideline: 2027's is not published yet) = 22,024.80.
    const az = { countyfips: "04013", state: "AZ", zipcode: "85004" };
    expect(householdEligibility(ds, p, 2027, az, single(22_024))).toMatchObject({
      isMedicaidChip: true,
      aptc: 0,
      csr: null,
      inCoverageGap: false,
    });
    expect(householdEligibility(ds, p, 2027, az, single(22_100)).isMedicaidChip).toBe(false);
  });

  it("answers 404 code 1016 when a county has fewer than two silver plans", () => {
    expect(() =>
      benchmarkPremium(ds, 2027, { countyfips: "48121", state: "TX", zipcode: "75007" }, single(36_000)),
    ).not.toThrow();
    try {
      benchmarkPremium(ds, 2026, DALLAS, single(36_000));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FakeApiError);
      expect((error as FakeApiError).code).toBe("1016");
    }
  });

  it("interpolates the applicable percentage and rounds it to 0.01%", () => {
    expect(applicablePercentage(p, 2026, 1.0)).toBe(0.021);
    expect(applicablePercentage(p, 2026, 1.33)).toBe(0.0314);
    expect(applicablePercentage(p, 2026, 4.0)).toBe(0.0996);
    expect(applicablePercentage(p, 2026, 4.01)).toBeNull();
    expect(applicablePercentage(p, 2025, 4.5)).toBe(0.085); // enhanced credits: no cliff
  });
});

describe("fake upstream: pregnancy (is_pregnant, pregnant_with)", () => {
  it("a pregnant 28-year-old in Dallas at $28,000 is on Medicaid with no credit", () => {
    // Her Medicaid household is herself + 1 baby = 2: 2026 guideline 15,960 + 5,680 = 21,640 (the
    // fake's Medicaid year 2027 falls back to it); TX pregnancy line 203% × 21,640 = 43,929.20 ≥ 28,000.
    const result = householdEligibility(ds, p, 2027, DALLAS, {
      income: 28_000,
      people: [{ age: 28, is_pregnant: true, pregnant_with: 1 }],
    });
    expect(result.isMedicaidChip).toBe(true);
    expect(result.aptc).toBe(0);
    expect(result.csr).toBeNull();
    expect(result.people[0].isMedicaidChip).toBe(true);
    // Not pregnant: 28,000 / 15,960 = 175.4% in a non-expansion state: credited, not Medicaid.
    const notPregnant = householdEligibility(ds, p, 2027, DALLAS, single(28_000, 28));
    expect(notPregnant.isMedicaidChip).toBe(false);
    expect(notPregnant.aptc).toBeGreaterThan(0);
  });

  it("twins count: at $45,000 one baby is over the line (43,929.20), twins are under it (55,459.60)", () => {
    // 203% × (15,960 + 2 × 5,680 = 27,320) = 55,459.60.
    const one = householdEligibility(ds, p, 2027, DALLAS, { income: 45_000, people: [{ age: 30, is_pregnant: true }] });
    const twins = householdEligibility(ds, p, 2027, DALLAS, {
      income: 45_000,
      people: [{ age: 30, is_pregnant: true, pregnant_with: 2 }],
    });
    expect(one.isMedicaidChip).toBe(false);
    expect(twins.isMedicaidChip).toBe(true);
  });
});
