import { copyFileSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as plansRoute from "../../../app/routes/api.plans";
import { PlansRequest } from "../../../app/schemas/shopping";
import { PlanStore } from "../../../app/server/plan-store/plan-store.server";
import { plansAnswerText } from "../../../app/server/shopping/plan-list-cache.server";
import type { PlansAnswer } from "../../../app/server/shopping/plan-list.server";
import { TEST_PLAN_STORE } from "../../helpers/server";
import { PLACES, self, shoppingBody, spouse, withShoppingFake } from "../shopping/helpers";

/**
 * POST /api/plans keeps an answer a minute for the same request (docs/decisions/402): asked again,
 * the same text comes back without pricing; anything that could change the answer is in the key or
 * keeps it out of the cache.
 */
const upstream = withShoppingFake();

async function ask(body: unknown, language?: string) {
  const request = new Request("http://localhost/api/plans", {
    method: "POST",
    headers: { "content-type": "application/json", ...(language ? { "accept-language": language } : {}) },
    body: JSON.stringify(body),
  });
  const response = await plansRoute.action({ request, params: {}, context: {} });
  return { status: response.status, timing: response.headers.get("server-timing") ?? "", text: await response.text() };
}
const fromCache = (timing: string) => /(^|, )answer-cache;/.test(timing);

const FAMILY = shoppingBody(PLACES.dallas, [self(40), spouse(38)], 61_000);

describe("the plan list's answer cache", () => {
  it("answers the same request again with the same text, without pricing it", async () => {
    const first = await ask(FAMILY);
    expect(first.status).toBe(200);
    expect(fromCache(first.timing)).toBe(false);
    expect(first.timing).toMatch(/pricing;dur=/);
    const again = await ask(FAMILY);
    expect(fromCache(again.timing)).toBe(true);
    expect(again.timing).not.toMatch(/pricing;dur=/);
    expect(again.text).toBe(first.text);
    // The defaults spelled out are the same question.
    const spelled = await ask({ ...FAMILY, sort: "premium", order: "asc", usage: "medium", limit: 50, offset: 0 });
    expect(fromCache(spelled.timing)).toBe(true);
    expect(spelled.text).toBe(first.text);
  });

  it("does not answer another household, language, sort or page from it", async () => {
    const first = await ask(FAMILY);
    const others = [
      await ask({ ...FAMILY, income: 61_001 }),
      await ask(FAMILY, "es"),
      await ask({ ...FAMILY, sort: "deductible" }),
      await ask({ ...FAMILY, limit: 5 }),
      await ask(shoppingBody(PLACES.dallas, [self(40), spouse(39)], 61_000)),
    ];
    for (const other of others) {
      expect(other.status).toBe(200);
      expect(fromCache(other.timing)).toBe(false);
      expect(other.text).not.toBe(first.text);
    }
  });

  it("keeps no list priced during an upstream outage, and none with drugs looked up upstream", async () => {
    await upstream.fake.setMode("503");
    const outage = shoppingBody(PLACES.dallas, [self(35)], 36_000);
    const during = await ask(outage);
    expect(JSON.parse(during.text).eligibility).toMatchObject({ source: "own", upstream: "unavailable" });
    expect(fromCache((await ask(outage)).timing)).toBe(false);
    await upstream.fake.setMode("normal");
    const after = await ask(outage);
    expect(fromCache(after.timing)).toBe(false);
    expect(JSON.parse(after.text).eligibility.upstream).toBeUndefined(); // the federal estimate again

    const withDrug = shoppingBody(PLACES.dallas, [self(35)], 36_000, { drugs: [{ rxcui: "617318" }] });
    await ask(withDrug);
    expect(fromCache((await ask(withDrug)).timing)).toBe(false);
  });
});

describe("what the cache is keyed on besides the request", () => {
  const request = PlansRequest.parse(FAMILY);
  const answer = (n: number) => async () => ({
    answer: { source: "own", eligibility: null } as PlansAnswer,
    text: `#${n}`,
  });

  it("a new marketplace day, and a store file swapped in by a reseed, start afresh", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "answer-cache-"));
    const file = path.join(dir, "plan-store.sqlite");
    copyFileSync(TEST_PLAN_STORE, file);
    const store = new PlanStore(file, { checkIntervalMs: 0 });
    try {
      // 15:00 UTC on 1 Nov is 11:00 in New York; 03:00 UTC on 2 Nov is still 1 Nov there (23:00).
      const morning = new Date("2026-11-01T15:00:00Z");
      const lateEvening = new Date("2026-11-02T03:00:00Z");
      const nextDay = new Date("2026-11-02T15:00:00Z");
      const asked = async (n: number, now: Date) => {
        const { bytes, hit } = await plansAnswerText(request, "en", answer(n), now, store);
        return { text: bytes.toString("utf8"), hit };
      };
      expect(await asked(1, morning)).toEqual({ text: "#1", hit: false });
      expect(await asked(2, lateEvening)).toEqual({ text: "#1", hit: true });
      expect(await asked(3, nextDay)).toEqual({ text: "#3", hit: false });

      const next = path.join(dir, "next.sqlite");
      copyFileSync(TEST_PLAN_STORE, next);
      renameSync(next, file);
      expect(await asked(4, nextDay)).toEqual({ text: "#4", hit: false });
      expect(await asked(5, nextDay)).toEqual({ text: "#4", hit: true });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
