/**
 * The /plans steps (ZIP → county or a state-marketplace hand-off → household
 * → results), built from the same server modules the JSON API calls. The
 * route reads the URL, calls shoppingPage (or shoppingRedirect) and renders
 * the model.
 */
import type { FilterOptions } from "../../domain/plan-filters";
import { MissingParameterError } from "../../domain/parameters";
import { CHOOSE_A_COUNTY, COUNTY_FORM_FIELD } from "../../lib/page-views";
import { stateForZipPrefix } from "../../domain/zip-prefix";
import { requestedPage, type ListPage } from "../../domain/results-pages";
import { COVERAGE_SORT } from "../../domain/coverage-order";
import { whatIfSeries } from "../../domain/what-if";
import type { WhatIfView } from "../../lib/page-views";
import type { PlansRequest } from "../../schemas/shopping";
import { householdBenchmark } from "../shopping/benchmark.server";
import { householdInputOf } from "../shopping/household.server";
import {
  COMPARE_SUBMIT,
  MAX_PEOPLE,
  compareHref,
  compareProblem,
  listPageParam,
  plansHref,
  readShoppingState,
  type ShoppingState,
} from "../../lib/shopping-url";
import { compareErrorOf, type CompareChoice, type CompareError } from "../../lib/page-views";
import { planStore, type PlanSummary } from "../plan-store/plan-store.server";
import { ApiError } from "../platform/api.server";
import { apiMessage } from "../../i18n/api-messages";
import { DEFAULT_LANGUAGE, tFor, type Language } from "../../i18n/i18n";
import { lookUpCounties, type CountiesAnswer, type CountyAnswer } from "../shopping/counties.server";
import type { SbeRedirect } from "../shopping/place.server";
import type { PlansAnswer } from "../shopping/plan-list.server";
import { checkHousehold, householdSubmitted, zipError, type FieldErrors } from "../shopping/shopping-url.server";
import type { DrugSuggestionsAnswer, ProviderSuggestionsAnswer } from "../upstream/lookups.server";
import {
  searchDoctors,
  searchDrugs,
  yearOf,
  type DoctorCoverageCheck,
  type DrugCoverageCheck,
  type PlaceSummary,
  type SearchOutcome,
  eligibilityUnavailableIn,
} from "./page-parts.server";
import { coverageFirstList, pagedList, type ResultsList } from "./results-list.server";
import { listWithinCredit } from "./credit-choice.server";
import { planExtrasFor, type PlanExtras } from "./plan-extras.server";
import { yearlyCostMethod, type YearlyCostMethodRow } from "./yearly-cost-method.server";

export interface CountyOption {
  fips: string;
  name: string;
  state: string;
  share: number | null;
  sbe: boolean;
}

export type ShoppingPage =
  | { step: "zip"; zip: string; error: string | null }
  | {
      step: "county";
      state: ShoppingState;
      zip: string;
      counties: CountyOption[];
      error: string | null;
      /** Set when the ZIP is missing from the ZIP–county data: the counties are this whole state's. */
      zipPrefixState: string | null;
    }
  | {
      step: "sbe";
      state: ShoppingState;
      zip: string;
      countyName: string | null;
      redirect: SbeRedirect;
      otherCounties: boolean;
    }
  | { step: "household"; state: ShoppingState; place: PlaceSummary; errors: FieldErrors }
  | ({ step: "results"; state: ShoppingState; place: PlaceSummary } & ResultsModel)
  | { step: "unavailable"; state: ShoppingState; message: string };

export interface ResultsModel {
  /** One page of the list (results.plans is that page; plan_count counts every plan that matches). */
  results: PlansAnswer;
  /** Which page of the list is shown (docs/decisions/250). */
  listPage: ListPage;
  ignored: string[];
  filterOptions: FilterOptions;
  drugSearch: SearchOutcome<DrugSuggestionsAnswer> | null;
  doctorSearch: SearchOutcome<ProviderSuggestionsAnswer> | null;
  drugCoverage: DrugCoverageCheck | null;
  doctorCoverage: DoctorCoverageCheck | null;
  /** The ticked plans sold here, in the order ticked, with their names (the compare tray). */
  compareChoices: CompareChoice[];
  /** Set when the compare form was sent with fewer than 2 or more than 3 ticks (no JavaScript). */
  compareError: CompareError | null;
  yearlyCostMethod: YearlyCostMethodRow[];
  /** Where to enroll and the design label, by plan id. */
  extras: Record<string, PlanExtras>;
  /** The household's yearly income, dollars. */
  income: number;
  /** The income what-if (null when the household's benchmark cannot be priced here). */
  whatIf: WhatIfView | null;
}

/**
 * The one-shot changes a GET form can ask for (add or remove a person, remove
 * a drug or doctor chip): the canonical URL to redirect to, or null. Keeping
 * them out of the canonical URL means a bookmark never repeats an edit.
 */
export function shoppingRedirect(url: URL): string | null {
  const search = url.searchParams;
  const state = readShoppingState(search);
  if (search.has("add_person")) {
    const people =
      state.people.length < MAX_PEOPLE
        ? [
            ...state.people,
            // No relationship chosen for a new person: the page asks (docs/decisions/210).
            { age: "", tobacco: false, pregnant: false, relationship: "" as const },
          ]
        : state.people;
    return plansHref({ ...state, people }, [["step", "household"]]) + "#person-" + (people.length - 1);
  }
  if (search.has("remove_person")) {
    const index = Number(search.get("remove_person"));
    const people = state.people.filter((_, i) => i !== index || i === 0);
    return plansHref({ ...state, people }, [["step", "household"]]);
  }
  if (search.has("remove_drug")) {
    const code = search.get("remove_drug");
    return plansHref({ ...state, drugs: state.drugs.filter((d) => d.code !== code) }) + "#drugs";
  }
  if (search.has(COMPARE_SUBMIT) && compareProblem(state.compare.length) === null) {
    // The compare form (issue 17 item 4): 2 or 3 ticks go to the comparison; other counts stay on the list with an error.
    return compareHref(state, state.compare, listPageParam(requestedPage(search.get("page"))));
  }
  if (search.has("remove_npi")) {
    const code = search.get("remove_npi");
    return plansHref({ ...state, doctors: state.doctors.filter((d) => d.code !== code) }) + "#doctors";
  }
  return null;
}

function countyOption(c: CountyAnswer): CountyOption {
  return { fips: c.fips, name: c.name, state: c.state, share: c.share, sbe: c.sbeRedirect !== null };
}

/** Plain-words message, in the page's language, for a failure of the shopping core that a person can act on. */
function messageOf(error: ApiError, lang: Language): string {
  const t = tFor(lang);
  if (error.code === "year_not_available")
    return t("results.error.yearNotAvailable", {
      year: error.fields?.year
        ? error.fields.year.split(";")[0].replace(/^No plan data for (plan year )?/, "")
        : t("results.error.thatYear"),
    });
  return apiMessage(error, lang);
}

/** The shopping page's model; `lang` (the page's language) words its messages (docs/decisions/300). */
export async function shoppingPage(url: URL, lang: Language = DEFAULT_LANGUAGE): Promise<ShoppingPage> {
  const t = tFor(lang);
  const search = url.searchParams;
  const state = readShoppingState(search);
  if (!search.has("zip")) return { step: "zip", zip: "", error: null };
  const badZip = zipError(state.zip, lang);
  if (badZip) return { step: "zip", zip: state.zip, error: badZip };

  let counties: CountiesAnswer;
  try {
    counties = await lookUpCounties({ zip: state.zip, year: yearOf(state) });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return { step: "zip", zip: state.zip, error: messageOf(error, lang) };
    if (error instanceof ApiError) return { step: "unavailable", state, message: apiMessage(error, lang) };
    throw error;
  }
  if (counties.counties.length === 0 && counties.sbeRedirect) {
    return {
      step: "sbe",
      state,
      zip: state.zip,
      countyName: null,
      redirect: counties.sbeRedirect,
      otherCounties: false,
    };
  }
  if (counties.counties.length === 0) {
    const prefixState = stateForZipPrefix(state.zip);
    return {
      step: "zip",
      zip: state.zip,
      // "Check the number" only for a ZIP that cannot exist (its 3-digit prefix is not assigned by USPS).
      error: prefixState
        ? t("results.error.zipOtherState", { zip: state.zip, state: prefixState })
        : t("results.error.zipNotFound", { zip: state.zip }),
    };
  }
  const options = counties.counties.map(countyOption);
  const multiple = counties.counties.length > 1;
  if (counties.sbeRedirect && !state.county) {
    return {
      step: "sbe",
      state,
      zip: state.zip,
      countyName: multiple ? null : counties.counties[0].name,
      redirect: counties.sbeRedirect,
      otherCounties: false,
    };
  }

  let county: CountyAnswer | undefined;
  if (state.county) {
    county = counties.counties.find((c) => c.fips === state.county);
    if (!county) {
      return {
        step: "county",
        state,
        zip: state.zip,
        counties: options,
        zipPrefixState: counties.zip_prefix_state,
        error: t("results.error.countyMismatch", { county: state.county, zip: state.zip }),
      };
    }
  } else if (!multiple) {
    county = counties.counties[0];
  }
  if (!county || search.get("step") === "county") {
    // The county form sent without a choice (issue 17 item 5): a field error, not the question again.
    const skipped = !county && search.has(COUNTY_FORM_FIELD);
    return {
      step: "county",
      state,
      zip: state.zip,
      counties: options,
      error: skipped ? CHOOSE_A_COUNTY : null,
      zipPrefixState: counties.zip_prefix_state,
    };
  }
  if (county.sbeRedirect) {
    return {
      step: "sbe",
      state,
      zip: state.zip,
      countyName: county.name,
      redirect: county.sbeRedirect,
      otherCounties: multiple,
    };
  }

  const canonical: ShoppingState = { ...state, county: county.fips, state: county.state };
  const place: PlaceSummary = {
    zip: state.zip,
    countyFips: county.fips,
    countyName: county.name,
    state: county.state,
    otherCounties: multiple,
  };
  if (search.get("step") === "household" || !householdSubmitted(search)) {
    return { step: "household", state: canonical, place, errors: {} };
  }
  const check = checkHousehold(canonical, lang);
  if (!check.ok) return { step: "household", state: canonical, place, errors: check.errors };

  const drugQuery = search.has("drugq") ? (search.get("drugq") ?? "").trim() : null;
  const doctorQuery = search.has("doctorq") ? (search.get("doctorq") ?? "").trim() : null;
  let list: ResultsList;
  let drugSearch: SearchOutcome<DrugSuggestionsAnswer> | null;
  let doctorSearch: SearchOutcome<ProviderSuggestionsAnswer> | null;
  // "Covers my drugs and doctors first" needs something chosen to order by; otherwise the premium order.
  const coverageFirst =
    check.state.sort === COVERAGE_SORT && (canonical.drugs.length > 0 || canonical.doctors.length > 0);
  const requested = requestedPage(search.get("page"));
  try {
    [list, drugSearch, doctorSearch] = await Promise.all([
      listWithinCredit(
        (request) =>
          coverageFirst
            ? coverageFirstList(request, canonical, requested, lang)
            : pagedList(request, canonical, requested, lang),
        check,
        lang,
      ),
      drugQuery === null ? null : searchDrugs(drugQuery, yearOf(canonical), lang),
      doctorQuery === null ? null : searchDoctors(doctorQuery, canonical.zip, lang),
    ]);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "state_based_marketplace") {
      const redirect = county.sbeRedirect ?? {
        state: county.state,
        marketplace_name: tFor(lang)("sbe.fallbackName", { state: county.state }),
        marketplace_url: "https://www.healthcare.gov/marketplace-in-your-state/",
      };
      return { step: "sbe", state, zip: state.zip, countyName: county.name, redirect, otherCounties: multiple };
    }
    if (error.status === 400)
      return { step: "household", state: canonical, place, errors: { form: apiMessage(error, lang) } };
    if (error.status === 404) return { step: "zip", zip: state.zip, error: messageOf(error, lang) };
    return { step: "unavailable", state: canonical, message: apiMessage(error, lang) };
  }
  const { results, listPage: shown, drugCoverage, doctorCoverage } = list;
  const offered = planStore().plansOffered({
    year: results.year,
    state: canonical.state,
    countyFips: canonical.county,
    zip: canonical.zip,
  });
  // Ticks of plans not sold here (the place changed) are dropped; a filter hiding a ticked plan keeps its tick.
  const compareChoices = check.state.compare
    .map((id) => offered.find((p) => p.id === id))
    .filter((p) => p !== undefined)
    .map((p) => ({ id: p.id, name: p.name }));
  const resultsState: ShoppingState = { ...check.state, compare: compareChoices.map((c) => c.id) };
  return {
    step: "results",
    state: resultsState,
    place,
    // The answer's reason for a missing estimate is English (the JSON API's); the page shows it in its language.
    results: { ...results, eligibility_unavailable: eligibilityUnavailableIn(results.eligibility_unavailable, lang) },
    listPage: shown,
    ignored: check.ignored,
    filterOptions: filterOptionsFor(offered),
    drugSearch,
    doctorSearch,
    drugCoverage,
    doctorCoverage,
    compareChoices,
    compareError: search.has(COMPARE_SUBMIT) ? compareErrorOf(compareChoices) : null,
    yearlyCostMethod: yearlyCostMethod(),
    extras: planExtrasFor(place, results.year, results.plans),
    income: check.request.income,
    whatIf: incomeWhatIf(check.request, results),
  };
}

/**
 * The income what-if from our own rules and plan data (docs/decisions/213): the benchmark for each
 * income's coverage family, priced as the household's own. Null where the place has no benchmark.
 */
function incomeWhatIf(request: PlansRequest, results: PlansAnswer): WhatIfView | null {
  const year = results.year;
  const store = planStore();
  try {
    const series = whatIfSeries(householdInputOf(request, year), (family) =>
      family.length === 0 ? null : (householdBenchmark(request, year, store, family)?.monthly ?? null),
    );
    return {
      points: series.points,
      lines: series.lines.map((l) => ({ kind: l.kind, percent: l.percent, amount: l.amount })),
      ourEstimate: results.eligibility?.source === "upstream",
    };
  } catch (error) {
    if (error instanceof MissingParameterError) return null;
    throw error;
  }
}

const METAL_ORDER = ["Catastrophic", "Bronze", "Expanded Bronze", "Silver", "Gold", "Platinum"];
const TYPE_ORDER = ["HMO", "EPO", "POS", "PPO", "Indemnity"];

/** What the filter form offers: only values some plan sold here has. */
function filterOptionsFor(offered: readonly PlanSummary[]): FilterOptions {
  const metals = METAL_ORDER.filter((m) => offered.some((p) => p.metalLevel === m));
  const types = TYPE_ORDER.filter((t) => offered.some((p) => p.type === t));
  const issuers = [...new Map(offered.map((p) => [p.issuer.id, p.issuer])).values()].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  return { metals, types, issuers };
}
