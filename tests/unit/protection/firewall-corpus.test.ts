import { beforeAll, describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import { benignCorpus, FAMILIES, headerCorpus } from "../../fixtures/firewall/corpus";
import {
  FREE_TEXT_LOCATIONS,
  LOCATIONS,
  measure,
  requestWith,
  type Measurement,
} from "../../fixtures/firewall/measure";

/**
 * Issue 18 item 4: the corpora (tests/fixtures/firewall) through the engine in
 * every place a value reaches the service. Targets: at least 95 % of attack
 * strings blocked per family and location, at most 0.1 % of benign strings
 * blocked, p99 firewall CPU time under 1 ms per benign request. The engine
 * gets a generous budget here so a loaded test machine cannot turn an overrun
 * into a pass; the budget itself is tested in firewall-stall.test.ts.
 */
let engine: FirewallEngine;
let m: Measurement;

beforeAll(async () => {
  engine = new FirewallEngine(undefined, 1_000_000);
  m = await measure(engine);
}, 120_000);

const rate = ([blocked, tested]: [number, number]) => blocked / tested;

describe("attack corpus", () => {
  for (const family of FAMILIES)
    for (const location of LOCATIONS)
      it(`blocks at least 95 % of ${family} in ${location}`, () => {
        const got = m.detection[family][location];
        expect(got[1]).toBeGreaterThan(50);
        expect(rate(got), `missed: ${JSON.stringify(m.missed[family][location])}`).toBeGreaterThanOrEqual(0.95);
      });

  it("blocks the issue's examples in a structured field", async () => {
    for (const value of [
      "'or'1'='1",
      "1 || 1=1",
      "'; ATTACH DATABASE '/tmp/x.php' AS x;--",
      "<body onpageswap=alert(1)>",
      "<x onsecuritypolicyviolation=alert(1)>",
      "';top['al'+'ert'](1);//",
      ";a=who;b=ami;$a$b",
      "; cat .env",
      "/proc/version",
      "..%c0%5c..%c0%5cx",
    ])
      expect(engine.inspect((await requestWith(value, "json"))!).blocked, value).toBe(true);
  });

  it("blocks attack headers and passes real browsers' headers", () => {
    const { benign, attacks } = headerCorpus();
    for (const [name, value] of benign)
      expect(engine.inspect({ url: "/", headers: { [name.toLowerCase()]: value } }).blocked, value).toBe(false);
    const blocked = attacks.filter(
      ([name, value]) => engine.inspect({ url: "/", headers: { [name.toLowerCase()]: value } }).blocked,
    );
    expect(blocked.length / attacks.length).toBeGreaterThanOrEqual(0.95);
  });
});

describe("benign corpus", () => {
  it("holds at least 1,000 realistic strings", () => {
    expect(new Set(Object.values(benignCorpus()).flat()).size).toBeGreaterThanOrEqual(1_000);
  });

  for (const location of FREE_TEXT_LOCATIONS)
    it(`blocks at most 0.1 % of benign strings in a ${location} field`, () => {
      const { blocked, tested, examples } = m.falsePositives[location];
      expect(blocked / tested, examples.join(" | ")).toBeLessThanOrEqual(0.001);
    });

  for (const location of LOCATIONS)
    it(`blocks at most 0.1 % of every benign string put in ${location}, agents' notes included`, () => {
      const { blocked, tested, examples } = m.falsePositives[location];
      expect(tested).toBeGreaterThan(1_000);
      expect(blocked / tested, examples.join(" | ")).toBeLessThanOrEqual(0.001);
    });

  it("passes the prose the published rules matched, and still blocks the attacks beside it", async () => {
    // Decision 280: crs-941-170 and crs-930-110 replaced by narrower service rules, nUEn& as prose.
    const pass: Array<[string, "path" | "query"]> = [
      ["JavaScript: ES6 (modern)", "query"],
      ["Skills: JavaScript: advanced", "path"],
      ["...", "path"],
      ["Compare Union Select Gold and Silver 70 HMO; Depo-Provera 150 mg/mL tier 2 or 3?", "query"],
    ];
    for (const [value, location] of pass)
      expect(engine.inspect((await requestWith(value, location))!).blocked, `${value} in ${location}`).toBe(false);
    const block: Array<[string, "path" | "query"]> = [
      ["javascript:alert(1)", "query"],
      ["javascript: alert(1)", "query"],
      ["javascript:name", "query"],
      ["<style>@import 'http://evil.example/x.css';</style>", "query"],
      ["1 OR 1=1", "query"],
      ["x' UNION SELECT password FROM users--", "query"],
    ];
    for (const [value, location] of block)
      expect(engine.inspect((await requestWith(value, location))!).blocked, `${value} in ${location}`).toBe(true);
    for (const url of ["/plans/../etc/passwd", "/plans/..", "/.../.../etc/passwd", "/plans/%2e%2e/x"])
      expect(engine.inspect({ url, headers: {} }).blocked, url).toBe(true);
  });

  for (const location of LOCATIONS)
    it(`blocks at most 0.1 % of the strings typed into search and structured fields, in ${location}`, () => {
      const { blocked, tested, examples } = m.placed[location];
      expect(tested).toBeGreaterThan(400);
      expect(blocked / tested, examples.join(" | ")).toBeLessThanOrEqual(0.001);
    });

  it("passes the issue's examples in the forms' free-text fields", async () => {
    for (const value of benignCorpus().issue_examples!)
      for (const location of FREE_TEXT_LOCATIONS)
        expect(engine.inspect((await requestWith(value, location))!).blocked, `${value} in ${location}`).toBe(false);
  });

  it("judges benign requests without a stall", () => {
    // A bound on stalls, not the speed target: p99 is about 0.5 ms on a quiet machine, measured by
    // `npm run firewall:measure` (docs/firewall.md); beside nine other suites on two shared cores
    // it was 1.25 ms once (docs/decisions/500).
    expect(m.micros.p99).toBeLessThan(10_000);
  });
});
