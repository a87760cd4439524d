import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import { observeUpstreamCalls, PLAN_SEARCH_MAX_BYTES, searchPlans } from "../../../app/server/upstream/client.server";
import type { UpstreamPlan } from "../../../app/server/upstream/schemas.server";
import { ANSWER_MAX_BYTES } from "../../../app/server/upstream/transport.server";
import { configureService, startConfiguredFake, startStandInUpstream, TEST_KEY } from "./helpers";

// Decision 528: the pages of one plan search share one byte budget. Each page may be 1 MiB
// (decision 514), and an upstream that said "500 plans" and sent 1 MiB pages had one search read,
// parse and hold fifty of them: 50 MiB for one visitor's results page.

const PLACE = { countyfips: "48113", state: "TX", zipcode: "75001" };
const SEARCH = { household: { income: 36_000, people: [{ age: 35, aptc_eligible: true }] }, place: PLACE };

let fake: FakeUpstream;
/** Ten plans of the real shape, from the fake. */
let realPlans: UpstreamPlan[];
/** How the stand-in answers: every page `perPage` plans each padded to `planBytes`, and this total. */
let answer = { total: 500, perPage: 10, planBytes: 1_000 };
let searchCalls = 0;

let standIn: Awaited<ReturnType<typeof startStandInUpstream>>;
beforeAll(async () => {
  fake = await startConfiguredFake();
  realPlans = (await searchPlans(SEARCH)).plans.slice(0, 10);
  standIn = await startStandInUpstream((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      searchCalls++;
      const { offset } = JSON.parse(Buffer.concat(chunks).toString()) as { offset: number };
      const plans = Array.from({ length: answer.perPage }, (_, i) => {
        const plan = realPlans[i % realPlans.length]!;
        // A plan of its own per place in the list, padded with a field the API may add.
        const id = `${plan.id.slice(0, 10)}${String(offset + i).padStart(4, "0")}`;
        const bare = Buffer.byteLength(JSON.stringify({ ...plan, id, note: "" }));
        return { ...plan, id, note: "x".repeat(Math.max(0, answer.planBytes - bare)) };
      });
      const body = Buffer.from(JSON.stringify({ plans, total: answer.total, facet_groups: [], ranges: {} }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    });
  });
});
afterAll(async () => {
  await standIn?.close();
  await fake?.close();
});

beforeEach(() => {
  configureService({
    MARKETPLACE_API_BASE_URL: standIn.baseUrl,
    MARKETPLACE_API_KEY: TEST_KEY,
    UPSTREAM_CALLS_PER_SECOND: "10000",
    UPSTREAM_CALLS_PER_MINUTE: "100000",
  });
  searchCalls = 0;
});

describe("the pages of one plan search share one byte budget", () => {
  it("reads a large real-sized search whole: 50 pages of 10 plans, 100 KB a page (5 MB)", async () => {
    answer = { total: 500, perPage: 10, planBytes: 10_000 };
    const result = await searchPlans(SEARCH);
    expect(searchCalls).toBe(50);
    expect(result.plans).toHaveLength(500);
    expect(new Set(result.plans.map((p) => p.id)).size).toBe(500);
  });

  it("gives up as 'too_large' when the pages together pass the budget, each under its own cap", async () => {
    // 50 pages of 900 KB: each under the 1 MiB page cap, together 45 MB.
    answer = { total: 500, perPage: 10, planBytes: 90_000 };
    expect(10 * 90_000).toBeLessThan(ANSWER_MAX_BYTES["plans.search"]);
    const outcomes: string[] = [];
    const stop = observeUpstreamCalls((r) => outcomes.push(r.outcome));
    try {
      await expect(searchPlans(SEARCH)).rejects.toMatchObject({
        name: "UpstreamUnavailableError",
        reason: "too_large",
      });
    } finally {
      stop();
    }
    expect(outcomes).toContain("too_large");
    // The pages not yet asked for when the budget ran out were never asked for: 8 MiB is about nine
    // such pages, and the calls running at once (16 by default) were already asked.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(Math.floor(PLAN_SEARCH_MAX_BYTES / 900_000)).toBe(9);
    expect(searchCalls).toBeLessThanOrEqual(1 + 9 + 16);
  });

  it("a search after one given up has its own budget", async () => {
    answer = { total: 500, perPage: 10, planBytes: 90_000 };
    await expect(searchPlans(SEARCH)).rejects.toMatchObject({ reason: "too_large" });
    await new Promise((resolve) => setTimeout(resolve, 200)); // its calls already asked have ended
    answer = { total: 40, perPage: 10, planBytes: 2_000 };
    searchCalls = 0;
    expect((await searchPlans(SEARCH)).plans).toHaveLength(40);
    expect(searchCalls).toBe(4);
  });
});
