import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";
import {
  assertProperty,
  checkAnswer,
  FUZZ_SEED,
  keepAliveAgent,
  rssBytes,
  runs,
  sendHttp,
  staleConnectionRetries,
  Tally,
} from "./check";
import { UNSUBSCRIBE_SECRET } from "./fixtures";
import { scratchRoot } from "./sandbox";
import {
  countiesRequests,
  deepestBodies,
  enrollmentReadRequests,
  healthRequests,
  jsonRouteRequests,
  rawApplicationPaths,
  unsubscribeRequests,
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
  plausibleDrugAutocomplete,
  plausibleDrugCovered,
  plausibleEnrollment,
  plausiblePlans,
  plausibleProviderAutocomplete,
  plausibleProviderCovered,
  plausibleShopping,
  type FuzzRequest,
  type Json,
  type KnownApplication,
} from "./generators";

/**
 * The same properties against the real built server over HTTP (server.ts over
 * ./build: security headers, rate rule, request firewall, compression, the
 * Remix adapter, the bundled fake upstream). A 403 from the firewall in the
 * error shape counts as a 4xx. At the end the server must still answer, its
 * output must hold no unhandled error, and its memory must not have run away.
 */

let server: RunningServer;
let scratch: string;
let rssBefore = 0;
const known: KnownApplication[] = [];
const totals = new Tally();

/**
 * On the wire, some requests go out chunked instead of with a Content-Length,
 * and some bodies are labelled with a content coding they do not have.
 */
function onTheWire(requests: fc.Arbitrary<FuzzRequest>): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(requests, fc.nat({ max: 19 }), fc.constantFrom("gzip", "br", "deflate", "identity", "GZIP", "x-unknown"))
    .map(([r, n, coding]) => {
      if (!r.body) return r;
      if (n === 0 || n === 1) return { ...r, chunked: true };
      if (n === 2) {
        // A coding the body does not have makes even a valid body unreadable (415); "identity" changes nothing.
        const kind = coding === "identity" ? r.kind : "mutated";
        return { ...r, kind, headers: { ...(r.headers ?? {}), "content-encoding": coding } };
      }
      return r;
    });
}

async function fuzz(
  requests: fc.Arbitrary<FuzzRequest>,
  numRuns: number,
  options: { allowRedirect?: boolean } = {},
): Promise<Tally> {
  const tally = new Tally();
  await assertProperty(
    fc.asyncProperty(onTheWire(requests), async (request) => {
      const answer = await sendHttp(server.url, request);
      tally.add(request, answer.status);
      totals.add(request, answer.status);
      checkAnswer(request, answer, options);
    }),
    runs(numRuns),
  );
  return tally;
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(scratchRoot(), "fuzz-server-"));
  server = await startServer({
    env: {
      DATABASE_URL: `file:${path.join(scratch, "app.db")}`,
      UPLOAD_LOCAL_DIR: path.join(scratch, "uploads"),
      RATE_LIMIT_MAX: "100000000",
      UNSUBSCRIBE_TOKEN_SECRET: UNSUBSCRIBE_SECRET,
      // Info: the helper waits for the "listening" line; the request log is scanned for errors at the end.
      LOG_LEVEL: "info",
      MARKETPLACE_API_KEY: undefined,
      MARKETPLACE_API_BASE_URL: undefined,
    },
  });
  console.log(`fuzz (over HTTP, ${server.url}): seed ${FUZZ_SEED}`);
  // Warm up every route once so that the memory baseline includes loaded modules and opened stores.
  for (const body of fc.sample(validEnrollment, { seed: FUZZ_SEED, numRuns: 3 })) {
    const answer = await sendHttp(server.url, {
      kind: "valid",
      method: "POST",
      path: "/api/enroll/applications",
      contentType: "application/json",
      body: utf8(JSON.stringify(body)),
    });
    expect(answer.status, answer.text).toBe(201);
    const created = JSON.parse(answer.text) as { application_id: string; access_token: string };
    known.push({ id: created.application_id, token: created.access_token });
  }
  for (const route of JSON_ROUTES) {
    for (const body of fc.sample(route.valid, { seed: FUZZ_SEED, numRuns: 3 })) {
      await sendHttp(server.url, {
        kind: "valid",
        method: "POST",
        path: route.path,
        contentType: "application/json",
        body: utf8(JSON.stringify(body)),
      });
    }
  }
  await sendHttp(server.url, {
    kind: "valid",
    method: "GET",
    path: "/api/counties?zip=10001",
    contentType: null,
    body: null,
  });
  rssBefore = rssBytes(server.process.pid!);
});

/** RSS after each test: the run's memory curve, printed at the end. */
const rssCurve: number[] = [];
afterEach(() => {
  if (server?.process.pid && server.process.exitCode === null)
    rssCurve.push(Math.round(rssBytes(server.process.pid) / 1048576));
});

afterAll(async () => {
  console.log(`server RSS after each test (MB): ${rssCurve.join(", ")}`);
  keepAliveAgent.destroy();
  await server?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const JSON_ROUTES: Array<{ path: string; valid: fc.Arbitrary<Json>; plausible?: fc.Arbitrary<Json>; numRuns: number }> =
  [
    { path: "/api/eligibility", valid: validShopping, plausible: plausibleShopping, numRuns: 300 },
    { path: "/api/plans", valid: validPlans, plausible: plausiblePlans, numRuns: 250 },
    {
      path: "/api/drugs/autocomplete",
      valid: validDrugAutocomplete,
      plausible: plausibleDrugAutocomplete,
      numRuns: 300,
    },
    { path: "/api/drugs/covered", valid: validDrugCovered, plausible: plausibleDrugCovered, numRuns: 300 },
    {
      path: "/api/providers/autocomplete",
      valid: validProviderAutocomplete,
      plausible: plausibleProviderAutocomplete,
      numRuns: 300,
    },
    { path: "/api/providers/covered", valid: validProviderCovered, plausible: plausibleProviderCovered, numRuns: 300 },
    { path: "/api/waitlist", valid: validWaitlist, numRuns: 300 },
    { path: "/api/agents/discovery", valid: validDiscovery, numRuns: 300 },
    { path: "/api/enroll/applications", valid: validEnrollment, plausible: plausibleEnrollment, numRuns: 300 },
  ];

describe("the built server over HTTP: no 5xx, one error shape", () => {
  for (const { path, valid, plausible, numRuns } of JSON_ROUTES) {
    it(`POST ${path}: ${runs(numRuns)} generated bodies`, async () => {
      const started = Date.now();
      const tally = await fuzz(jsonRouteRequests(path, valid, plausible), numRuns);
      console.log(
        `${path} (HTTP): ${tally.total()} requests in ${Date.now() - started} ms, statuses ${JSON.stringify(tally.byStatus())}`,
      );
      expect(tally.count("valid", (s) => s < 300)).toBeGreaterThan(0);
      expect(tally.count("mutated", (s) => s >= 400)).toBeGreaterThan(0);
    });
  }

  it(`GET /api/counties: ${runs(300)} generated query strings`, async () => {
    const tally = await fuzz(countiesRequests(), 300);
    console.log(`/api/counties (HTTP): statuses ${JSON.stringify(tally.byStatus())}`);
    expect(tally.count("valid", (s) => s === 200)).toBeGreaterThan(0);
  });

  it(`GET /api/health: ${runs(100)} generated queries and headers`, async () => {
    const tally = await fuzz(healthRequests(), 100);
    expect(tally.count("valid", (s) => s === 200)).toBeGreaterThan(0);
  });

  it(`GET /api/enroll/applications/:id: ${runs(300)} generated ids and tokens`, async () => {
    const tally = await fuzz(enrollmentReadRequests(known), 300);
    console.log(`/api/enroll/applications/:id (HTTP): statuses ${JSON.stringify(tally.byStatus())}`);
    expect(tally.count("valid", (s) => s === 200)).toBeGreaterThan(0);
  });

  it(`/api/unsubscribe: ${runs(300)} generated links and bodies`, async () => {
    const tally = await fuzz(unsubscribeRequests(), 300, { allowRedirect: true });
    console.log(`/api/unsubscribe (HTTP): statuses ${JSON.stringify(tally.byStatus())}`);
    expect(tally.count("valid", (s) => s === 200 || s === 303)).toBeGreaterThan(0);
  });

  it(`POST /api/agents/discovery/upload: ${runs(300)} generated multipart bodies`, async () => {
    const tally = await fuzz(uploadRequests(), 300);
    console.log(`/api/agents/discovery/upload (HTTP): statuses ${JSON.stringify(tally.byStatus())}`);
    expect(tally.count("valid", (s) => s === 200)).toBeGreaterThan(0);
  });

  it("paths with broken percent-encoding, encoded slashes and dot segments answer 4xx in the error shape", async () => {
    for (const rawPath of rawApplicationPaths) {
      for (const method of ["GET", "POST"]) {
        const request: FuzzRequest = {
          kind: "query",
          method,
          path: rawPath,
          contentType: "application/json",
          body: method === "POST" ? utf8("{}") : null,
          headers: { authorization: `Bearer ${known[0]!.token}` },
        };
        const answer = await sendHttp(server.url, request);
        totals.add(request, answer.status);
        checkAnswer(request, answer);
        expect(answer.status).toBeGreaterThanOrEqual(400);
      }
    }
  });

  it("the deepest nesting that fits in 100 KB passes the firewall's walk and is a quick 400", async () => {
    for (const text of deepestBodies("income")) {
      const request: FuzzRequest = {
        kind: "raw",
        method: "POST",
        path: "/api/eligibility",
        contentType: "application/json",
        body: utf8(text),
      };
      const started = Date.now();
      const answer = await sendHttp(server.url, request);
      checkAnswer(request, answer);
      expect(answer.status).toBe(400);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
  });

  it("a body labelled with a content coding is refused with 415 before any route reads it", async () => {
    // Regression: the firewall skipped inspecting "compressed" bodies, and nothing decompresses
    // request bodies, so a plain injection labelled gzip reached the route (docs/decisions/104).
    const probe = utf8(JSON.stringify({ query: "x' UNION SELECT password FROM users --" }));
    const plain: FuzzRequest = {
      kind: "mutated",
      method: "POST",
      path: "/api/drugs/autocomplete",
      contentType: "application/json",
      body: probe,
    };
    expect((await sendHttp(server.url, plain)).status).toBe(403);
    for (const coding of ["gzip", "br", "deflate"]) {
      const labelled = { ...plain, headers: { "content-encoding": coding } };
      const answer = await sendHttp(server.url, labelled);
      checkAnswer(labelled, answer);
      expect(answer.status).toBe(415);
      expect(JSON.parse(answer.text).error.code).toBe("unsupported_media_type");
    }
    const form: FuzzRequest = {
      kind: "mutated",
      method: "POST",
      path: "/api/unsubscribe",
      contentType: "application/x-www-form-urlencoded",
      headers: { "content-encoding": "gzip" },
      body: utf8("email=a%40b.test&token=x"),
    };
    expect((await sendHttp(server.url, form)).status).toBe(415);
  });

  it("requests Node's HTTP parser refuses are answered in the error shape too", async () => {
    // Regression: a URL over Node's 16 KB header limit got a bare 431 with no body (docs/decisions/101).
    const long: FuzzRequest = {
      kind: "query",
      method: "GET",
      path: `/api/counties?zip=${"1".repeat(20_000)}`,
      contentType: null,
      body: null,
    };
    const answer = await sendHttp(server.url, long);
    checkAnswer(long, answer);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.text).error.code).toBe("headers_too_large");
    // Broken framing: a header line without a colon.
    const raw = await new Promise<string>((resolve) => {
      const socket = net.connect(server.port, "127.0.0.1", () =>
        socket.write("POST /api/waitlist HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n"),
      );
      let text = "";
      socket.on("data", (d) => (text += d.toString("utf8")));
      socket.on("close", () => resolve(text));
      socket.on("error", () => undefined);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4))).toEqual({
      error: { code: "bad_request", message: expect.any(String) },
    });
  });

  it("a concurrent burst of mixed garbage on every route is answered without a 5xx", async () => {
    const mix = fc.oneof(
      ...JSON_ROUTES.map((r) => jsonRouteRequests(r.path, r.valid, r.plausible)),
      countiesRequests(),
      unsubscribeRequests(),
      uploadRequests(),
      enrollmentReadRequests(known),
    );
    const requests = fc.sample(onTheWire(mix), { seed: FUZZ_SEED + 1, numRuns: runs(800) });
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        const answer = await sendHttp(server.url, request);
        totals.add(request, answer.status);
        checkAnswer(request, answer, { allowRedirect: true });
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  });

  it("after the fuzz run the server still answers, logged no unhandled error and kept its memory bounded", async () => {
    const health = await sendHttp(server.url, {
      kind: "valid",
      method: "GET",
      path: "/api/health",
      contentType: null,
      body: null,
    });
    expect(health.status).toBe(200);
    expect((JSON.parse(health.text) as { status: string }).status).toBe("ok");
    expect(server.process.exitCode).toBeNull();
    expect(server.process.signalCode).toBeNull();

    const rssAfter = rssBytes(server.process.pid!);
    const grownMb = (rssAfter - rssBefore) / (1024 * 1024);
    console.log(
      `fuzz over HTTP: ${totals.total()} requests, statuses ${JSON.stringify(totals.byStatus())}; ` +
        `server RSS ${(rssBefore / 1048576).toFixed(0)} MB -> ${(rssAfter / 1048576).toFixed(0)} MB; ` +
        `${staleConnectionRetries.count} request(s) re-sent after an idle keep-alive connection closed`,
    );
    expect(grownMb).toBeLessThan(200);

    // Firewall blocks and unreadable requests are warnings (level 40); nothing may be logged at
    // error level (50+), and nothing outside the JSON log may be printed (a crash or a stray stack).
    const bad = server
      .output()
      .split("\n")
      .filter((line) => line.trim() !== "")
      .filter((line) => {
        if (!line.startsWith("{")) return true;
        try {
          return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
        } catch {
          return true;
        }
      })
      .map((line) => line.slice(0, 1_000));
    expect(bad.slice(0, 20)).toEqual([]);
  });
});
