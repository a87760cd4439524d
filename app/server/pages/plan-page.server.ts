/**
 * What the consumer pages show, built from the same server modules the JSON
 * API calls (no HTTP to ourselves): the /plans steps (ZIP → county or a
 * state-marketplace hand-off → household → results), the plan detail page
 * and the compare page. Routes stay thin: they read the URL, call one of the
 * functions here and render the model.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { BENEFIT_TABLE_PART, BenefitTable, type BenefitRowView } from "../../components/plans/benefit-table";
import { benefitRowsFromText, benefitRowsText } from "../../components/plans/benefit-rows-text";
import { csrWords } from "../../components/plans/format";
import { ApiError } from "../platform/api.server";
import {
  planStore,
  type BenefitDetail,
  type CostLimit,
  type CsrLevel,
  type PlanDetail,
  type QualityRating,
  type SbcScenario,
  type SbcScenarios,
} from "../plan-store/plan-store.server";
import { ServerTiming } from "../platform/server-timing.server";
import {
  describeTierCostShare,
  EVERY_PLAN,
  lookUpCounties,
  pricePlans,
  resolvePlanYear,
  type CountiesAnswer,
  type CountyAnswer,
  type EligibilityAnswer,
  type PlansAnswer,
  type PricedPlan,
  type SbeRedirect,
} from "../shopping/shopping.server";
import { checkHousehold, householdSubmitted, zipError, type FieldErrors } from "../shopping/shopping-url.server";
import {
  MAX_PEOPLE,
  compareIdsOf,
  defaultRelationship,
  plansHref,
  readShoppingState,
  type Selection,
  type ShoppingState,
} from "../../lib/shopping-url";
import {
  checkDrugCoverage,
  checkProviderCoverage,
  suggestDrugs,
  suggestProviders,
  type DrugSuggestionsAnswer,
  type ProviderSuggestionsAnswer,
  type UpstreamState,
} from "../upstream/lookups.server";
import type { DrugCoverageResult, ProviderCoverageResult } from "../../domain/coverage";
import { MAX_PLAN_IDS_PER_REQUEST, MIN_QUERY_LENGTH } from "../upstream/requests.server";
import { SERVICE_ALLOWED_COST, USAGE_PROFILES, type ServiceKind } from "../../domain/yearly-cost";

// ---------------------------------------------------------------- shared shapes

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

// ---------------------------------------------------------------- /plans

export interface CountyOption {
  fips: string;
  name: string;
  state: string;
  share: number | null;
  sbe: boolean;
}

export type ShoppingPage =
  | { step: "zip"; zip: string; error: string | null }
  | { step: "county"; state: ShoppingState; zip: string; counties: CountyOption[]; error: string | null }
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

export interface FilterOptions {
  metals: string[];
  types: string[];
  issuers: Array<{ id: string; name: string }>;
}

export interface ResultsModel {
  results: PlansAnswer;
  ignored: string[];
  filterOptions: FilterOptions;
  drugSearch: SearchOutcome<DrugSuggestionsAnswer> | null;
  doctorSearch: SearchOutcome<ProviderSuggestionsAnswer> | null;
  drugCoverage: DrugCoverageCheck | null;
  doctorCoverage: DoctorCoverageCheck | null;
  compareIds: string[];
  yearlyCostMethod: YearlyCostMethodRow[];
}

export interface YearlyCostMethodRow {
  service: string;
  allowedCost: number;
  low: number;
  medium: number;
  high: number;
}

const SERVICE_WORDS: Record<ServiceKind, string> = {
  primaryCare: "Doctor visit for an illness or injury",
  specialist: "Specialist visit",
  urgentCare: "Urgent care visit",
  imaging: "X-ray or scan",
  genericDrug: "Generic drug, 30-day fill",
  preferredBrandDrug: "Brand-name drug, 30-day fill",
  emergencyRoom: "Emergency room visit",
  inpatientStay: "Hospital stay",
};

/** The assumed year of care behind "estimated yearly cost" (docs/yearly-cost.md), for the page to show. */
export function yearlyCostMethod(): YearlyCostMethodRow[] {
  return (Object.keys(SERVICE_WORDS) as ServiceKind[]).map((service) => {
    const count = (level: keyof typeof USAGE_PROFILES) =>
      USAGE_PROFILES[level].find((l) => l.service === service)?.count ?? 0;
    return {
      service: SERVICE_WORDS[service],
      allowedCost: SERVICE_ALLOWED_COST[service],
      low: count("low"),
      medium: count("medium"),
      high: count("high"),
    };
  });
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
            { age: "", tobacco: false, pregnant: false, relationship: defaultRelationship(state.people.length, "") },
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
  if (search.has("remove_npi")) {
    const code = search.get("remove_npi");
    return plansHref({ ...state, doctors: state.doctors.filter((d) => d.code !== code) }) + "#doctors";
  }
  return null;
}

function countyOption(c: CountyAnswer): CountyOption {
  return { fips: c.fips, name: c.name, state: c.state, share: c.share, sbe: c.sbeRedirect !== null };
}

function yearOf(state: ShoppingState): number | undefined {
  return /^\d{4}$/.test(state.year) ? Number(state.year) : undefined;
}

/** Plain-words message for a failure of the shopping core that a person can act on. */
function messageOf(error: ApiError): string {
  if (error.code === "year_not_available")
    return `We do not have plans for plan year ${error.fields?.year ? error.fields.year.split(";")[0].replace(/^No plan data for /, "") : "that year"}. Remove the year from the address or start again.`;
  return error.message;
}

export async function shoppingPage(url: URL): Promise<ShoppingPage> {
  const search = url.searchParams;
  const state = readShoppingState(search);
  if (!search.has("zip")) return { step: "zip", zip: "", error: null };
  const badZip = zipError(state.zip);
  if (badZip) return { step: "zip", zip: state.zip, error: badZip };

  let counties: CountiesAnswer;
  try {
    counties = await lookUpCounties({ zip: state.zip, year: yearOf(state) });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500)
      return { step: "zip", zip: state.zip, error: messageOf(error) };
    if (error instanceof ApiError) return { step: "unavailable", state, message: error.message };
    throw error;
  }
  if (counties.counties.length === 0) {
    return {
      step: "zip",
      zip: state.zip,
      error: `We could not find ZIP code ${state.zip}. Check the number and try again.`,
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
        error: `County ${state.county} does not include ZIP code ${state.zip}. Choose your county from this list.`,
      };
    }
  } else if (!multiple) {
    county = counties.counties[0];
  }
  if (!county || search.get("step") === "county") {
    return { step: "county", state, zip: state.zip, counties: options, error: null };
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
  const check = checkHousehold(canonical);
  if (!check.ok) return { step: "household", state: canonical, place, errors: check.errors };

  const drugQuery = search.has("drugq") ? (search.get("drugq") ?? "").trim() : null;
  const doctorQuery = search.has("doctorq") ? (search.get("doctorq") ?? "").trim() : null;
  let results: PlansAnswer;
  let drugSearch: SearchOutcome<DrugSuggestionsAnswer> | null;
  let doctorSearch: SearchOutcome<ProviderSuggestionsAnswer> | null;
  try {
    [results, drugSearch, doctorSearch] = await Promise.all([
      pricePlans({ ...check.request, ...EVERY_PLAN }),
      drugQuery === null ? null : searchDrugs(drugQuery, yearOf(canonical)),
      doctorQuery === null ? null : searchDoctors(doctorQuery, canonical.zip),
    ]);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "state_based_marketplace") {
      const redirect = county.sbeRedirect ?? {
        state: county.state,
        marketplace_name: `${county.state}'s marketplace`,
        marketplace_url: "https://www.healthcare.gov/marketplace-in-your-state/",
      };
      return { step: "sbe", state, zip: state.zip, countyName: county.name, redirect, otherCounties: multiple };
    }
    if (error.status === 400) return { step: "household", state: canonical, place, errors: { form: error.message } };
    if (error.status === 404) return { step: "zip", zip: state.zip, error: messageOf(error) };
    return { step: "unavailable", state: canonical, message: error.message };
  }
  const planIds = results.plans.map((p) => p.id);
  const [drugCoverage, doctorCoverage] = await Promise.all([
    drugCoverageFor(canonical.drugs, planIds, results.year),
    doctorCoverageFor(canonical.doctors, planIds, results.year),
  ]);
  return {
    step: "results",
    state: check.state,
    place,
    results,
    ignored: check.ignored,
    filterOptions: filterOptionsFor(canonical, results.year),
    drugSearch,
    doctorSearch,
    drugCoverage,
    doctorCoverage,
    compareIds: compareIdsOf(search).slice(0, 3),
    yearlyCostMethod: yearlyCostMethod(),
  };
}

const METAL_ORDER = ["Catastrophic", "Bronze", "Expanded Bronze", "Silver", "Gold", "Platinum"];
const TYPE_ORDER = ["HMO", "EPO", "POS", "PPO", "Indemnity"];

/** What the filter form offers: only values some plan sold here has. */
function filterOptionsFor(state: ShoppingState, year: number): FilterOptions {
  const offered = planStore().plansOffered({ year, state: state.state, countyFips: state.county, zip: state.zip });
  const metals = METAL_ORDER.filter((m) => offered.some((p) => p.metalLevel === m));
  const types = TYPE_ORDER.filter((t) => offered.some((p) => p.type === t));
  const issuers = [...new Map(offered.map((p) => [p.issuer.id, p.issuer])).values()].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  return { metals, types, issuers };
}

async function searchDrugs(query: string, year: number | undefined): Promise<SearchOutcome<DrugSuggestionsAnswer>> {
  if (query.length < MIN_QUERY_LENGTH)
    return { query, error: `Type at least ${MIN_QUERY_LENGTH} letters of the drug's name.`, answer: null };
  return { query, error: null, answer: await suggestDrugs({ query: query.slice(0, 100), year }) };
}

async function searchDoctors(query: string, zip: string): Promise<SearchOutcome<ProviderSuggestionsAnswer>> {
  if (query.length < MIN_QUERY_LENGTH)
    return { query, error: `Type at least ${MIN_QUERY_LENGTH} letters of the name.`, answer: null };
  return { query, error: null, answer: await suggestProviders({ query: query.slice(0, 100), zip }) };
}

async function drugCoverageFor(drugs: Selection[], planIds: string[], year: number): Promise<DrugCoverageCheck | null> {
  if (drugs.length === 0) return null;
  if (planIds.length === 0) return { upstream: "ok", selections: drugs, results: [] };
  const answer = await checkDrugCoverage({
    rxcuis: drugs.map((d) => d.code),
    plan_ids: planIds.slice(0, MAX_PLAN_IDS_PER_REQUEST),
    year,
  });
  return { upstream: answer.upstream, selections: drugs, results: answer.coverage };
}

async function doctorCoverageFor(
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

// ---------------------------------------------------------------- SBC scenarios

/**
 * The total allowed cost of each coverage example, fixed by the CMS Summary
 * of Benefits and Coverage template (45 CFR 147.200(a)(2)(i)(M); the SBC
 * instructions' coverage examples: Peg is having a baby $12,700, managing
 * Joe's type 2 diabetes $5,600, Mia's simple fracture $2,800). The plan's
 * data says what the member pays; the plan pays the rest.
 */
export const SBC_EXAMPLES = [
  {
    key: "havingABaby",
    title: "Having a baby",
    story: "Peg: 9 months of in-network prenatal care and a hospital delivery",
    totalCost: 12700,
  },
  {
    key: "managingDiabetes",
    title: "Managing type 2 diabetes",
    story: "Joe: a year of routine in-network care of a well-controlled condition",
    totalCost: 5600,
  },
  {
    key: "simpleFracture",
    title: "A simple fracture",
    story: "Mia: an in-network emergency room visit and follow-up care",
    totalCost: 2800,
  },
] as const;

export interface ScenarioView {
  key: string;
  title: string;
  story: string;
  totalCost: number;
  /** What the member pays; null when the plan's data does not give every part. */
  youPay: number | null;
  planPays: number | null;
  parts: { deductible: number | null; copayment: number | null; coinsurance: number | null; limit: number | null };
}

export function scenarioViews(scenarios: SbcScenarios): ScenarioView[] {
  return SBC_EXAMPLES.map((example) => {
    const s: SbcScenario | undefined = scenarios[example.key];
    const youPay = s?.total ?? null;
    return {
      key: example.key,
      title: example.title,
      story: example.story,
      totalCost: example.totalCost,
      youPay,
      planPays: youPay === null ? null : Math.max(0, example.totalCost - youPay),
      parts: {
        deductible: s?.deductible ?? null,
        copayment: s?.copayment ?? null,
        coinsurance: s?.coinsurance ?? null,
        limit: s?.limit ?? null,
      },
    };
  });
}

const hasScenarios = (s: SbcScenarios | undefined): s is SbcScenarios =>
  Boolean(s && (s.havingABaby || s.managingDiabetes || s.simpleFracture));

// ---------------------------------------------------------------- plan detail

/** A row of the benefit table, as <BenefitTable> shows it. */
export type BenefitRow = BenefitRowView;

/** The benefit table in the PUF's own words ("$30 Copay after deductible", "No Charge"), one row per benefit. */
export function benefitRows(details: readonly BenefitDetail[]): BenefitRow[] {
  return details.map((b) => {
    const notCovered = b.covered === false;
    const say = (share: BenefitDetail["inNetwork"] | undefined) =>
      notCovered ? "Not covered" : (describeTierCostShare(share) ?? "Not stated");
    const notes = [
      b.limit && b.limit.quantity !== null
        ? `Limit: ${b.limit.quantity}${b.limit.unit ? ` ${b.limit.unit}` : ""}`
        : null,
      b.exclusions ? `Exclusions: ${b.exclusions}` : null,
      b.explanation,
    ].filter((n): n is string => Boolean(n && n.trim()));
    return {
      name: b.name,
      covered: b.covered,
      inNetwork: say(b.inNetwork),
      inNetworkTier2:
        b.inNetworkTier2 && !notCovered ? (describeTierCostShare(b.inNetworkTier2) ?? "Not stated") : null,
      outOfNetwork: say(b.outOfNetwork),
      notes: notes.length ? notes.join(". ").slice(0, 400) : null,
    };
  });
}

/**
 * The benefit table, as rows for the page's data and as React's markup for
 * the document.
 *
 * It is the same for everyone who looks at one plan variant, and it is most
 * of the plan page (60-odd rows), so its rows and markup are made once per
 * variant and caption and kept for as long as the store version keeps the
 * plan record (keyed by the record's own frozen benefit list). The document
 * puts the markup in place as it is (<Prerendered>); the browser hydrates the
 * rows over it. Measured in docs/benchmarks.md; decisions 127 and 132.
 */
export interface BenefitTableView {
  caption: string;
  /** The rows as text (benefitRowsText, decision 133). */
  rowsText: string;
}

const benefitTables = new WeakMap<readonly BenefitDetail[], Map<string, { view: BenefitTableView; html: string }>>();

export function benefitTableMarkup(
  details: readonly BenefitDetail[],
  caption: string,
): { view: BenefitTableView; html: string } {
  let byCaption = benefitTables.get(details);
  if (!byCaption) {
    byCaption = new Map();
    benefitTables.set(details, byCaption);
  }
  let table = byCaption.get(caption);
  if (!table) {
    const rowsText = benefitRowsText(benefitRows(details));
    // The markup is made from the rows as the browser will read them back from the text.
    table = {
      view: Object.freeze({ caption, rowsText }),
      html: renderToString(createElement(BenefitTable, { caption, rows: benefitRowsFromText(rowsText) })),
    };
    byCaption.set(caption, table);
  }
  return table;
}

export interface DocumentLink {
  label: string;
  href: string;
}

export interface PlanDetailModel {
  state: ShoppingState;
  plan: {
    id: string;
    name: string;
    issuer: string;
    metalLevel: string;
    type: string | null;
    hsaEligible: boolean;
    year: number;
    variantId: string;
    variantName: string | null;
  };
  /** The household's price, when the URL holds a household this plan is sold to. */
  price: Pick<
    PricedPlan,
    | "premium"
    | "premium_w_credit"
    | "credit_applied"
    | "tobacco_surcharge"
    | "estimated_yearly_cost"
    | "estimated_yearly_cost_complete"
  > | null;
  usage: string;
  eligibility: EligibilityAnswer | null;
  eligibilityUnavailable: string | null;
  /** Why no household price is shown (no household in the URL, plan not sold there, …). */
  priceNote: string | null;
  csr: CsrLevel | null;
  deductible: CostLimit & { drug?: CostLimit };
  moop: CostLimit;
  /** Made once per plan variant (benefitTableMarkup). */
  benefits: BenefitTableView;
  scenarios: ScenarioView[];
  quality: QualityRating | null;
  documents: DocumentLink[];
  drugCoverage: DrugCoverageCheck | null;
  doctorCoverage: DoctorCoverageCheck | null;
  place: PlaceSummary | null;
}

const DOCUMENT_LABELS: Array<[keyof PlanDetail["puf"]["urls"], string]> = [
  ["summaryOfBenefits", "Summary of Benefits and Coverage"],
  ["formulary", "Drug list (formulary)"],
  ["providerDirectory", "Provider directory"],
  ["brochure", "Plan brochure"],
  ["enrollment", "Enroll or pay with the insurer"],
];

export function documentLinks(urls: PlanDetail["puf"]["urls"]): DocumentLink[] {
  return DOCUMENT_LABELS.flatMap(([key, label]) => {
    const href = urls[key];
    return typeof href === "string" && /^https?:\/\//i.test(href) ? [{ label, href }] : [];
  });
}

/** No such plan in the plan year shown: the route answers 404 with a readable page. */
export class PlanNotFoundError extends Error {
  constructor(readonly planId: string) {
    super(`No plan ${planId}`);
    this.name = "PlanNotFoundError";
  }
}

function planNotFound(planId: string): PlanNotFoundError {
  return new PlanNotFoundError(planId);
}

/** The county of a URL's place when it is a real county of its ZIP (no upstream call). */
function placeOf(state: ShoppingState): PlaceSummary | null {
  if (!/^\d{5}$/.test(state.zip) || !/^\d{5}$/.test(state.county)) return null;
  const counties = planStore().countiesForZip(state.zip);
  const match = counties.find((c) => c.countyFips === state.county);
  if (!match) return null;
  return {
    zip: state.zip,
    countyFips: match.countyFips,
    countyName: match.countyName,
    state: match.state,
    otherCounties: counties.length > 1,
  };
}

/** The plan year the URL asks for, or the one being shopped today; null when there is no such year. */
function planYearFor(state: ShoppingState): number | null {
  try {
    return resolvePlanYear(yearOf(state));
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/**
 * `timing` (the request's context.serverTiming) gets the store / eligibility / pricing entries
 * (docs/decisions/116); `prerendered` (the request's context.prerendered) the benefit table's markup.
 */
export async function planDetailPage(
  planIdParam: string,
  url: URL,
  timing: ServerTiming = new ServerTiming(),
  prerendered?: Record<string, string>,
): Promise<PlanDetailModel> {
  const planId = planIdParam.trim().toUpperCase();
  const found = readShoppingState(url.searchParams);
  const place = placeOf(found);
  const state: ShoppingState = place ? { ...found, state: place.state } : found;
  const check = place ? checkHousehold(state) : null;

  // Price first: it resolves the plan year the way /api/plans does.
  let answer: PlansAnswer | null = null;
  let priceNote: string | null = null;
  if (!place) priceNote = "Enter your ZIP code and household to see what this plan would cost you.";
  else if (!check?.ok)
    priceNote =
      "Your household details are incomplete, so we show the plan's standard costs. Enter your household to see your price.";
  else {
    try {
      answer = await pricePlans({ ...check.request, ...EVERY_PLAN, filters: undefined }, timing, {
        onlyPlanIds: [planId],
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      priceNote = error.status === 404 ? null : `We could not price this plan for your household: ${error.message}`;
      if (error.status === 404) throw planNotFound(planId);
    }
  }
  const year = answer?.year ?? planYearFor(state);
  if (year === null) throw planNotFound(planId);
  const ratingArea =
    answer?.place.rating_area ??
    (place
      ? planStore().ratingAreaFor({ year, state: place.state, countyFips: place.countyFips, zip: place.zip })
      : undefined);
  const detail = timing.measure("store", () => planStore().planById(planId, year, ratingArea ? { ratingArea } : {}));
  if (!detail) throw planNotFound(planId);

  const priced = answer?.plans.find((p) => p.id === detail.id) ?? null;
  if (answer && !priced)
    priceNote = `This plan is not sold in ${place?.countyName ?? "your county"}, so we cannot price it for you there. The costs below are the plan's standard costs.`;
  const csr = priced?.csr_variant ?? null;
  const variant = csr ? detail.puf.csrVariants[csr] : undefined;
  const benefits = variant && variant.benefitDetails.length > 0 ? variant.benefitDetails : detail.puf.benefitDetails;
  const scenarios = variant && hasScenarios(variant.sbcScenarios) ? variant.sbcScenarios : detail.puf.sbcScenarios;

  const [drugCoverage, doctorCoverage] = await timing.measureAsync("coverage", () =>
    Promise.all([drugCoverageFor(state.drugs, [detail.id], year), doctorCoverageFor(state.doctors, [detail.id], year)]),
  );
  const benefitTable = benefitTableMarkup(
    benefits,
    `What you pay for each service${variant && csrWords(csr) ? " at your savings level" : ""}`,
  );
  if (prerendered) prerendered[BENEFIT_TABLE_PART] = benefitTable.html;
  return {
    state,
    plan: {
      id: detail.id,
      name: detail.name,
      issuer: detail.issuer.name,
      metalLevel: detail.metalLevel,
      type: detail.type,
      hsaEligible: detail.hsaEligible,
      year,
      variantId: variant?.variantId ?? detail.variantId,
      variantName: variant?.csrVariationType ?? null,
    },
    price: priced
      ? {
          premium: priced.premium,
          premium_w_credit: priced.premium_w_credit,
          credit_applied: priced.credit_applied,
          tobacco_surcharge: priced.tobacco_surcharge,
          estimated_yearly_cost: priced.estimated_yearly_cost,
          estimated_yearly_cost_complete: priced.estimated_yearly_cost_complete,
        }
      : null,
    usage: answer?.usage ?? "medium",
    eligibility: answer?.eligibility ?? null,
    eligibilityUnavailable: answer?.eligibility_unavailable ?? null,
    priceNote,
    csr: variant ? csr : null,
    deductible: variant?.deductible ?? detail.deductible,
    moop: variant?.moop ?? detail.moop,
    benefits: benefitTable.view,
    scenarios: scenarioViews(scenarios),
    quality: detail.puf.qualityRating,
    documents: documentLinks(detail.puf.urls),
    drugCoverage,
    doctorCoverage,
    place,
  };
}

// ---------------------------------------------------------------- compare

export interface ComparedPlan {
  plan: PricedPlan;
  scenarios: ScenarioView[];
}

export type ComparePage =
  | {
      ok: true;
      state: ShoppingState;
      place: PlaceSummary;
      plans: ComparedPlan[];
      usage: string;
      eligibility: EligibilityAnswer | null;
      eligibilityUnavailable: string | null;
      drugCoverage: DrugCoverageCheck | null;
      doctorCoverage: DoctorCoverageCheck | null;
    }
  | { ok: false; status: number; state: ShoppingState; message: string; compareIds: string[] };

export async function comparePage(url: URL): Promise<ComparePage> {
  const found = readShoppingState(url.searchParams);
  const ids = compareIdsOf(url.searchParams);
  const place = placeOf(found);
  const state: ShoppingState = place ? { ...found, state: place.state } : found;
  const fail = (status: number, message: string): ComparePage => ({
    ok: false,
    status,
    state,
    message,
    compareIds: ids,
  });
  if (ids.length < 2 || ids.length > 3) {
    return fail(
      400,
      ids.length < 2
        ? `Choose 2 or 3 plans to compare. You chose ${ids.length === 0 ? "none" : "1"}.`
        : `Choose at most 3 plans to compare. You chose ${ids.length}.`,
    );
  }
  if (!place) return fail(400, "Enter your ZIP code and household first, then choose plans to compare.");
  const check = checkHousehold(state);
  if (!check.ok)
    return fail(400, "Your household details are incomplete. Enter them again, then choose plans to compare.");
  let answer: PlansAnswer;
  try {
    answer = await pricePlans({ ...check.request, ...EVERY_PLAN, filters: undefined }, undefined, { onlyPlanIds: ids });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return fail(error.status === 503 ? 503 : 400, error.message);
  }
  const missing = ids.filter((id) => !answer.plans.some((p) => p.id === id));
  if (missing.length > 0) {
    return fail(
      404,
      `We could not find ${missing.length === 1 ? "plan" : "plans"} ${missing.join(", ")} among the plans sold in ${place.countyName}. Choose again from your results.`,
    );
  }
  const plans: ComparedPlan[] = ids.map((id) => {
    const plan = answer.plans.find((p) => p.id === id)!;
    const detail = planStore().planById(id, answer.year);
    const variant = plan.csr_variant && detail ? detail.puf.csrVariants[plan.csr_variant] : undefined;
    const scenarios =
      variant && hasScenarios(variant.sbcScenarios) ? variant.sbcScenarios : (detail?.puf.sbcScenarios ?? {});
    return { plan, scenarios: scenarioViews(scenarios) };
  });
  const [drugCoverage, doctorCoverage] = await Promise.all([
    drugCoverageFor(state.drugs, ids, answer.year),
    doctorCoverageFor(state.doctors, ids, answer.year),
  ]);
  return {
    ok: true,
    state,
    place,
    plans,
    usage: answer.usage,
    eligibility: answer.eligibility,
    eligibilityUnavailable: answer.eligibility_unavailable,
    drugCoverage,
    doctorCoverage,
  };
}
