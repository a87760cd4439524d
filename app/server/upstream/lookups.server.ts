import {
  type DrugCoverageResult,
  type FormularyRow,
  type NetworkRow,
  type ProviderCoverageResult,
  mergeDrugCoverage,
  mergeProviderCoverage,
} from "../../domain/coverage";
import {
  distinctDrugSuggestions,
  mergeProviderSuggestions,
  nearestFirst,
  PROVIDER_SEARCH_PAGE_SIZE,
  PROVIDER_TYPE_ORDER,
  type ProviderTypeName,
} from "../../domain/coverage-suggestions";
import { drugNameParts, rankDrugs } from "../../domain/drug-names";
import { defaultPlanYear } from "../../domain/plan-year";
import { searchOwnDrugNames, type OwnDrugName } from "../plan-store/drug-names.server";
import { usesSampleUpstream } from "../platform/env.server";
import { logger } from "../platform/logger.server";
import { planStore } from "../plan-store/plan-store.server";
import { turnQueue } from "../platform/turns.server";
import { stateForZipPrefix } from "../../domain/zip-prefix";
import {
  type UpstreamNearbyProvider,
  type UpstreamProviderSuggestion,
  drugsAutocomplete,
  drugsCovered,
  isUpstreamFailure,
  providersAutocomplete,
  providersCovered,
  providersSearch,
  upstreamProblem,
  type UpstreamRejectedError,
  type UpstreamUnavailableError,
} from "./client.server";

/**
 * What the drug and doctor routes answer: upstream suggestions and coverage,
 * merged with the service's own formulary and network rows, degraded as the
 * specification says when the upstream is down (autocomplete → empty list,
 * coverage → empty coverage, both 200 with `upstream: "unavailable"`, or
 * `"busy"` when the call budget was spent, with a `notice` saying why).
 */

export type UpstreamState = "ok" | "partial" | "unavailable" | "busy";

/** Why upstream gave no answer, for the page to show (errors.server.ts). */
export interface UpstreamNotice {
  code: string;
  message: string;
}

/** The state and notice of an answer upstream could not give. */
export function failedUpstream(error: UpstreamUnavailableError | UpstreamRejectedError): {
  upstream: "unavailable" | "busy";
  notice: UpstreamNotice;
} {
  const problem = upstreamProblem(error);
  return {
    upstream: problem.kind === "over_budget" ? "busy" : "unavailable",
    notice: { code: problem.code, message: problem.message },
  };
}

export interface DrugSuggestion {
  rxcui: string;
  name: string;
  strength: string;
  route: string;
  full_name: string;
}
export interface DrugSuggestionsAnswer {
  drugs: DrugSuggestion[];
  upstream: "ok" | "unavailable" | "busy";
  notice?: UpstreamNotice;
  /** Answers come from the bundled sample upstream, not the real API. */
  sample: boolean;
}

export interface ProviderSuggestion {
  npi: string;
  name: string;
  type: ProviderTypeName;
  specialties: string[];
  accepting: string | null;
  gender: string | null;
  languages: string[];
  facility_types: string[];
  /** Where the provider practises, nearest the ZIP (from /providers/search); null when upstream gave none. */
  address: ProviderAddress | null;
  /** Miles from the ZIP to that address, as upstream's provider search gives it; null for groups and when it gave none. */
  distance: number | null;
}
/** Upstream's provider search pages (Individual and Facility): 25 a page from `offset`, `total` over all pages. */
export interface ProviderSearchPaging {
  offset: number;
  page_size: number;
  /** Individual and Facility matches over all pages, as upstream counts them (the types that answered). */
  total: number;
}
export interface ProviderAddress {
  street: string;
  city: string;
  state: string;
  zip: string;
}
export interface ProviderSuggestionsAnswer {
  providers: ProviderSuggestion[];
  upstream: UpstreamState;
  notice?: UpstreamNotice;
  /** Provider types whose upstream call failed (only when some did). */
  failedTypes?: ProviderTypeName[];
  paging: ProviderSearchPaging;
  sample: boolean;
}

export interface DrugCoverageAnswer {
  coverage: DrugCoverageResult[];
  upstream: UpstreamState;
  notice?: UpstreamNotice;
  year: number;
  sample: boolean;
}
export interface ProviderCoverageAnswer {
  coverage: ProviderCoverageResult[];
  upstream: UpstreamState;
  notice?: UpstreamNotice;
  year: number;
  sample: boolean;
}

// ------------------------------------------------------------- own data

/** The service's own rows, as the plan store serves them. */
export interface OwnCoverageData {
  formularyRows(query: { year: number; rxcuis: string[]; planIds: string[] }): FormularyRow[] | Promise<FormularyRow[]>;
  networkRows(query: { year: number; npis: string[]; planIds: string[] }): NetworkRow[] | Promise<NetworkRow[]>;
  /** Plan years the store holds (decides the default year from 1 November). */
  planYears?(): readonly number[];
  /** Own drug names matching typed words, with how many plans list each (drug-names.server.ts). */
  drugNames?(query: { year: number; text: string }): OwnDrugName[];
}

let ownDataOverride: OwnCoverageData | undefined;

/** Tests only: answer own rows from `source` instead of the plan store (undefined restores it). */
export function setOwnDataSourceForTests(source: OwnCoverageData | undefined): void {
  ownDataOverride = source;
}

function ownData(): OwnCoverageData {
  if (ownDataOverride) return ownDataOverride;
  return {
    formularyRows: (q) => planStore().formularyRows(q),
    networkRows: (q) => planStore().networkRows(q),
    planYears: () => planStore().yearsWithData(),
    drugNames: (q) => searchOwnDrugNames(planStore(), q),
  };
}

/** Own rows, or none when the plan store cannot answer: upstream answers still go out (without tiers). */
async function ownRows<T>(what: string, read: (source: OwnCoverageData) => T[] | Promise<T[]>): Promise<T[]> {
  try {
    return await read(ownData());
  } catch (error) {
    logger().warn(
      { event: "own_coverage_rows_failed", what, error: error instanceof Error ? error.message : String(error) },
      "own coverage rows unavailable",
    );
    return [];
  }
}

async function shoppingYear(requested: number | undefined): Promise<number> {
  if (requested !== undefined) return requested;
  let years: readonly number[] = [];
  try {
    years = ownData().planYears?.() ?? [];
  } catch {
    // No plan store: the calendar alone decides.
  }
  const now = new Date();
  // With no plan years known, from 1 November the upstream is asked about next year, which it serves then.
  if (years.length === 0) years = [now.getUTCFullYear() + 1];
  return defaultPlanYear(now, years);
}

// ---------------------------------------------------------- suggestions

/**
 * Drug search: upstream's autocomplete (at most 10, by RxCUI) merged with the
 * service's own drug names from the formulary rows, ranked by name match
 * (app/domain/drug-names.ts): "metformin" lists plain metformin tablets
 * first. Own names answer on their own while upstream is down or busy.
 */
export async function suggestDrugs(input: { query: string; year?: number }): Promise<DrugSuggestionsAnswer> {
  const sample = usesSampleUpstream();
  const [upstream, own] = await Promise.all([
    drugsAutocomplete(input.query, { year: input.year }).then(
      (found) => ({ found, failure: null }),
      (error: unknown) => {
        if (!isUpstreamFailure(error)) throw error;
        return { found: [], failure: error };
      },
    ),
    ownDrugNames(input.query, input.year),
  ]);
  const plansOf = new Map(own.map((d) => [d.rxcui, d.plans]));
  const merged = [
    ...upstream.found.map((d) => ({
      rxcui: d.rxcui,
      full_name: d.full_name || d.name,
      plans: plansOf.get(d.rxcui) ?? 0,
      suggestion: { rxcui: d.rxcui, name: d.name, strength: d.strength, route: d.route, full_name: d.full_name },
    })),
    ...own.map((d) => {
      const parts = drugNameParts(d.full_name);
      return {
        rxcui: d.rxcui,
        full_name: d.full_name,
        plans: d.plans,
        suggestion: {
          rxcui: d.rxcui,
          name: parts.name,
          strength: parts.strength,
          route: parts.route,
          full_name: parts.full_name,
        },
      };
    }),
  ];
  // Upstream's entry wins for an RxCUI both know (its names are RxTerms'); ranking is by the name.
  const drugs = distinctDrugSuggestions(rankDrugs(input.query, distinctDrugSuggestions(merged, Infinity))).map(
    (d) => d.suggestion,
  );
  if (upstream.failure) return { drugs, ...failedUpstream(upstream.failure), sample };
  return { drugs, upstream: "ok", sample };
}

/** Own names for the typed words, none when the plan store cannot answer (upstream still does). */
async function ownDrugNames(query: string, requestedYear: number | undefined): Promise<OwnDrugName[]> {
  try {
    const source = ownData();
    if (!source.drugNames) return [];
    return source.drugNames({ year: await shoppingYear(requestedYear), text: query });
  } catch (error) {
    logger().warn(
      { event: "own_drug_names_failed", error: error instanceof Error ? error.message : String(error) },
      "own drug names unavailable",
    );
    return [];
  }
}

type Suggested = (UpstreamProviderSuggestion | UpstreamNearbyProvider) & { type: ProviderTypeName };

function addressOf(p: UpstreamProviderSuggestion | UpstreamNearbyProvider): ProviderAddress | null {
  if (!("address" in p) || !p.address) return null;
  const a = p.address;
  return {
    street: [a.street_1, a.street_2].filter(Boolean).join(", "),
    city: a.city,
    state: a.state.toUpperCase(),
    zip: a.zipcode.slice(0, 5),
  };
}

function toProviderSuggestion(p: Suggested): ProviderSuggestion {
  return {
    npi: p.npi,
    name: p.name,
    type: p.type,
    specialties: p.specialties,
    accepting: p.accepting,
    gender: p.gender,
    languages: p.languages,
    facility_types: p.facility_types,
    address: addressOf(p),
    distance: "distance" in p && typeof p.distance === "number" ? p.distance : null,
  };
}

/**
 * A nearby search crosses state lines (a Texarkana ZIP finds Arkansas doctors), but a plan's
 * network is the state's: an answer placed in another state than the ZIP's is left out.
 * One without an address (Group answers) cannot be placed and stays.
 */
function inZipState(zip: string) {
  const state = stateForZipPrefix(zip);
  return (p: UpstreamProviderSuggestion | UpstreamNearbyProvider) => {
    const placed = addressOf(p)?.state;
    return !state || !placed || placed === state;
  };
}

/**
 * Three concurrent upstream calls: /providers/search for Individual and Facility (the
 * answers carry an address, so the page can show where each practises), autocomplete
 * for Group (search does not take it). One failing leaves the others' answers.
 */
export async function suggestProviders(input: {
  query: string;
  zip: string;
  offset?: number;
}): Promise<ProviderSuggestionsAnswer> {
  const sample = usesSampleUpstream();
  const offset = input.offset ?? 0;
  let total = 0;
  // Groups come from autocomplete, which has no pages: they are on the first page only.
  const settled = await Promise.allSettled(
    PROVIDER_TYPE_ORDER.map((type) =>
      type === "Group"
        ? offset > 0
          ? Promise.resolve([])
          : providersAutocomplete(input.query, input.zip, type)
        : providersSearch(input.query, input.zip, type, offset).then((page) => {
            total += page.total;
            return page.providers;
          }),
    ),
  );
  const inState = inZipState(input.zip);
  const answers: Partial<Record<ProviderTypeName, Array<UpstreamProviderSuggestion | UpstreamNearbyProvider>>> = {};
  const failedTypes: ProviderTypeName[] = [];
  let firstFailure: UpstreamUnavailableError | UpstreamRejectedError | undefined;
  settled.forEach((result, i) => {
    const type = PROVIDER_TYPE_ORDER[i];
    if (result.status === "fulfilled") answers[type] = result.value.filter(inState);
    else if (isUpstreamFailure(result.reason)) {
      failedTypes.push(type);
      firstFailure ??= result.reason;
    } else throw result.reason;
  });
  const providers = nearestFirst(
    mergeProviderSuggestions(answers, PROVIDER_SEARCH_PAGE_SIZE).map(toProviderSuggestion),
  );
  const paging = { offset, page_size: PROVIDER_SEARCH_PAGE_SIZE, total };
  if (firstFailure && failedTypes.length === PROVIDER_TYPE_ORDER.length)
    return { providers: [], ...failedUpstream(firstFailure), failedTypes, paging, sample };
  if (failedTypes.length > 0) return { providers, upstream: "partial", failedTypes, paging, sample };
  return { providers, upstream: "ok", paging, sample };
}

// ------------------------------------------------------------- coverage

/** Coverage requests' steps, one per turn of the event loop across all of them (turns.server.ts). */
const coverageSteps = turnQueue();
function yieldToOthers(): Promise<void> {
  return coverageSteps.next();
}

export async function checkDrugCoverage(input: {
  rxcuis: string[];
  plan_ids: string[];
  year?: number;
}): Promise<DrugCoverageAnswer> {
  const sample = usesSampleUpstream();
  const year = await shoppingYear(input.year);
  let upstream;
  try {
    upstream = await drugsCovered(input.rxcuis, input.plan_ids, { year });
  } catch (error) {
    if (!isUpstreamFailure(error)) throw error;
    return { coverage: [], ...failedUpstream(error), year, sample };
  }
  // The generics upstream names are looked up too: their tier is the one that applies.
  const generics = upstream.rows.map((row) => row.generic_rxcui).filter((g): g is string => Boolean(g));
  const rxcuis = [...new Set([...input.rxcuis, ...generics])];
  // Let other requests in between the steps that hold the event loop (the own rows' query, the
  // merge, the answer's serialisation): a health check waits for one step, not for every
  // concurrent request's whole work (issue 30 item 6).
  await yieldToOthers();
  const own = await ownRows("formulary", (source) => source.formularyRows({ year, rxcuis, planIds: input.plan_ids }));
  await yieldToOthers();
  const coverage = mergeDrugCoverage({ rxcuis: input.rxcuis, planIds: input.plan_ids, upstream: upstream.rows, own });
  await yieldToOthers();
  return { coverage, upstream: upstream.failedPlanIds.length ? "partial" : "ok", year, sample };
}

export async function checkProviderCoverage(input: {
  npis: string[];
  plan_ids: string[];
  year?: number;
}): Promise<ProviderCoverageAnswer> {
  const sample = usesSampleUpstream();
  const year = await shoppingYear(input.year);
  let upstream;
  try {
    upstream = await providersCovered(input.npis, input.plan_ids, { year });
  } catch (error) {
    if (!isUpstreamFailure(error)) throw error;
    return { coverage: [], ...failedUpstream(error), year, sample };
  }
  await yieldToOthers();
  const own = await ownRows("network", (source) =>
    source.networkRows({ year, npis: input.npis, planIds: input.plan_ids }),
  );
  await yieldToOthers();
  const coverage = mergeProviderCoverage({ npis: input.npis, planIds: input.plan_ids, upstream: upstream.rows, own });
  await yieldToOthers();
  return { coverage, upstream: upstream.failedPlanIds.length ? "partial" : "ok", year, sample };
}
