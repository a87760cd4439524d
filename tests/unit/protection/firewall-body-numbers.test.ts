import { describe, expect, it } from "vitest";
import { FirewallEngine } from "../../../server/firewall/engine";
import { bodyKey } from "../../../server/firewall/part-keys";
import { collect, type RequestData } from "../../../server/firewall/request-data";

/**
 * Decision 451: a keyed body is remembered by what it hands the engine (strings and unusual
 * names; numbers, booleans and nulls are not handed over), so a body that differs from one judged
 * clean only in its numbers is not run again, and a string changed anywhere is judged.
 */
const headers = { host: "localhost", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0", accept: "*/*" };
const plansBody = (income: number, zip = "32119", age = 40) =>
  JSON.stringify({
    year: 2027,
    income,
    household: { people: [{ age, relationship: "self", uses_tobacco: false }] },
    place: { state: "FL", county_fips: "12077", zip },
    usage: "medium",
    sort: "my_yearly_cost",
  });
const request = (text: string): RequestData => ({
  url: "/api/plans",
  headers,
  body: { json: JSON.parse(text) },
  bodyKey: bodyKey("json", text),
});

function countRuns(engine: FirewallEngine): { count: number } {
  const runs = { count: 0 };
  const run = engine.run.bind(engine);
  engine.run = (...args) => (runs.count++, run(...args));
  return runs;
}

describe("a keyed body remembered by what it hands the engine", () => {
  it("is not run again for a new income or age; a changed string is judged, and an attack blocked", () => {
    const engine = new FirewallEngine(undefined, 1_000_000);
    const runs = countRuns(engine);
    expect(engine.inspect(request(plansBody(90_001)))).toMatchObject({ blocked: false, remembered: false });
    expect(runs.count).toBe(1);
    for (const income of [90_002, 91_234, 0, 1e9])
      expect(engine.inspect(request(plansBody(income)))).toMatchObject({ blocked: false, remembered: true });
    expect(engine.inspect(request(plansBody(90_003, "32119", 64)))).toMatchObject({ remembered: true });
    expect(runs.count).toBe(1);
    // Another ZIP is another string: judged.
    expect(engine.inspect(request(plansBody(90_004, "32120"))).remembered).toBe(false);
    expect(runs.count).toBe(2);
    // An attack in a string is judged and blocked, whatever the numbers around it.
    const attack = engine.inspect(request(plansBody(90_001, "32119' OR 1=1 --")));
    expect(attack).toMatchObject({ blocked: true, remembered: false });
    expect(runs.count).toBe(3);
  });

  it("the same bytes again take the first, cheap check (nothing collected), also after a body remembered by its input", () => {
    const engine = new FirewallEngine(undefined, 1_000_000);
    engine.inspect(request(plansBody(90_001)));
    const again = request(plansBody(90_002));
    engine.inspect(again); // remembered by its input: its bytes are remembered too
    const before = engine.stats.remembered;
    expect(engine.inspect(again)).toMatchObject({ remembered: true, micros: 0 });
    expect(engine.stats.remembered).toBe(before + 1);
  });

  it("keys bodies by their strings: numbers, booleans and nulls do not change the key, any string does", () => {
    const keyOf = (value: unknown) => {
      const text = JSON.stringify(value);
      return collect({ url: "/api/plans", headers, body: { json: value }, bodyKey: bodyKey("json", text) }).parts.at(
        -1,
      )!.key;
    };
    const base = keyOf({ a: 1, b: true, c: null, d: "x", e: [1, "y"] });
    expect(keyOf({ a: 2, b: false, c: 3, d: "x", e: [5, "y"] })).toBe(base);
    expect(keyOf({ a: 1, b: true, c: null, d: "x2", e: [1, "y"] })).not.toBe(base);
    expect(keyOf({ a: 1, b: true, c: null, d: "x", e: [1, "y", "z"] })).not.toBe(base);
    // A body without a key (too long, or multipart) has none.
    expect(collect({ url: "/api/plans", headers, body: { json: { a: "x" } } }).parts.at(-1)!.key).toBeUndefined();
  });
});
