import fc from "fast-check";
import { createHmac } from "node:crypto";
import { householdProblems, type PersonFacts } from "../../../app/domain/eligibility/household";
import { US_JURISDICTIONS } from "../../../app/domain/us-states";
import { jpeg, pdf, png } from "../../unit/intake/files";
import {
  DOC_TYPES,
  DRUG_QUERIES,
  NPIS,
  PLACES,
  PLAN_IDS,
  PLAN_YEAR,
  PROVIDER_QUERIES,
  RXCUIS,
  UNSUBSCRIBE_SECRET,
  ZIPS,
} from "./fixtures";

/**
 * Generators for the fuzz tests (docs/decisions/100-fuzzing-the-json-routes.md).
 *
 * Every JSON route is fed a mix of:
 *  - valid bodies (the route must answer 2xx),
 *  - valid bodies with one to three mutations at a random place in the tree
 *    (delete a field, replace it with a hostile value, add an extra key),
 *  - random JSON (fc.jsonValue), raw non-JSON bytes and broken JSON text,
 *  - right bodies sent with a wrong content type, and wrong methods.
 * The answer must never be a 5xx; a 4xx must carry the one error shape.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What is sent: method, path (with query), content type (null = no header), body bytes. */
export interface FuzzRequest {
  kind: "valid" | "plausible" | "mutated" | "random-json" | "raw" | "wrong-type" | "wrong-method" | "query" | "headers";
  method: string;
  path: string;
  contentType: string | null;
  headers?: Record<string, string>;
  body: Uint8Array | null;
  /** Route params for the in-process call (the path's dynamic segment). */
  params?: Record<string, string>;
  /** Over HTTP: send the body with Transfer-Encoding: chunked instead of Content-Length. */
  chunked?: boolean;
}

const encoder = new TextEncoder();
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

// ------------------------------------------------------------------ hostile values

/** Numbers that break naive code: negative, huge, tiny, unsafe integers, fractions. */
export const hostileNumber = fc.oneof(
  fc.constantFrom(
    -1,
    -0,
    0,
    1,
    0.5,
    1.5,
    1e308,
    -1e308,
    5e-324,
    2 ** 53 + 2,
    -(2 ** 53) - 2,
    4294967296,
    -2147483649,
    1e21,
    0.1 + 0.2,
    2027,
    2027.5,
    120,
    121,
    20,
    21,
  ),
  fc.integer(),
  fc.double(), // NaN and ±Infinity serialise as null
);

/** Strings that look like numbers, dates or codes, control characters, RTL, zero-width, surrogates, emoji. */
const trickyStrings = [
  "",
  " ",
  "\t",
  "NaN",
  "-NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "0x1F",
  "1_000",
  "null",
  "undefined",
  "true",
  "false",
  "[object Object]",
  "2027",
  " 2027 ",
  "10001",
  "1000",
  "100010",
  "NY",
  "ny",
  "N",
  "NYC",
  "36061",
  "75201",
  "self",
  "\u0000",
  "a\u0000b",
  "\u200b\u200b\u200b",
  "\u202eevil\u202c",
  "\u200f\u05e9\u05dc\u05d5\u05dd",
  "\ufeff",
  "\ud800",
  "\udfff",
  "\ud83d",
  "%00",
  "%",
  "%zz",
  "../../etc/passwd",
  "\r\n",
  "\\",
  "'",
  '"',
  "`",
  "😀",
  "👨‍👩‍👧‍👦",
  "Z\u0337\u0322a\u0335l\u0338g\u0337o",
  "\ufdfa",
  "𝕏𝕐𝕑",
  "١٢٣٤٥",
  "１２３４５",
  "١٠٠٠١",
  "2027-02-30",
  "0000-00-00",
  "9999-99-99",
  "2027-13-01",
  "1900-01-01",
  "2027-1-1",
  "20101NY0010001",
  "20101ny0010001",
  "20101NY0010001-01",
  "11111TX001000１",
  "a@b.c",
  "@",
  "a@",
  "x@y",
  "name@example.com\n",
  "2125550100",
  "1-212-555-0100",
  "+1 (212) 555-0100",
  "0000000000",
  "１２１２５５５０１００",
  "consumer",
  "agent",
  "CONSUMER",
  "Covered",
  "__proto__",
  "constructor",
  "prototype",
  "$where",
  "{}",
  "[]",
];

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...trickyStrings) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) }, // lone surrogates included
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.stringMatching(/^\d{1,12}$/) },
);

/** Long strings: 10k characters of ASCII, emoji, zero-width, RTL digits; some are over the 100 KB body limit. */
export const longString = fc.constantFrom(
  "a".repeat(10_000),
  "😀".repeat(5_000),
  "\u200b".repeat(10_000),
  "١".repeat(10_000),
  "7".repeat(10_000),
  "x".repeat(120_000),
);

function nested(depth: number, kind: "array" | "object", leaf: Json = 1): Json {
  let value: Json = leaf;
  for (let i = 0; i < depth; i++) value = kind === "array" ? [value] : { a: value };
  return value;
}

/** Values whose keys target prototype pollution; built with JSON.parse so "__proto__" is an own key. */
const protoValues: Json[] = [
  JSON.parse('{"__proto__":{"polluted":true,"isAdmin":true}}') as Json,
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as Json,
  JSON.parse('{"__proto__":null}') as Json,
  JSON.parse('{"toString":"x","valueOf":1,"hasOwnProperty":false,"length":-1}') as Json,
];

export const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom<Json>(null, true, false, [], {}, [null], [[]], { "": "" }) },
  { weight: 4, arbitrary: hostileNumber },
  { weight: 5, arbitrary: hostileString },
  { weight: 1, arbitrary: longString },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Json>(
      Array(10_000).fill(0),
      Array(3_000).fill("10001"),
      Array(2_000).fill({}),
      Array(60_000).fill(1),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Json>(
      nested(100, "array"),
      nested(1_000, "array"),
      nested(1_000, "object"),
      nested(3_000, "array", "x"),
      nested(2_000, "object", null),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(...protoValues) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  {
    weight: 1,
    arbitrary: fc.array(fc.oneof(hostileNumber, hostileString, fc.constant(null)), {
      maxLength: 8,
    }) as fc.Arbitrary<Json>,
  },
);

export const extraKey = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "hasOwnProperty",
    "",
    " ",
    "INCOME",
    "income ",
    "😀",
    "a".repeat(1_000),
    "$where",
    "0",
    "-1",
    "a.b",
    "fields",
    "error",
  ),
  fc.string({ maxLength: 20 }),
);

// ------------------------------------------------------------------ mutation of a valid tree

type Path = Array<string | number>;

/**
 * Every node's path, pre-order, down to `maxDepth`: mutation points are the
 * valid body's own fields, not the inside of a 3,000-deep hostile value
 * placed by an earlier mutation (walking that would overflow the stack).
 */
function pathsOf(value: Json, maxDepth = 12): Path[] {
  const out: Path[] = [];
  const stack: Array<{ node: Json; path: Path }> = [{ node: value, path: [] }];
  while (stack.length) {
    const { node, path } = stack.pop()!;
    out.push(path);
    if (path.length >= maxDepth || !node || typeof node !== "object") continue;
    const children: Array<[string | number, Json]> = Array.isArray(node)
      ? node.map((c, i) => [i, c])
      : Object.entries(node);
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ node: children[i]![1], path: [...path, children[i]![0]] });
  }
  return out;
}

/** Set an own enumerable property, even "__proto__" (plain assignment would change the prototype). */
function setOwn(target: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export type Mutation =
  { op: "delete" } | { op: "replace"; value: Json } | { op: "extra"; key: string; value: Json } | { op: "wrap" };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Mutation>({ op: "delete" }) },
  { weight: 6, arbitrary: hostileValue.map<Mutation>((value) => ({ op: "replace", value })) },
  {
    weight: 2,
    arbitrary: fc.tuple(extraKey, hostileValue).map<Mutation>(([key, value]) => ({ op: "extra", key, value })),
  },
  { weight: 1, arbitrary: fc.constant<Mutation>({ op: "wrap" }) },
);

/** Apply one mutation at the `pick`-th node (pre-order) of a deep copy of `body`. */
export function mutate(body: Json, pick: number, m: Mutation): Json {
  const copy = JSON.parse(JSON.stringify(body)) as Json;
  const paths = pathsOf(copy);
  const path = paths[pick % paths.length]!;
  if (path.length === 0) {
    if (m.op === "replace") return m.value;
    if (m.op === "wrap") return [copy];
    if (m.op === "delete") return {};
    if (copy && typeof copy === "object" && !Array.isArray(copy)) setOwn(copy, m.key, m.value);
    return copy;
  }
  let parent = copy as Record<string | number, Json> | Json[];
  for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[step] as typeof parent;
  const last = path[path.length - 1]!;
  const current = (parent as Record<string | number, Json>)[last]!;
  if (m.op === "delete") {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete (parent as Record<string, Json>)[last as string];
  } else if (m.op === "replace") {
    if (Array.isArray(parent)) parent[last as number] = m.value;
    else setOwn(parent as Record<string, Json>, String(last), m.value);
  } else if (m.op === "wrap") {
    (parent as Record<string | number, Json>)[last] = [current];
  } else if (current && typeof current === "object" && !Array.isArray(current)) {
    setOwn(current, m.key, m.value);
  } else {
    const replacement: Record<string, Json> = {};
    setOwn(replacement, m.key, m.value);
    (parent as Record<string | number, Json>)[last] = replacement;
  }
  return copy;
}

export function mutated(valid: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  return fc
    .tuple(valid, fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 3 }))
    .map(([body, steps]) => steps.reduce<Json>((b, [pick, m]) => mutate(b, pick, m), body));
}

// ------------------------------------------------------------------ raw bodies

/** Raw number literals JSON.parse accepts but that overflow, underflow or carry a fraction. */
const numberLiterals = [
  "1e400",
  "-1e400",
  "1E+2",
  "-0",
  "0.0000001e-400",
  "123456789012345678901234567890",
  "2.027e3",
  "2027.0",
  "1" + "0".repeat(400),
  "0." + "0".repeat(2_000) + "1",
];

function deepText(depth: number, kind: "array" | "object", balanced: boolean): string {
  const open = kind === "array" ? "[" : '{"a":';
  const close = kind === "array" ? "]" : "}";
  const leaf = kind === "array" ? "" : "1";
  return open.repeat(depth) + leaf + (balanced ? close.repeat(depth) : close.repeat(Math.floor(depth / 2)));
}

/**
 * The deepest nesting a 100 KB body can carry: 49,990 arrays ("[" + "]" per
 * level), 16,600 objects ('{"a":' + "}" per level), and arrays 49,000 deep
 * under the route's own first field. JSON.parse in V8 is iterative and zod
 * walks only as deep as its schema, so each must be a plain 400.
 */
export function deepestBodies(firstField: string): string[] {
  return [
    deepText(49_990, "array", true),
    deepText(16_600, "object", true),
    `{${JSON.stringify(firstField)}:${deepText(49_000, "array", true)}}`,
  ];
}

/** Bodies that are not the JSON the route wants: random bytes, broken JSON, deep nesting, oversize. */
export function rawBody(valid: fc.Arbitrary<Json>): fc.Arbitrary<Uint8Array> {
  const fromText = (a: fc.Arbitrary<string>) => a.map(utf8);
  return fc.oneof(
    { weight: 3, arbitrary: fc.uint8Array({ maxLength: 512 }) },
    { weight: 2, arbitrary: fromText(fc.string({ unit: "binary", maxLength: 200 })) },
    {
      weight: 3,
      arbitrary: fromText(
        fc.constantFrom(
          "",
          " ",
          "\n",
          "null",
          "true",
          "0",
          "-",
          '"x"',
          "[]",
          "{}",
          "{",
          "}",
          "[",
          '{"a":}',
          "{'a':1}",
          "{a:1}",
          "NaN",
          "Infinity",
          "undefined",
          "\ufeff{}",
          "{}garbage",
          "{} {}",
          "[1,]",
          '{"a":1,}',
          "\u0000",
          "/* */{}",
          '{"__proto__":{"x":1}}',
          '"\\ud800"',
          '"\\u0000"',
          '{"\\u0000":1}',
          " ".repeat(100_001) + "{}",
          "x".repeat(150_000),
          "[" + "1,".repeat(40_000) + "1]",
        ),
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(1_000, 5_000, 20_000, 49_000),
          fc.constantFrom<"array" | "object">("array", "object"),
          fc.boolean(),
        )
        .map(([depth, kind, balanced]) => utf8(deepText(depth, kind, balanced))),
    },
    {
      // A valid body, cut short, with a byte changed, or with a stray character inserted.
      weight: 3,
      arbitrary: fc.tuple(valid, fc.nat(), fc.constantFrom("cut", "flip", "insert", "dup")).map(([body, at, how]) => {
        const bytes = Buffer.from(JSON.stringify(body));
        const i = bytes.length ? at % bytes.length : 0;
        if (how === "cut") return bytes.subarray(0, i);
        if (how === "flip") {
          const copy = Buffer.from(bytes);
          if (copy.length) copy[i] = (copy[i]! ^ (1 + (at % 255))) & 0xff;
          return copy;
        }
        if (how === "insert")
          return Buffer.concat([
            bytes.subarray(0, i),
            Buffer.from([[0x22, 0x7b, 0x5c, 0xff, 0x00][at % 5]!]),
            bytes.subarray(i),
          ]);
        // Duplicate keys: the last one wins in JSON.parse.
        const text = bytes.toString("utf8");
        return utf8(text.startsWith("{") && text.length > 2 ? `{"income":"dup","query":null,${text.slice(1)}` : text);
      }),
    },
    {
      // A valid body with one string replaced by a raw number literal.
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat(), fc.constantFrom(...numberLiterals)).map(([body, pick, literal]) => {
        const marker = "\u0001FUZZ\u0001";
        const withMarker = mutate(body, pick, { op: "replace", value: marker });
        return utf8(JSON.stringify(withMarker).replace(JSON.stringify(marker), literal));
      }),
    },
  );
}

// ------------------------------------------------------------------ content types and methods

export const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "Application/JSON",
  "application/problem+json",
  "application/vnd.api+json",
];

export const wrongContentType = fc.constantFrom<string | null>(
  null,
  "",
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=----fuzz",
  "application/xml",
  "application/octet-stream",
  "json",
  "application/jsonp",
  "application/json5",
  "text/json",
  "application/x-json",
  "*/*",
  "application/",
  ";",
);

/** JSON content types the routes accept, some with odd parameters. */
export const jsonContentType = fc.constantFrom(
  ...JSON_TYPES,
  "application/json;charset=utf-16",
  "application/json; charset=latin1",
  "application/json;;;",
  "application/json, text/html",
);

const otherMethods = fc.constantFrom("GET", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");

// ------------------------------------------------------------------ request mixes

/**
 * The mix for a JSON POST route: valid, mutated, random JSON, raw bytes,
 * wrong content type and wrong method.
 */
export function jsonRouteRequests(
  path: string,
  valid: fc.Arbitrary<Json>,
  plausible?: fc.Arbitrary<Json>,
): fc.Arbitrary<FuzzRequest> {
  const post = (kind: FuzzRequest["kind"], contentType: string | null, body: Uint8Array): FuzzRequest => ({
    kind,
    method: "POST",
    path,
    contentType,
    body,
  });
  return fc.oneof(
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, jsonContentType)
        .map(([b, t]) => post("valid", JSON_TYPES.includes(t) ? t : "application/json", utf8(JSON.stringify(b)))),
    },
    // Schema-valid bodies about places, years and plans that may not exist: where logic (not parsing) breaks.
    ...(plausible
      ? [{ weight: 3, arbitrary: plausible.map((b) => post("plausible", "application/json", utf8(JSON.stringify(b)))) }]
      : []),
    {
      weight: 8,
      arbitrary: fc
        .tuple(mutated(valid), jsonContentType)
        .map(([b, t]) => post("mutated", t, utf8(JSON.stringify(b) ?? ""))),
    },
    {
      weight: 2,
      arbitrary: fc.jsonValue().map((b) => post("random-json", "application/json", utf8(JSON.stringify(b) ?? ""))),
    },
    { weight: 3, arbitrary: fc.tuple(rawBody(valid), jsonContentType).map(([b, t]) => post("raw", t, b)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          wrongContentType,
          fc.oneof(
            valid.map((b) => utf8(JSON.stringify(b))),
            rawBody(valid),
          ),
        )
        .map(([t, b]) => post("wrong-type", t, b)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(otherMethods, valid).map(([method, b]): FuzzRequest => ({
        kind: "wrong-method",
        method,
        path,
        contentType: "application/json",
        body: method === "GET" || method === "HEAD" ? null : utf8(JSON.stringify(b)),
      })),
    },
  );
}

// ------------------------------------------------------------------ valid bodies per route

const simpleWord = fc.stringMatching(/^[A-Za-z][a-z]{1,11}$/);
/** An address no firewall rule can mind: letters and digits only. */
export const plainEmail = fc
  .tuple(
    fc.stringMatching(/^[a-z][a-z0-9]{0,15}$/),
    fc.stringMatching(/^[a-z]{2,10}$/),
    fc.constantFrom("test", "example", "com", "org"),
  )
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
const zip5 = fc.stringMatching(/^\d{5}$/);
const year = fc.option(fc.constant(PLAN_YEAR), { nil: undefined });

const person = fc.record(
  {
    age: fc.integer({ min: 0, max: 120 }),
    uses_tobacco: fc.boolean(),
    is_pregnant: fc.boolean(),
    relationship: fc.constantFrom("self", "spouse", "child", "other"),
    medicare_eligible: fc.boolean(),
  },
  { requiredKeys: ["age"] },
);

// Valid households only: at most one self and one spouse, no spouse under 14, an adult somewhere
// (docs/decisions/210-relationship-rule.md).
const household = fc
  .array(person, { minLength: 1, maxLength: 6 })
  .chain((people) =>
    fc
      .record({
        people: fc.constant(people),
        size: fc.option(fc.integer({ min: people.length, max: 20 }), { nil: undefined }),
      })
      .map(dropUndefined),
  )
  .filter((h) => householdProblems(h.people as PersonFacts[], h.size as number | undefined).length === 0);

const place = fc
  .constantFrom(...PLACES)
  .chain(({ state, county_fips, zip }) =>
    fc.constantFrom(state, state.toLowerCase()).map((s) => ({ state: s, county_fips, zip })),
  );

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export const validShopping = fc
  .record({
    // Whole cents: more than two decimals is a 400 naming income (docs/decisions/212).
    income: fc.oneof(
      fc.integer({ min: 0, max: 500_000 }),
      fc.integer({ min: 0, max: 10_000_000_000 }).map((c) => c / 100),
    ),
    household,
    place,
    year,
    coverage_date: fc.option(fc.constantFrom(`${PLAN_YEAR}-01-01`, `${PLAN_YEAR}-03-01`), { nil: undefined }),
  })
  .map((b) => dropUndefined(b) as Json);

export const validPlans = fc
  .tuple(
    validShopping,
    fc.record(
      {
        filters: fc.record(
          {
            metal_levels: fc.subarray(["Catastrophic", "Bronze", "Expanded Bronze", "Silver", "Gold", "Platinum"]),
            types: fc.subarray(["HMO", "PPO", "EPO", "POS", "Indemnity"]),
            issuers: fc.array(fc.constantFrom("10101", "20101", "Bluebonnet", "x"), { maxLength: 3 }),
            hsa_eligible: fc.boolean(),
            max_premium: fc.integer({ min: 0, max: 1_000_000 }),
            max_deductible: fc.double({ min: 0, max: 1_000_000, noNaN: true }),
          },
          { requiredKeys: [] },
        ),
        sort: fc.constantFrom("premium", "deductible", "moop", "yearly_cost", "quality_rating"),
        order: fc.constantFrom("asc", "desc"),
        usage: fc.constantFrom("low", "medium", "high"),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([shopping, extra]) => ({ ...(shopping as Record<string, Json>), ...(extra as Record<string, Json>) }) as Json);

const typedQuery = (known: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...known),
    fc.stringMatching(/^[a-z]{3,20}$/),
    fc.stringMatching(/^ ?[A-Za-z][a-z]{2}[a-z ]{0,28}$/),
  );

export const validDrugAutocomplete = fc
  .record({ query: typedQuery(DRUG_QUERIES), year })
  .map((b) => dropUndefined(b) as Json);
export const validProviderAutocomplete = fc
  .record({ query: typedQuery(PROVIDER_QUERIES), zip: fc.oneof(fc.constantFrom(...ZIPS), zip5), year })
  .map((b) => dropUndefined(b) as Json);

const planIds = fc.array(fc.oneof(fc.constantFrom(...PLAN_IDS), fc.stringMatching(/^\d{5}(TX|NY|NE|FL)\d{7}$/)), {
  minLength: 1,
  maxLength: 30,
});
export const validDrugCovered = fc
  .record({
    rxcuis: fc.array(fc.oneof(fc.constantFrom(...RXCUIS), fc.stringMatching(/^\d{1,10}$/)), {
      minLength: 1,
      maxLength: 20,
    }),
    plan_ids: planIds,
    year,
  })
  .map((b) => dropUndefined(b) as Json);
export const validProviderCovered = fc
  .record({
    npis: fc.array(fc.oneof(fc.constantFrom(...NPIS), fc.stringMatching(/^\d{10}$/)), { minLength: 1, maxLength: 20 }),
    plan_ids: planIds,
    year,
  })
  .map((b) => dropUndefined(b) as Json);

export const validWaitlist = fc
  .record({
    email: plainEmail,
    zip: zip5,
    interest: fc.constantFrom("consumer", "agent", "agent_independent", "agent_agency"),
  })
  .map((b) => b as Json);

const phone = fc
  .tuple(fc.integer({ min: 2, max: 9 }), fc.stringMatching(/^\d{9}$/), fc.constantFrom("plain", "dashed", "country"))
  .map(([first, rest, style]) => {
    const d = `${first}${rest}`;
    if (style === "dashed") return `${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`;
    if (style === "country") return `1${d}`;
    return d;
  });

export const validDiscovery = fc
  .record(
    {
      name: fc.tuple(simpleWord, simpleWord).map(([a, b]) => `${a} ${b}`),
      email: plainEmail,
      phone,
      npn: fc.stringMatching(/^\d{1,10}$/),
      licensed_states: fc.subarray(["NY", "TX", "FL", "ca", "nj", "PR"], { minLength: 1 }),
      agency: fc.option(simpleWord, { nil: null }),
      current_tools: fc.subarray(["HealthSherpa", "Spreadsheets", "Paper forms"]),
      needs: fc.option(fc.stringMatching(/^[A-Za-z ]{0,200}$/), { nil: null }),
      consent: fc.constant(true),
      consent_version: fc.constant("2025-11-01"),
    },
    { requiredKeys: ["name", "email", "phone", "npn", "licensed_states", "consent", "consent_version"] },
  )
  .map((b) => b as Json);

export const validEnrollment = fc
  .record({
    placeIndex: fc.nat({ max: PLACES.length - 1 }),
    planPick: fc.nat(),
    household,
    income: fc.integer({ min: 0, max: 100_000_000 }),
    contact: fc.record(
      {
        first_name: simpleWord,
        last_name: simpleWord,
        email: plainEmail,
        phone,
        preferred_language: fc.constantFrom("English", "Spanish", "es"),
      },
      { requiredKeys: ["first_name", "last_name", "email"] },
    ),
    signature: fc.tuple(simpleWord, simpleWord).map(([a, b]) => `${a} ${b}`),
  })
  .map(({ placeIndex, planPick, household: h, income, contact, signature }) => {
    const p = PLACES[placeIndex]!;
    return {
      plan_id: p.planIds[planPick % p.planIds.length]!,
      year: PLAN_YEAR,
      place: { state: p.state, county_fips: p.county_fips, zip: p.zip },
      household: h,
      income,
      contact,
      attestation: { agreed: true, version: "2025-11-01", signature },
    } as Json;
  });

// ------------------------------------------------------------------ plausible bodies

/** Every state code, DC, territories, and near misses: the schema accepts any two letters. */
const STATE_CODES = [...US_JURISDICTIONS, "ZZ", "XX", "ny", "Tx"];
/** Counties of the sample (real FIPS codes, some across state lines from their ZIPs) and made-up ones. */
const SAMPLE_COUNTIES = [
  "36061",
  "36047",
  "36081",
  "36001",
  "48113",
  "48121",
  "48085",
  "48453",
  "48157",
  "48201",
  "12086",
  "12099",
  "47125",
  "21075",
  "02020",
  "46105",
  "06037",
  "42101",
  "13089",
];

export const plausiblePlace = fc.record({
  state: fc.constantFrom(...STATE_CODES),
  county_fips: fc.oneof(fc.constantFrom(...SAMPLE_COUNTIES), zip5),
  zip: fc.oneof(fc.constantFrom(...ZIPS), zip5),
});

/** A plan year the schema accepts, mostly one without data. */
const anyYear = fc.oneof(fc.constant(PLAN_YEAR), fc.integer({ min: 2014, max: 2100 }));

export const plausibleShopping = fc
  .tuple(
    validShopping,
    plausiblePlace,
    fc.option(anyYear, { nil: undefined }),
    fc.option(fc.constantFrom("2027-12-31", "2026-06-01", "2028-01-01", "2014-01-01"), { nil: undefined }),
  )
  .map(
    ([body, place, y, date]) =>
      dropUndefined({ ...(body as Record<string, Json>), place, year: y, coverage_date: date }) as Json,
  );

export const plausiblePlans = fc
  .tuple(validPlans, plausiblePlace, fc.option(anyYear, { nil: undefined }))
  .map(([body, place, y]) => dropUndefined({ ...(body as Record<string, Json>), place, year: y }) as Json);

const withAnyYear = (valid: fc.Arbitrary<Json>) =>
  fc.tuple(valid, anyYear).map(([body, y]) => ({ ...(body as Record<string, Json>), year: y }) as Json);

export const plausibleDrugAutocomplete = withAnyYear(validDrugAutocomplete);
export const plausibleProviderAutocomplete = withAnyYear(validProviderAutocomplete);
export const plausibleDrugCovered = withAnyYear(validDrugCovered);
export const plausibleProviderCovered = withAnyYear(validProviderCovered);

export const plausibleEnrollment = fc
  .tuple(
    validEnrollment,
    plausiblePlace,
    fc.constantFrom(...PLAN_IDS, "20101NY0010001-01", "10101TX0010001-06", "99999ZZ9999999"),
    anyYear,
  )
  .map(([body, place, planId, y]) => ({ ...(body as Record<string, Json>), place, plan_id: planId, year: y }) as Json);

// ------------------------------------------------------------------ query-string routes

/** Percent-encode the UTF-8 bytes of a string (lone surrogates become U+FFFD, as on the wire). */
export function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function queryString(params: Array<[string, string]>): string {
  return params.length ? `?${params.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join("&")}` : "";
}

/** Query strings that are not even well-formed percent-encoding. */
const rawQueries = fc.constantFrom(
  "?zip=%",
  "?zip=%zz",
  "?zip=%E0%A4%A",
  "?zip=%ff%fe",
  "?zip=1000%00",
  "?zip",
  "?=",
  "?&&&",
  "?zip=10001&zip=75201",
  "?zip[]=10001",
  "?zip[a]=1",
  "?__proto__[x]=1",
  "?zip=10001&state=",
  "?zip=10001&year=",
  "?zip=10001&year=2027.5",
  "?zip=10001&year=1e3",
  "?zip=10001&year=0x7eb",
  "?zip=10001&year=-2027",
  "?zip=10001&year=99999999999999999999",
  "?zip=+10001",
  `?zip=${"1".repeat(5_000)}`,
  "?zip=10001#frag",
  "?ZIP=10001",
);

const countyParamValue = fc.oneof(
  hostileString,
  fc.constantFrom(...ZIPS),
  zip5,
  fc.constantFrom("NY", "tx", "TX", "2027", "2026", "2014", "2101"),
);

export function countiesRequests(): fc.Arbitrary<FuzzRequest> {
  const validParams = fc
    .record({
      zip: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ZIPS) }, { weight: 1, arbitrary: zip5 }),
      state: fc.option(fc.constantFrom("NY", "TX", "tx", "KY", "SD"), { nil: undefined }),
      year: fc.option(fc.constant(String(PLAN_YEAR)), { nil: undefined }),
    })
    .map((p) => Object.entries(dropUndefined(p)) as Array<[string, string]>);
  const get = (kind: FuzzRequest["kind"], query: string): FuzzRequest => ({
    kind,
    method: "GET",
    path: `/api/counties${query}`,
    contentType: null,
    body: null,
  });
  return fc.oneof(
    { weight: 2, arbitrary: validParams.map((p) => get("valid", queryString(p))) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          validParams,
          fc.nat(),
          fc.constantFrom("replace", "delete", "extra"),
          fc.oneof(extraKey, fc.constantFrom("zip", "state", "year")),
          countyParamValue,
        )
        .map(([params, at, op, key, value]) => {
          const p = [...params];
          const i = p.length ? at % p.length : 0;
          if (op === "replace" && p.length) p[i] = [p[i]![0], String(value)];
          else if (op === "delete" && p.length) p.splice(i, 1);
          else p.push([key, String(value)]);
          return get("query", queryString(p));
        }),
    },
    { weight: 2, arbitrary: rawQueries.map((q) => get("query", q)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          otherMethods.filter((m) => m !== "GET" && m !== "HEAD"),
          validParams,
        )
        .map(([m, p]): FuzzRequest => ({ ...get("wrong-method", queryString(p)), method: m })),
    },
  );
}

/** Header values a client can put on the wire: Latin-1 without CR/LF. */
const headerValue = fc
  .oneof(
    fc.string({ unit: "grapheme-ascii", maxLength: 60 }),
    fc.constantFrom(
      "",
      " ",
      "Bearer",
      "Bearer ",
      "Bearer  ",
      "bearer abcdefghijkl",
      "Basic dXNlcjpwYXNz",
      `Bearer ${"a".repeat(5_000)}`,
      "Bearer \xff\xfe\xe9",
      "Bearer a b c",
    ),
  )
  .filter((v) => /^[\t\x20-\x7e\x80-\xff]*$/.test(v));

export function healthRequests(): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    {
      weight: 2,
      arbitrary: fc.constant<FuzzRequest>({
        kind: "valid",
        method: "GET",
        path: "/api/health",
        contentType: null,
        body: null,
      }),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.array(fc.tuple(extraKey, hostileString), { maxLength: 4 }),
          fc.dictionary(fc.constantFrom("accept", "x-request-id", "if-none-match", "accept-language"), headerValue, {
            maxKeys: 3,
          }),
        )
        .map(([params, headers]): FuzzRequest => ({
          kind: "query",
          method: "GET",
          path: `/api/health${queryString(params)}`,
          contentType: null,
          body: null,
          headers,
        })),
    },
    {
      weight: 1,
      arbitrary: otherMethods
        .filter((m) => m !== "GET" && m !== "HEAD")
        .map((m): FuzzRequest => ({
          kind: "wrong-method",
          method: m,
          path: "/api/health",
          contentType: "application/json",
          body: utf8("{}"),
        })),
    },
  );
}

// ------------------------------------------------------------------ enrollment GET

export interface KnownApplication {
  id: string;
  token: string;
}

const applicationIdSegment = fc.oneof(
  fc.stringMatching(/^[0-9a-f]{24}$/),
  fc.stringMatching(/^[0-9A-Fa-f]{20,28}$/),
  hostileString.filter((s) => s.length > 0),
  longString.map((s) => s.slice(0, 5_000)),
);

/** GET /api/enroll/applications/<id> with right, wrong, missing and malformed ids and tokens. */
export function enrollmentReadRequests(known: readonly KnownApplication[]): fc.Arbitrary<FuzzRequest> {
  const token = fc.oneof(
    fc.constantFrom(...known.map((k) => k.token)),
    fc.stringMatching(/^[A-Za-z0-9_-]{10,200}$/),
    fc.constant(null),
  );
  const authorization = fc.oneof(
    { weight: 3, arbitrary: token.map((t) => (t === null ? null : `Bearer ${t}`)) },
    { weight: 1, arbitrary: headerValue },
  );
  const id = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...known.map((k) => k.id)) },
    { weight: 3, arbitrary: applicationIdSegment },
  );
  return fc.oneof(
    {
      weight: 2,
      arbitrary: fc.constantFrom(...known).map((k): FuzzRequest => ({
        kind: "valid",
        method: "GET",
        path: `/api/enroll/applications/${k.id}`,
        params: { applicationId: k.id },
        contentType: null,
        body: null,
        headers: { authorization: `Bearer ${k.token}` },
      })),
    },
    {
      weight: 8,
      arbitrary: fc.tuple(id, authorization).map(([i, auth]): FuzzRequest => ({
        kind: "headers",
        method: "GET",
        path: `/api/enroll/applications/${percentEncode(i)}`,
        params: { applicationId: i },
        contentType: null,
        body: null,
        headers: auth === null ? {} : { authorization: auth },
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          otherMethods.filter((m) => m !== "GET" && m !== "HEAD"),
          fc.constantFrom(...known),
        )
        .map(([m, k]): FuzzRequest => ({
          kind: "wrong-method",
          method: m,
          path: `/api/enroll/applications/${k.id}`,
          params: { applicationId: k.id },
          contentType: "application/json",
          body: utf8("{}"),
          headers: { authorization: `Bearer ${k.token}` },
        })),
    },
  );
}

/** Raw path segments for the HTTP pass: broken percent-encoding, encoded slashes, dot segments. */
export const rawApplicationPaths = [
  "/api/enroll/applications/%",
  "/api/enroll/applications/%zz",
  "/api/enroll/applications/%E0%A4%A",
  "/api/enroll/applications/%ff",
  "/api/enroll/applications/a%2Fb",
  "/api/enroll/applications/..%2F..%2Fapi%2Fhealth",
  "/api/enroll/applications/%00",
  "/api/enroll/applications/%C0%AE%C0%AE",
  "/api/enroll/applications//",
  "/api/enroll/applications/x/y",
  "/api/unsubscribe/%",
  "/api/counties/%E0%A4%A",
  "/api/%",
  "/api/%zz?zip=%zz",
];

// ------------------------------------------------------------------ unsubscribe

export function unsubscribeTokenFor(email: string, secret = UNSUBSCRIBE_SECRET): string {
  return createHmac("sha256", secret)
    .update("unsubscribe:v1:" + email.trim().toLowerCase())
    .digest("base64url");
}

/**
 * /api/unsubscribe: GET with a query, POST with the link in the query or in a
 * JSON, form, multipart or text body (RFC 8058 one-click included).
 */
export function unsubscribeRequests(): fc.Arbitrary<FuzzRequest> {
  const link = plainEmail.map((email) => ({ email, token: unsubscribeTokenFor(email) }));
  const emailValue = fc.oneof(
    plainEmail,
    hostileString,
    longString.map((s) => s.slice(0, 3_000)),
  );
  const tokenValue = fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), hostileString, fc.constant("a".repeat(129)));
  const brokenLink = fc.oneof(
    link.chain(({ email }) => tokenValue.map((token) => ({ email, token }))),
    link.chain(({ token }) => emailValue.map((email) => ({ email, token }))),
    fc.record({ email: emailValue, token: tokenValue }, { requiredKeys: [] }),
  );
  const anyLink = fc.oneof({ weight: 1, arbitrary: link }, { weight: 3, arbitrary: brokenLink });
  const inQuery = (l: { email?: string; token?: string }) =>
    queryString(Object.entries(l).filter(([, v]) => v !== undefined) as Array<[string, string]>);
  const path = "/api/unsubscribe";
  const bodyEncodings = fc.constantFrom("json", "form", "multipart", "text", "none");
  const encode = (enc: string, l: Record<string, unknown>): { contentType: string | null; body: Uint8Array | null } => {
    if (enc === "json") return { contentType: "application/json", body: utf8(JSON.stringify(l)) };
    if (enc === "form")
      return {
        contentType: "application/x-www-form-urlencoded",
        body: utf8(new URLSearchParams(Object.entries(l).map(([k, v]) => [k, String(v)])).toString()),
      };
    if (enc === "multipart") {
      const boundary = "fuzzboundary";
      const parts = Object.entries(l).map(
        ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`,
      );
      return {
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: utf8(`${parts.join("")}--${boundary}--\r\n`),
      };
    }
    if (enc === "text")
      return {
        contentType: "text/plain",
        body: utf8(
          Object.entries(l)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join("&"),
        ),
      };
    return { contentType: null, body: null };
  };
  return fc.oneof(
    {
      weight: 1,
      arbitrary: link.map((l): FuzzRequest => ({
        kind: "valid",
        method: "GET",
        path: `${path}${inQuery(l)}`,
        contentType: null,
        body: null,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(link, fc.boolean()).map(([l, oneClick]): FuzzRequest => ({
        kind: "valid",
        method: "POST",
        path: `${path}${inQuery(l)}`,
        contentType: oneClick ? "application/x-www-form-urlencoded" : null,
        body: oneClick ? utf8("List-Unsubscribe=One-Click") : null,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(link, fc.constantFrom("json", "form", "multipart"))
        .map(([l, enc]): FuzzRequest => ({ kind: "valid", method: "POST", path, ...encode(enc, l) })),
    },
    {
      weight: 3,
      arbitrary: anyLink.map((l): FuzzRequest => ({
        kind: "query",
        method: "GET",
        path: `${path}${inQuery(l)}`,
        contentType: null,
        body: null,
      })),
    },
    {
      weight: 4,
      arbitrary: fc.tuple(anyLink, bodyEncodings, fc.boolean()).map(([l, enc, both]): FuzzRequest => ({
        kind: "mutated",
        method: "POST",
        path: both ? `${path}${inQuery(l)}` : path,
        ...encode(enc, l as Record<string, unknown>),
      })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(mutated(link as fc.Arbitrary<Json>), jsonContentType).map(([b, t]): FuzzRequest => ({
        kind: "mutated",
        method: "POST",
        path,
        contentType: t,
        body: utf8(JSON.stringify(b) ?? ""),
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(rawBody(link as fc.Arbitrary<Json>), fc.oneof(jsonContentType, wrongContentType))
        .map(([b, t]): FuzzRequest => ({ kind: "raw", method: "POST", path, contentType: t, body: b })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("PUT", "PATCH", "DELETE", "OPTIONS")
        .map((m): FuzzRequest => ({ kind: "wrong-method", method: m, path, contentType: null, body: null })),
    },
  );
}

// ------------------------------------------------------------------ multipart upload

interface FormPart {
  name: string | null;
  filename?: string | null;
  contentType?: string | null;
  data: Uint8Array;
}

function disposition(part: FormPart): string {
  const pieces = ["form-data"];
  if (part.name !== null) pieces.push(`name="${part.name}"`);
  if (part.filename !== undefined && part.filename !== null) pieces.push(`filename="${part.filename}"`);
  return `Content-Disposition: ${pieces.join("; ")}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ""}\r\n`;
}

export function encodeMultipart(boundary: string, parts: FormPart[], options: { close?: boolean } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\n${disposition(part)}`, "utf8"),
      Buffer.from(part.data),
      Buffer.from("\r\n"),
    );
  }
  if (options.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const goodFiles = [
  { bytes: pdf(), name: "blank-intake.pdf", type: "application/pdf" },
  { bytes: png(), name: "form.png", type: "image/png" },
  { bytes: jpeg(), name: "scan.jpg", type: "image/jpeg" },
];

const fileNames = fc
  .oneof(
    fc.constantFrom(
      "form.pdf",
      "",
      ".",
      "..",
      "../../etc/passwd",
      "..\\..\\boot.ini",
      "a/b/c.png",
      "\u202egpj.exe",
      "résumé.pdf",
      "😀.png",
      "x".repeat(5_000),
      "con.pdf",
      "nul",
      "a\u0000b.pdf",
      ".htaccess",
      "a;b=c.pdf",
      "%2e%2e%2f.pdf",
      "\u200b.pdf",
    ),
    fc.string({ unit: "grapheme", maxLength: 40 }),
  )
  .map((n) => n.replace(/["\r\n]/g, "_"));

const fileBytes = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...goodFiles.map((f) => f.bytes)) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 2_048 }) },
  {
    weight: 2,
    // A real magic-number prefix followed by junk, or a real file with junk appended, or cut short.
    arbitrary: fc
      .tuple(
        fc.constantFrom(...goodFiles.map((f) => f.bytes)),
        fc.uint8Array({ maxLength: 256 }),
        fc.constantFrom("prefix", "append", "cut"),
      )
      .map(([good, junk, how]) =>
        how === "prefix"
          ? Buffer.concat([good.subarray(0, 8), junk])
          : how === "append"
            ? Buffer.concat([good, junk])
            : good.subarray(0, Math.max(1, good.length - 1 - (junk.length % good.length))),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Buffer.from("<html><script>alert(1)</script></html>"),
      Buffer.from("%PDF-1.7\n<script>x</script>\n%%EOF"),
      Buffer.alloc(0),
      Buffer.alloc(70_000, 0x41),
    ),
  },
);

const fieldValue = fc.oneof(
  fc.constantFrom(...DOC_TYPES, "true", "on", "1", "false", "", " true ", "TRUE", "yes"),
  hostileString,
  longString.map((s) => s.slice(0, 2_000)),
);

const boundaries = fc.constantFrom(
  "fuzzBoundary123",
  "----WebKitFormBoundary7MA4YWxkTrZu0gW",
  "x",
  "a".repeat(70),
  "b".repeat(200),
  "with space",
  'quo"te',
);

/** POST /api/agents/discovery/upload: multipart bodies, valid and broken. */
export function uploadRequests(): fc.Arbitrary<FuzzRequest> {
  const path = "/api/agents/discovery/upload";
  const valid = fc
    .record({
      docType: fc.constantFrom(...DOC_TYPES),
      blank: fc.constantFrom("true", "on", "yes", "1", " TRUE "),
      file: fc.constantFrom(...goodFiles),
      boundary: fc.constantFrom("fuzzBoundary123", "----WebKitFormBoundary7MA4YWxkTrZu0gW"),
      order: fc.boolean(),
    })
    .map(({ docType, blank, file, boundary, order }): FuzzRequest => {
      const fields: FormPart[] = [
        { name: "docType", data: utf8(docType) },
        { name: "blankConfirmed", data: utf8(blank) },
      ];
      const filePart: FormPart = { name: "file", filename: file.name, contentType: file.type, data: file.bytes };
      const parts = order ? [...fields, filePart] : [filePart, ...fields];
      return {
        kind: "valid",
        method: "POST",
        path,
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: encodeMultipart(boundary, parts),
      };
    });
  const part: fc.Arbitrary<FormPart> = fc.oneof(
    fc.record({
      name: fc.constantFrom<string | null>("docType", "blankConfirmed", "x", "", null, "__proto__"),
      data: fieldValue.map(utf8),
    }),
    fc.record({
      name: fc.constantFrom<string | null>("file", "upload", "docType", "", null),
      filename: fc.option(fileNames, { nil: null }),
      contentType: fc.option(
        fc.constantFrom("application/pdf", "image/png", "text/html", "application/x-msdownload", "image/svg+xml", ""),
        { nil: null },
      ),
      data: fileBytes,
    }),
  );
  const broken = fc
    .tuple(
      fc.array(part, { minLength: 0, maxLength: 10 }),
      boundaries,
      fc.constantFrom("same", "quoted", "other", "missing", "json", "none"),
      fc.constantFrom("whole", "unclosed", "truncated"),
      fc.nat(),
    )
    .map(([parts, boundary, typeStyle, shape, cutAt]): FuzzRequest => {
      let body = encodeMultipart(boundary, parts, { close: shape !== "unclosed" });
      if (shape === "truncated" && body.length) body = body.subarray(0, cutAt % body.length);
      const contentType =
        typeStyle === "same"
          ? `multipart/form-data; boundary=${boundary}`
          : typeStyle === "quoted"
            ? `multipart/form-data; boundary="${boundary.replace(/"/g, "")}"`
            : typeStyle === "other"
              ? "multipart/form-data; boundary=somethingElse"
              : typeStyle === "missing"
                ? "multipart/form-data"
                : typeStyle === "json"
                  ? "application/json"
                  : null;
      return { kind: "mutated", method: "POST", path, contentType, body };
    });
  const validWithOneChange = fc
    .tuple(
      fc.constantFrom(...DOC_TYPES),
      fc.constantFrom(...goodFiles),
      fc.constantFrom(
        "docType",
        "blankConfirmed",
        "file",
        "filename",
        "drop-docType",
        "drop-file",
        "extra-file",
        "extra-field",
      ),
      fieldValue,
      fileBytes,
      fileNames,
    )
    .map(([docType, file, what, value, bytes, name]): FuzzRequest => {
      const boundary = "fuzzBoundary123";
      const parts: FormPart[] = [
        { name: "docType", data: utf8(what === "docType" ? value : docType) },
        { name: "blankConfirmed", data: utf8(what === "blankConfirmed" ? value : "true") },
        {
          name: "file",
          filename: what === "filename" ? name : file.name,
          contentType: file.type,
          data: what === "file" ? bytes : file.bytes,
        },
      ];
      if (what === "drop-docType") parts.shift();
      if (what === "drop-file") parts.pop();
      if (what === "extra-file")
        parts.push({ name: "file2", filename: name, contentType: "application/pdf", data: bytes });
      if (what === "extra-field") parts.push({ name: "extra", data: utf8(value) });
      return {
        kind: "mutated",
        method: "POST",
        path,
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: encodeMultipart(boundary, parts),
      };
    });
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    { weight: 5, arbitrary: validWithOneChange },
    { weight: 4, arbitrary: broken },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.uint8Array({ maxLength: 1_024 }), boundaries).map(([b, boundary]): FuzzRequest => ({
        kind: "raw",
        method: "POST",
        path,
        contentType: `multipart/form-data; boundary=${boundary}`,
        body: b,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("GET", "PUT", "DELETE")
        .map((m): FuzzRequest => ({ kind: "wrong-method", method: m, path, contentType: null, body: null })),
    },
  );
}
