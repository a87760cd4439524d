// New York: community rating with family tiers, Medicaid to 138%, Essential Plan to 250% of the
// current guideline until 2026-06-30 and to 200% from 2026-07-01 (eligibility-rules.md §6).
import { describe, expect, it } from "vitest";
import { estimateApplicant } from "../../../helpers/applicant-estimate";
import {
  familyTier,
  familyTierPremium,
  householdBenchmarkPremium,
  householdPremium,
  type Member,
  type RateTable,
} from "../../../../app/domain/rating";
import { MissingParameterError } from "../../../../app/domain/parameters";
import { netPremium, roundCents } from "../../../../app/domain/pricing";

const self = (age: number, usesTobacco = false): Member => ({ age, usesTobacco, relationship: "self" });
const spouse = (age: number): Member => ({ age, usesTobacco: false, relationship: "spouse" });
const child = (age: number): Member => ({ age, usesTobacco: false, relationship: "child" });
const other = (age: number): Member => ({ age, usesTobacco: false, relationship: "other" });

// NY silver plans: one community rate each (the single-adult rate), no tobacco rating.
const nySilver = (rate: number): { rateTable: RateTable } => ({
  rateTable: { ageRates: { "21": { individual: rate, tobacco: null } } },
});
const SILVER = [nySilver(720), nySilver(680), nySilver(700)];
// Second-lowest single-adult silver rate = 700.

describe("NY family tiers (single-adult rate × tier factor)", () => {
  const rate: RateTable = { ageRates: { "21": { individual: 700, tobacco: null } } };

  it("single: 700 × 1.00 = 700.00, whatever the age or tobacco use", () => {
    expect(householdPremium(rate, [self(40)], "NY", 2027)).toBe(700);
    expect(householdPremium(rate, [self(63, true)], "NY", 2027)).toBe(700);
  });

  it("couple: 700 × 2.00 = 1,400.00", () => {
    expect(familyTier([self(40), spouse(38)]).tier).toBe("TWO_ADULTS");
    expect(householdPremium(rate, [self(40), spouse(38)], "NY", 2027)).toBe(1400);
  });

  it("one adult with children: 700 × 1.70 = 1,190.00", () => {
    expect(familyTier([self(35), child(8), child(5)]).tier).toBe("ONE_ADULT_AND_CHILDREN");
    expect(householdPremium(rate, [self(35), child(8), child(5)], "NY", 2027)).toBeCloseTo(1190, 10);
  });

  it("family, two adults with children: 700 × 2.85 = 1,995.00 (all children rated; no three-child limit)", () => {
    const family = [self(45), spouse(43), child(15), child(12), child(9), child(4)];
    expect(familyTier(family).tier).toBe("TWO_ADULTS_AND_CHILDREN");
    expect(householdPremium(rate, family, "NY", 2027)).toBeCloseTo(1995, 10);
  });

  it("a dependent aged 24 is still a child: 700 × 2.85 = 1,995.00", () => {
    expect(householdPremium(rate, [self(50), spouse(50), child(24)], "NY", 2027)).toBeCloseTo(1995, 10);
  });

  it("a dependent aged 27 adds the young-adult rider: 700 × 2.85 × 1.05 = 2,094.75", () => {
    const t = familyTier([self(55), spouse(54), child(27)]);
    expect(t).toEqual({ tier: "TWO_ADULTS_AND_CHILDREN", adults: 2, children: 0, youngAdultDependents: 1 });
    expect(familyTierPremium(700, t, "NY", 2027)).toBeCloseTo(2094.75, 10);
  });

  it("a third adult adds 1.0: 700 × (2.00 + 1.00) = 2,100.00", () => {
    const t = familyTier([self(50), spouse(48), other(75)]);
    expect(t.adults).toBe(3);
    expect(familyTierPremium(700, t, "NY", 2027)).toBeCloseTo(2100, 10);
  });

  it("child-only policy: 700 × 0.412 = 288.40", () => {
    const kids: Member[] = [{ age: 17, usesTobacco: false, relationship: "self" }, child(15)];
    expect(familyTier(kids).tier).toBe("CHILD_ONLY");
    expect(householdPremium(rate, kids, "NY", 2027)).toBeCloseTo(288.4, 10);
  });

  it("a married couple under 21 is an adult policy, not child-only: 700 × 2.85 = 1,995.00", () => {
    const young = [self(20), spouse(19), child(1)];
    expect(familyTier(young).tier).toBe("TWO_ADULTS_AND_CHILDREN");
    expect(householdPremium(rate, young, "NY", 2027)).toBeCloseTo(1995, 10);
  });

  it("VT has no child-only factor in the file", () => {
    const kids: Member[] = [{ age: 17, usesTobacco: false, relationship: "self" }, child(15)];
    expect(() => familyTierPremium(500, familyTier(kids), "VT", 2027)).toThrow(MissingParameterError);
  });

  it("the household benchmark is the second-lowest single rate × tier", () => {
    // Family of four: single rates 680, 700, 720 → tier premiums 1,938, 1,995, 2,052 → benchmark 1,995.
    const family = [self(45), spouse(43), child(15), child(12)];
    expect(householdBenchmarkPremium(SILVER, family, "NY", 2027)).toBeCloseTo(1995, 10);
  });
});

describe("NY eligibility, 2027 (credit on the 2026 guideline; EP limit 200%)", () => {
  it("single at $36,708 (230%): QHP with credit and CSR 73", () => {
    // Benchmark 700 × 1.00 = 700. 36,708 / 15,960 = 2.30 → 230% (> 200%: not EP).
    // pct = 6.78 + 30/50 × 1.88 = 7.908% → 7.91%; contribution 0.0791 × 36,708 / 12 = 241.9669;
    // aptc = 700 − 241.9669 = 458.0331. CSR 73 (200% < income ≤ 250%).
    const benchmark = householdBenchmarkPremium(SILVER, [self(40)], "NY", 2027)!;
    const r = estimateApplicant({
      coverageYear: 2027,
      state: "NY",
      income: 36_708,
      householdSize: 1,
      applicantAge: 40,
      benchmarkMonthly: benchmark,
    });
    expect(r.essential_plan).toBe(false);
    expect(r.fplPercent).toBe(230);
    expect(r.applicablePercentage).toBe(0.0791);
    expect(r.aptc).toBeCloseTo(458.0331, 9);
    expect(r.csr).toBe("73");
    expect(r.is_medicaid_chip).toBe(false);
    expect(r.in_coverage_gap).toBe(false);
    // The cheapest silver (680) nets 680 − 458.0331 = 221.9669 → $221.97.
    expect(roundCents(netPremium(680, r.aptc))).toBe(221.97);
  });

  it("couple at $50,000: benchmark 1,400, aptc 1,068.75", () => {
    // Guideline for 2: 15,960 + 5,680 = 21,640; EP limit 2 × 21,640 = 43,280 < 50,000.
    // 50,000 / 21,640 = 2.3105 → 231%: 6.78 + 31/50 × 1.88 = 7.9456% → 7.95%;
    // contribution 0.0795 × 50,000 / 12 = 331.25; aptc = 1,400 − 331.25 = 1,068.75. CSR 73 (≤ 54,100).
    const benchmark = householdBenchmarkPremium(SILVER, [self(40), spouse(38)], "NY", 2027)!;
    expect(benchmark).toBe(1400);
    const r = estimateApplicant({
      coverageYear: 2027,
      state: "NY",
      income: 50_000,
      householdSize: 2,
      applicantAge: 40,
      benchmarkMonthly: benchmark,
    });
    expect(r.essential_plan).toBe(false);
    expect(r.aptc).toBeCloseTo(1068.75, 9);
    expect(r.csr).toBe("73");
  });

  it("one adult with two children at $60,000: benchmark 1,190, aptc 815.50", () => {
    // Guideline for 3: 15,960 + 2 × 5,680 = 27,320; EP limit 54,640 < 60,000.
    // 60,000 / 27,320 = 2.1962 → 219%: 6.78 + 19/50 × 1.88 = 7.4944% → 7.49%;
    // contribution 0.0749 × 60,000 / 12 = 374.50; aptc = 700 × 1.70 − 374.50 = 1,190 − 374.50 = 815.50.
    const benchmark = householdBenchmarkPremium(SILVER, [self(35), child(8), child(5)], "NY", 2027)!;
    const r = estimateApplicant({
      coverageYear: 2027,
      state: "NY",
      income: 60_000,
      householdSize: 3,
      applicantAge: 35,
      benchmarkMonthly: benchmark,
    });
    expect(r.aptc).toBeCloseTo(815.5, 9);
    expect(r.csr).toBe("73");
  });

  it("family of four at $100,000: benchmark 1,995, aptc 1,143.33, no CSR", () => {
    // Guideline for 4: 33,000. 100,000 / 33,000 = 3.0303 → 303% → 10.22% flat;
    // contribution 0.1022 × 100,000 / 12 = 851.6667; aptc = 1,995 − 851.6667 = 1,143.3333.
    const family = [self(45), spouse(43), child(15), child(12)];
    const benchmark = householdBenchmarkPremium(SILVER, family, "NY", 2027)!;
    const r = estimateApplicant({
      coverageYear: 2027,
      state: "NY",
      income: 100_000,
      householdSize: 4,
      applicantAge: 45,
      benchmarkMonthly: benchmark,
    });
    expect(roundCents(r.aptc)).toBe(1143.33);
    expect(r.aptc).toBeCloseTo(1143.333333, 6);
    expect(r.csr).toBeNull();
    expect(r.essential_plan).toBe(false);
  });

  it("Medicaid at or below 138%, never the coverage gap", () => {
    for (const income of [10_000, 22_024.8]) {
      const r = estimateApplicant({
        coverageYear: 2027,
        state: "NY",
        income,
        householdSize: 1,
        applicantAge: 30,
        benchmarkMonthly: 700,
      });
      expect(r.is_medicaid_chip).toBe(true);
      expect(r.essential_plan).toBe(false);
      expect(r.in_coverage_gap).toBe(false);
      expect(r.aptc).toBe(0);
    }
  });

  it("Essential Plan from just above 138% to 200%: aptc 0, no CSR, no contribution", () => {
    // 22,025.80 (> 138% of 15,960) and 31,920 (= 200%) are EP; 31,921 is not.
    for (const income of [22_025.8, 31_920]) {
      const r = estimateApplicant({
        coverageYear: 2027,
        state: "NY",
        income,
        householdSize: 1,
        applicantAge: 40,
        benchmarkMonthly: 700,
      });
      expect(r.essential_plan).toBe(true);
      expect(r.aptc).toBe(0);
      expect(r.csr).toBeNull();
      expect(r.is_medicaid_chip).toBe(false);
      expect(r.in_coverage_gap).toBe(false);
      expect(r.ptcEligible).toBe(false);
      expect(r.expectedContributionMonthly).toBeNull();
      expect(r.applicablePercentage).toBeNull();
    }
    const above = estimateApplicant({
      coverageYear: 2027,
      state: "NY",
      income: 31_921,
      householdSize: 1,
      applicantAge: 40,
      benchmarkMonthly: 700,
    });
    expect(above.essential_plan).toBe(false);
    // 31,921 / 15,960 = 2.0000627 → 200% → 6.78%; 700 − 0.0678 × 31,921 / 12 = 700 − 180.35365 = 519.64635; CSR 73.
    expect(above.aptc).toBeCloseTo(519.64635, 9);
    expect(above.csr).toBe("73");
  });

  it("Essential Plan only for ages 19–64", () => {
    const at = (applicantAge: number, medicareEligible?: boolean) =>
      estimateApplicant({
        coverageYear: 2027,
        state: "NY",
        income: 30_000,
        householdSize: 1,
        applicantAge,
        medicareEligible,
        benchmarkMonthly: 700,
      });
    expect(at(19).essential_plan).toBe(true);
    expect(at(64).essential_plan).toBe(true);
    // 18 is a child: Child Health Plus up to 405% (30,000 / 15,960 = 188% is under it), no credit.
    const child = at(18);
    expect(child.essential_plan).toBe(false);
    expect(child.medicaidChipMembers).toEqual([0]);
    expect(child.aptc).toBe(0);
    // 65 is taken to have Medicare unless told otherwise: no credit either.
    expect(at(65).medicareMembers).toEqual([0]);
    expect(at(65).aptc).toBe(0);
    // 65 without Medicare shops: 30,000 / 15,960 = 1.8797 → 187%: 4.30 + 37/50 × 2.48 = 6.1352% → 6.14%;
    // aptc = 700 − 0.0614 × 30,000 / 12 = 700 − 153.50 = 546.50; CSR 87.
    const r = at(65, false);
    expect(r.essential_plan).toBe(false);
    expect(r.aptc).toBeCloseTo(546.5, 9);
    expect(r.csr).toBe("87");
  });
});

describe("NY Essential Plan either side of 2026-07-01 (2026 coverage)", () => {
  // Current guideline on 2026 dates: 15,960 → 250% = 39,900, 200% = 31,920.
  // The credit uses the 2025 guideline (15,650): 200% = 31,300, 250% = 39,125.
  const ny2026 = (coverageDate: string, income: number) =>
    estimateApplicant({
      coverageYear: 2026,
      coverageDate,
      state: "NY",
      income,
      householdSize: 1,
      applicantAge: 40,
      benchmarkMonthly: 700,
    });

  it("2026-06-30: 250% limit — $39,900 is EP, $39,901 is not", () => {
    expect(ny2026("2026-06-30", 31_921).essential_plan).toBe(true);
    expect(ny2026("2026-06-30", 39_900).essential_plan).toBe(true);
    const r = ny2026("2026-06-30", 39_901);
    expect(r.essential_plan).toBe(false);
    // floor(3,990,100 / 15,650) = 254% → 8.44 + 4/50 × 1.52 = 8.5616% → 8.56%;
    // aptc = 700 − 0.0856 × 39,901 / 12 = 700 − 284.627133 = 415.372867; 39,901 > 39,125 → no CSR.
    expect(r.aptc).toBeCloseTo(415.372867, 6);
    expect(r.csr).toBeNull();
  });

  it("2026-07-01: 200% limit — $31,920 is EP, $31,921 and $39,900 are not", () => {
    expect(ny2026("2026-07-01", 31_920).essential_plan).toBe(true);
    const justAbove = ny2026("2026-07-01", 31_921);
    expect(justAbove.essential_plan).toBe(false);
    // floor(3,192,100 / 15,650) = 203% → 6.60 + 3/50 × 1.84 = 6.7104% → 6.71%;
    // aptc = 700 − 0.0671 × 31,921 / 12 = 700 − 178.491592 = 521.508408; CSR 73 (31,300 < 31,921 ≤ 39,125).
    expect(justAbove.aptc).toBeCloseTo(521.508408, 6);
    expect(justAbove.csr).toBe("73");
    expect(ny2026("2026-07-01", 39_900).essential_plan).toBe(false);
  });

  it("the Essential Plan is NY's only: NJ at the same income gets the credit, never essential_plan", () => {
    const r = estimateApplicant({
      coverageYear: 2027,
      state: "NJ",
      income: 30_000,
      householdSize: 1,
      benchmarkMonthly: 700,
    });
    expect(r.essential_plan).toBeUndefined();
    expect(r.essentialPlanMembers).toEqual([]);
    expect(r.ptcEligible).toBe(true);
  });
});
