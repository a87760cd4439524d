import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertProperty, callInProcess, checkAnswer, FUZZ_SEED, runs, Tally, type RouteModule } from "./check";
import { deepestBodies, jsonRouteRequests, utf8, type FuzzRequest, type Json } from "./generators";
import { startFuzzSandbox, type FuzzSandbox } from "./sandbox";

export interface JsonRouteUnderTest {
  path: string;
  route: RouteModule;
  valid: fc.Arbitrary<Json>;
  /** Schema-valid bodies about places, years or plans that may not exist. */
  plausible?: fc.Arbitrary<Json>;
  numRuns: number;
  /** The route calls the upstream for a valid body: the fake must have been asked. */
  callsUpstream?: boolean;
}

/**
 * Property: for every JSON POST route, called in process with a real Request,
 * any body (valid, mutated, random JSON, raw bytes, wrong content type, wrong
 * method) gets a non-5xx answer; errors carry the one error shape; valid
 * bodies get 2xx. Replay a failure with FUZZ_SEED=<seed printed first>.
 */
export function fuzzJsonRoutesInProcess(title: string, routes: JsonRouteUnderTest[]): void {
  let sandbox: FuzzSandbox;
  beforeAll(async () => {
    sandbox = await startFuzzSandbox();
    console.log(`fuzz (in process, ${title}): seed ${FUZZ_SEED}`);
  });
  afterAll(async () => {
    await sandbox?.cleanup();
  });

  describe(`${title} in process: no 5xx, one error shape`, () => {
    for (const { path, route, valid, plausible, numRuns, callsUpstream } of routes) {
      it(`POST ${path}: ${runs(numRuns)} generated bodies`, async () => {
        const tally = new Tally();
        const started = Date.now();
        const upstreamCallsBefore = sandbox.upstream.calls.length;
        await assertProperty(
          fc.asyncProperty(jsonRouteRequests(path, valid, plausible), async (request) => {
            const answer = await callInProcess(route, request);
            tally.add(request, answer.status);
            checkAnswer(request, answer);
          }),
          runs(numRuns),
        );
        console.log(
          `${path}: ${tally.total()} requests in ${Date.now() - started} ms, statuses ${JSON.stringify(tally.byStatus())}`,
        );
        // The mix really exercised both sides: valid bodies answered, bad ones refused.
        expect(tally.count("valid", (s) => s < 300)).toBeGreaterThan(0);
        expect(tally.count("mutated", (s) => s >= 400)).toBeGreaterThan(0);
        if (callsUpstream) expect(sandbox.upstream.calls.length).toBeGreaterThan(upstreamCallsBefore);
        expect(sandbox.errors.filter((line) => line.includes("unhandled API error"))).toEqual([]);
      });

      it(`POST ${path}: the deepest nesting 100 KB allows is a quick 400`, async () => {
        const [sample] = fc.sample(valid, { seed: FUZZ_SEED, numRuns: 1 });
        const firstField = Object.keys(sample as Record<string, Json>)[0]!;
        for (const text of deepestBodies(firstField)) {
          expect(text.length).toBeLessThanOrEqual(100 * 1024);
          const request: FuzzRequest = {
            kind: "raw",
            method: "POST",
            path,
            contentType: "application/json",
            body: utf8(text),
          };
          const started = Date.now();
          const answer = await callInProcess(route, request);
          checkAnswer(request, answer);
          expect(answer.status).toBe(400);
          expect(Date.now() - started).toBeLessThan(2_000);
        }
      });
    }
  });
}
