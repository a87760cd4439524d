import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { logger } from "../../../app/server/platform/logger.server";
import {
  countiesByZip,
  csrLevel,
  drugsAutocomplete,
  drugsCovered,
  eligibilityEstimates,
  observeUpstreamCalls,
  providersAutocomplete,
  searchPlans,
  UpstreamRejectedError,
  UpstreamUnavailableError,
  upstreamStatus,
  type UpstreamCallRecord,
} from "../../../app/server/upstream/client.server";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import { configureService, DALLAS_PLANS, startConfiguredFake, TEST_KEY } from "./helpers";

// The upstream client against the fake over real HTTP (real timers).
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startConfiguredFake();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  await fake.setMode("normal");
  configureService({ MARKETPLACE_API_BASE_URL: fake.url, MARKETPLACE_API_KEY: TEST_KEY });
});
afterEach(() => vi.restoreAllMocks());

const syntheticPlans = (n: number) => Array.from({ length: n }, (_, i) => `99999TX${String(i).padStart(7, "0")}`);
const TX_HOUSEHOLD = {
  household: { income: 36_000, people: [{ age: 35, aptc_eligible: true }] },
  place: { countyfips: "48113", state: "TX", zipcode: "75001" },
  year: 2027,
};

describe("the key", () => {
  it("is sent as the apikey query parameter, never with a trailing literal backslash-n", async () => {
    // A secret store's copy-paste artefact: the literal characters "\" and "n" at the end.
    configureService({ MARKETPLACE_API_BASE_URL: fake.url, MARKETPLACE_API_KEY: `${TEST_KEY}\\n` });
    const drugs = await drugsAutocomplete("lipitor");
    expect(drugs.map((d) => d.rxcui)).toContain("617318");
    expect(fake.calls).toHaveLength(1);
    const sent = fake.calls[0].query.apikey;
    expect(sent).toBe(TEST_KEY);
    expect(sent.endsWith("\\n")).toBe(false);
    expect(fake.calls[0].rawQuery).not.toMatch(/%5Cn/i);
  });

  it("makes no call at all when no key is configured (reported as not configured)", async () => {
    configureService({ MARKETPLACE_API_BASE_URL: fake.url, MARKETPLACE_API_KEY: "  \\n" });
    const error = await drugsAutocomplete("lipitor").catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error.reason).toBe("not_configured");
    expect(fake.calls).toHaveLength(0);
    expect(upstreamStatus()).toMatchObject({ configured: false, sample: false });
  });

  it("defaults to the real API's base URL when none is set", () => {
    configureService({ MARKETPLACE_API_BASE_URL: undefined, MARKETPLACE_API_KEY: TEST_KEY, UPSTREAM_IS_SAMPLE: "1" });
    expect(upstreamStatus()).toMatchObject({
      baseUrl: "https://marketplace.api.healthcare.gov/api/v1",
      configured: true,
      sample: true,
    });
  });
});

describe("cache and coalescing", () => {
  it("answers a repeated autocomplete from the cache without a second upstream call", async () => {
    const first = await drugsAutocomplete("lipit");
    const second = await drugsAutocomplete("  LIPIT ");
    expect(second).toEqual(first);
    expect(fake.calls.filter((c) => c.path.endsWith("/drugs/autocomplete"))).toHaveLength(1);
  });

  it("shares one upstream call among identical look-ups in flight", async () => {
    const answers = await Promise.all([
      providersAutocomplete("aver", "75001", "Individual"),
      providersAutocomplete("aver", "75001", "Individual"),
      providersAutocomplete("Aver", "75001", "Individual"),
      countiesByZip("75007"),
      countiesByZip("75007"),
    ]);
    expect(answers[0]).toEqual(answers[2]);
    expect(answers[3].map((c) => c.fips)).toEqual(["48121", "48113", "48085"]);
    expect(fake.calls.filter((c) => c.path.endsWith("/providers/autocomplete"))).toHaveLength(1);
    expect(fake.calls.filter((c) => c.path.includes("/counties/by/zip/"))).toHaveLength(1);
    await countiesByZip("75007");
    expect(fake.calls.filter((c) => c.path.includes("/counties/by/zip/"))).toHaveLength(1);
  });

  it("does not cache a failure: the next look-up asks again", async () => {
    await fake.setMode("503");
    await expect(drugsAutocomplete("lisinopril")).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await fake.setMode("normal");
    const drugs = await drugsAutocomplete("lisinopril");
    expect(drugs.map((d) => d.rxcui)).toEqual(["314077"]);
    expect(fake.calls).toHaveLength(2);
  });
});

describe("coverage batching", () => {
  it("asks about 25 plans in 3 upstream calls of at most 10 comma-joined plan ids", async () => {
    const plans = [...DALLAS_PLANS, ...syntheticPlans(12)];
    const result = await drugsCovered(["617318", "861007"], plans, { year: 2027 });
    const calls = fake.calls.filter((c) => c.path.endsWith("/drugs/covered"));
    expect(result.calls).toBe(3);
    expect(calls).toHaveLength(3);
    const sent = calls.map((c) => c.query.planids.split(","));
    expect(sent.map((ids) => ids.length).sort()).toEqual([10, 10, 5]);
    expect(sent.flat().sort()).toEqual([...plans].sort());
    expect(calls.every((c) => c.query.drugs === "617318,861007" && c.query.year === "2027")).toBe(true);
    // Literal commas on the wire, not %2C.
    expect(calls.every((c) => c.rawQuery.includes("planids=") && !/%2C/i.test(c.rawQuery))).toBe(true);
    expect(result.failedPlanIds).toEqual([]);
  });

  it("keeps at most UPSTREAM_MAX_CONCURRENCY calls in flight", async () => {
    configureService({
      MARKETPLACE_API_BASE_URL: fake.url,
      MARKETPLACE_API_KEY: TEST_KEY,
      UPSTREAM_MAX_CONCURRENCY: "2",
    });
    fake.reset();
    const result = await drugsCovered(["617318"], syntheticPlans(60), { year: 2027 });
    expect(result.calls).toBe(6);
    expect(fake.calls).toHaveLength(6);
    expect(fake.maxInFlight).toBeLessThanOrEqual(2);
  });

  it("reports the plan ids of a failed batch and keeps the others' rows", async () => {
    const plans = DALLAS_PLANS.slice(0, 12);
    await fake.setMode("500", { only: (call) => call.query.planids?.split(",").includes("22222TX0020002") });
    const result = await drugsCovered(["617318"], plans, { year: 2027 });
    expect(result.failedPlanIds).toEqual(plans.slice(10));
    expect(result.rows.some((r) => r.plan_id === "11111TX0010001" && r.coverage === "Covered")).toBe(true);
    expect(result.rows.every((r) => !plans.slice(10).includes(r.plan_id))).toBe(true);
  });

  it("throws UpstreamUnavailableError when every batch fails", async () => {
    await fake.setMode("500");
    const error = await drugsCovered(["617318"], DALLAS_PLANS, { year: 2027 }).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error.reason).toBe("server_error");
    expect(error.status).toBe(500);
  });
});

describe("outage classification", () => {
  it.each([
    ["500", "server_error"],
    ["503", "server_error"],
    ["429", "rate_limited"],
    ["malformed", "malformed"],
    ["refuse", "connection"],
  ] as const)("mode %s → UpstreamUnavailableError(%s)", async (mode, reason) => {
    await fake.setMode(mode);
    const error = await countiesByZip("75001").catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error.reason).toBe(reason);
    expect(upstreamStatus().lastOutage).toMatchObject({ operation: "counties.by_zip", reason });
  });

  it("aborts a slow answer at the timeout and counts time queued behind the cap toward it", async () => {
    configureService({
      MARKETPLACE_API_BASE_URL: fake.url,
      MARKETPLACE_API_KEY: TEST_KEY,
      UPSTREAM_MAX_CONCURRENCY: "1",
      UPSTREAM_TIMEOUT_MS: "300",
    });
    await fake.setMode("slow");
    const started = performance.now();
    const [first, second] = await Promise.all([
      countiesByZip("75001").catch((e) => e),
      countiesByZip("75201").catch((e) => e),
    ]);
    expect(first).toMatchObject({ name: "UpstreamUnavailableError", reason: "timeout" });
    expect(second).toMatchObject({ name: "UpstreamUnavailableError", reason: "busy" });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(fake.calls).toHaveLength(1);
  });

  it("treats a rejected key as an outage and a refused request as a rejection", async () => {
    configureService({ MARKETPLACE_API_BASE_URL: fake.url, MARKETPLACE_API_KEY: "a-different-key-0123456789" });
    expect(await countiesByZip("75001").catch((e) => e)).toMatchObject({
      name: "UpstreamUnavailableError",
      reason: "unauthorized",
      status: 401,
    });
    configureService({ MARKETPLACE_API_BASE_URL: fake.url, MARKETPLACE_API_KEY: TEST_KEY });
    const error = await eligibilityEstimates({
      ...TX_HOUSEHOLD,
      place: { countyfips: "36061", state: "NY", zipcode: "10001" },
    }).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamRejectedError);
    expect(error).toMatchObject({ status: 400, upstreamMessage: "state is not a valid marketplace state" });
  });

  it("treats an answer in the spec's envelope instead of the real one as malformed", async () => {
    // A bare array is the real shape of /drugs/autocomplete; the counties endpoint must be {counties}.
    const { CountiesResponse, DrugAutocompleteResponse } = await import("../../../app/server/upstream/schemas.server");
    expect(DrugAutocompleteResponse.safeParse({ drugs: [] }).success).toBe(false);
    expect(CountiesResponse.safeParse([]).success).toBe(false);
  });
});

describe("household operations", () => {
  it("eligibility estimates for the TX scenario: non-zero aptc and csr 73, year sent in query and body", async () => {
    const [estimate] = await eligibilityEstimates(TX_HOUSEHOLD);
    // Worked in fake-rules.test.ts: 482.69 − 36,000 × 7.72% / 12 = 251.09.
    expect(estimate.aptc).toBeCloseTo(251.09, 6);
    expect(csrLevel(estimate.csr)).toBe("73");
    expect(estimate.is_medicaid_chip).toBe(false);
    const call = fake.calls.at(-1)!;
    expect(call.query.year).toBe("2027");
    expect(call.body).toMatchObject({ year: 2027, market: "Individual" });
  });

  it("plan search pages until the total (13 plans: 2 calls) and returns each plan once", async () => {
    const result = await searchPlans({ ...TX_HOUSEHOLD, market: "Individual" });
    expect(result.total).toBe(13);
    expect(result.plans.map((p) => p.id).sort()).toEqual([...DALLAS_PLANS].sort());
    const calls = fake.calls.filter((c) => c.path.endsWith("/plans/search"));
    expect(calls.map((c) => (c.body as { offset: number }).offset).sort((a, b) => a - b)).toEqual([0, 10]);
    expect(result.rate_area).toEqual({ state: "TX", area: 8 });
  });

  it("reads the CSR level from the API's text", () => {
    expect(csrLevel("94% AV Level Silver Plan CSR")).toBe("94");
    expect(csrLevel("87% AV Level Silver Plan CSR")).toBe("87");
    expect(csrLevel("Exchange variant (no CSR)")).toBeNull();
    expect(csrLevel(undefined)).toBeNull();
  });
});

describe("logging", () => {
  it("writes one line per upstream call with operation, status and duration, and no personal data", async () => {
    const lines: unknown[] = [];
    const log = logger();
    vi.spyOn(log, "info").mockImplementation(((obj: unknown) => void lines.push(obj)) as never);
    vi.spyOn(log, "warn").mockImplementation(((obj: unknown) => void lines.push(obj)) as never);
    const records: UpstreamCallRecord[] = [];
    const stop = observeUpstreamCalls((r) => records.push(r));
    await drugsAutocomplete("sertraline");
    await eligibilityEstimates(TX_HOUSEHOLD);
    await fake.setMode("503");
    await countiesByZip("75201").catch(() => undefined);
    stop();
    // The year 2027 asked /market-years first (once a day): a line of its own, kept apart here.
    const yearsLines = lines.filter((l) => (l as { operation?: string }).operation === "market_years");
    expect(yearsLines).toHaveLength(1);
    lines.splice(0, lines.length, ...lines.filter((l) => !yearsLines.includes(l)));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      event: "upstream_call",
      operation: "drugs.autocomplete",
      status: 200,
      outcome: "ok",
    });
    expect(lines[2]).toMatchObject({ operation: "counties.by_zip", status: 503, outcome: "server_error" });
    for (const line of lines) expect(typeof (line as { durationMs: unknown }).durationMs).toBe("number");
    const text = JSON.stringify(lines);
    for (const secret of ["sertraline", "36000", "75201", "75001", TEST_KEY, "apikey"])
      expect(text).not.toContain(secret);
    expect(records.map((r) => r.operation)).toEqual([
      "drugs.autocomplete",
      "market_years",
      "eligibility.estimates",
      "counties.by_zip",
    ]);
  });
});
