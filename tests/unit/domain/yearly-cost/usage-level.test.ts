import { describe, expect, it } from "vitest";
import {
  SERVICE_ALLOWED_COST,
  USAGE_PROFILES,
  estimateYearlyCost,
  expectedOutOfPocket,
  parseBenefitCostShare,
  type PlanCostShare,
  type ServiceCostShare,
} from "../../../../app/domain/yearly-cost/usage-level";

const copay = (amount: number, subjectToDeductible = false): ServiceCostShare => ({
  copay: amount,
  coinsurance: 0,
  subjectToDeductible,
});
const coins = (rate: number, subjectToDeductible = true): ServiceCostShare => ({
  copay: 0,
  coinsurance: rate,
  subjectToDeductible,
});

// A typical silver plan: $2,000 deductible, $9,000 MOOP, office copays outside the deductible,
// 30% coinsurance after the deductible for imaging, ER and hospital, brand drugs $50 after deductible.
const SILVER: PlanCostShare = {
  deductible: 2000,
  moop: 9000,
  services: {
    primaryCare: copay(30),
    specialist: copay(60),
    urgentCare: copay(75),
    imaging: coins(0.3),
    genericDrug: copay(10),
    preferredBrandDrug: copay(50, true),
    emergencyRoom: coins(0.3),
    inpatientStay: coins(0.3),
  },
};

describe("usage profiles (assumptions as data)", () => {
  it("price a year of care at the assumed allowed costs", () => {
    // low: 1 × 150 + 2 × 15 = 180.
    // medium: 3 × 150 + 2 × 250 + 200 + 300 + 12 × 15 = 450 + 500 + 200 + 300 + 180 = 1,630.
    // high: 6 × 150 + 6 × 250 + 200 + 3 × 300 + 24 × 15 + 12 × 300 + 2,000 + 15,000
    //     = 900 + 1,500 + 200 + 900 + 360 + 3,600 + 2,000 + 15,000 = 24,460.
    const allowed = (level: keyof typeof USAGE_PROFILES) =>
      USAGE_PROFILES[level].reduce((s, l) => s + l.count * SERVICE_ALLOWED_COST[l.service], 0);
    expect(allowed("low")).toBe(180);
    expect(allowed("medium")).toBe(1630);
    expect(allowed("high")).toBe(24460);
    expect(expectedOutOfPocket(SILVER, "high").allowedCost).toBe(24460);
  });
});

describe("estimateYearlyCost with the plan's own cost sharing", () => {
  it("low: premium × 12 + two copays and two generic fills", () => {
    // OOP: primary care 1 × $30 + generic 2 × $10 = $50. Premium 120.50 × 12 = 1,446.00. Total 1,496.00.
    const r = estimateYearlyCost({ monthlyPremiumAfterCredit: 120.5, costShare: SILVER, usage: "low" });
    expect(r.outOfPocketYearly).toBe(50);
    expect(r.premiumYearly).toBe(1446);
    expect(r.totalYearly).toBe(1496);
    expect(r.reachedOutOfPocketMax).toBe(false);
  });

  it("medium: imaging goes to the deductible, copays do not", () => {
    // primary 3 × 30 = 90; specialist 2 × 60 = 120; urgent care 75; imaging $300 paid in full toward
    // the deductible (1,700 left); generic 12 × 10 = 120. OOP = 90 + 120 + 75 + 300 + 120 = 705.
    const r = estimateYearlyCost({ monthlyPremiumAfterCredit: 0, costShare: SILVER, usage: "medium" });
    expect(r.outOfPocketYearly).toBe(705);
    expect(r.totalYearly).toBe(705);
  });

  it("high: deductible, then copays and coinsurance", () => {
    // primary 6 × 30 = 180; specialist 6 × 60 = 360; urgent 75;
    // imaging 3 × 300 = 900 toward the deductible (1,100 left); generic 24 × 10 = 240;
    // brand: fills 1–3 pay 300 each to the deductible (200 left), fill 4 pays 200 + $50 copay = 250,
    //   fills 5–12 pay 8 × 50 = 400 → 900 + 250 + 400 = 1,550;
    // ER 30% × 2,000 = 600; hospital 30% × 15,000 = 4,500.
    // OOP = 180 + 360 + 75 + 900 + 240 + 1,550 + 600 + 4,500 = 8,405 (< 9,000 MOOP).
    const r = estimateYearlyCost({ monthlyPremiumAfterCredit: 300, costShare: SILVER, usage: "high" });
    expect(r.outOfPocketYearly).toBe(8405);
    expect(r.reachedOutOfPocketMax).toBe(false);
    // 300 × 12 + 8,405 = 3,600 + 8,405 = 12,005.
    expect(r.totalYearly).toBe(12005);
  });

  it("caps out-of-pocket at the MOOP", () => {
    // Same year as above (8,405) on a plan with an $8,000 MOOP → 8,000.
    const r = estimateYearlyCost({ monthlyPremiumAfterCredit: 0, costShare: { ...SILVER, moop: 8000 }, usage: "high" });
    expect(r.outOfPocketYearly).toBe(8000);
    expect(r.reachedOutOfPocketMax).toBe(true);
  });

  it("two members: each capped at the individual MOOP, both at the family MOOP", () => {
    // MOOP 8,000 and no family MOOP stated: 2027 federal ratio 24,000 / 12,000 = 2 → family 16,000.
    // Each member's 8,405 is capped at 8,000 → 16,000.
    const derived = estimateYearlyCost({
      monthlyPremiumAfterCredit: 0,
      costShare: { ...SILVER, moop: 8000 },
      usage: "high",
      coveredMembers: 2,
      planYear: 2027,
    });
    expect(derived.outOfPocketYearly).toBe(16000);
    // MOOP 9,000 and family MOOP 12,000: member 1 pays 8,405, member 2 only 12,000 − 8,405 = 3,595.
    const stated = estimateYearlyCost({
      monthlyPremiumAfterCredit: 0,
      costShare: { ...SILVER, familyMoop: 12000 },
      usage: "high",
      coveredMembers: 2,
    });
    expect(stated.outOfPocketYearly).toBe(12000);
    expect(stated.reachedOutOfPocketMax).toBe(true);
  });

  it("a family deductible stops the second member's deductible early", () => {
    // Family deductible 3,000: member 1 uses 2,000 (as above, 8,405 OOP); 1,000 family deductible left.
    // Member 2: primary 180, specialist 360, urgent 75, imaging 3 × 300 = 900 (family left 100),
    // generic 240, brand fill 1: 100 to the deductible + $50 copay = 150, fills 2–12: 11 × 50 = 550,
    // ER 600, hospital 4,500 → 180 + 360 + 75 + 900 + 240 + 150 + 550 + 600 + 4,500 = 7,555.
    // Household: 8,405 + 7,555 = 15,960 (family MOOP 18,000 not reached).
    const r = estimateYearlyCost({
      monthlyPremiumAfterCredit: 0,
      costShare: { ...SILVER, familyDeductible: 3000, familyMoop: 18000 },
      usage: "high",
      coveredMembers: 2,
    });
    expect(r.outOfPocketYearly).toBe(15960);
  });

  it("a member at the maximum credits the family deductible only with what they paid", () => {
    // Deductible 300, family deductible 600, maximum 250, three members, medium year; only urgent
    // care (a $450 copay on its $200 allowed cost: $200) and imaging ($300, to the deductible, then
    // free) cost anything. Each member: urgent care 200 (50 of the maximum left), imaging: 50 paid
    // to the deductible, then the maximum is reached. Credited to the family deductible: 50 each, so
    // it never runs out and member 3 pays the same 250. Household: 3 × 250 = 750. (Crediting the
    // imaging's full $300 would exhaust it with members 1 and 2 and give 250 + 250 + 200 = 700.)
    const free = copay(0);
    const r = expectedOutOfPocket(
      {
        deductible: 300,
        familyDeductible: 600,
        moop: 250,
        familyMoop: 3000,
        services: {
          primaryCare: free,
          specialist: free,
          urgentCare: copay(450),
          imaging: coins(0),
          genericDrug: free,
          preferredBrandDrug: free,
          emergencyRoom: free,
          inpatientStay: free,
        },
      },
      "medium",
      3,
    );
    expect(r.outOfPocket).toBe(750);
  });

  it("a service the plan does not cover is paid in full, outside the MOOP", () => {
    // Brand drugs not covered: 12 × 300 = 3,600 outside the MOOP.
    // Covered care: 180 + 360 + 75 + 900 (deductible, 1,100 left) + 240
    //   + ER: 1,100 deductible + 30% × 900 = 1,370 + hospital 30% × 15,000 = 4,500 → 7,625 (< 8,000 MOOP).
    // Total 7,625 + 3,600 = 11,225.
    const plan: PlanCostShare = {
      ...SILVER,
      moop: 8000,
      services: {
        ...SILVER.services,
        preferredBrandDrug: { copay: 0, coinsurance: 0, subjectToDeductible: false, covered: false },
      },
    };
    expect(estimateYearlyCost({ monthlyPremiumAfterCredit: 0, costShare: plan, usage: "high" }).outOfPocketYearly).toBe(
      11225,
    );
  });

  it("applies a copay plus coinsurance on the rest", () => {
    // Only the ER costs anything: $100 copay + 20% of (2,000 − 100) = 100 + 380 = 480.
    const free = copay(0);
    const plan: PlanCostShare = {
      deductible: 0,
      moop: 9000,
      services: {
        primaryCare: free,
        specialist: free,
        urgentCare: free,
        imaging: free,
        genericDrug: free,
        preferredBrandDrug: free,
        emergencyRoom: { copay: 100, coinsurance: 0.2, subjectToDeductible: false },
        inpatientStay: free,
      },
    };
    expect(estimateYearlyCost({ monthlyPremiumAfterCredit: 0, costShare: plan, usage: "high" }).outOfPocketYearly).toBe(
      480,
    );
  });

  it("needs a plan year to derive a family MOOP, and valid numbers", () => {
    expect(() =>
      estimateYearlyCost({ monthlyPremiumAfterCredit: 0, costShare: SILVER, usage: "low", coveredMembers: 2 }),
    ).toThrow(RangeError);
    expect(() => estimateYearlyCost({ monthlyPremiumAfterCredit: -1, costShare: SILVER, usage: "low" })).toThrow(
      RangeError,
    );
    expect(() =>
      estimateYearlyCost({
        monthlyPremiumAfterCredit: 0,
        costShare: { ...SILVER, services: { ...SILVER.services, imaging: coins(30) } },
        usage: "medium",
      }),
    ).toThrow(RangeError);
  });
});

describe("parseBenefitCostShare (BenCS PUF text)", () => {
  it("reads copays, coinsurance and 'after deductible'", () => {
    expect(parseBenefitCostShare("$20", "Not Applicable")).toEqual({
      copay: 20,
      coinsurance: 0,
      subjectToDeductible: false,
      covered: true,
    });
    expect(parseBenefitCostShare("$250 Copay after deductible", "Not Applicable")).toEqual({
      copay: 250,
      coinsurance: 0,
      subjectToDeductible: true,
      covered: true,
    });
    expect(parseBenefitCostShare("$300 Copay per Stay after deductible", "")).toEqual({
      copay: 300,
      coinsurance: 0,
      subjectToDeductible: true,
      covered: true,
    });
    expect(parseBenefitCostShare("No Charge after deductible", "30% Coinsurance after deductible")).toEqual({
      copay: 0,
      coinsurance: 0.3,
      subjectToDeductible: true,
      covered: true,
    });
    expect(parseBenefitCostShare("Not Applicable", "30.00% Coinsurance after deductible")).toEqual({
      copay: 0,
      coinsurance: 0.3,
      subjectToDeductible: true,
      covered: true,
    });
    expect(parseBenefitCostShare("$0", "0%")).toEqual({
      copay: 0,
      coinsurance: 0,
      subjectToDeductible: false,
      covered: true,
    });
    expect(parseBenefitCostShare("No Charge", "Not Applicable")).toEqual({
      copay: 0,
      coinsurance: 0,
      subjectToDeductible: false,
      covered: true,
    });
    expect(parseBenefitCostShare("$1,500 Copay per Stay after deductible", null)?.copay).toBe(1500);
  });

  it("returns null for unreadable text and marks not-covered benefits", () => {
    expect(parseBenefitCostShare("Not Applicable", "Not Applicable")).toBeNull();
    expect(parseBenefitCostShare("see plan brochure", "")).toBeNull();
    expect(parseBenefitCostShare("", "", false)).toEqual({
      copay: 0,
      coinsurance: 0,
      subjectToDeductible: false,
      covered: false,
    });
  });
});
