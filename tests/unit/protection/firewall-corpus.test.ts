import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifyRequestParts, type RuleFamily } from "../../../server/firewall/rules";

/**
 * The corpora (tests/fixtures/firewall/*.json): every attack string must be
 * blocked by a rule of its family and every benign string must pass, in each
 * place a user's text reaches the service: a query parameter, a JSON body
 * field and a form body field.
 */
const FIXTURES = path.resolve(__dirname, "../../fixtures/firewall");
const attacks = JSON.parse(readFileSync(path.join(FIXTURES, "attacks.json"), "utf8")) as Record<RuleFamily, string[]>;
const benign = JSON.parse(readFileSync(path.join(FIXTURES, "benign.json"), "utf8")) as Record<string, string[]>;
const headers = JSON.parse(readFileSync(path.join(FIXTURES, "headers.json"), "utf8")) as {
  benign: Array<[string, string]>;
  attacks: Array<[string, string, RuleFamily]>;
};

const attackCases = Object.entries(attacks).flatMap(([family, list]) =>
  list.map((value) => ({ family: family as RuleFamily, value })),
);
const benignCases = Object.entries(benign).flatMap(([group, list]) => list.map((value) => ({ group, value })));

/** The three places a value is tested, built as a browser or API client would send it. */
const PLACES = {
  query: (value: string) => classifyRequestParts({ path: "/plans", query: `zip=10001&q=${encodeURIComponent(value)}` }),
  json: (value: string) =>
    classifyRequestParts({ json: JSON.parse(JSON.stringify({ zip: "10001", household: { notes: value, size: 2 } })) }),
  form: (value: string) =>
    classifyRequestParts({ form: new URLSearchParams({ zip: "10001", notes: value }).toString() }),
};

describe("corpus sizes", () => {
  it("has at least 200 attack and 200 benign strings, with no duplicates", () => {
    expect(attackCases.length).toBeGreaterThanOrEqual(200);
    expect(benignCases.length).toBeGreaterThanOrEqual(200);
    expect(new Set(attackCases.map((c) => c.value)).size).toBe(attackCases.length);
    expect(new Set(benignCases.map((c) => c.value)).size).toBe(benignCases.length);
    for (const family of ["sqli", "xss", "traversal", "cmdi"] as const)
      expect(attacks[family].length).toBeGreaterThanOrEqual(40);
  });

  it("includes the benign strings the issue names", () => {
    const all = new Set(benignCases.map((c) => c.value));
    for (const required of [
      "O'Brien",
      "D'Angelo",
      "Drop-in clinic",
      "123 Main St #4",
      "Apt #12B",
      "Humalog Mix 75-25",
      "insulin lispro-aabc",
      "Tylenol 500 mg",
      "select the best plan for my clients",
      "union members",
      "jane+plans@example.com",
      "José",
      "Nguyễn",
      "王",
      "10001",
    ]) {
      expect(all.has(required), required).toBe(true);
    }
  });
});

describe.each(Object.keys(PLACES) as Array<keyof typeof PLACES>)("attack strings in the %s", (place) => {
  it.each(attackCases)("blocks $family: $value", ({ family, value }) => {
    const verdict = PLACES[place](value);
    expect(verdict.blocked).toBe(true);
    expect(verdict.family).toBe(family);
    expect(verdict.where).toBe(
      place === "query" ? "query:q" : place === "json" ? "body:household.notes" : "body:notes",
    );
  });
});

describe.each(Object.keys(PLACES) as Array<keyof typeof PLACES>)("benign strings in the %s", (place) => {
  it.each(benignCases)("passes $group: $value", ({ value }) => {
    expect(PLACES[place](value)).toEqual({ blocked: false });
  });
});

describe("values as JSON object keys", () => {
  it("judges keys as well as values", () => {
    expect(classifyRequestParts({ json: { "<script>alert(1)</script>": 1 } })).toMatchObject({
      blocked: true,
      family: "xss",
      where: "body",
    });
    expect(classifyRequestParts({ json: { "O'Brien": 1, nested: { "123 Main St #4": true } } })).toEqual({
      blocked: false,
    });
  });
});

describe("headers", () => {
  it.each(headers.benign)("passes %s: %s", (name, value) => {
    expect(classifyRequestParts({ headers: { [name]: value } })).toEqual({ blocked: false });
  });

  it.each(headers.attacks)("blocks %s: %s", (name, value, family) => {
    expect(classifyRequestParts({ headers: { [name]: value } })).toMatchObject({
      blocked: true,
      family,
      where: `header:${name}`,
    });
  });

  it("leaves structured headers (Accept, Content-Type, Authorization, Host) to their own parsers", () => {
    const parts = {
      headers: {
        accept: "<script>alert(1)</script>",
        "content-type": "' OR 1=1 --",
        authorization: "Bearer ../../etc/passwd",
        host: "x; cat /etc/passwd",
      },
    };
    expect(classifyRequestParts(parts)).toEqual({ blocked: false });
  });

  it("judges every value of a repeated header", () => {
    expect(classifyRequestParts({ headers: { "x-tag": ["fine", "$(id)"] } })).toMatchObject({
      blocked: true,
      where: "header:x-tag",
    });
  });
});

describe("the path", () => {
  it.each(attacks.traversal.filter((v) => /^[./%\\]|^[a-z]+:\/\//i.test(v)).slice(0, 40))(
    "blocks traversal in the path: %s",
    (value) => {
      const pathValue = `/plans/${value.replace(/^\//, "")}`;
      expect(classifyRequestParts({ path: pathValue })).toMatchObject({
        blocked: true,
        family: "traversal",
        where: "path",
      });
    },
  );

  it.each([
    "/",
    "/plans",
    "/plans/12345NY0010001-01",
    "/api/drugs/autocomplete",
    "/agent-discovery",
    "/assets/entry.client-BX3k_9aQ.js",
    "/plans.data",
    "/api/counties",
  ])("passes the app's own paths: %s", (p) => {
    expect(classifyRequestParts({ path: p })).toEqual({ blocked: false });
  });

  it("blocks injection anywhere in the path, not just traversal", () => {
    expect(classifyRequestParts({ path: "/plans/%3Cscript%3Ealert(1)%3C%2Fscript%3E" })).toMatchObject({
      blocked: true,
      family: "xss",
    });
    expect(classifyRequestParts({ path: "/plans/1'%20UNION%20SELECT%20password%20FROM%20users--" })).toMatchObject({
      blocked: true,
      family: "sqli",
    });
  });
});

describe("where a block is reported", () => {
  it("names a plain parameter but never an odd one (it may be an email or the payload itself)", () => {
    expect(classifyRequestParts({ query: "zip=10001&income=%27%20OR%201%3D1--" }).where).toBe("query:income");
    expect(classifyRequestParts({ query: "jane%40example.com=%27%20OR%201%3D1--" }).where).toBe("query");
    expect(classifyRequestParts({ query: "%3Cscript%3E=1" }).where).toBe("query");
  });

  it("names the JSON field path", () => {
    const verdict = classifyRequestParts({ json: { household: { people: [{ age: 30 }, { name: "$(id)" }] } } });
    expect(verdict.where).toBe("body:household.people.1.name");
  });
});
