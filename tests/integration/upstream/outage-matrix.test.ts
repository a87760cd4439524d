import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as drugsAutocomplete from "../../../app/routes/api.drugs.autocomplete";
import * as drugsCovered from "../../../app/routes/api.drugs.covered";
import * as providersAutocomplete from "../../../app/routes/api.providers.autocomplete";
import * as providersCovered from "../../../app/routes/api.providers.covered";
import { setOwnDataSourceForTests } from "../../../app/server/upstream/lookups.server";
import type { FakeUpstream, FakeUpstreamMode } from "../../../mocks/cms-api/index";
import {
  callRoute,
  configureService,
  DALLAS_PLANS,
  jsonPost,
  ownRowsFrom,
  type RouteModule,
  startConfiguredFake,
  TEST_KEY,
} from "./helpers";

// Every upstream-using route × every kind of outage: a 200 with the degraded
// answer the specification names (autocomplete → no results, coverage → empty
// coverage), a field saying upstream was unavailable, within about 5.5 s.
// Real timers and the real fake; the slow case runs all routes at once.
const TIME_BOUND_MS = 5_500;

interface RouteCase {
  name: string;
  route: RouteModule;
  path: string;
  body: unknown;
  degraded: Record<string, unknown>;
}
const ROUTES: RouteCase[] = [
  {
    name: "drugs/autocomplete",
    route: drugsAutocomplete,
    path: "/api/drugs/autocomplete",
    body: { query: "lipitor" },
    degraded: { drugs: [], upstream: "unavailable" },
  },
  {
    name: "providers/autocomplete",
    route: providersAutocomplete,
    path: "/api/providers/autocomplete",
    body: { query: "avery", zip: "75001" },
    degraded: { providers: [], upstream: "unavailable", failedTypes: ["Individual", "Facility", "Group"] },
  },
  {
    name: "drugs/covered",
    route: drugsCovered,
    path: "/api/drugs/covered",
    body: { rxcuis: ["617318", "861007"], plan_ids: DALLAS_PLANS, year: 2027 },
    degraded: { coverage: [], upstream: "unavailable", year: 2027 },
  },
  {
    name: "providers/covered",
    route: providersCovered,
    path: "/api/providers/covered",
    body: { npis: ["1000000004"], plan_ids: DALLAS_PLANS, year: 2027 },
    degraded: { coverage: [], upstream: "unavailable", year: 2027 },
  },
];

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startConfiguredFake();
  // Own rows exist: the outage answer must still be empty coverage, as specified.
  ownRowsFrom({
    formulary: [
      {
        rxcui: "617318",
        planId: "11111TX0010001",
        drugTier: "BRAND",
        priorAuth: false,
        stepTherapy: false,
        quantityLimit: false,
      },
    ],
    network: [{ npi: "1000000004", planId: "11111TX0010001", networkTier: "PREFERRED" }],
  });
});
afterAll(async () => {
  setOwnDataSourceForTests(undefined);
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  // A fresh client per case: nothing answered from the cache of an earlier case.
  configureService({ MARKETPLACE_API_BASE_URL: fake.url, MARKETPLACE_API_KEY: TEST_KEY });
});

async function expectDegraded(c: RouteCase, upstream: "unavailable" | "busy" = "unavailable", noticeCode?: string) {
  const { status, body, ms } = await callRoute(c.route, jsonPost(c.path, c.body));
  expect(status, c.name).toBe(200);
  expect(body, c.name).toMatchObject({ ...c.degraded, upstream });
  if (noticeCode) expect(body.notice?.code, c.name).toBe(noticeCode);
  expect(ms, c.name).toBeLessThan(TIME_BOUND_MS);
  return ms;
}

describe("outage matrix", () => {
  it("answers every route normally while the upstream is up (the matrix's baseline)", async () => {
    for (const c of ROUTES) {
      const { status, body } = await callRoute(c.route, jsonPost(c.path, c.body));
      expect(status, c.name).toBe(200);
      expect(body.upstream, c.name).toBe("ok");
    }
  });

  const modes: Array<Exclude<FakeUpstreamMode, "normal" | "slow" | "blackhole" | "429">> = [
    "refuse",
    "500",
    "503",
    "malformed",
    "key_rejected",
  ];
  it.each(modes)("upstream %s → every route degrades at once", async (mode) => {
    await fake.setMode(mode);
    const notice = mode === "key_rejected" ? "upstream_key_rejected" : "upstream_unavailable";
    for (const c of ROUTES) await expectDegraded(c, "unavailable", notice);
    if (mode !== "refuse") expect(fake.calls.length).toBeGreaterThanOrEqual(1 + 3 + 2 + 2);
    await fake.setMode("normal");
  });

  it("upstream 429 → every route answers busy (not unavailable), and Retry-After holds further calls back", async () => {
    await fake.setMode("429");
    for (const c of ROUTES) await expectDegraded(c, "busy", "upstream_busy");
    // The fake's Retry-After is 1 s: after a 429 no call is made for a second (calls already in flight
    // at that moment arrive within a few ms of it, a few hundred under load).
    const times = fake.calls.map((c) => c.at).sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) {
      const gap = times[i] - times[i - 1];
      expect(gap < 300 || gap >= 950, `gap of ${gap} ms between calls`).toBe(true);
    }
    await fake.setMode("normal");
  });

  it.each(["slow", "blackhole"] as const)(
    "upstream %s (no answer within 5 s) → every route degrades within about 5.5 s (all routes at once)",
    async (mode) => {
      await fake.setMode(mode);
      const durations = await Promise.all(ROUTES.map((c) => expectDegraded(c)));
      // They did wait for the 5 s abort: the fake really was slow.
      for (const ms of durations) expect(ms).toBeGreaterThanOrEqual(4_900);
      await fake.setMode("normal");
    },
  );
});
