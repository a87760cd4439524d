import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as plansRoute from "../../../app/routes/api.plans";
import { PlansRequest, PlansResponse } from "../../../app/schemas/shopping";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import {
  PLACES,
  postJson,
  self,
  shoppingBody,
  spouse,
  startShoppingFake,
  type Body,
} from "../../integration/shopping/helpers";

/** POST /api/plans pages its list like the upstream search (docs/decisions/119-plan-list-pages.md). */

describe("the paging fields of PlansRequest", () => {
  const body = shoppingBody(PLACES.dallas, [self(40)], 60_000);

  it("defaults to the first 50 plans", () => {
    const parsed = PlansRequest.parse(body);
    expect(parsed.limit).toBe(50);
    expect(parsed.offset).toBe(0);
  });

  it.each([
    ["limit", 0],
    ["limit", 501],
    ["limit", 2.5],
    ["offset", -1],
  ])("answers 400 naming %s for %s", async (field, value) => {
    const res = await postJson(plansRoute, "/api/plans", { ...body, [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(Object.keys(res.body.error.fields)).toContain(field);
  });
});

describe("POST /api/plans pages", () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startShoppingFake();
  });
  afterAll(() => fake.close());

  // Dallas sample data: 32 plans, all one page at the default limit.
  const body = shoppingBody(PLACES.dallas, [self(45), spouse(44)], 70_000, { sort: "yearly_cost", order: "desc" });

  it("sorts over every plan, then slices: pages of 10 put together are the whole list", async () => {
    const whole = await postJson(plansRoute, "/api/plans", { ...body, limit: 500 });
    expect(whole.status).toBe(200);
    PlansResponse.parse(whole.body);
    const all = (whole.body.plans as Body[]).map((p) => p.id);
    expect(all.length).toBe(whole.body.plan_count);
    expect(whole.body.plan_count).toBeGreaterThan(20);
    const costs = (whole.body.plans as Body[]).map((p) => p.estimated_yearly_cost as number);
    expect(costs).toEqual([...costs].sort((a, b) => b - a));

    const pages: string[] = [];
    for (let offset = 0; offset < whole.body.plan_count; offset += 10) {
      const page = await postJson(plansRoute, "/api/plans", { ...body, limit: 10, offset });
      expect(page.status).toBe(200);
      PlansResponse.parse(page.body);
      expect(page.body.limit).toBe(10);
      expect(page.body.offset).toBe(offset);
      // The counts are of the whole list, on every page.
      expect(page.body.plan_count).toBe(whole.body.plan_count);
      expect(page.body.total_plan_count).toBe(whole.body.total_plan_count);
      expect(page.body.plans.length).toBe(Math.min(10, whole.body.plan_count - offset));
      pages.push(...(page.body.plans as Body[]).map((p) => p.id as string));
    }
    expect(pages).toEqual(all);
  });

  it("keeps plan_count of the filters across pages", async () => {
    const filtered = { ...body, filters: { metal_levels: ["Silver"] } };
    const first = await postJson(plansRoute, "/api/plans", { ...filtered, limit: 2 });
    const whole = await postJson(plansRoute, "/api/plans", filtered);
    expect(first.body.plans.length).toBe(2);
    expect(first.body.plan_count).toBe(whole.body.plans.length);
    expect(first.body.plan_count).toBeLessThan(first.body.total_plan_count);
    expect((first.body.plans as Body[]).map((p) => p.id)).toEqual(
      (whole.body.plans as Body[]).slice(0, 2).map((p) => p.id),
    );
  });

  it("answers an empty page, with the counts, for an offset past the end", async () => {
    const res = await postJson(plansRoute, "/api/plans", { ...body, offset: 5000 });
    expect(res.status).toBe(200);
    expect(res.body.plans).toEqual([]);
    expect(res.body.offset).toBe(5000);
    expect(res.body.plan_count).toBeGreaterThan(20);
  });
});
