import { describe, expect, it } from "vitest";
import { money, reasonWords } from "../../../app/server/shopping/my-year.server";
import type { Reason } from "../../../app/domain/yearly-cost/ranking";
import { tFor } from "../../../app/i18n/i18n";
import { withPremiumsTotals } from "../../../app/server/shopping/plan-fields.server";
import { myYearJson, rememberMyYearBase } from "../../../app/server/shopping/plan-list-json.server";
import { withPremiums, type MyYearlyCost } from "../../../app/domain/yearly-cost/my-year";

/**
 * Issue 29 (decision 401): a plan list ranks every plan of the county by "your year"'s totals
 * without making each plan's object, and words its reasons' amounts without Intl. Both must give
 * exactly what they replace. The reasons' sentences are kept as parts per language, code and count.
 */
function atNoPremium(typical: number, badYear: number): MyYearlyCost {
  return {
    typical,
    bad_year: badYear,
    worst_case: badYear + 1000,
    parts: {
      premiums: 0,
      drugs: [],
      doctors: [],
      other_care: { usage: "medium", yearly_cost: typical },
      out_of_pocket_max: badYear + 1000,
      outside_max: 0,
    },
    unknowns: [],
  } as unknown as MyYearlyCost;
}

describe("withPremiumsTotals", () => {
  it("adds a year of premiums as withPremiums does: $412.37 a month → $4,948.44 a year; + $1,234.56 typical = $6,183.00", () => {
    // 412.37 × 12 = 4,948.44; 4,948.44 + 1,234.56 = 6,183.00; bad year 4,948.44 + 7,000.05 = 11,948.49.
    expect(withPremiumsTotals(atNoPremium(1234.56, 7000.05), 412.37)).toEqual({ typical: 6183, badYear: 11948.49 });
  });

  it("agrees with withPremiums to the cent on 20,000 random premiums and out-of-pocket amounts", () => {
    let seed = 29;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      const base = atNoPremium(Math.round(random() * 2_000_000) / 100, Math.round(random() * 3_000_000) / 100);
      const monthly = Math.round(random() * 300_000) / 100;
      const whole = withPremiums(base, monthly);
      expect(withPremiumsTotals(base, monthly)).toEqual({ typical: whole.typical, badYear: whole.bad_year });
    }
  });
});

describe("money", () => {
  it("writes whole dollars as toLocaleString('en-US') does", () => {
    for (const n of [
      0, 0.4, 0.5, 1, 12.49, 999, 999.5, 1000, 1234.56, 99_999, 100_000, 1_234_567.8, -1, -1234.5, -0.4, 1e15, 1e22,
    ])
      expect(money(n)).toBe(`$${Math.round(n).toLocaleString("en-US")}`);
  });
});

describe("reasonWords", () => {
  const codes: Reason["code"][] = [
    "only_plan",
    "lowest_typical",
    "typical_more",
    "drugs_covered",
    "doctors_in_network",
    "coverage_unknown",
    "lowest_bad_year",
    "bad_year_more",
    "more_care_other_least",
    "more_care_this_less",
    "csr_silver_cheaper",
    "misses_drug_cheaper_covers",
    "misses_doctor_cheaper_covers",
  ];
  it("words a reason without values as the catalogue does (its {{names}} left as they are)", () => {
    for (const lang of ["en", "es"] as const)
      for (const code of codes)
        expect(reasonWords({ code, values: {} }, lang)).toBe(tFor(lang)(`ranking.${code}`, { count: undefined }));
  });

  it("words every reason as the catalogue does, in English and Spanish, for counts 0, 1, 2 and 7", () => {
    for (const lang of ["en", "es"] as const)
      for (const code of codes)
        for (const count of [0, 1, 2, 7])
          for (const amount of [0.4, 1234.5, 98_765]) {
            const values = {
              amount,
              plan: `Plan {{amount}} $& ${code}`,
              covered: Math.min(count, 1),
              total: count,
              count,
              rxcui: "105585",
              npi: "1234567890",
            };
            const direct = tFor(lang)(`ranking.${code}`, { ...values, amount: money(amount) });
            // Twice: the second answer comes from the sentence's parts kept by the first.
            expect(reasonWords({ code, values }, lang)).toBe(direct);
            expect(reasonWords({ code, values }, lang)).toBe(direct);
            const { count: _count, ...withTotal } = values;
            expect(reasonWords({ code, values: withTotal }, lang)).toBe(
              tFor(lang)(`ranking.${code}`, { ...withTotal, count: withTotal.total, amount: money(amount) }),
            );
          }
  });
});

describe("myYearJson", () => {
  it("writes a list plan's 'your year' as JSON.stringify does, from the shared result's parts", () => {
    const base = atNoPremium(1234.56, 7000.05);
    for (const monthly of [0, 412.37, 1999.99]) {
      const mine = withPremiums(base, monthly);
      rememberMyYearBase(mine, base);
      expect(myYearJson(mine)).toBe(JSON.stringify(mine));
    }
  });

  it("stringifies whole a result changed after it was made, or one it was not told about", () => {
    const base = atNoPremium(100, 200);
    const mine = withPremiums(base, 10);
    rememberMyYearBase(mine, base);
    const changed = { ...mine, parts: { ...mine.parts, outside_max: 5 } };
    rememberMyYearBase(changed, base);
    expect(myYearJson(changed)).toBe(JSON.stringify(changed));
    const unknown = withPremiums(base, 20);
    expect(myYearJson(unknown)).toBe(JSON.stringify(unknown));
  });
});
