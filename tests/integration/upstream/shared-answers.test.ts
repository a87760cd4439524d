import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeUpstream, type FakeUpstream } from "../../../mocks/cms-api/index";
import { startRedis, type RunningRedis } from "../../helpers/engines";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Upstream answer caches on Redis (issue 20 item 3, decision 291): two server
 * processes on one Redis and one fake upstream. What the first asked upstream
 * for, the second answers from Redis without asking (counted at the fake):
 * drug coverage, drug autocomplete and an eligibility estimate. With Redis
 * stopped, both keep answering 200 (a question not kept is asked upstream).
 */

const KEY = "shared-answers-test-key-0123";
let redis: RunningRedis;
let fake: FakeUpstream;
const servers: RunningServer[] = [];

beforeAll(async () => {
  redis = await startRedis();
  fake = await startFakeUpstream({ apiKey: KEY });
  const env = {
    REDIS_URL: redis.url,
    MARKETPLACE_API_BASE_URL: fake.url,
    MARKETPLACE_API_KEY: KEY,
    UPSTREAM: undefined,
  };
  servers.push(...(await Promise.all([startServer({ env }), startServer({ env })])));
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await fake?.close();
  await redis?.stop();
});

const post = (server: RunningServer, path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const upstreamCalls = (pathEnd: string) => fake.calls.filter((c) => c.path.endsWith(pathEnd)).length;

const COVERAGE = { rxcuis: ["617318", "262095"], plan_ids: ["10101TX0010001", "10101TX0010002"], year: 2027 };
const ELIGIBILITY = {
  income: 36_000,
  household: { people: [{ age: 35 }] },
  place: { state: "TX", county_fips: "48113", zip: "75201" },
  year: 2027,
};

describe("upstream answers shared on Redis", () => {
  it("a second process answers from what the first asked upstream, without asking", async () => {
    const [a, b] = servers;
    fake.reset();
    const first = await post(a, "/api/drugs/covered", COVERAGE);
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    expect(firstBody.upstream).toBe("ok");
    expect(upstreamCalls("/drugs/covered")).toBe(1); // two plans, one batch
    const firstEstimate = await post(a, "/api/eligibility", ELIGIBILITY);
    expect(firstEstimate.status).toBe(200);
    const estimateBody = await firstEstimate.json();
    expect(estimateBody.source).toBe("upstream");
    expect(upstreamCalls("/households/eligibility/estimates")).toBe(1);
    const firstSuggestions = await post(a, "/api/drugs/autocomplete", { query: "lipitor", year: 2027 });
    expect(firstSuggestions.status).toBe(200);
    const suggestionsBody = await firstSuggestions.json();
    expect(upstreamCalls("/drugs/autocomplete")).toBe(1);

    // The writes to Redis are in the background: give them a moment.
    await new Promise((r) => setTimeout(r, 200));
    fake.reset();
    const second = await post(b, "/api/drugs/covered", COVERAGE);
    expect(second.status).toBe(200);
    expect((await second.json()).coverage).toEqual(firstBody.coverage);
    const secondEstimate = await post(b, "/api/eligibility", ELIGIBILITY);
    expect(secondEstimate.status).toBe(200);
    expect(await secondEstimate.json()).toEqual(estimateBody);
    const secondSuggestions = await post(b, "/api/drugs/autocomplete", { query: "lipitor", year: 2027 });
    expect(await secondSuggestions.json()).toEqual(suggestionsBody);
    expect(fake.calls.map((c) => c.path)).toEqual([]);
  }, 30_000);

  it("Redis stopped: answers are still 200 (kept ones locally, new ones from upstream), one warning", async () => {
    const [a, b] = servers;
    await redis.stop();
    fake.reset();
    const statuses: number[] = [];
    for (const server of [a, b, a, b]) {
      statuses.push((await post(server, "/api/drugs/covered", COVERAGE)).status);
      statuses.push(
        (await post(server, "/api/drugs/covered", { ...COVERAGE, plan_ids: ["10101TX0010003", "10101TX0010004"] }))
          .status,
      );
      statuses.push((await post(server, "/api/eligibility", { ...ELIGIBILITY, income: 41_000 })).status);
      statuses.push((await post(server, "/api/drugs/autocomplete", { query: "metformin", year: 2027 })).status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    // New questions were asked upstream once per process (each keeps its own answers meanwhile).
    expect(upstreamCalls("/drugs/covered")).toBe(2);
    for (const server of [a, b]) {
      const warnings = server.output().match(/Redis unavailable/g) ?? [];
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      expect(warnings.length).toBeLessThanOrEqual(2); // at most once a minute (a start-up blip may be the first)
    }
  }, 30_000);
});
