import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as counties from "../../../app/routes/api.counties";
import * as plansRoute from "../../../app/routes/api.plans";
import { ApiError } from "../../../app/server/platform/api.server";
import { openPlanStore, type PlanStore } from "../../../app/server/plan-store/plan-store.server";
import { resolvePlanYear } from "../../../app/server/shopping/plan-year.server";
import {
  configureShopping,
  dropPlanYear,
  editedStoreCopy,
  getJson,
  postJson,
} from "../../integration/shopping/helpers";

/**
 * `year` defaults to the plan year being shopped on the request date: from
 * 1 November (US Eastern calendar), next year's when its data is loaded
 * (spec decision 3; docs/decisions/017 and 090). Real plan stores: a copy of
 * the test store with its 2026 rows removed (2027 only) and a copy whose 2026
 * year holds one plan.
 */
let only2027: PlanStore;
let only2027Copy: { file: string; remove(): void };
let both: PlanStore;
let bothCopy: { file: string; remove(): void };

beforeAll(() => {
  only2027Copy = editedStoreCopy((db) => dropPlanYear(db, 2026));
  only2027 = openPlanStore(only2027Copy.file);
  bothCopy = editedStoreCopy((db) => {
    dropPlanYear(db, 2026);
    db.exec(`CREATE TEMP TABLE one AS SELECT * FROM plans WHERE plan_id = '10101TX0010001';
             UPDATE one SET plan_year = 2026;
             INSERT INTO plans SELECT * FROM one;`);
  });
  both = openPlanStore(bothCopy.file);
});
afterAll(() => {
  only2027.close();
  only2027Copy.remove();
  both.close();
  bothCopy.remove();
});

function yearError(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe("resolvePlanYear with explicit request dates", () => {
  it("the stores hold what the test assumes", () => {
    expect(only2027.yearsWithData()).toEqual([2027]);
    expect(both.yearsWithData()).toEqual([2026, 2027]);
  });

  it("in open enrollment (from 1 November) next year's plans are shopped", () => {
    expect(resolvePlanYear(undefined, only2027, new Date("2026-11-21T15:00:00Z"))).toBe(2027);
    expect(resolvePlanYear(undefined, both, new Date("2026-11-01T12:00:00Z"))).toBe(2027);
    expect(resolvePlanYear(undefined, both, new Date("2026-12-31T12:00:00Z"))).toBe(2027);
  });

  it("before 1 November the current year is shopped", () => {
    expect(resolvePlanYear(undefined, both, new Date("2026-10-31T12:00:00Z"))).toBe(2026);
    expect(resolvePlanYear(undefined, both, new Date("2026-03-15T12:00:00Z"))).toBe(2026);
  });

  it("the date is read on the US Eastern calendar: 03:30 UTC on 1 November is still 31 October in New York", () => {
    expect(resolvePlanYear(undefined, both, new Date("2026-11-01T03:30:00Z"))).toBe(2026);
    expect(resolvePlanYear(undefined, both, new Date("2026-11-01T04:30:00Z"))).toBe(2027);
  });

  it("the date reused within a clock minute still turns at New York midnight, to the second", () => {
    // 31 October 23:59:59 EDT is 03:59:59 UTC on 1 November; one second later it is 1 November there.
    expect(resolvePlanYear(undefined, both, new Date("2026-11-01T03:59:30Z"))).toBe(2026);
    expect(resolvePlanYear(undefined, both, new Date("2026-11-01T03:59:59Z"))).toBe(2026);
    expect(resolvePlanYear(undefined, both, new Date("2026-11-01T04:00:00Z"))).toBe(2027);
    expect(resolvePlanYear(undefined, both, new Date("2026-11-01T04:00:59Z"))).toBe(2027);
    expect(resolvePlanYear(undefined, both, new Date("2026-11-01T03:59:59Z"))).toBe(2026);
  });

  it("a shopped year without data is a 404 naming it, not an empty answer", () => {
    const error = yearError(() => resolvePlanYear(undefined, only2027, new Date("2026-10-15T12:00:00Z")));
    expect(error).toMatchObject({ status: 404, code: "year_not_available" });
    expect(error.message).toContain("2026");
    expect(error.fields?.year).toContain("2027");
    // In January 2028 with only 2027 loaded the shopper is told 2028 has no data yet.
    expect(yearError(() => resolvePlanYear(undefined, only2027, new Date("2028-01-10T12:00:00Z"))).message).toContain(
      "2028",
    );
  });

  it("a requested year is used as asked, and one without data is a 404 naming it", () => {
    expect(resolvePlanYear(2026, both, new Date("2026-11-21T12:00:00Z"))).toBe(2026);
    const error = yearError(() => resolvePlanYear(2031, only2027));
    expect(error).toMatchObject({ status: 404, code: "year_not_available" });
    expect(error.message).toBe("No plan data for plan year 2031.");
  });
});

describe("the routes without a year, on a mocked clock", () => {
  beforeAll(() => configureShopping({ planStore: only2027Copy.file }));
  afterEach(() => vi.useRealTimers());

  it("on 21 November 2026 /api/counties and /api/plans answer for 2027", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-21T15:00:00Z"));
    const county = await getJson(counties, "/api/counties?zip=11201");
    expect(county.body.year).toBe(2027);
    const priced = await postJson(plansRoute, "/api/plans", {
      income: 60_000,
      household: { people: [{ age: 40 }] },
      place: { state: "NY", county_fips: "36047", zip: "11201" },
    });
    expect(priced.status).toBe(200);
    expect(priced.body.year).toBe(2027);
  });

  it("on 20 October 2026, with only 2027 loaded, they answer 404 naming 2026", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-10-20T15:00:00Z"));
    const county = await getJson(counties, "/api/counties?zip=11201");
    expect(county.status).toBe(404);
    expect(county.body.error.message).toContain("2026");
    // Asking for 2027 explicitly still works.
    const asked = await getJson(counties, "/api/counties?zip=11201&year=2027");
    expect(asked.status).toBe(200);
  });
});
