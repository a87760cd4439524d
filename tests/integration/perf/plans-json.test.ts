import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as plansRoute from "../../../app/routes/api.plans";
import { PlansRequest } from "../../../app/schemas/shopping";
import { plansAnswerJson } from "../../../app/server/shopping/plan-list-json.server";
import { pricePlans } from "../../../app/server/shopping/priced-plans.server";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import {
  child,
  PLACES,
  postJson,
  self,
  shoppingBody,
  spouse,
  startShoppingFake,
  type PersonIn,
} from "../shopping/helpers";

/**
 * /api/plans writes its list from per-summary JSON parts (docs/decisions/118).
 * The text must be exactly what JSON.stringify of the same answer gives, for
 * households that reach every branch: credit or none, CSR variants, tobacco,
 * catastrophic plans, age-rated (TX) and community-rated (NY) places, filters and sorts.
 */
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startShoppingFake();
});
afterAll(() => fake.close());

const households: Array<{
  name: string;
  place: (typeof PLACES)[keyof typeof PLACES];
  people: PersonIn[];
  income: number;
  extra?: Record<string, unknown>;
}> = [
  { name: "TX single 40, high income (no credit)", place: PLACES.dallas, people: [self(40)], income: 200_000 },
  {
    name: "TX family of four, credit",
    place: PLACES.dallas,
    people: [self(40), spouse(38), child(10), child(7)],
    income: 90_000,
  },
  { name: "TX single 27 near poverty (CSR 94 silver)", place: PLACES.dallas, people: [self(27)], income: 18_000 },
  {
    name: "TX smoker 50 with spouse, sorted by yearly cost",
    place: PLACES.dallas,
    people: [self(50, true), spouse(48)],
    income: 45_000,
    extra: { sort: "yearly_cost", order: "desc", usage: "high" },
  },
  {
    name: "TX filtered to silver",
    place: PLACES.travisInList,
    people: [self(35)],
    income: 30_000,
    extra: { filters: { metal_levels: ["Silver"] } },
  },
  { name: "NY couple (own eligibility)", place: PLACES.kings, people: [self(60), spouse(61)], income: 40_000 },
  {
    name: "NY single 22, sorted by deductible",
    place: PLACES.newYork,
    people: [self(22)],
    income: 25_000,
    extra: { sort: "deductible" },
  },
  {
    name: "TX couple, second page of 10 by premium (docs/decisions/119)",
    place: PLACES.dallas,
    people: [self(45), spouse(44)],
    income: 70_000,
    extra: { limit: 10, offset: 10 },
  },
  {
    name: "TX single 30, page past the end (empty plans)",
    place: PLACES.dallas,
    people: [self(30)],
    income: 40_000,
    extra: { limit: 5, offset: 1000 },
  },
];

describe("the /api/plans body from JSON parts", () => {
  it.each(households)("is JSON.stringify's text exactly: $name", async ({ place, people, income, extra }) => {
    const request = PlansRequest.parse(shoppingBody(place, people, income, extra ?? {}));
    // Twice: the first pricing fills the part memos, the second reads them.
    for (let round = 0; round < 2; round++) {
      const answer = await pricePlans(request);
      if (request.offset < answer.plan_count) expect(answer.plans.length).toBeGreaterThan(0);
      expect(answer.plans.length).toBe(Math.max(0, Math.min(request.limit, answer.plan_count - request.offset)));
      const text = plansAnswerJson(answer);
      expect(text).toBe(JSON.stringify(answer));
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(answer)));
    }
  });

  it("covers CSR variants and credits among the households above", async () => {
    const request = PlansRequest.parse(shoppingBody(PLACES.dallas, [self(27)], 18_000));
    const answer = await pricePlans(request);
    expect(answer.plans.some((p) => p.csr_variant !== null)).toBe(true);
    expect(answer.plans.some((p) => p.credit_applied > 0)).toBe(true);
  });

  it("answers the route with the same body pricePlans' answer stringifies to", async () => {
    const body = shoppingBody(PLACES.dallas, [self(40), spouse(38), child(10), child(7)], 90_000);
    const viaRoute = await postJson(plansRoute, "/api/plans", body);
    expect(viaRoute.status).toBe(200);
    const direct = await pricePlans(PlansRequest.parse(body));
    expect(viaRoute.body).toEqual(JSON.parse(JSON.stringify(direct)));
  });

  it("stringifies a plan it has no parts for (changed after pricing) from the object itself", async () => {
    const answer = await pricePlans(PlansRequest.parse(shoppingBody(PLACES.dallas, [self(40)], 60_000)));
    const copy = { ...answer, plans: answer.plans.map((p) => ({ ...p, name: `${p.name} (copy)` })) };
    expect(plansAnswerJson(copy)).toBe(JSON.stringify(copy));
  });
});
