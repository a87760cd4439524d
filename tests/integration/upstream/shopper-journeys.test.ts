import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetEligibilityAnswers } from "../../../app/server/shopping/eligibility.server";
import { startFakeUpstream, type FakeUpstream } from "../../../mocks/cms-api/index";
import { shopperJourney } from "../../helpers/shopper-journey";
import { configureShopping, SAMPLE_DIR, UPSTREAM_KEY } from "../shopping/helpers";

// Issue 16's done-when: shoppers' journeys against a fake with a budget of its
// own, and the upstream calls one journey costs (docs/benchmarks.md).
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream({ apiKey: UPSTREAM_KEY, dataDir: SAMPLE_DIR });
});
afterAll(() => fake.close());

function configure(perMinute?: number) {
  configureShopping({ upstreamUrl: fake.url });
  if (perMinute) process.env.UPSTREAM_CALLS_PER_MINUTE = String(perMinute);
  else delete process.env.UPSTREAM_CALLS_PER_MINUTE;
  configureShopping({ upstreamUrl: fake.url }); // env and singletons read afresh with the limit
  forgetEligibilityAnswers();
  fake.reset();
}

describe("one shopper's journey", () => {
  it("costs a handful of upstream calls, and the next shopper fewer (answers kept and shared)", async () => {
    configure();
    fake.setRateLimit(undefined);
    const first = await shopperJourney({ income: 36_000, age: 35 });
    const firstCalls = fake.calls.length + fake.marketYearsCalls;
    const byPath = (calls: typeof fake.calls) =>
      Object.entries(
        calls.reduce<Record<string, number>>((n, c) => {
          const key = c.path.replace(/^\/api\/v1/, "").replace(/\/\d+$/, "/…");
          n[key] = (n[key] ?? 0) + 1;
          return n;
        }, {}),
      );
    console.log(
      `first shopper: ${firstCalls} upstream calls`,
      JSON.stringify(byPath(fake.calls)),
      `market-years ${fake.marketYearsCalls}`,
    );
    expect(first.upstream.every((u) => u.upstream === "ok")).toBe(true);
    fake.reset();
    const second = await shopperJourney({ income: 41_000, age: 44 });
    console.log(`second shopper: ${fake.calls.length} upstream calls`, JSON.stringify(byPath(fake.calls)));
    expect(second.upstream.every((u) => u.upstream === "ok")).toBe(true);
    // The second shopper's own estimate is the only new question: search and coverage answers were kept.
    expect(fake.calls.map((c) => c.path)).toEqual(["/api/v1/households/eligibility/estimates"]);
    expect(firstCalls).toBeLessThanOrEqual(16);
  });
});

describe("50 concurrent shoppers, the fake limited to 100 calls a minute", () => {
  it("complete their journeys with no unavailable answer caused by the budget (busy answers are counted)", async () => {
    configure(100);
    fake.setRateLimit({ perMinute: 100 });
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => shopperJourney({ income: 30_000 + i * 700, age: 25 + (i % 40) })),
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const all = outcomes.flatMap((o) => o.upstream);
    const count = (state: string) => all.filter((u) => u.upstream === state).length;
    const busySteps = [...new Set(all.filter((u) => u.upstream === "busy").map((u) => u.step))];
    console.log(
      `50 shoppers in ${seconds} s: ${fake.calls.length + fake.marketYearsCalls} upstream calls, ` +
        `answers ok ${count("ok")}, busy ${count("busy")} (${busySteps.join(", ") || "none"}), ` +
        `unavailable ${count("unavailable")}; the fake answered 429 ${fake.rateLimited} times`,
    );
    expect(outcomes.every((o) => o.statuses.every((s) => s === 200))).toBe(true);
    expect(count("unavailable")).toBe(0);
    // The budget kept the service under the fake's limit: the fake never had to refuse.
    expect(fake.rateLimited).toBe(0);
    expect(fake.calls.length + fake.marketYearsCalls).toBeLessThanOrEqual(100);
    fake.setRateLimit(undefined);
  }, 120_000);
});
