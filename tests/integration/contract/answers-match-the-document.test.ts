import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";
import { FUZZ_SEED, keepAliveAgent, runs, sendHttp, type Answer } from "../fuzz/check";
import { PLACES, UNSUBSCRIBE_SECRET } from "../fuzz/fixtures";
import {
  countiesRequests,
  enrollmentReadRequests,
  healthRequests,
  jsonRouteRequests,
  plausibleDrugAutocomplete,
  plausibleDrugCovered,
  plausibleEnrollment,
  plausiblePlans,
  plausibleProviderAutocomplete,
  plausibleProviderCovered,
  plausibleShopping,
  unsubscribeRequests,
  unsubscribeTokenFor,
  uploadRequests,
  utf8,
  validDiscovery,
  validDrugAutocomplete,
  validDrugCovered,
  validEnrollment,
  validPlans,
  validProviderAutocomplete,
  validProviderCovered,
  validShopping,
  validWaitlist,
  type FuzzRequest,
  type Json,
  type KnownApplication,
} from "../fuzz/generators";
import { scratchRoot } from "../fuzz/sandbox";
import { Contract, ContractTally } from "./contract";
import { requestsFromDocument } from "./document-requests";

/**
 * The contract test (issue 31): requests made from the served OpenAPI
 * document (its examples, json-schema-faker bodies and query strings, each
 * with one rule broken), the fuzz suite's realistic and mutated requests, and
 * requests that provoke the documented error statuses, sent to the built
 * server over HTTP. Every answer is judged against the document the server
 * serves (./contract.ts): declared status, body valid under its schema with
 * closed objects closed, the named headers there, no schema-refused body
 * accepted. The rate rule's limit is low, and every other request comes from
 * its own address (X-Forwarded-For with TRUST_PROXY), so 429 can be provoked.
 */

const RATE_LIMIT = 40;
let server: RunningServer;
let scratch: string;
let contract: Contract;
const tally = new ContractTally();
const known: KnownApplication[] = [];
let address = 0;

/** A fresh client address per request (198.18.0.0/15, the benchmarking range), so the rate rule never counts them together. */
function nextAddress(): string {
  address++;
  return `198.18.${Math.floor(address / 250) % 250}.${(address % 250) + 1}`;
}

async function send(request: FuzzRequest, from = nextAddress()): Promise<Answer> {
  const started = performance.now();
  const answer = await sendHttp(server.url, {
    ...request,
    headers: { ...(request.headers ?? {}), "x-forwarded-for": from },
  });
  tally.add(request, answer, contract.judge(request, answer), performance.now() - started);
  return answer;
}

/** Send all, four at a time (the keep-alive agent's sockets). */
async function sendAll(requests: readonly FuzzRequest[]): Promise<Answer[]> {
  const answers: Answer[] = new Array(requests.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < requests.length) {
        const i = next++;
        answers[i] = await send(requests[i]!);
      }
    }),
  );
  return answers;
}

const sample = <T>(arbitrary: fc.Arbitrary<T>, n: number): T[] =>
  fc.sample(arbitrary, { seed: FUZZ_SEED, numRuns: runs(n) });

/** The fuzz suite's realistic and mutated bodies for each JSON route it knows. */
const FUZZ_ROUTES: Array<{ path: string; valid: fc.Arbitrary<Json>; plausible?: fc.Arbitrary<Json> }> = [
  { path: "/api/eligibility", valid: validShopping, plausible: plausibleShopping },
  { path: "/api/plans", valid: validPlans, plausible: plausiblePlans },
  { path: "/api/drugs/autocomplete", valid: validDrugAutocomplete, plausible: plausibleDrugAutocomplete },
  { path: "/api/drugs/covered", valid: validDrugCovered, plausible: plausibleDrugCovered },
  { path: "/api/providers/autocomplete", valid: validProviderAutocomplete, plausible: plausibleProviderAutocomplete },
  { path: "/api/providers/covered", valid: validProviderCovered, plausible: plausibleProviderCovered },
  { path: "/api/waitlist", valid: validWaitlist },
  { path: "/api/agents/discovery", valid: validDiscovery },
  { path: "/api/enroll/applications", valid: validEnrollment, plausible: plausibleEnrollment },
];

beforeAll(async () => {
  scratch = mkdtempSync(path.join(scratchRoot(), "contract-"));
  server = await startServer({
    env: {
      DATABASE_URL: `file:${path.join(scratch, "app.db")}`,
      UPLOAD_LOCAL_DIR: path.join(scratch, "uploads"),
      RATE_LIMIT_MAX: String(RATE_LIMIT),
      TRUST_PROXY: "true",
      UNSUBSCRIBE_TOKEN_SECRET: UNSUBSCRIBE_SECRET,
      LOG_LEVEL: "info",
      MARKETPLACE_API_KEY: undefined,
      MARKETPLACE_API_BASE_URL: undefined,
      // The fake has no limit here; generated requests must reach it, not the call budget.
      UPSTREAM_CALLS_PER_MINUTE: "10000000",
      UPSTREAM_CALLS_PER_SECOND: "10000000",
    },
  });
  const served = await sendHttp(server.url, {
    kind: "valid",
    method: "GET",
    path: "/api/openapi.json",
    contentType: null,
    body: null,
  });
  expect(served.status).toBe(200);
  contract = new Contract(JSON.parse(served.text) as Record<string, unknown>);
  // The document's own answer is judged by the document too.
  tally.add(
    { kind: "valid", method: "GET", path: "/api/openapi.json", contentType: null, body: null },
    served,
    contract.judge({ kind: "valid", method: "GET", path: "/api/openapi.json", contentType: null, body: null }, served),
  );
}, 60_000);

afterAll(async () => {
  keepAliveAgent.destroy();
  await server?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function expectNoProblems(): void {
  expect(tally.problems, tally.problems.join("\n")).toEqual([]);
}

describe("every answer of the built server conforms to the OpenAPI document it serves", () => {
  it("requests generated from the document: examples, schema-faked bodies and query strings, each also with one rule broken", async () => {
    const started = Date.now();
    const schemas = (contract.document.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    const requests = requestsFromDocument(contract.operations, schemas, runs(120), FUZZ_SEED);
    await sendAll(requests);
    console.log(`contract: ${requests.length} requests from the document in ${Date.now() - started} ms`);
    expectNoProblems();
  }, 120_000);

  it("the fuzz suite's realistic, mutated and malformed requests", async () => {
    const started = Date.now();
    const requests: FuzzRequest[] = [];
    for (const route of FUZZ_ROUTES)
      requests.push(...sample(jsonRouteRequests(route.path, route.valid, route.plausible), 120));
    requests.push(...sample(countiesRequests(), 120), ...sample(healthRequests(), 30));
    requests.push(...sample(unsubscribeRequests(), 100), ...sample(uploadRequests(), 60));
    const answers = await sendAll(requests);
    requests.forEach((request, i) => {
      if (request.path === "/api/enroll/applications" && answers[i]!.status === 201) {
        const created = JSON.parse(answers[i]!.text) as { application_id: string; access_token: string };
        known.push({ id: created.application_id, token: created.access_token });
      }
    });
    expect(known.length).toBeGreaterThan(0);
    await sendAll(sample(enrollmentReadRequests(known), 80));
    console.log(`contract: ${requests.length + runs(80)} fuzz requests in ${Date.now() - started} ms`);
    expectNoProblems();
  }, 120_000);

  it("the documented error statuses, provoked", async () => {
    const place = PLACES.find((p) => p.state === "TX")!;
    const household = { people: [{ age: 40, relationship: "self" }] };
    const shopping = {
      income: 40000,
      household,
      place: { state: place.state, county_fips: place.county_fips, zip: place.zip },
    };
    const post = (p: string, body: string, contentType = "application/json"): FuzzRequest => ({
      kind: "mutated",
      method: "POST",
      path: p,
      contentType,
      body: utf8(body),
    });
    const get = (p: string, headers?: Record<string, string>): FuzzRequest => ({
      kind: "query",
      method: "GET",
      path: p,
      contentType: null,
      body: null,
      headers,
    });
    const jsonPosts = contract.operations
      .filter((o) => o.method === "post" && !o.template.includes("{"))
      .filter(
        (o) => ((o.operation.requestBody as { content?: Record<string, unknown> })?.content ?? {})["application/json"],
      )
      // Operations that read only JSON (unsubscribe also reads forms, so text/plain is a form there).
      .filter(
        (o) => Object.keys((o.operation.requestBody as { content: Record<string, unknown> }).content).length === 1,
      );
    const cases: Array<{ request: FuzzRequest; status: number; code?: string }> = [];
    for (const o of jsonPosts) {
      cases.push({ request: post(o.template, "{not json"), status: 400 });
      cases.push({ request: post(o.template, "{}", "text/plain"), status: 415 });
      cases.push({ request: post(o.template, JSON.stringify({ pad: "x".repeat(110 * 1024) })), status: 413 });
      cases.push({
        request: post(o.template, JSON.stringify({ query: "x' UNION SELECT password FROM users --" })),
        status: 403,
        code: "forbidden",
      });
    }
    // Every path answers a method it has no operation for with 405 and Allow.
    for (const template of new Set(contract.operations.map((o) => o.template))) {
      const concrete = template.replace(/\{[^}]+\}/g, "0123456789abcdef01234567");
      cases.push({
        request: { kind: "wrong-method", method: "DELETE", path: concrete, contentType: null, body: null },
        status: 405,
        code: "method_not_allowed",
      });
    }
    cases.push({ request: get("/api/health", { "x-padding": "a".repeat(20 * 1024) }), status: 431 });
    cases.push({ request: get(`/api/counties?zip=${place.zip}&year=2019`), status: 404, code: "year_not_available" });
    cases.push({
      request: post("/api/eligibility", JSON.stringify({ ...shopping, year: 2019 })),
      status: 404,
      code: "year_not_available",
    });
    cases.push({
      request: post("/api/plans", JSON.stringify({ ...shopping, year: 2019 })),
      status: 404,
      code: "year_not_available",
    });
    cases.push({
      request: post(
        "/api/waitlist",
        JSON.stringify({ email: "pat@example.com", zip: `${place.zip} `, interest: "consumer" }),
      ),
      status: 400,
      code: "validation_failed",
    });
    cases.push({ request: get(`/api/counties?zip=${place.zip}%20`), status: 400, code: "validation_failed" });
    cases.push({ request: get("/api/unsubscribe?email=pat%40example.com&token=wrong"), status: 400 });
    cases.push({
      request: get(`/api/unsubscribe?email=pat%40example.com&token=${unsubscribeTokenFor("pat@example.com")}`),
      status: 303,
    });
    if (known.length) {
      cases.push({ request: get(`/api/enroll/applications/${known[0]!.id}`), status: 401 });
      cases.push({
        request: get(`/api/enroll/applications/${known[0]!.id}`, {
          authorization: `Bearer ${known[1]?.token ?? "x".repeat(43)}`,
        }),
        status: 403,
      });
      cases.push({
        request: get("/api/enroll/applications/ffffffffffffffffffffffff", {
          authorization: `Bearer ${known[0]!.token}`,
        }),
        status: 404,
      });
    }
    for (const { request, status, code } of cases) {
      const answer = await send(request);
      expect(answer.status, `${request.method} ${request.path.slice(0, 80)}: ${answer.text.slice(0, 200)}`).toBe(
        status,
      );
      if (code) expect((JSON.parse(answer.text) as { error: { code: string } }).error.code).toBe(code);
    }
    // The rate rule: one address over the limit gets 429 with Retry-After.
    const flood: Answer[] = [];
    for (let i = 0; i <= RATE_LIMIT; i++) flood.push(await send(get("/api/openapi.json"), "198.51.100.7"));
    const refused = flood.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(Number(refused[0]!.headers["retry-after"])).toBeGreaterThan(0);
    expectNoProblems();
  }, 60_000);

  it("reached every operation of the document, a few thousand answers in all", () => {
    console.log(
      `contract: ${tally.total} answers judged, ${tally.schemaRefusedBodies} bodies the request schema refuses\n${tally.summary()}`,
    );
    for (const o of contract.operations) {
      expect(
        tally.statuses(`${o.method.toUpperCase()} ${o.template}`).length,
        `${o.method} ${o.template}`,
      ).toBeGreaterThan(0);
    }
    expect(tally.total).toBeGreaterThan(2000);
    expectNoProblems();
  });
});
