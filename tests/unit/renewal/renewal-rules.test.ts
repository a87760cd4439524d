/** The renewal rules without I/O (app/domain/renewal): plan ids, the row for a place, changes, alternatives. */
import { describe, expect, it } from "vitest";
import { levelWords, outcomeOf, reasonWords } from "../../../app/domain/renewal/crosswalk-words";
import { alternativesTo, changeOf, parsePlanId, rowForPlace } from "../../../app/domain/renewal/renewal";

describe("renewal rules", () => {
  it("reads a plan ID with or without its variant suffix", () => {
    expect(parsePlanId("10101TX0019001")).toEqual({ planId: "10101TX0019001", suffix: null });
    expect(parsePlanId(" 10101tx0019001-06 ")).toEqual({ planId: "10101TX0019001", suffix: "06" });
    expect(parsePlanId("10101TX001900")).toBeNull();
    expect(parsePlanId("10101TX0019001-6")).toBeNull();
  });

  it("takes the ZIP-level row for the ZIP, else the whole-county row (ZipCode 00000)", () => {
    const rows = [
      { countyFips: "48453", zip: null, id: "county" },
      { countyFips: "48453", zip: "78701", id: "zip" },
      { countyFips: "48113", zip: null, id: "dallas" },
    ];
    expect(rowForPlace(rows, { countyFips: "48453", zip: "78701" })?.id).toBe("zip");
    expect(rowForPlace(rows, { countyFips: "48453", zip: "78704" })?.id).toBe("county");
    expect(rowForPlace(rows, { countyFips: "48201", zip: "77002" })).toBeUndefined();
  });

  it("classifies the outcome from the row's plan ids", () => {
    expect(outcomeOf("10101TX0010001", "10101TX0010001")).toBe("same_plan");
    expect(outcomeOf("10101TX0019001", "10101TX0010001")).toBe("renewed");
    expect(outcomeOf("50102TX0010001", "10505TX0010003")).toBe("other_issuer");
    expect(outcomeOf("10202TX0029002", null)).toBe("no_successor");
    expect(outcomeOf("10202TX0029002", undefined)).toBe("not_in_crosswalk");
    expect(levelWords(4)).toMatch(/No re-enrollment option/);
    expect(reasonWords(8)).toMatch(/different insurer/);
    expect(reasonWords(3)).toBe("Reason code 3 of the Plan ID Crosswalk");
  });

  it("works out changes to the cent", () => {
    // 156.35 − 164.70 = −8.35 (not −8.349999…)
    expect(changeOf(164.7, 156.35)).toEqual({ from: 164.7, to: 156.35, change: -8.35 });
    expect(changeOf(null, 6500)).toEqual({ from: null, to: 6500, change: null });
  });

  it("lists plans that beat the mapped plan, lowest yearly cost first, with why", () => {
    const plan = (id: string, yearly: number, premium: number, ded: number, moop: number) => ({
      id,
      issuer: { id: id.slice(0, 5), name: id },
      premium_w_credit: premium,
      deductible: { individual: ded },
      moop: { individual: moop },
      yearly_cost: yearly,
    });
    const mapped = plan("10101TX0010001", 3506.2, 156.35, 6500, 9950);
    const plans = [
      mapped,
      plan("A", 2936.4, 160, 7000, 9950),
      plan("B", 2884.24, 104.52, 5000, 9000),
      plan("C", 4000, 90, 3000, 5000),
    ];
    const out = alternativesTo(plans, mapped, { limit: 5 });
    expect(out.map((a) => a.plan.id)).toEqual(["B", "A"]);
    // B: 3506.20 − 2884.24 = 621.96 a year; 156.35 − 104.52 = 51.83 a month; 6500 − 5000; 9950 − 9000.
    expect(out[0].saves_per_year).toBe(621.96);
    expect(out[0].why).toEqual([
      { kind: "yearly_cost", amount: 621.96 },
      { kind: "premium", amount: 51.83 },
      { kind: "deductible", amount: 1500 },
      { kind: "moop", amount: 950 },
    ]);
    expect(out[1].why).toEqual([{ kind: "yearly_cost", amount: 569.8 }]);
    // No plan to beat: the lowest-cost plans.
    expect(alternativesTo(plans, null, { limit: 2 }).map((a) => a.plan.id)).toEqual(["B", "A"]);
  });
});
