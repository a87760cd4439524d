import type { ZodType } from "zod";
import { env, sanitizeSecret, usesSampleUpstream } from "../platform/env.server";
import { forgetSingleton, processSingleton } from "../platform/lifecycle.server";
import { logger } from "../platform/logger.server";
import {
  CountiesResponse,
  DrugAutocompleteResponse,
  DrugCoverageResponse,
  EligibilityResponse,
  ErrorBodySchema,
  PlanSearchResponse,
  ProviderAutocompleteResponse,
  ProviderCoverageResponse,
  type ProviderType,
  type UpstreamCounty,
  type UpstreamDrugCoverageRow,
  type UpstreamDrugSuggestion,
  type UpstreamEligibilityEstimate,
  type UpstreamPlan,
  type UpstreamProviderCoverageRow,
  type UpstreamProviderSuggestion,
} from "./schemas.server";
import { batchPlanIds, MAX_PLAN_IDS_PER_UPSTREAM_CALL } from "../../domain/coverage";

/**
 * The one client of the upstream CMS Marketplace API.
 *
 * - Base URL from MARKETPLACE_API_BASE_URL (the real API by default); the key
 *   goes in the `apikey` query parameter, sanitised of whitespace and a
 *   trailing literal "\n" (docs: ../shared/spec/README.md decision 5).
 * - Outage = connection error, 5xx, 429, a rejected key, a body that is not
 *   the real shape, or no full answer within UPSTREAM_TIMEOUT_MS (5 s, abort).
 *   Outages throw UpstreamUnavailableError; other 4xx answers (bad input,
 *   state not served) throw UpstreamRejectedError. Nothing waits longer than
 *   the timeout: the deadline starts when the call is asked for, so time
 *   queued behind the concurrency cap counts too.
 * - At most UPSTREAM_MAX_CONCURRENCY calls in flight process-wide.
 * - Autocomplete and county look-ups are cached briefly, and identical
 *   look-ups in flight share one upstream call (many consumers type the same
 *   first letters). Failures are not cached.
 * - One structured log line per upstream call: operation, status, duration,
 *   outcome. Never the query text, ZIP, household or key.
 */

export type {
  ProviderType,
  UpstreamCounty,
  UpstreamDrugCoverageRow,
  UpstreamDrugSuggestion,
  UpstreamEligibilityEstimate,
  UpstreamPlan,
  UpstreamProviderCoverageRow,
  UpstreamProviderSuggestion,
};
export { PROVIDER_TYPES } from "./schemas.server";
export { MAX_PLAN_IDS_PER_UPSTREAM_CALL };

export const DEFAULT_UPSTREAM_BASE_URL = "https://marketplace.api.healthcare.gov/api/v1";
/** Autocomplete answers change rarely; five minutes spares the API the same first letters. */
export const AUTOCOMPLETE_CACHE_TTL_MS = 5 * 60_000;
/** ZIP → county changes quarterly at most. */
export const COUNTY_CACHE_TTL_MS = 30 * 60_000;
const CACHE_MAX_ENTRIES = 2_000;
/** Plan search answers 10 per page; a county with more than 500 plans does not exist. */
const MAX_PLAN_SEARCH_PAGES = 50;

export type UpstreamOperation =
  | "drugs.autocomplete"
  | "providers.autocomplete"
  | "drugs.covered"
  | "providers.covered"
  | "counties.by_zip"
  | "eligibility.estimates"
  | "plans.search";

export type OutageReason =
  "not_configured" | "connection" | "timeout" | "server_error" | "rate_limited" | "unauthorized" | "malformed" | "busy";

/** The upstream could not answer: the caller degrades as the specification says. */
export class UpstreamUnavailableError extends Error {
  override name = "UpstreamUnavailableError";
  constructor(
    readonly operation: UpstreamOperation,
    readonly reason: OutageReason,
    readonly status?: number,
  ) {
    super(`Upstream ${operation} unavailable (${reason}${status ? ` ${status}` : ""})`);
  }
}

/** The upstream answered 4xx (other than 401/403/429): the request itself was refused. */
export class UpstreamRejectedError extends Error {
  override name = "UpstreamRejectedError";
  constructor(
    readonly operation: UpstreamOperation,
    readonly status: number,
    readonly upstreamCode: string | null,
    readonly upstreamMessage: string,
  ) {
    super(`Upstream ${operation} rejected the request (${status}): ${upstreamMessage}`);
  }
}

export function isUpstreamFailure(error: unknown): error is UpstreamUnavailableError | UpstreamRejectedError {
  return error instanceof UpstreamUnavailableError || error instanceof UpstreamRejectedError;
}

// ------------------------------------------------------------------ state

interface Waiter {
  grant(): void;
}
interface CacheEntry {
  expires: number;
  value: Promise<unknown>;
}
export interface UpstreamCallRecord {
  operation: UpstreamOperation;
  status: number | null;
  durationMs: number;
  outcome: "ok" | "rejected" | OutageReason;
}
interface ClientState {
  active: number;
  queue: Waiter[];
  cache: Map<string, CacheEntry>;
  observers: Set<(record: UpstreamCallRecord) => void>;
  lastOutage: { at: string; operation: UpstreamOperation; reason: OutageReason } | null;
  lastSuccessAt: string | null;
  calls: number;
  failures: number;
}

const STATE = "upstream-client";
function state(): ClientState {
  return processSingleton<ClientState>(STATE, () => ({
    active: 0,
    queue: [],
    cache: new Map(),
    observers: new Set(),
    lastOutage: null,
    lastSuccessAt: null,
    calls: 0,
    failures: 0,
  }));
}

/** Tests only: forget the cache, counters and observers (env changes are read on every call anyway). */
export function resetUpstreamClientForTests(): void {
  forgetSingleton(STATE);
}

/** Be told about every upstream call (metrics, tests). Returns the unsubscribe function. */
export function observeUpstreamCalls(observer: (record: UpstreamCallRecord) => void): () => void {
  const observers = state().observers;
  observers.add(observer);
  return () => observers.delete(observer);
}

interface ClientConfig {
  baseUrl: string;
  key: string | undefined;
  timeoutMs: number;
  maxConcurrency: number;
}

function clientConfig(): ClientConfig {
  const e = env();
  return {
    baseUrl: (e.MARKETPLACE_API_BASE_URL ?? DEFAULT_UPSTREAM_BASE_URL).replace(/\/+$/, ""),
    // Sanitised again here: a key with a trailing literal "\n" must never reach the wire.
    key: sanitizeSecret(e.MARKETPLACE_API_KEY) || undefined,
    timeoutMs: e.UPSTREAM_TIMEOUT_MS,
    maxConcurrency: e.UPSTREAM_MAX_CONCURRENCY,
  };
}

// --------------------------------------------------------------- limiter

/** Less time than this left before the deadline, a queued call is not started (see acquireSlot). */
const MIN_USEFUL_CALL_MS = 25;

function acquireSlot(operation: UpstreamOperation, deadline: number, max: number): Promise<() => void> {
  const s = state();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    s.active--;
    s.queue.shift()?.grant();
  };
  if (s.active < max) {
    s.active++;
    return Promise.resolve(release);
  }
  return new Promise((resolve, reject) => {
    const waiter: Waiter = {
      grant() {
        clearTimeout(timer);
        if (deadline - Date.now() < MIN_USEFUL_CALL_MS) {
          // Freed too close to this caller's deadline for a call to finish: it gives up as busy
          // (as its own timer would have a moment later) and the slot goes to the next in line,
          // instead of starting an upstream call that can only be aborted.
          s.queue.shift()?.grant();
          reject(new UpstreamUnavailableError(operation, "busy"));
          return;
        }
        s.active++;
        resolve(release);
      },
    };
    const timer = setTimeout(
      () => {
        const i = s.queue.indexOf(waiter);
        if (i >= 0) s.queue.splice(i, 1);
        reject(new UpstreamUnavailableError(operation, "busy"));
      },
      Math.max(0, deadline - Date.now()),
    );
    s.queue.push(waiter);
  });
}

// ------------------------------------------------------------------ call

interface CallSpec {
  operation: UpstreamOperation;
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Epoch ms by which the answer must be complete (default: now + timeout). */
  deadline?: number;
  /** For the log line: how many ids or items the call carried. */
  batchSize?: number;
}

/** Query string with literal commas: the API takes comma-joined id lists. */
function queryString(params: Record<string, string | number | undefined>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== "")
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v)).replace(/%2C/gi, ",")}`)
    .join("&");
}

function record(spec: CallSpec, status: number | null, started: number, outcome: UpstreamCallRecord["outcome"]): void {
  const s = state();
  const durationMs = Math.round(performance.now() - started);
  s.calls++;
  if (outcome === "ok") s.lastSuccessAt = new Date().toISOString();
  else if (outcome !== "rejected") {
    s.failures++;
    s.lastOutage = { at: new Date().toISOString(), operation: spec.operation, reason: outcome };
  }
  const line = {
    event: "upstream_call",
    operation: spec.operation,
    status,
    durationMs,
    outcome,
    ...(spec.batchSize ? { batchSize: spec.batchSize } : {}),
  };
  if (outcome === "ok") logger().info(line, "upstream call");
  else logger().warn(line, "upstream call failed");
  for (const observer of s.observers) {
    try {
      observer({ operation: spec.operation, status, durationMs, outcome });
    } catch {
      // An observer must never break a call.
    }
  }
}

async function callUpstream<T>(spec: CallSpec, schema: ZodType<T>): Promise<T> {
  const config = clientConfig();
  const started = performance.now();
  const fail = (error: UpstreamUnavailableError | UpstreamRejectedError, status: number | null): never => {
    record(spec, status, started, error instanceof UpstreamRejectedError ? "rejected" : error.reason);
    throw error;
  };
  if (!config.key) fail(new UpstreamUnavailableError(spec.operation, "not_configured"), null);
  const deadline = spec.deadline ?? Date.now() + config.timeoutMs;

  let release: () => void;
  try {
    release = await acquireSlot(spec.operation, deadline, config.maxConcurrency);
  } catch (error) {
    return fail(error as UpstreamUnavailableError, null);
  }

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now()));
  let status: number | null = null;
  try {
    const url = `${config.baseUrl}${spec.path}?${queryString({ ...spec.query, apikey: config.key })}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: spec.method,
        headers: {
          accept: "application/json",
          ...(spec.body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: spec.body !== undefined ? JSON.stringify(spec.body) : undefined,
        signal: controller.signal,
      });
      status = response.status;
      // The body is read under the same deadline: a stalled body is a timeout too.
      text = await response.text();
    } catch {
      return fail(
        new UpstreamUnavailableError(
          spec.operation,
          controller.signal.aborted ? "timeout" : "connection",
          status ?? undefined,
        ),
        status,
      );
    }
    if (status === 429) return fail(new UpstreamUnavailableError(spec.operation, "rate_limited", status), status);
    if (status >= 500) return fail(new UpstreamUnavailableError(spec.operation, "server_error", status), status);
    if (status === 401 || status === 403)
      return fail(new UpstreamUnavailableError(spec.operation, "unauthorized", status), status);
    if (status >= 400) {
      const parsed = ErrorBodySchema.safeParse(safeJson(text));
      const body = parsed.success ? parsed.data : {};
      return fail(
        new UpstreamRejectedError(
          spec.operation,
          status,
          body.code ?? null,
          body.message ?? body.error ?? body.msg ?? body.err ?? `HTTP ${status}`,
        ),
        status,
      );
    }
    const parsed = schema.safeParse(safeJson(text));
    if (!parsed.success) return fail(new UpstreamUnavailableError(spec.operation, "malformed", status), status);
    record(spec, status, started, "ok");
    return parsed.data;
  } finally {
    clearTimeout(timer);
    release();
  }
}

const NOT_JSON = Symbol("not json");
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

// ----------------------------------------------------------------- cache

/** Cached for `ttlMs`; concurrent identical look-ups share one call; failures are forgotten at once. */
function cachedLookup<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  const s = state();
  const now = Date.now();
  const hit = s.cache.get(key);
  if (hit && hit.expires > now) return hit.value as Promise<T>;
  if (hit) s.cache.delete(key);
  const value = load();
  const entry: CacheEntry = { expires: now + ttlMs, value };
  s.cache.set(key, entry);
  value.catch(() => {
    if (s.cache.get(key) === entry) s.cache.delete(key);
  });
  while (s.cache.size > CACHE_MAX_ENTRIES) {
    const oldest = s.cache.keys().next().value;
    if (oldest === undefined) break;
    s.cache.delete(oldest);
  }
  return value;
}

/** Typed text as sent: trimmed, inner whitespace collapsed. */
export function normaliseQueryText(query: string): string {
  return query.trim().replace(/\s+/g, " ");
}

// ------------------------------------------------------------ operations

/** GET /drugs/autocomplete: drug names with RxCUIs (bare array upstream). */
export function drugsAutocomplete(query: string, options: { year?: number } = {}): Promise<UpstreamDrugSuggestion[]> {
  const q = normaliseQueryText(query);
  return cachedLookup(`drugs|${options.year ?? ""}|${q.toLowerCase()}`, AUTOCOMPLETE_CACHE_TTL_MS, () =>
    callUpstream(
      { operation: "drugs.autocomplete", method: "GET", path: "/drugs/autocomplete", query: { q, year: options.year } },
      DrugAutocompleteResponse,
    ),
  );
}

/** GET /providers/autocomplete for one provider type (the API takes a 5-digit ZIP and no year). */
export function providersAutocomplete(
  query: string,
  zipcode: string,
  type: ProviderType,
): Promise<UpstreamProviderSuggestion[]> {
  const q = normaliseQueryText(query);
  return cachedLookup(`providers|${type}|${zipcode}|${q.toLowerCase()}`, AUTOCOMPLETE_CACHE_TTL_MS, () =>
    callUpstream(
      {
        operation: "providers.autocomplete",
        method: "GET",
        path: "/providers/autocomplete",
        query: { q, zipcode, type },
      },
      ProviderAutocompleteResponse,
    ),
  );
}

export interface BatchedCoverage<Row> {
  rows: Row[];
  /** Plan ids whose batch failed: unknown, not "not covered". */
  failedPlanIds: string[];
  /** Upstream calls made (one per batch of at most 10 plan ids). */
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
  const batches = batchPlanIds(planIds);
  if (batches.length === 0 || codes.length === 0) return { rows: [], failedPlanIds: [], calls: 0 };
  // One deadline for the whole fan-out: the answer never waits longer than one timeout.
  const deadline = Date.now() + clientConfig().timeoutMs;
  const wanted = new Set(codes);
  const settled = await Promise.allSettled(
    batches.map((batch) =>
      callUpstream(
        {
          operation,
          method: "GET",
          path,
          query: { [codeParam]: codes.join(","), planids: batch.join(","), year },
          deadline,
          batchSize: batch.length,
        },
        schema,
      ).then((answer) => {
        const inBatch = new Set(batch);
        return answer.coverage.filter((row) => inBatch.has(row.plan_id) && wanted.has(codeOf(row)));
      }),
    ),
  );
  const rows: Row[] = [];
  const failedPlanIds: string[] = [];
  let firstFailure: unknown;
  settled.forEach((result, i) => {
    if (result.status === "fulfilled") rows.push(...result.value);
    else {
      failedPlanIds.push(...batches[i]);
      firstFailure ??= result.reason;
    }
  });
  if (failedPlanIds.length === batches.flat().length) throw firstFailure;
  return { rows, failedPlanIds, calls: batches.length };
}

/** GET /drugs/covered in batches of at most 10 plan ids, run in parallel under the cap. */
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

/** GET /providers/covered in batches of at most 10 plan ids, run in parallel under the cap. */
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

/** GET /counties/by/zip/{zip}: every county the ZIP touches (empty when unknown). Cached. */
export function countiesByZip(zip: string, year?: number): Promise<UpstreamCounty[]> {
  if (!/^\d{5}$/.test(zip))
    return Promise.reject(new UpstreamRejectedError("counties.by_zip", 400, null, "zipcode must be 5 digits"));
  return cachedLookup(`counties|${year ?? ""}|${zip}`, COUNTY_CACHE_TTL_MS, () =>
    callUpstream(
      { operation: "counties.by_zip", method: "GET", path: `/counties/by/zip/${zip}`, query: { year } },
      CountiesResponse,
    ).then((answer) => answer.counties),
  );
}

// Request shapes of the two household operations (upstream-api.md §2, §4, §5).
export interface UpstreamPlace {
  countyfips: string;
  state: string;
  zipcode: string;
}
export interface UpstreamPerson {
  age?: number;
  dob?: string;
  aptc_eligible?: boolean;
  gender?: "Male" | "Female";
  uses_tobacco?: boolean;
  last_tobacco_use_date?: string;
  is_pregnant?: boolean;
  pregnant_with?: number;
  is_parent?: boolean;
  has_mec?: boolean;
  relationship?: string;
  does_not_cohabitate?: boolean;
  utilization_level?: "Low" | "Medium" | "High";
}
export interface UpstreamHousehold {
  income: number;
  people: UpstreamPerson[];
  has_married_couple?: boolean;
  effective_date?: string;
  unemployment_received?: "Adult" | "Dependent" | "None";
}
export interface UpstreamEligibilityRequest {
  household: UpstreamHousehold;
  place: UpstreamPlace;
  year?: number;
  market?: "Individual";
}
export interface UpstreamPlanSearchRequest {
  household?: UpstreamHousehold;
  place: UpstreamPlace;
  market?: "Individual" | "SHOP" | "Any";
  year?: number;
  sort?: "premium" | "deductible" | "oopc" | "total_costs" | "quality_rating";
  order?: "asc" | "desc";
  filter?: Record<string, unknown>;
  aptc_override?: number;
  csr_override?: "CSR73" | "CSR87" | "CSR94" | "LimitedCSR" | "ZeroCSR";
  catastrophic_override?: boolean;
  suppressed_plan_ids?: string[];
}

/**
 * POST /households/eligibility/estimates: one estimate per person, in order.
 * `aptc` is monthly and may be unrounded; read `csr` with `csrLevel`.
 */
export async function eligibilityEstimates(body: UpstreamEligibilityRequest): Promise<UpstreamEligibilityEstimate[]> {
  const request = { market: "Individual" as const, ...body };
  const answer = await callUpstream(
    // The year goes in both places: the spec allows both and does not say which wins.
    {
      operation: "eligibility.estimates",
      method: "POST",
      path: "/households/eligibility/estimates",
      query: { year: body.year },
      body: request,
    },
    EligibilityResponse,
  );
  return answer.estimates;
}

/** The service's CSR level from the API's text ("73% AV Level Silver Plan CSR" → "73"); anything else is none. */
export function csrLevel(csr: string | null | undefined): "94" | "87" | "73" | null {
  const match = /\b(94|87|73)%/.exec(csr ?? "");
  return match ? (match[1] as "94" | "87" | "73") : null;
}

export interface PlanSearchResult {
  plans: UpstreamPlan[];
  total: number;
  rate_area: { state?: string | null; area?: number | null } | null;
  facet_groups: unknown[];
  ranges: unknown;
}

/**
 * POST /plans/search, every page: the API answers 10 plans per page and
 * ignores `limit`, so the first page gives `total` and the rest are fetched
 * in parallel under the cap and one shared deadline.
 */
export async function searchPlans(body: UpstreamPlanSearchRequest): Promise<PlanSearchResult> {
  const deadline = Date.now() + clientConfig().timeoutMs;
  const page = (offset: number) =>
    callUpstream(
      {
        operation: "plans.search",
        method: "POST",
        path: "/plans/search",
        query: { year: body.year },
        body: { market: "Individual", ...body, offset },
        deadline,
      },
      PlanSearchResponse,
    );
  const first = await page(0);
  const pageSize = first.plans.length;
  const offsets: number[] = [];
  if (pageSize > 0) {
    for (let offset = pageSize; offset < first.total && offsets.length < MAX_PLAN_SEARCH_PAGES - 1; offset += pageSize)
      offsets.push(offset);
  }
  const rest = await Promise.all(offsets.map(page));
  const seen = new Set<string>();
  const plans: UpstreamPlan[] = [];
  for (const p of [first, ...rest].flatMap((answer) => answer.plans)) {
    if (seen.has(p.id)) continue;
    seen.add(p.id);
    plans.push(p);
  }
  return {
    plans,
    total: first.total,
    rate_area: first.rate_area ?? null,
    facet_groups: first.facet_groups ?? [],
    ranges: first.ranges ?? null,
  };
}

// ---------------------------------------------------------------- status

export interface UpstreamStatus {
  /** Answers come from the bundled fake (no key was configured). */
  sample: boolean;
  /** A key is configured (after sanitising). */
  configured: boolean;
  /** Base URL without credentials. */
  baseUrl: string;
  /** Start-up warning about the key, if any. */
  keyProblem: string | null;
  lastOutage: { at: string; operation: UpstreamOperation; reason: OutageReason } | null;
  lastSuccessAt: string | null;
  /** Calls and failed calls since start. */
  calls: number;
  failures: number;
}

/** What /api/health can say about the upstream, without calling it. */
export function upstreamStatus(): UpstreamStatus {
  const e = env();
  const config = clientConfig();
  const s = state();
  return {
    sample: usesSampleUpstream(e),
    configured: Boolean(config.key),
    baseUrl: config.baseUrl,
    keyProblem: e.warnings.find((w) => w.startsWith("MARKETPLACE_API_KEY")) ?? null,
    lastOutage: s.lastOutage,
    lastSuccessAt: s.lastSuccessAt,
    calls: s.calls,
    failures: s.failures,
  };
}
