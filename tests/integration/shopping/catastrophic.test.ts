import { describe, expect, it } from "vitest";
import * as plansRoute from "../../../app/routes/api.plans";
import { PlansResponse } from "../../../app/schemas/shopping";
import {
  cents,
  PLACES,
  postJson,
  sampleRate,
  self,
  shoppingBody,
  spouse,
  withShoppingFake,
  type Body,
} from "./helpers";

/**
 * Issue 25 item 7: catastrophic plans are listed only for a household the law lets buy one
 * (45 CFR 156.155: everyone covered under 30, or a hardship exemption; from 2026 CMS's guidance of
 * 2025-09-04 gives the exemption to people whose income rules out the credit; decision 313).
 * Dallas (rating area 8) sells two catastrophic plans in the sample: 10303TX0030006, 10404TX0010006.
 */
withShoppingFake();

const plans = async (body: unknown) => {
  const answer = await postJson(plansRoute, "/api/plans", body);
  expect(answer.status).toBe(200);
  expect(() => PlansResponse.parse(answer.body)).not.toThrow();
  return answer.body;
};
const catastrophic = (body: Body) => (body.plans as Body[]).filter((p) => p.metal_level === "Catastrophic");
const DALLAS_CATASTROPHIC = ["10303TX0030006", "10404TX0010006"];

describe("catastrophic plans in Dallas (2027)", () => {
  it("a 35-year-old at $36,000 (225%, credit-eligible) sees none, and they are not counted", async () => {
    const all = await plans(shoppingBody(PLACES.dallas, [self(35)], 36_000, { limit: 500 }));
    expect(catastrophic(all)).toEqual([]);
    expect(all.catastrophic_reason).toBeNull();
    expect(all.total_plan_count).toBe(all.plans.length);
    // Even asked for by the metal filter: none.
    const filtered = await plans(
      shoppingBody(PLACES.dallas, [self(35)], 36_000, { filters: { metal_levels: ["Catastrophic"] } }),
    );
    expect(filtered.plans).toEqual([]);
  });

  it("a 25-year-old sees both, at full price (no credit on a catastrophic plan)", async () => {
    const all = await plans(shoppingBody(PLACES.dallas, [self(25)], 36_000, { limit: 500 }));
    expect(all.catastrophic_reason).toBe("under_30");
    const found = catastrophic(all);
    expect(found.map((p) => p.id).sort()).toEqual(DALLAS_CATASTROPHIC);
    for (const plan of found) {
      // The sample's age-25 rate in rating area 8, to the cent; the credit does not apply.
      expect(plan.premium).toBe(cents(sampleRate(plan.id, 8, "25")));
      expect(plan.premium_w_credit).toBe(plan.premium);
    }
    // The 35-year-old's list is the 25-year-old's without the two catastrophic plans.
    const older = await plans(shoppingBody(PLACES.dallas, [self(35)], 36_000, { limit: 500 }));
    expect(older.total_plan_count).toBe(all.total_plan_count - 2);
  });

  it("a couple 28 and 31: not everyone is under 30, so none", async () => {
    const all = await plans(shoppingBody(PLACES.dallas, [self(28), spouse(31)], 50_000, { limit: 500 }));
    expect(catastrophic(all)).toEqual([]);
  });

  it("hardship_exemption: true lists them for the 35-year-old", async () => {
    const all = await plans(shoppingBody(PLACES.dallas, [self(35)], 36_000, { limit: 500, hardship_exemption: true }));
    expect(all.catastrophic_reason).toBe("hardship_exemption");
    expect(
      catastrophic(all)
        .map((p: Body) => p.id)
        .sort(),
    ).toEqual(DALLAS_CATASTROPHIC);
  });

  it("a 35-year-old whose income rules out the credit (above 400%: $64,000 > 4 × 15,960 = 63,840) gets the 2026 income exemption", async () => {
    const all = await plans(shoppingBody(PLACES.dallas, [self(35)], 64_000, { limit: 500 }));
    expect(all.catastrophic_reason).toBe("income_hardship");
    expect(
      catastrophic(all)
        .map((p: Body) => p.id)
        .sort(),
    ).toEqual(DALLAS_CATASTROPHIC);
    // $63,840 is on the 400% line: credit-eligible, so no exemption.
    const onLine = await plans(shoppingBody(PLACES.dallas, [self(35)], 63_840, { limit: 500 }));
    expect(onLine.catastrophic_reason).toBeNull();
  });
});
