import { usesSampleUpstream, env } from "../platform/env.server";
import { BoundedCache } from "../platform/cache.server";
import { forgetSingleton, processSingleton } from "../platform/lifecycle.server";
import { readSharedAnswers, sharedAnswersEnabled, writeSharedAnswers } from "../platform/shared-answers.server";
import { MAX_PLAN_IDS_PER_UPSTREAM_CALL } from "../../domain/coverage";
import { forgetCoverageAnswers } from "./coverage.server";
import { type OutageReason, type UpstreamOperation, UpstreamRejectedError } from "./errors.server";
import { ensureYearServed, forgetMarketYears } from "./market-years.server";
import {
  CountiesResponse,
  DrugAutocompleteResponse,
  EligibilityResponse,
  PlanSearchResponse,
  ProviderAutocompleteResponse,
  ProviderSearchResponse,
  type ProviderType,
  type UpstreamCounty,
  type UpstreamDrugCoverageRow,
  type UpstreamDrugSuggestion,
  type UpstreamEligibilityEstimate,
  type UpstreamPlan,
  type UpstreamProviderCoverageRow,
  type UpstreamNearbyProvider,
  type UpstreamProviderSearchPage,
  type UpstreamProviderSuggestion,
} from "./schemas.server";
import { callUpstream, clientConfig, currentBudget, resetTransportForTests, transportState } from "./transport.server";

/**
 * The operations of the upstream CMS Marketplace API the service uses.
 *
 * - transport.server.ts makes each call: key, budget, concurrency cap,
 *   deadline, shape check, log line. errors.server.ts says what a failure
 *   means; budget.server.ts spends the key's calls; market-years.server.ts
 *   refuses years upstream does not serve; coverage.server.ts keeps coverage.
 * - Autocomplete and county look-ups are kept briefly (BoundedCache; with
 *   REDIS_URL also on Redis for every process, decision 291), and identical
 *   look-ups in flight share one upstream call (many consumers type the same
 *   first letters). Failures are not kept.
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
  UpstreamNearbyProvider,
  UpstreamProviderSearchPage,
};
export { PROVIDER_TYPES } from "./schemas.server";
export { MAX_PLAN_IDS_PER_UPSTREAM_CALL };
export {
  type OutageReason,
  type UpstreamOperation,
  UpstreamRejectedError,
  UpstreamUnavailableError,
  isUpstreamFailure,
  upstreamProblem,
  type UpstreamProblem,
} from "./errors.server";
export { DEFAULT_UPSTREAM_BASE_URL, observeUpstreamCalls, type UpstreamCallRecord } from "./transport.server";
export { drugsCovered, providersCovered, type BatchedCoverage } from "./coverage.server";
export { marketYears } from "./market-years.server";

/** Autocomplete answers change rarely; five minutes spares the API the same first letters. */
export const AUTOCOMPLETE_CACHE_TTL_MS = 5 * 60_000;
/** ZIP → county changes quarterly at most. */
export const COUNTY_CACHE_TTL_MS = 30 * 60_000;
/**
 * The look-up caches are bounded by the JSON text of the answers they keep, not by their count
 * (docs/decisions/514): 550 distinct look-ups answered with 240 KB each (under the answer cap)
 * filled the 256 MB heap. Each entry weighs at least LOOKUP_ENTRY_MIN_BYTES, so small answers
 * still make at most 2,000 entries, as the count bound did.
 */
const LOOKUP_CACHE_MAX_BYTES = 8 * 1024 * 1024;
const LOOKUP_ENTRY_MIN_BYTES = 4 * 1024;
/** The weight of each settled answer in a look-up cache; an answer still awaited weighs the minimum. */
const lookupWeights = new WeakMap<Promise<unknown>, number>();
const lookupCache = (ttlMs: number) =>
  new BoundedCache<string, Promise<unknown>>({
    limit: LOOKUP_CACHE_MAX_BYTES,
    weigh: (answer) => lookupWeights.get(answer) ?? LOOKUP_ENTRY_MIN_BYTES,
    ttlMs,
  });
/** Plan search answers 10 per page; a county with more than 500 plans does not exist. */
const MAX_PLAN_SEARCH_PAGES = 50;
/**
 * The most bytes all the pages of one plan search read together (decision 528). Each page may be
 * 1 MiB (ANSWER_MAX_BYTES), but fifty such pages were 50 MiB parsed and held at once for one visitor.
 * A real page of 10 plans is tens of KB (the fake's largest, 17 KB): 8 MiB is about ten times the
 * largest county's search.
 */
export const PLAN_SEARCH_MAX_BYTES = 8 * 1024 * 1024;

interface LookupState {
  autocomplete: BoundedCache<string, Promise<unknown>>;
  counties: BoundedCache<string, Promise<unknown>>;
}
const STATE = "upstream-lookups";
function lookups(): LookupState {
  return processSingleton<LookupState>(STATE, () => ({
    autocomplete: lookupCache(AUTOCOMPLETE_CACHE_TTL_MS),
    counties: lookupCache(COUNTY_CACHE_TTL_MS),
  }));
}

/** Tests only: forget every kept answer, counter, observer and budget (env is read on every call anyway). */
export function resetUpstreamClientForTests(): void {
  forgetSingleton(STATE);
  resetTransportForTests();
  forgetCoverageAnswers();
  forgetMarketYears();
}

/**
 * Kept for the cache's time; concurrent identical look-ups share one call; failures are forgotten at once.
 * With REDIS_URL a local miss asks the shared cache before upstream, and an upstream answer is shared
 * (decision 291); a shared answer is kept here only for the time it has left.
 */
function cachedLookup<T>(
  cache: BoundedCache<string, Promise<unknown>>,
  shared: { namespace: string; ttlMs: number },
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  const hit = cache.get(key);
  if (hit) return hit as Promise<T>;
  let sharedTtlMs: number | undefined;
  const value = sharedAnswersEnabled()
    ? (async () => {
        const kept = (await readSharedAnswers<T>(shared.namespace, [key])).get(key);
        if (kept) {
          sharedTtlMs = kept.ttlMs;
          return kept.value;
        }
        const fresh = await load();
        writeSharedAnswers(shared.namespace, [[key, fresh]], shared.ttlMs);
        return fresh;
      })()
    : load();
  cache.set(key, value);
  value.then(
    (answer) => {
      if (cache.get(key) !== value) return;
      // Weighed again now its size is known (set again with the same value would keep the old weight);
      // its time to live starts again too, later by the call's duration.
      lookupWeights.set(value, Math.max(LOOKUP_ENTRY_MIN_BYTES, key.length + (JSON.stringify(answer)?.length ?? 0)));
      cache.delete(key);
      cache.set(key, value, sharedTtlMs !== undefined ? { ttlMs: sharedTtlMs } : undefined);
    },
    () => {
      if (cache.get(key) === value) cache.delete(key);
    },
  );
  return value;
}

const AUTOCOMPLETE = { namespace: "autocomplete", ttlMs: AUTOCOMPLETE_CACHE_TTL_MS };
const COUNTIES = { namespace: "counties", ttlMs: COUNTY_CACHE_TTL_MS };

/** Typed text as sent: trimmed, inner whitespace collapsed. */
export function normaliseQueryText(query: string): string {
  return query.trim().replace(/\s+/g, " ");
}

// ------------------------------------------------------------ operations

/** GET /drugs/autocomplete: drug names with RxCUIs (bare array upstream, at most 10, by RxCUI). */
export function drugsAutocomplete(query: string, options: { year?: number } = {}): Promise<UpstreamDrugSuggestion[]> {
  const q = normaliseQueryText(query);
  return cachedLookup(
    lookups().autocomplete,
    AUTOCOMPLETE,
    `drugs|${options.year ?? ""}|${q.toLowerCase()}`,
    async () => {
      const deadline = Date.now() + clientConfig().timeoutMs;
      await ensureYearServed("drugs.autocomplete", options.year, deadline);
      return callUpstream(
        {
          operation: "drugs.autocomplete",
          method: "GET",
          path: "/drugs/autocomplete",
          query: { q, year: options.year },
          deadline,
        },
        DrugAutocompleteResponse,
      );
    },
  );
}

/** GET /providers/autocomplete for one provider type (the API takes a 5-digit ZIP and no year). */
export function providersAutocomplete(
  query: string,
  zipcode: string,
  type: ProviderType,
): Promise<UpstreamProviderSuggestion[]> {
  const q = normaliseQueryText(query);
  return cachedLookup(lookups().autocomplete, AUTOCOMPLETE, `providers|${type}|${zipcode}|${q.toLowerCase()}`, () =>
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

/**
 * GET /providers/search for one type (Individual or Facility): the same
 * suggestions as autocomplete, each with the address nearest the ZIP, so the
 * picker can show where a doctor practises. Cached like autocomplete.
 */
export function providersSearch(
  query: string,
  zipcode: string,
  type: Exclude<ProviderType, "Group">,
  offset = 0,
): Promise<UpstreamProviderSearchPage> {
  const q = normaliseQueryText(query);
  return cachedLookup(
    lookups().autocomplete,
    AUTOCOMPLETE,
    // "page": answers kept before paging (a bare list) are never read as a page.
    `providers-search-page|${type}|${zipcode}|${offset}|${q.toLowerCase()}`,
    () =>
      callUpstream(
        {
          operation: "providers.search",
          method: "GET",
          path: "/providers/search",
          // Upstream pages 25 at a time from `offset` (sent only past the first page).
          query: { q, zipcode, type, ...(offset > 0 ? { offset } : {}) },
        },
        ProviderSearchResponse,
      ),
  );
}

/** GET /counties/by/zip/{zip}: every county the ZIP touches (empty when unknown). Cached. */
export function countiesByZip(zip: string, year?: number): Promise<UpstreamCounty[]> {
  if (!/^\d{5}$/.test(zip))
    return Promise.reject(new UpstreamRejectedError("counties.by_zip", 400, null, "zipcode must be 5 digits"));
  return cachedLookup(lookups().counties, COUNTIES, `counties|${year ?? ""}|${zip}`, async () => {
    const deadline = Date.now() + clientConfig().timeoutMs;
    await ensureYearServed("counties.by_zip", year, deadline);
    return callUpstream(
      { operation: "counties.by_zip", method: "GET", path: `/counties/by/zip/${zip}`, query: { year }, deadline },
      CountiesResponse,
    ).then((answer) => answer.counties);
  });
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
  const deadline = Date.now() + clientConfig().timeoutMs;
  await ensureYearServed("eligibility.estimates", body.year, deadline);
  const request = { market: "Individual" as const, ...body };
  const answer = await callUpstream(
    // The year goes in both places: the spec allows both and does not say which wins.
    {
      operation: "eligibility.estimates",
      method: "POST",
      path: "/households/eligibility/estimates",
      query: { year: body.year },
      body: request,
      deadline,
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
  await ensureYearServed("plans.search", body.year, deadline);
  const sharedBytes = { remaining: PLAN_SEARCH_MAX_BYTES };
  const page = (offset: number) =>
    callUpstream(
      {
        operation: "plans.search",
        method: "POST",
        path: "/plans/search",
        query: { year: body.year },
        body: { market: "Individual", ...body, offset },
        deadline,
        sharedBytes,
      },
      PlanSearchResponse,
    );
  const first = await page(0);
  const total = first.total ?? first.plans.length;
  const pageSize = first.plans.length;
  const offsets: number[] = [];
  if (pageSize > 0) {
    for (let offset = pageSize; offset < total && offsets.length < MAX_PLAN_SEARCH_PAGES - 1; offset += pageSize)
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
    total,
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
  /** Upstream refused our key (401/403) more recently than it last answered. */
  keyRejected: boolean;
  /** Upstream asked us to wait (429) and the wait is not over. */
  paused: boolean;
  lastOutage: { at: string; operation: UpstreamOperation; reason: OutageReason } | null;
  lastSuccessAt: string | null;
  /** Calls and failed calls since start. */
  calls: number;
  failures: number;
  /** Calls the budget refused (answered "busy") since start. */
  budgetRefused: number;
}

/** What /api/health can say about the upstream, without calling it. */
export function upstreamStatus(): UpstreamStatus {
  const e = env();
  const config = clientConfig();
  const s = transportState();
  const budget = currentBudget()?.snapshot();
  return {
    sample: usesSampleUpstream(e),
    configured: Boolean(config.key),
    baseUrl: config.baseUrl,
    keyProblem: e.warnings.find((w) => w.startsWith("MARKETPLACE_API_KEY")) ?? null,
    keyRejected: s.keyRejectedAt !== null,
    paused: Boolean(budget?.pausedUntil),
    lastOutage: s.lastOutage,
    lastSuccessAt: s.lastSuccessAt,
    calls: s.calls,
    failures: s.failures,
    budgetRefused: budget ? budget.refused.eligibility + budget.refused.coverage + budget.refused.autocomplete : 0,
  };
}
