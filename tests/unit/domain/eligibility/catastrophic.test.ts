import { describe, expect, it } from "vitest";
import { catastrophicReason, type CatastrophicFacts } from "../../../../app/domain/eligibility/catastrophic";

// 45 CFR 156.155: everyone covered under 30, or a hardship exemption; from 2026, CMS's guidance of
// 2025-09-04 grants the exemption to people whose income rules out the credit (HealthCare.gov states).
const base: CatastrophicFacts = {
  planYear: 2027,
  state: "TX",
  coveredAges: [35],
  hardshipExemption: false,
  creditRuledOutByIncome: false,
};

describe("catastrophic plans: who may buy one", () => {
  it("a 35-year-old with a credit: no; a 25-year-old: yes; 29 yes, 30 no", () => {
    expect(catastrophicReason(base)).toBeNull();
    expect(catastrophicReason({ ...base, coveredAges: [25] })).toBe("under_30");
    expect(catastrophicReason({ ...base, coveredAges: [29] })).toBe("under_30");
    expect(catastrophicReason({ ...base, coveredAges: [30] })).toBeNull();
  });

  it("a family only when every person covered is under 30", () => {
    expect(catastrophicReason({ ...base, coveredAges: [28, 27, 3] })).toBe("under_30");
    expect(catastrophicReason({ ...base, coveredAges: [31, 27, 3] })).toBeNull();
    expect(catastrophicReason({ ...base, coveredAges: [] })).toBeNull();
  });

  it("a hardship exemption the request states opens them at any age, in any state and year", () => {
    expect(catastrophicReason({ ...base, hardshipExemption: true })).toBe("hardship_exemption");
    expect(catastrophicReason({ ...base, state: "NY", planYear: 2025, hardshipExemption: true })).toBe(
      "hardship_exemption",
    );
  });

  it("income that rules out the credit: the exemption from 2026 in HealthCare.gov states, not in NY, not before 2026", () => {
    const ruledOut = { ...base, creditRuledOutByIncome: true };
    expect(catastrophicReason(ruledOut)).toBe("income_hardship");
    expect(catastrophicReason({ ...ruledOut, planYear: 2026 })).toBe("income_hardship");
    expect(catastrophicReason({ ...ruledOut, planYear: 2025 })).toBeNull();
    expect(catastrophicReason({ ...ruledOut, state: "NY" })).toBeNull();
  });
});
