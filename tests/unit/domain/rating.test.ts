import { describe, expect, it } from "vitest";
import {
  MissingRateError,
  ageBandLabel,
  benchmarkPremium,
  householdBenchmarkPremium,
  householdPremium,
  memberPremium,
  ratedMembers,
  singleAdultRate,
  type Member,
  type RateTable,
} from "../../../app/domain/rating";

const adult = (age: number, usesTobacco = false): Member => ({ age, usesTobacco, relationship: "self" });
const spouse = (age: number, usesTobacco = false): Member => ({ age, usesTobacco, relationship: "spouse" });
const child = (age: number): Member => ({ age, usesTobacco: false, relationship: "child" });

// A plan's rates as the Rate PUF gives them (monthly). Rows other than 21 are the federal default
// curve applied to $400 so the figures are easy to check: 0-14 → 400 × 0.765 = 306.00;
// 16 → 400 × 0.859 = 343.60; 38 → 400 × 1.246 = 498.40; 40 → 400 × 1.278 = 511.20;
// 64 and over → 400 × 3.000 = 1,200.00. Tobacco rows where the issuer rates tobacco.
const FULL_TABLE: RateTable = {
  ageRates: {
    "0-14": { individual: 306, tobacco: null },
    "16": { individual: 343.6, tobacco: null },
    "21": { individual: 400, tobacco: 500 },
    "38": { individual: 498.4, tobacco: 623 },
    "40": { individual: 511.2, tobacco: 639 },
    "64 and over": { individual: 1200, tobacco: null },
  },
};

describe("ageBandLabel", () => {
  it("maps ages to Rate PUF labels", () => {
    expect(ageBandLabel(0)).toBe("0-14");
    expect(ageBandLabel(14)).toBe("0-14");
    expect(ageBandLabel(15)).toBe("15");
    expect(ageBandLabel(21)).toBe("21");
    expect(ageBandLabel(40)).toBe("40");
    expect(ageBandLabel(63)).toBe("63");
    expect(ageBandLabel(64)).toBe("64 and over");
    expect(ageBandLabel(65)).toBe("64 and over");
  });

  it("rejects impossible ages", () => {
    expect(() => ageBandLabel(-1)).toThrow(RangeError);
    expect(() => ageBandLabel(30.5)).toThrow(RangeError);
  });
});

describe("memberPremium", () => {
  it("uses the plan's own row for bands 0-14, 21, 40, 64 and 65", () => {
    expect(memberPremium(FULL_TABLE, child(3), "TX")).toBe(306);
    expect(memberPremium(FULL_TABLE, adult(21), "TX")).toBe(400);
    expect(memberPremium(FULL_TABLE, adult(40), "TX")).toBe(511.2);
    expect(memberPremium(FULL_TABLE, adult(64), "TX")).toBe(1200);
    // 65 is in the "64 and over" band: 1,200.00.
    expect(memberPremium(FULL_TABLE, adult(65), "TX")).toBe(1200);
  });

  it("charges the tobacco rate to a tobacco user when the plan has one", () => {
    expect(memberPremium(FULL_TABLE, adult(40, true), "TX")).toBe(639);
    // No tobacco rate in the 64+ row ("No Preference"): the individual rate for everyone.
    expect(memberPremium(FULL_TABLE, adult(64, true), "TX")).toBe(1200);
    // The benchmark and the credit leave the surcharge out.
    expect(memberPremium(FULL_TABLE, adult(40, true), "TX", { excludeTobaccoSurcharge: true })).toBe(511.2);
  });

  it("derives a missing age from the age-21 rate with the state's curve", () => {
    const only21: RateTable = { ageRates: { "21": { individual: 400, tobacco: 500 } } };
    // TX federal default: 40 → 400 × 1.278 = 511.20; child 10 → 400 × 0.765 = 306.00.
    expect(memberPremium(only21, adult(40), "TX")).toBeCloseTo(511.2, 10);
    expect(memberPremium(only21, child(10), "TX")).toBeCloseTo(306, 10);
    // AL's own curve: children 0.635 → 400 × 0.635 = 254.00 (not the federal 0.765).
    expect(memberPremium(only21, child(10), "AL")).toBeCloseTo(254, 10);
    // UT's own curve: 30 → 1.390 → 400 × 1.39 = 556.00.
    expect(memberPremium(only21, adult(30), "UT")).toBeCloseTo(556, 10);
    // Tobacco is derived from the age-21 tobacco rate: 500 × 1.278 = 639.00.
    expect(memberPremium(only21, adult(40, true), "TX")).toBeCloseTo(639, 10);
  });

  it("raises MissingRateError when neither the band nor age 21 is present", () => {
    const noAnchor: RateTable = { ageRates: { "40": { individual: 511.2, tobacco: null } } };
    expect(() => memberPremium(noAnchor, adult(41), "TX")).toThrow(MissingRateError);
  });

  it("ignores tobacco in community-rated NY", () => {
    const ny: RateTable = { ageRates: { "21": { individual: 700, tobacco: 900 } } };
    expect(memberPremium(ny, adult(50, true), "NY")).toBe(700);
  });
});

describe("ratedMembers: three oldest children under 21 (45 CFR 147.102(c)(1))", () => {
  it("drops the fourth child under 21", () => {
    const members = [adult(40), spouse(38), child(16), child(14), child(10), child(8)];
    const rated = ratedMembers(members);
    expect(rated.map((m) => m.age)).toEqual([40, 38, 16, 14, 10]);
  });

  it("keeps input order on tied ages and rates children 21+ as adults", () => {
    const members = [adult(45), child(22), child(12), child(12), child(12), child(12)];
    const rated = ratedMembers(members);
    // 22 is not a child under 21; of the four 12-year-olds the first three listed are rated.
    expect(rated).toEqual([members[0], members[1], members[2], members[3], members[4]]);
  });

  it("rates a spouse under 21 as a spouse, not a child", () => {
    const members = [adult(20), spouse(19), child(3), child(2), child(1), child(0)];
    expect(ratedMembers(members).map((m) => m.age)).toEqual([20, 19, 3, 2, 1]);
  });

  it("applies the rule on a child-only policy", () => {
    const kids: Member[] = [{ age: 17, usesTobacco: false, relationship: "self" }, child(15), child(12), child(9)];
    expect(ratedMembers(kids).map((m) => m.age)).toEqual([17, 15, 12]);
  });
});

describe("householdPremium (age-rated)", () => {
  it("federal-state household of six with four children under 21: the fourth child pays nothing", () => {
    // TX, ages 40, 38, 16, 14, 10, 8 on FULL_TABLE:
    //   40 → 511.20; 38 → 498.40; 16 → 343.60; 14 → 306.00 (0-14 band); 10 → 306.00; 8 → not rated.
    //   Total = 511.20 + 498.40 + 343.60 + 306.00 + 306.00 = 1,965.20.
    const household = [adult(40), spouse(38), child(16), child(14), child(10), child(8)];
    expect(householdPremium(FULL_TABLE, household, "TX", 2027)).toBeCloseTo(1965.2, 10);
    // Without the 8-year-old the total is the same.
    expect(householdPremium(FULL_TABLE, household.slice(0, 5), "TX", 2027)).toBeCloseTo(1965.2, 10);
  });

  it("adds the tobacco surcharge for a tobacco user unless excluded", () => {
    // 40 smoker 639.00 + 38 non-smoker 498.40 = 1,137.40; excluded: 511.20 + 498.40 = 1,009.60.
    const couple = [adult(40, true), spouse(38)];
    expect(householdPremium(FULL_TABLE, couple, "TX", 2027)).toBeCloseTo(1137.4, 10);
    expect(householdPremium(FULL_TABLE, couple, "TX", 2027, { excludeTobaccoSurcharge: true })).toBeCloseTo(1009.6, 10);
  });

  it("refuses an empty household", () => {
    expect(() => householdPremium(FULL_TABLE, [], "TX", 2027)).toThrow(RangeError);
  });
});

describe("benchmarkPremium (second-lowest-cost silver)", () => {
  it("takes the second-lowest premium", () => {
    expect(benchmarkPremium([410, 380, 395, 500])).toBe(395);
  });

  it("counts tied plans separately: two plans at the lowest price make that price the benchmark", () => {
    expect(benchmarkPremium([300, 320, 300])).toBe(300);
  });

  it("uses the only silver plan when there is one, and null when there is none", () => {
    expect(benchmarkPremium([450])).toBe(450);
    expect(benchmarkPremium([])).toBeNull();
  });

  it("leaves tobacco out and applies the EHB share for a household", () => {
    // Smoker aged 40 on two TX silver plans:
    //   plan A (FULL_TABLE): non-tobacco 511.20 × EHB 1.0 = 511.20 (the 639.00 tobacco rate is ignored);
    //   plan B: 21-rate 380 derived → 380 × 1.278 = 485.64, × EHB share 0.98 = 475.9272.
    // Second-lowest of {511.20, 475.9272} = 511.20.
    const planB: RateTable = { ageRates: { "21": { individual: 380, tobacco: 475 } } };
    const benchmark = householdBenchmarkPremium(
      [{ rateTable: FULL_TABLE }, { rateTable: planB, ehbShare: 0.98 }],
      [adult(40, true)],
      "TX",
      2027,
    );
    expect(benchmark).toBeCloseTo(511.2, 10);
  });
});

describe("singleAdultRate", () => {
  it("takes the age-21 row, or the one rate of a flat table", () => {
    expect(singleAdultRate(FULL_TABLE)).toBe(400);
    expect(
      singleAdultRate({
        ageRates: { "0-14": { individual: 700, tobacco: null }, "40": { individual: 700, tobacco: null } },
      }),
    ).toBe(700);
    expect(() =>
      singleAdultRate({ ageRates: { "40": { individual: 1, tobacco: null }, "41": { individual: 2, tobacco: null } } }),
    ).toThrow(MissingRateError);
  });
});
