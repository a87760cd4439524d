import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as health from "../../../app/routes/api.health";
import { logger } from "../../../app/server/platform/logger.server";
import { EligibilityEstimateSchema } from "../../../app/server/upstream/schemas.server";
import {
  drugsAutocomplete,
  drugsCovered,
  eligibilityEstimates,
  marketYears,
  UpstreamRejectedError,
  UpstreamUnavailableError,
  upstreamProblem,
  upstreamStatus,
} from "../../../app/server/upstream/client.server";
import { UpstreamBudget } from "../../../app/server/upstream/budget.server";
import { startFakeUpstream, type FakeUpstream } from "../../../mocks/cms-api/index";
import { configureService, DALLAS_PLANS, FIXTURE_DIR, startConfiguredFake, TEST_KEY } from "./helpers";

// What the real API does that the notes-built client tripped on (issue 16):
// the estimate without aptc, the years it serves, its error bodies, a rejected
// key, its rate limit, and coverage answers kept per pair.
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startConfiguredFake();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  fake.setRateLimit(undefined);
  await fake.setMode("normal");
  configureService({ MARKETPLACE_API_BASE_URL: fake.url, MARKETPLACE_API_KEY: TEST_KEY });
});
afterEach(() => vi.restoreAllMocks());

const TX_HOUSEHOLD = {
  household: { income: 36_000, people: [{ age: 35, aptc_eligible: true }] },
  place: { countyfips: "48113", state: "TX", zipcode: "75001" },
};

describe("the Medicaid-level estimate", () => {
  it("parses without aptc, and with aptc null, as aptc 0 with is_medicaid_chip as sent; unknown fields ignored", () => {
    expect(EligibilityEstimateSchema.parse({ is_medicaid_chip: true, in_coverage_gap: false })).toEqual({
      aptc: 0,
      is_medicaid_chip: true,
      in_coverage_gap: false,
    });
    expect(EligibilityEstimateSchema.parse({ aptc: null, is_medicaid_chip: true, some_new_field: "x" })).toEqual({
      aptc: 0,
      is_medicaid_chip: true,
    });
    expect(EligibilityEstimateSchema.parse({ aptc: 448.08296071163227 }).aptc).toBe(448.08296071163227);
  });
});

describe("plan years", () => {
  it("asks /market-years once and answers a year upstream does not serve without calling it", async () => {
    expect(await marketYears()).toEqual({ current: 2027, supported: [2027] });
    const error = await eligibilityEstimates({ ...TX_HOUSEHOLD, year: 2028 }).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamRejectedError);
    expect(error.upstreamMessage).toBe("Invalid market year");
    expect(upstreamProblem(error)).toMatchObject({ kind: "year_not_served", code: "upstream_year_not_served" });
    expect(upstreamProblem(error).message).toContain("plan year 2028");
    expect(upstreamProblem(error).message).not.toMatch(/ZIP/);
    const covered = await drugsCovered(["617318"], DALLAS_PLANS, { year: 2028 }).catch((e) => e);
    expect(covered).toBeInstanceOf(UpstreamRejectedError);
    expect(fake.calls).toHaveLength(0);
    expect(fake.marketYearsCalls).toBe(1);
  });

  it("gives the year message, not the place message, when upstream itself says Invalid market year", async () => {
    // A fake serving only 2026: the client sees 2027 refused by upstream's own 400 body.
    const stale = await startFakeUpstream({ apiKey: TEST_KEY, dataDir: FIXTURE_DIR, years: [2026] });
    try {
      configureService({ MARKETPLACE_API_BASE_URL: stale.url, MARKETPLACE_API_KEY: TEST_KEY });
      const raw = await fetch(
        `${stale.url}/drugs/covered?drugs=617318&planids=11111TX0010001&year=2027&apikey=${TEST_KEY}`,
      );
      expect(raw.status).toBe(400);
      expect(await raw.json()).toEqual({ message: "Invalid market year" });
      const error = await eligibilityEstimates({ ...TX_HOUSEHOLD, year: 2027 }).catch((e) => e);
      expect(upstreamProblem(error).code).toBe("upstream_year_not_served");
    } finally {
      await stale.close();
    }
  });

  it("classifies each kind of upstream refusal with its own code", () => {
    const rejected = (status: number, code: string | null, message: string) =>
      upstreamProblem(new UpstreamRejectedError("plans.search", status, code, message)).code;
    expect(rejected(400, null, "state is not a valid marketplace state")).toBe("upstream_state_not_served");
    expect(rejected(400, null, "place: (countyfips: cannot be blank.)")).toBe("upstream_bad_place");
    expect(rejected(404, "1017", "rate area not found")).toBe("upstream_bad_place");
    expect(rejected(404, "1006", "Plan not found")).toBe("upstream_bad_code");
    expect(rejected(400, null, "planids: the number of plan ids must be between 1 and 10")).toBe("upstream_bad_code");
    expect(rejected(404, "1016", "not enough plans to calculate SLCSP/LCBP")).toBe("upstream_refused");
    const outage = (reason: ConstructorParameters<typeof UpstreamUnavailableError>[1]) =>
      upstreamProblem(new UpstreamUnavailableError("plans.search", reason)).code;
    expect(outage("unauthorized")).toBe("upstream_key_rejected");
    expect(outage("busy")).toBe("upstream_busy");
    expect(outage("rate_limited")).toBe("upstream_busy");
    expect(outage("timeout")).toBe("upstream_unavailable");
  });
});

describe("a rejected key", () => {
  it("shows in /api/health as key_rejected and is logged once a minute, not per call", async () => {
    const errors: unknown[] = [];
    const log = logger();
    vi.spyOn(log, "error").mockImplementation(((obj: unknown) => void errors.push(obj)) as never);
    const warn = vi.spyOn(log, "warn");
    await fake.setMode("key_rejected");
    for (const q of ["lipitor", "sertraline", "metformin", "lisinopril"]) {
      const error = await drugsAutocomplete(q).catch((e) => e);
      expect(upstreamProblem(error).code).toBe("upstream_key_rejected");
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ event: "upstream_key_rejected", status: 401 });
    expect(JSON.stringify(errors)).not.toContain(TEST_KEY);
    expect(warn).not.toHaveBeenCalled();
    const answer = await health.loader({
      request: new Request("http://localhost/api/health"),
      params: {},
      context: {},
    });
    expect((await (answer as Response).json()).upstream).toBe("key_rejected");
    // Upstream answers again: health says so at once.
    await fake.setMode("normal");
    await drugsAutocomplete("amlodipine");
    expect(upstreamStatus().keyRejected).toBe(false);
  });
});

describe("the fake's own rate limit", () => {
  it("answers 429 with Retry-After over its per-minute limit, and the client answers busy, not unavailable", async () => {
    fake.setRateLimit({ perMinute: 2 });
    // The client's budget is told the same limit, so it holds itself back before the fake must.
    configureService({
      MARKETPLACE_API_BASE_URL: fake.url,
      MARKETPLACE_API_KEY: TEST_KEY,
      UPSTREAM_CALLS_PER_MINUTE: "1000",
    });
    const raw = [];
    for (let i = 0; i < 3; i++) raw.push(await fetch(`${fake.url}/drugs/autocomplete?q=lipit&apikey=${TEST_KEY}`));
    expect(raw.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(Number(raw[2].headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await raw[2].json()).toEqual({ message: "API rate limit exceeded" });
    const error = await drugsAutocomplete("sertraline").catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error.reason).toBe("rate_limited");
    expect(upstreamProblem(error).kind).toBe("over_budget");
    expect(upstreamStatus().paused).toBe(true);
    expect(fake.rateLimited).toBeGreaterThanOrEqual(2);
  });
});

describe("the call budget", () => {
  it("keeps every minute under 90 % of the limit and gives eligibility the last 15 % of each 2 s", async () => {
    const budget = new UpstreamBudget(`test-${Math.random()}`, { perMinute: 1000, perSecond: 200 });
    // floor(1000 x 0.9 / 31) = 29 a 2 s window; the 31 windows any minute overlaps hold 899 < 1000.
    expect(budget.stepPoints).toBe(29);
    expect(budget.stepPoints * 31).toBeLessThanOrEqual(900);
    const soon = () => Date.now() + 20; // no time to wait for a refill
    const drain = async (priority: "eligibility" | "coverage" | "autocomplete") => {
      let n = 0;
      while (
        await budget.take(priority, soon()).then(
          () => true,
          () => false,
        )
      )
        n++;
      return n;
    };
    const autocomplete = await drain("autocomplete");
    const coverage = await drain("coverage");
    const eligibility = await drain("eligibility");
    expect(autocomplete).toBe(17); // floor(29 x 0.6)
    expect(coverage).toBe(7); // floor(29 x 0.85) = 24, shared with autocomplete
    expect(eligibility).toBe(5); // the rest of 29
    expect(budget.snapshot().refused).toEqual({ eligibility: 1, coverage: 1, autocomplete: 1 });
  });

  it("waits for the next refill when the deadline allows it", async () => {
    const budget = new UpstreamBudget(`test-${Math.random()}`, { perMinute: 1000, perSecond: 2 });
    // floor(2 x 0.9 / 2) = 0 → at least one call a second.
    const started = Date.now();
    await budget.take("eligibility", started + 3000);
    await budget.take("eligibility", started + 3000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});

describe("coverage answers kept per (year, code, plan)", () => {
  it("asks upstream once for the same pairs, however many shoppers ask, and only for pairs not kept", async () => {
    const first = await drugsCovered(["617318"], DALLAS_PLANS, { year: 2027 });
    expect(first.calls).toBe(2);
    const again = await drugsCovered(["617318"], DALLAS_PLANS.slice(0, 5), { year: 2027 });
    expect(again.calls).toBe(0);
    expect(again.rows).toEqual(first.rows.filter((r) => DALLAS_PLANS.slice(0, 5).includes(r.plan_id)));
    // A second drug: only it is asked, and only once for all 13 plans (2 batches).
    fake.reset();
    const both = await drugsCovered(["617318", "861007"], DALLAS_PLANS, { year: 2027 });
    expect(fake.calls.map((c) => c.query.drugs)).toEqual(["861007", "861007"]);
    expect(both.rows.filter((r) => r.rxcui === "617318")).toEqual(first.rows);
    // Plans it has no data for answer DataNotProvided (unknown), as live.
    const unknown = await drugsCovered(["617318"], ["99999TX0000001"], { year: 2027 });
    expect(unknown.rows).toEqual([{ rxcui: "617318", plan_id: "99999TX0000001", coverage: "DataNotProvided" }]);
  });

  it("shares one call among identical batches in flight", async () => {
    await Promise.all(
      Array.from({ length: 5 }, () => drugsCovered(["617318"], DALLAS_PLANS.slice(0, 10), { year: 2027 })),
    );
    expect(fake.calls).toHaveLength(1);
  });
});
