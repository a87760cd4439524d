import type { ZodType } from "zod";
import { batchPlanIds } from "../../domain/coverage";
import { BoundedCache } from "../platform/cache.server";
import { forgetSingleton, processSingleton } from "../platform/lifecycle.server";
import { readSharedAnswers, sharedAnswersEnabled, writeSharedAnswers } from "../platform/shared-answers.server";
import { ensureYearServed } from "./market-years.server";
import { callUpstream, clientConfig } from "./transport.server";
import {
  DrugCoverageResponse,
  ProviderCoverageResponse,
  type UpstreamDrugCoverageRow,
  type UpstreamProviderCoverageRow,
} from "./schemas.server";

/**
 * Drug and provider coverage from upstream, kept per (year, code, plan id)
 * for a day and shared by every shopper (docs/decisions/202-coverage-answers-kept.md):
 * a plan's formulary and network change rarely, and the same popular drugs
 * are asked about the same county's plans all day. Only the pairs not kept
 * are asked, in batches of at most 10 plan ids; identical batches in flight
 * share one call. "Left out of the answer" is kept too (as unknown), a
 * failed batch is not. With REDIS_URL the pairs are kept on Redis too, for
 * every process (decision 291).
 */

export const COVERAGE_ANSWER_TTL_MS = 24 * 60 * 60_000;
const COVERAGE_ANSWER_ENTRIES = 200_000;
/** The shared cache's namespace (Redis, with REDIS_URL). */
const SHARED = "coverage";

interface CoverageState {
  answers: BoundedCache<string, object | null>;
  inFlight: Map<string, Promise<object[]>>;
}
const STATE = "upstream-coverage";
function state(): CoverageState {
  return processSingleton<CoverageState>(STATE, () => ({
    answers: new BoundedCache<string, object | null>({ limit: COVERAGE_ANSWER_ENTRIES, ttlMs: COVERAGE_ANSWER_TTL_MS }),
    inFlight: new Map(),
  }));
}

/** Tests only: forget kept coverage answers. */
export function forgetCoverageAnswers(): void {
  forgetSingleton(STATE);
}

export interface BatchedCoverage<Row> {
  rows: Row[];
  /** Plan ids whose batch failed: unknown, not "not covered". */
  failedPlanIds: string[];
  /** Upstream calls made (one per batch of at most 10 plan ids); 0 when every pair was kept. */
  calls: number;
}

async function batchedCoverage<Row extends { plan_id: string }>(
  operation: "drugs.covered" | "providers.covered",
  path: string,
  codeParam: "drugs" | "providerids",
  codes: string[],
  planIds: string[],
  year: number | undefined,
  schema: ZodType<{ coverage: Row[] }>,
  codeOf: (row: Row) => string,
): Promise<BatchedCoverage<Row>> {
  const uniquePlans = [...new Set(planIds)];
  if (uniquePlans.length === 0 || codes.length === 0) return { rows: [], failedPlanIds: [], calls: 0 };
  const s = state();
  const keyOf = (code: string, planId: string) => `${operation}|${year ?? ""}|${code}|${planId}`;

  // With REDIS_URL, the pairs this process does not keep are looked up on Redis in one round trip
  // (decision 291) and kept here for the time they have left.
  if (sharedAnswersEnabled()) {
    const unknown: string[] = [];
    for (const planId of uniquePlans)
      for (const code of codes) if (s.answers.get(keyOf(code, planId)) === undefined) unknown.push(keyOf(code, planId));
    for (const [key, kept] of await readSharedAnswers<object | null>(SHARED, unknown))
      s.answers.set(key, kept.value, { ttlMs: kept.ttlMs });
  }

  const rows: Row[] = [];
  const missingCodes = new Set<string>();
  const missingPlans: string[] = [];
  for (const planId of uniquePlans) {
    let planMissing = false;
    for (const code of codes) {
      const kept = s.answers.get(keyOf(code, planId));
      if (kept === undefined) {
        missingCodes.add(code);
        planMissing = true;
      } else if (kept !== null) rows.push(kept as Row);
    }
    if (planMissing) missingPlans.push(planId);
  }
  if (missingPlans.length === 0) return { rows, failedPlanIds: [], calls: 0 };
  // One deadline for the whole fan-out: the answer never waits longer than one timeout.
  const deadline = Date.now() + clientConfig().timeoutMs;
  await ensureYearServed(operation, year, deadline);

  const asked = [...missingCodes].sort();
  const wanted = new Set(asked);
  const batches = batchPlanIds(missingPlans);
  const settled = await Promise.allSettled(
    batches.map((batch) => {
      const flightKey = `${operation}|${year ?? ""}|${asked.join(",")}|${batch.join(",")}`;
      const pending = s.inFlight.get(flightKey);
      if (pending) return pending as Promise<Row[]>;
      const call = callUpstream(
        {
          operation,
          method: "GET",
          path,
          query: { [codeParam]: asked.join(","), planids: batch.join(","), year },
          deadline,
          batchSize: batch.length,
        },
        schema,
      ).then((answer) => {
        const inBatch = new Set(batch);
        const got = answer.coverage.filter((row) => inBatch.has(row.plan_id) && wanted.has(codeOf(row)));
        // Every pair asked is an answer now: a row, or "left out" (unknown) kept as null.
        const byPair = new Map(got.map((row) => [keyOf(codeOf(row), row.plan_id), row]));
        const answered: Array<[string, object | null]> = [];
        for (const planId of batch)
          for (const code of asked) answered.push([keyOf(code, planId), byPair.get(keyOf(code, planId)) ?? null]);
        for (const [key, value] of answered) s.answers.set(key, value);
        writeSharedAnswers(SHARED, answered, COVERAGE_ANSWER_TTL_MS);
        return got;
      });
      s.inFlight.set(flightKey, call);
      void call.finally(() => s.inFlight.delete(flightKey)).catch(() => undefined);
      return call;
    }),
  );
  const failedPlanIds: string[] = [];
  let firstFailure: unknown;
  const fetched = new Set<string>();
  settled.forEach((result, i) => {
    if (result.status === "fulfilled") {
      for (const row of result.value) {
        rows.push(row);
        fetched.add(keyOf(codeOf(row), row.plan_id));
      }
    } else {
      failedPlanIds.push(...batches[i]);
      firstFailure ??= result.reason;
    }
  });
  if (failedPlanIds.length === uniquePlans.length) throw firstFailure;
  // A pair both kept and fetched (another code of the same plan was missing) is answered once.
  const seen = new Set<string>();
  const distinct = rows.filter((row) => {
    const key = keyOf(codeOf(row), row.plan_id);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { rows: distinct, failedPlanIds, calls: batches.length };
}

/** GET /drugs/covered for the pairs not kept, in batches of at most 10 plan ids. */
export function drugsCovered(
  rxcuis: string[],
  planIds: string[],
  options: { year?: number } = {},
): Promise<BatchedCoverage<UpstreamDrugCoverageRow>> {
  return batchedCoverage(
    "drugs.covered",
    "/drugs/covered",
    "drugs",
    [...new Set(rxcuis)],
    planIds,
    options.year,
    DrugCoverageResponse,
    (row) => row.rxcui,
  );
}

/** GET /providers/covered for the pairs not kept, in batches of at most 10 plan ids. */
export function providersCovered(
  npis: string[],
  planIds: string[],
  options: { year?: number } = {},
): Promise<BatchedCoverage<UpstreamProviderCoverageRow>> {
  return batchedCoverage(
    "providers.covered",
    "/providers/covered",
    "providerids",
    [...new Set(npis)],
    planIds,
    options.year,
    ProviderCoverageResponse,
    (row) => row.npi,
  );
}
