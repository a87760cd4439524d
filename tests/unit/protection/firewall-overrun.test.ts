import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine, OVERRUN_RETRY_AFTER_SECONDS, requestFirewall } from "../../../server/firewall/index";
import { attackCorpus, FAMILIES } from "../../fixtures/firewall/corpus";
import { listen } from "./helpers";

/**
 * No pass because the machine is busy (issue 30 item 5, docs/decisions/374):
 * a request whose inspection ran out of its time budget with nothing matched
 * is refused with 503 and Retry-After, never handed on as clean. The attack
 * corpus is sent 24 at a time through the production engine and through one
 * whose budget (150 µs) a busy machine cannot always meet: every attack the firewall blocks when the machine is
 * quiet is refused (403 or 503) under load too: the quiet block rate holds.
 */

const quiet = new FirewallEngine(undefined, 1_000_000, false);
/** The production budget (20 ms) and one that load will often overrun. */
const normal = new FirewallEngine(undefined, undefined, false);
const hurried = new FirewallEngine(undefined, 150, false);
const silent = { warn: () => undefined };

function app(engine: FirewallEngine) {
  const a = express();
  a.use(requestFirewall({ engine, log: silent }));
  a.use((_req, res) => {
    res.json({ passed: true });
  });
  return a;
}

let servers: Array<{ url: string; close: () => Promise<void> }> = [];
beforeAll(async () => {
  servers = await Promise.all([listen(app(quiet)), listen(app(normal)), listen(app(hurried))]);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Attack strings, each sent in a query parameter and in a JSON field. */
function requests(): Array<{ label: string; path: string; body?: string }> {
  const corpus = attackCorpus();
  const out: Array<{ label: string; path: string; body?: string }> = [];
  for (const family of FAMILIES)
    // Every third string of each family: the whole corpus is docs/firewall.md's job; this one is about load.
    for (const attack of corpus[family].filter((_, i) => i % 3 === 0)) {
      out.push({ label: `${family} query ${attack}`, path: `/api/search?q=${encodeURIComponent(attack)}` });
      out.push({ label: `${family} json ${attack}`, path: "/api/waitlist", body: JSON.stringify({ notes: attack }) });
    }
  return out;
}

async function send(base: string, request: { path: string; body?: string }) {
  const res = await fetch(`${base}${request.path}`, {
    method: request.body ? "POST" : "GET",
    headers: request.body ? { "content-type": "application/json" } : {},
    body: request.body,
  });
  const body = (await res.json()) as { error?: { code: string } };
  return { status: res.status, code: body.error?.code, retryAfter: res.headers.get("retry-after") };
}

async function sendAll(base: string, list: Array<{ path: string; body?: string }>, concurrency = 16) {
  const out: Array<Awaited<ReturnType<typeof send>>> = new Array(list.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < list.length) {
        const i = next++;
        out[i] = await send(base, list[i]!);
      }
    }),
  );
  return out;
}

describe("an inspection that did not finish", () => {
  it("is refused with 503 inspection_incomplete and Retry-After, not passed", async () => {
    const never = new FirewallEngine(undefined, 1, false);
    const server = await listen(app(never));
    try {
      const get = await send(server.url, { path: "/api/search?q=ordinary+words" });
      const post = await send(server.url, { path: "/api/waitlist", body: JSON.stringify({ notes: "hello there" }) });
      for (const answer of [get, post]) {
        expect(answer).toEqual({
          status: 503,
          code: "inspection_incomplete",
          retryAfter: String(OVERRUN_RETRY_AFTER_SECONDS),
        });
      }
      expect(never.stats.overruns).toBeGreaterThanOrEqual(2);
    } finally {
      await server.close();
    }
  });
});

describe("attacks beside load", () => {
  it("blocks under load every attack it blocks when quiet (403, or 503 when the budget ran out)", async () => {
    const list = requests();
    const calm = await sendAll(servers[0]!.url, list, 4);
    const blockedQuietly = list.filter((_, i) => calm[i]!.status === 403);
    expect(blockedQuietly.length).toBeGreaterThan(list.length * 0.5);
    expect(calm.filter((a) => a.status === 503)).toEqual([]);

    // Load: 24 requests at a time, and the two servers at once. (No CPU-burning threads: this file
    // runs beside others, whose own timing they would upset; the 150 µs engine stands for a machine
    // too busy to finish in time.)
    const [busy, rushed] = await Promise.all([
      sendAll(servers[1]!.url, blockedQuietly, 24),
      sendAll(servers[2]!.url, blockedQuietly, 24),
    ]);
    const passed = (answers: typeof busy) =>
      blockedQuietly.filter((_, i) => answers[i]!.status !== 403 && answers[i]!.status !== 503).map((r) => r.path);
    // Nothing the quiet firewall blocks gets through when the machine is busy.
    expect(passed(busy)).toEqual([]);
    expect(passed(rushed)).toEqual([]);
    const overrunsOf = (answers: typeof busy) => answers.filter((a) => a.status === 503).length;
    // The hurried engine's budget is too short for some requests under load: those were refused, not passed.
    expect(overrunsOf(rushed)).toBeGreaterThan(0);
    expect(rushed.filter((a) => a.status === 503 && (a.code !== "inspection_incomplete" || !a.retryAfter))).toEqual([]);
    console.log(
      `attacks beside load: ${blockedQuietly.length} of ${list.length} blocked quietly; under load with the 20 ms budget ` +
        `${busy.filter((a) => a.status === 403).length} blocked + ${overrunsOf(busy)} refused busy; with a 150 µs budget ` +
        `${rushed.filter((a) => a.status === 403).length} blocked + ${overrunsOf(rushed)} refused busy; none passed`,
    );
  }, 120_000);
});
