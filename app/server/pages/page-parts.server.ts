import type { DrugCoverageResult, ProviderCoverageResult } from "../../domain/coverage";
import { stateForZipPrefix } from "../../domain/zip-prefix";
import type { Selection, ShoppingState } from "../../lib/shopping-url";
import { DEFAULT_LANGUAGE, tFor, type Language } from "../../i18n/i18n";
import { planStore } from "../plan-store/plan-store.server";
import {
  checkDrugCoverage,
  checkProviderCoverage,
  suggestDrugs,
  suggestProviders,
  type DrugSuggestionsAnswer,
  type ProviderSuggestionsAnswer,
  type UpstreamState,
} from "../upstream/lookups.server";
import { MAX_PLAN_IDS_PER_REQUEST, MIN_QUERY_LENGTH } from "../upstream/requests.server";

/**
 * What the consumer pages share (the /plans results, the plan page and the
 * compare page): the place of the URL, and the drug and doctor searches and
 * coverage checks, made with the same server modules the JSON API calls (no
 * HTTP to ourselves).
 */

export interface PlaceSummary {
  zip: string;
  countyFips: string;
  countyName: string;
  state: string;
  /** The ZIP lies in more than one county (the person chose one). */
  otherCounties: boolean;
}

export interface CoverageCheck<T> {
  upstream: UpstreamState;
  selections: Selection[];
  results: T[];
}

export type DrugCoverageCheck = CoverageCheck<DrugCoverageResult>;
export type DoctorCoverageCheck = CoverageCheck<ProviderCoverageResult>;

export interface SearchOutcome<T> {
  query: string;
  /** A message for a query that was not sent (too short). */
  error: string | null;
  answer: T | null;
}

/**
 * Why there is no subsidy estimate, in plain words in the page's language (issue 28 item 6): never
 * the upstream's own wording or codes ("SLCSP/LCBP", 1015, 1016). A refusal (the federal
 * Marketplace cannot estimate here: eligibilityError's 422) says trying again will not help; an
 * outage says to try again later.
 */
export function eligibilityUnavailableIn(message: string | null | undefined, lang: Language): string | null {
  if (!message) return null;
  const t = tFor(lang);
  return message.startsWith("The federal Marketplace could not estimate a subsidy here.")
    ? t("eligibility.refusedPlain")
    : `${t("eligibility.unavailableDefault")} ${t("eligibility.unavailableBody")}`;
}

export function yearOf(state: ShoppingState): number | undefined {
  return /^\d{4}$/.test(state.year) ? Number(state.year) : undefined;
}

/** The county of a URL's place when it is a real county of its ZIP (no upstream call). */
/** A ZIP missing from the ZIP–county data: the county chosen among its prefix state's (issue 17 item 13). */
function placeByZipPrefix(state: ShoppingState): PlaceSummary | null {
  const prefixState = stateForZipPrefix(state.zip);
  if (!prefixState) return null;
  const county = planStore()
    .countiesOfState(prefixState)
    .find((c) => c.countyFips === state.county);
  if (!county) return null;
  return {
    zip: state.zip,
    countyFips: county.countyFips,
    countyName: county.countyName,
    state: prefixState,
    otherCounties: true,
  };
}

export function placeOf(state: ShoppingState): PlaceSummary | null {
  if (!/^\d{5}$/.test(state.zip) || !/^\d{5}$/.test(state.county)) return null;
  const counties = planStore().countiesForZip(state.zip);
  const match = counties.find((c) => c.countyFips === state.county);
  if (!match) return counties.length === 0 ? placeByZipPrefix(state) : null;
  return {
    zip: state.zip,
    countyFips: match.countyFips,
    countyName: match.countyName,
    state: match.state,
    otherCounties: counties.length > 1,
  };
}

export async function searchDrugs(
  query: string,
  year: number | undefined,
  lang: Language = DEFAULT_LANGUAGE,
): Promise<SearchOutcome<DrugSuggestionsAnswer>> {
  if (query.length < MIN_QUERY_LENGTH)
    return { query, error: tFor(lang)("picker.drug.tooShort", { min: MIN_QUERY_LENGTH }), answer: null };
  return { query, error: null, answer: await suggestDrugs({ query: query.slice(0, 100), year }) };
}

export async function searchDoctors(
  query: string,
  zip: string,
  lang: Language = DEFAULT_LANGUAGE,
): Promise<SearchOutcome<ProviderSuggestionsAnswer>> {
  if (query.length < MIN_QUERY_LENGTH)
    return { query, error: tFor(lang)("picker.doctor.tooShort", { min: MIN_QUERY_LENGTH }), answer: null };
  return { query, error: null, answer: await suggestProviders({ query: query.slice(0, 100), zip }) };
}

export async function drugCoverageFor(
  drugs: Selection[],
  planIds: string[],
  year: number,
): Promise<DrugCoverageCheck | null> {
  if (drugs.length === 0) return null;
  if (planIds.length === 0) return { upstream: "ok", selections: drugs, results: [] };
  const answer = await checkDrugCoverage({
    rxcuis: drugs.map((d) => d.code),
    plan_ids: planIds.slice(0, MAX_PLAN_IDS_PER_REQUEST),
    year,
  });
  return { upstream: answer.upstream, selections: drugs, results: answer.coverage };
}

export async function doctorCoverageFor(
  doctors: Selection[],
  planIds: string[],
  year: number,
): Promise<DoctorCoverageCheck | null> {
  if (doctors.length === 0) return null;
  if (planIds.length === 0) return { upstream: "ok", selections: doctors, results: [] };
  const answer = await checkProviderCoverage({
    npis: doctors.map((d) => d.code),
    plan_ids: planIds.slice(0, MAX_PLAN_IDS_PER_REQUEST),
    year,
  });
  return { upstream: answer.upstream, selections: doctors, results: answer.coverage };
}
