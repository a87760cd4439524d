import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as upload from "../../../app/routes/api.agents.discovery.upload";
import * as counties from "../../../app/routes/api.counties";
import * as enrollApplication from "../../../app/routes/api.enroll.applications.$applicationId";
import * as enrollApplications from "../../../app/routes/api.enroll.applications";
import * as health from "../../../app/routes/api.health";
import * as unsubscribeRoute from "../../../app/routes/api.unsubscribe";
import { assertProperty, callInProcess, checkAnswer, FUZZ_SEED, runs, Tally, type RouteModule } from "./check";
import {
  countiesRequests,
  enrollmentReadRequests,
  healthRequests,
  unsubscribeRequests,
  unsubscribeTokenFor,
  uploadRequests,
  utf8,
  validEnrollment,
  type FuzzRequest,
  type KnownApplication,
} from "./generators";
import { startFuzzSandbox, type FuzzSandbox } from "./sandbox";

/**
 * The routes that are not a JSON POST, in process: the counties and health
 * GETs (query strings and headers), reading an enrollment application (ids and
 * bearer tokens), unsubscribe (query, JSON, form, multipart and text bodies)
 * and the multipart upload (fields, file names, file bytes, broken framing).
 * Same property: no 5xx, the one error shape, valid requests answered.
 */

let sandbox: FuzzSandbox;
const known: KnownApplication[] = [];

beforeAll(async () => {
  sandbox = await startFuzzSandbox();
  console.log(`fuzz (in process, other routes): seed ${FUZZ_SEED}`);
  for (const body of fc.sample(validEnrollment, { seed: FUZZ_SEED, numRuns: 3 })) {
    const answer = await callInProcess(enrollApplications, {
      kind: "valid",
      method: "POST",
      path: "/api/enroll/applications",
      contentType: "application/json",
      body: utf8(JSON.stringify(body)),
    });
    expect(answer.status).toBe(201);
    const created = JSON.parse(answer.text) as { application_id: string; access_token: string };
    known.push({ id: created.application_id, token: created.access_token });
  }
});
afterAll(async () => {
  await sandbox?.cleanup();
});

async function fuzz(
  route: RouteModule,
  requests: fc.Arbitrary<FuzzRequest>,
  numRuns: number,
  options: { allowRedirect?: boolean } = {},
): Promise<Tally> {
  const tally = new Tally();
  await assertProperty(
    fc.asyncProperty(requests, async (request) => {
      const answer = await callInProcess(route, request);
      tally.add(request, answer.status);
      checkAnswer(request, answer, options);
    }),
    runs(numRuns),
  );
  return tally;
}

function report(name: string, tally: Tally, started: number): void {
  console.log(
    `${name}: ${tally.total()} requests in ${Date.now() - started} ms, statuses ${JSON.stringify(tally.byStatus())}`,
  );
  expect(sandbox.errors.filter((line) => line.includes("unhandled API error"))).toEqual([]);
}

describe("query, header and multipart routes in process: no 5xx, one error shape", () => {
  it(`GET /api/counties: ${runs(2_000)} generated query strings`, async () => {
    const started = Date.now();
    const tally = await fuzz(counties, countiesRequests(), 2_000);
    report("/api/counties", tally, started);
    expect(tally.count("valid", (s) => s === 200)).toBeGreaterThan(0);
    expect(tally.count("query", (s) => s === 400)).toBeGreaterThan(0);
  });

  it(`GET /api/health: ${runs(500)} generated queries and headers`, async () => {
    const started = Date.now();
    const tally = await fuzz(health, healthRequests(), 500);
    report("/api/health", tally, started);
    expect(tally.count("query", (s) => s === 200)).toBeGreaterThan(0);
  });

  it(`GET /api/enroll/applications/:id: ${runs(2_000)} generated ids and tokens`, async () => {
    const started = Date.now();
    const tally = await fuzz(enrollApplication, enrollmentReadRequests(known), 2_000);
    report("/api/enroll/applications/:id", tally, started);
    for (const status of [200, 401, 403, 404]) expect(tally.byStatus()[status] ?? 0).toBeGreaterThan(0);
  });

  it(`GET and POST /api/unsubscribe: ${runs(2_000)} generated links and bodies`, async () => {
    const started = Date.now();
    const tally = await fuzz(unsubscribeRoute, unsubscribeRequests(), 2_000, { allowRedirect: true });
    report("/api/unsubscribe", tally, started);
    expect(tally.count("valid", (s) => s === 200)).toBeGreaterThan(0);
    expect(tally.count("valid", (s) => s === 303)).toBeGreaterThan(0);
  });

  it("unsubscribe reads a body as a form only when the request firewall inspects that type", async () => {
    // Regression: any other content type (application/xml, image/png, ...) was read as a form,
    // which the firewall never inspects (docs/decisions/104).
    for (const contentType of ["application/xml", "image/png", "application/octet-stream", "foo/bar"]) {
      const request: FuzzRequest = {
        kind: "mutated",
        method: "POST",
        path: "/api/unsubscribe",
        contentType,
        body: utf8("email=a%40b.test&token=abc"),
      };
      const answer = await callInProcess(unsubscribeRoute, request);
      checkAnswer(request, answer);
      expect(answer.status).toBe(415);
    }
    const email = "reader@example.test";
    const form: FuzzRequest = {
      kind: "valid",
      method: "POST",
      path: "/api/unsubscribe",
      contentType: "text/plain",
      body: utf8(`email=${encodeURIComponent(email)}&token=${unsubscribeTokenFor(email)}`),
    };
    const answer = await callInProcess(unsubscribeRoute, form);
    checkAnswer(form, answer);
    expect(answer.status).toBe(200);
  });

  it(`POST /api/agents/discovery/upload: ${runs(1_500)} generated multipart bodies`, async () => {
    const started = Date.now();
    const tally = await fuzz(upload, uploadRequests(), 1_500);
    report("/api/agents/discovery/upload", tally, started);
    expect(tally.count("valid", (s) => s === 200)).toBeGreaterThan(0);
    expect(tally.count("mutated", (s) => s === 400)).toBeGreaterThan(0);
  });
});
