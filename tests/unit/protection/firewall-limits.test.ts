import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine, partsAreIndependent } from "../../../server/firewall/engine";
import { bodyKey } from "../../../server/firewall/part-keys";
import {
  collect,
  DDWAF_LIMITS,
  ENGINE_INPUT_LIMITS,
  mergeParts,
  type RequestData,
} from "../../../server/firewall/request-data";
import { buildRuleSet } from "../../../server/firewall/ruleset";
import { attackCorpus, benignCorpus, FAMILIES } from "../../fixtures/firewall/corpus";
import { FREE_TEXT_LOCATIONS, LOCATIONS, requestWith } from "../../fixtures/firewall/measure";
import { pathologicalInputs } from "../../fixtures/firewall/pathological";

/**
 * Issue 18 item 2 (docs/decisions/281): what the engine is handed is bounded, whatever the
 * request, and nothing past the bound passes unread unless it is a plain token. Decision 282:
 * part verdicts remembered give exactly the verdicts of running every request whole.
 */
const headers = { host: "localhost", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0", accept: "*/*" };
const json = (value: unknown): RequestData => ({ url: "/api/agents/discovery", headers, body: { json: value } });

let engine: FirewallEngine;
beforeAll(() => {
  // A generous budget: a loaded test machine must not turn an overrun into a pass.
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

/** Count what the engine would be handed: strings, and their characters, at any depth. */
function handed(value: unknown, out = { values: 0, chars: 0, longest: 0, widest: 0, depth: 0 }, depth = 0) {
  out.depth = Math.max(out.depth, depth);
  if (typeof value === "string") {
    out.values++;
    out.chars += value.length;
    out.longest = Math.max(out.longest, value.length);
  } else if (value && typeof value === "object") {
    const children = Object.values(value as object);
    out.widest = Math.max(out.widest, children.length);
    for (const child of children) handed(child, out, depth + 1);
  }
  return out;
}

describe("the engine's input is bounded", () => {
  it("hands over at most the limits for every pathological input, inside libddwaf's own limits", () => {
    for (const { what, data } of pathologicalInputs()) {
      const c = collect(data);
      if (c.overLimit) continue;
      const n = handed(mergeParts(c.parts));
      // The limits count values and characters once, plus the URL, which is handed as a whole and in segments.
      expect(n.values, what).toBeLessThanOrEqual(ENGINE_INPUT_LIMITS.values + 70);
      expect(n.chars, what).toBeLessThanOrEqual(2 * ENGINE_INPUT_LIMITS.chars);
      expect(n.longest, what).toBeLessThanOrEqual(DDWAF_LIMITS.stringLength);
      expect(n.widest, what).toBeLessThanOrEqual(DDWAF_LIMITS.containerSize);
      expect(n.depth, what).toBeLessThan(DDWAF_LIMITS.containerDepth);
    }
  });

  it("judges every pathological input without a stall, and libddwaf never truncates", () => {
    const slowest: Array<[string, number]> = [];
    for (const { what, data } of pathologicalInputs()) {
      const before = process.cpuUsage();
      engine.inspect(data);
      const cpu = process.cpuUsage(before);
      slowest.push([what, (cpu.user + cpu.system) / 1_000]);
    }
    slowest.sort((a, b) => b[1] - a[1]);
    // A bound on stalls (a matcher gone quadratic takes seconds), not the speed target: the worst
    // input costs 8-16 ms on a quiet machine, measured by `npm run firewall:measure` (docs/firewall.md)
    // and, as the server pays it, `npm run bench:edge` (docs/decisions/500). A test beside nine
    // other suites on two shared cores measured 66 ms once.
    expect(slowest[0]![1], JSON.stringify(slowest.slice(0, 3))).toBeLessThan(250);
    expect(engine.stats.engineTruncations).toBe(0);
  });

  it("refuses a request with more to read than the limits instead of judging part of it", () => {
    const distinct = Array.from({ length: 10_000 }, (_, i) => `call back ${i} times`);
    expect(engine.inspect(json({ notes: distinct })).overLimit).toBe(true);
    // The payload after 600 plain values is past the limit: refused, not passed unread.
    const ids = Array.from({ length: 600 }, (_, i) => `12345FL00${i}-01`);
    expect(engine.inspect(json({ ids: [...ids, "' OR 1=1 --"] })).overLimit).toBe(true);
    expect(engine.inspect(json({ notes: "x".repeat(10) + " y".repeat(40_000) })).overLimit).toBe(true);
    const deep = JSON.parse(`${"[".repeat(3_000)}"' OR 1=1 --"${"]".repeat(3_000)}`) as unknown;
    expect(engine.inspect(json(deep)).overLimit).toBe(true);
    const segments = Array.from({ length: 150 }, (_, i) => `s${i}`).join("/");
    expect(engine.inspect({ url: `/${segments}/x'%20OR%201=1`, headers }).overLimit).toBe(true);
  });

  it("reads plain tokens past the limits as harmless and passes them", () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `12345FL00${i}-01`);
    const verdict = engine.inspect(json({ plan_ids: ids }));
    expect(verdict.overLimit).toBe(false);
    expect(verdict.blocked).toBe(false);
    expect(verdict.unread).toBeGreaterThan(9_000);
    const nested = JSON.parse(`${"[".repeat(3_000)}"fine"${"]".repeat(3_000)}`) as unknown;
    expect(engine.inspect(json(nested)).overLimit).toBe(false);
  });

  it("still reads a payload at the end of an 8 KB path, query or header", () => {
    const dots = "a.".repeat(4_000);
    expect(engine.inspect({ url: `/plans/${dots}/../../etc/passwd`, headers }).blocked).toBe(true);
    expect(engine.inspect({ url: `/plans?q=${dots}${encodeURIComponent("' OR 1=1 --")}`, headers }).blocked).toBe(true);
    expect(
      engine.inspect({ url: "/", headers: { ...headers, "x-note": `${dots}<script>alert(1)</script>` } }).blocked,
    ).toBe(true);
    expect(engine.stats.engineTruncations).toBe(0);
  });

  it("blocks keys that reach a prototype (replacing dog-000-006)", () => {
    expect(engine.inspect(json(JSON.parse('{"__proto__":{"admin":true}}'))).rule).toBe("svc-js-001");
    expect(engine.inspect(json({ constructor: { prototype: { admin: true } } })).blocked).toBe(true);
    expect(engine.inspect({ url: "/plans?__proto__[admin]=1", headers }).blocked).toBe(true);
    expect(engine.inspect(json({ search: "prototype", notes: "constructor" })).blocked).toBe(false);
  });
});

/** Counts the engine's runs from here on (a remembered verdict runs nothing). */
function countRuns(engine: FirewallEngine): { count: number } {
  const runs = { count: 0 };
  const run = engine.run.bind(engine);
  engine.run = (...args) => (runs.count++, run(...args));
  return runs;
}

/** A request with the body key the middleware gives a body read from text (server/firewall/index.ts). */
function keyed(request: RequestData): RequestData {
  const body = request.body;
  if (!body) return request;
  const key =
    "json" in body
      ? bodyKey("json", JSON.stringify(body.json))
      : "fields" in body
        ? bodyKey("form", new URLSearchParams(body.fields).toString())
        : bodyKey("text", body.text);
  return { ...request, bodyKey: key };
}

describe("remembered part verdicts (decision 282)", () => {
  it("holds only for a rule set in which every rule reads one value at a time", () => {
    expect(partsAreIndependent(buildRuleSet())).toBe(true);
    const rules = buildRuleSet();
    rules.config.rules.push({
      id: "two-values",
      name: "needs a header and a query value",
      tags: { type: "xss", category: "attack_attempt" },
      conditions: [
        { operator: "match_regex", parameters: { inputs: [{ address: "server.request.query" }], regex: "a" } },
        {
          operator: "match_regex",
          parameters: { inputs: [{ address: "server.request.headers.no_cookies" }], regex: "b" },
        },
      ],
    });
    expect(partsAreIndependent(rules)).toBe(false);
    expect(new FirewallEngine(rules, 1_000_000).remembersParts).toBe(false);
  });

  it("gives every corpus request the verdict a full run gives, in every location, twice over", async () => {
    const remembering = new FirewallEngine(undefined, 1_000_000);
    const attacks = attackCorpus();
    const values = [...FAMILIES.flatMap((f) => attacks[f]), ...new Set(Object.values(benignCorpus()).flat())];
    let compared = 0;
    for (let round = 0; round < 2; round++)
      for (const location of [...LOCATIONS, ...FREE_TEXT_LOCATIONS])
        for (const value of values) {
          const request = await requestWith(value, location);
          if (!request) continue;
          const full = engine.inspect(request);
          const got = remembering.inspect(keyed(request));
          expect(got.blocked, `${value} in ${location}`).toBe(full.blocked);
          compared++;
        }
    expect(compared).toBeGreaterThan(10_000);
    // The URL and headers of the corpus requests repeat: most requests ran on their body alone or not at all.
    expect(remembering.stats.remembered).toBeGreaterThan(1_000);
    // About 115 s alone on this 2-core machine: the limit guards against a hang, it times nothing.
  }, 400_000);

  it("remembers a short body judged clean by its bytes: the same body again runs nothing (decision 404)", () => {
    const remembering = new FirewallEngine(undefined, 1_000_000);
    const text = JSON.stringify({ income: 90000, household: { people: [{ age: 40 }] }, place: { zip: "32119" } });
    const request: RequestData = {
      url: "/api/plans",
      headers,
      body: { json: JSON.parse(text) },
      bodyKey: bodyKey("json", text),
    };
    expect(remembering.inspect(request).remembered).toBe(false);
    const runs = countRuns(remembering);
    expect(remembering.inspect(request)).toMatchObject({ blocked: false, remembered: true, micros: 0 });
    expect(runs.count).toBe(0);
    // Other bytes are another part: judged, and an attack among them blocked, under the same URL and headers.
    const attack = text.replace("32119", "32119' OR 1=1 --");
    expect(
      remembering.inspect({ ...request, body: { json: JSON.parse(attack) }, bodyKey: bodyKey("json", attack) }).blocked,
    ).toBe(true);
    expect(runs.count).toBe(1);
    // The same text read as a form is not the JSON body judged before.
    expect(bodyKey("form", text)).not.toBe(bodyKey("json", text));
    // A body too long to key is judged every time.
    expect(bodyKey("json", JSON.stringify({ notes: "x".repeat(3000) }))).toBeUndefined();
  });

  it("answers a request already judged from its parts' digests, collecting nothing (issue 29)", () => {
    const remembering = new FirewallEngine(undefined, 1_000_000);
    const request = {
      url: "/plans/12345FL0010001-01?zip=32119&income=90000",
      headers: { ...headers, cookie: "lang=es" },
    };
    expect(remembering.inspect(request).remembered).toBe(false);
    const runs = countRuns(remembering);
    expect(remembering.inspect(request)).toMatchObject({ blocked: false, remembered: true, micros: 0 });
    expect(runs.count).toBe(0);
    // One part it has not judged (another cookie) runs the engine on that part only, and still blocks an attack.
    expect(remembering.inspect({ ...request, headers: { ...request.headers, cookie: "x=' OR 1=1 --" } }).blocked).toBe(
      true,
    );
    expect(runs.count).toBe(1);
  });

  it("does not remember a part of a blocked request or of a run past its budget", () => {
    const remembering = new FirewallEngine(undefined, 1_000_000);
    const attack = { url: "/api/plans", headers: { ...headers, "x-note": "<script>alert(1)</script>" } };
    expect(remembering.inspect(attack).blocked).toBe(true);
    expect(remembering.inspect(attack).blocked).toBe(true);
    const hurried = new FirewallEngine(undefined, 1);
    const request = { url: "/api/plans?q=fine", headers };
    expect(hurried.inspect(request).overrun).toBe(true);
    expect(hurried.inspect(request).remembered).toBe(false);
  });
});
