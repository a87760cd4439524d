import { estimateEligibility, type EligibilityEstimate } from "../../domain/eligibility";
import { isoDateYear } from "../../domain/parameters";
import { DEFAULT_PLAN_YEAR_TIME_ZONE, defaultPlanYear } from "../../domain/plan-year";
import { householdRater, type Member, type RateTable } from "../../domain/rating";
import { benchmarkPremium } from "../../domain/rating";
import { netPremium, roundCents } from "../../domain/pricing";
import { ApiError } from "../platform/api.server";
import {
  expectedOutOfPocket,
  parseBenefitCostShare,
  type PlanCostShare,
  type ServiceCostShare,
  type ServiceKind,
} from "../../domain/yearly-cost";
import type { PlansRequest, ShoppingRequest } from "../../schemas/shopping";
import { firstInOrder } from "../../domain/first-in-order";
import {
  planStore,
  type CsrVariantSummary,
  type KeyBenefits,
  type PlaceOffer,
  type PlanStore,
  type StateInfo,
  type TierCostShare,
} from "../plan-store/plan-store.server";

import { ServerTiming } from "../platform/server-timing.server";
import {
  countiesByZip,
  searchPlans,
  csrLevel as upstreamCsrLevel,
  eligibilityEstimates,
  isUpstreamFailure,
  UpstreamRejectedError,
  type UpstreamHousehold,
} from "../upstream/client.server";

/**
 * The shopping core: county look-up, eligibility and the household's
 * benchmark. Routes and pages both call these functions (no HTTP to
 * ourselves). Money is computed in full precision and rounded to cents once,
 * when an answer is shaped.
 */

export type CsrLevel = "94" | "87" | "73";

// ---------------------------------------------------------------- plan year

// One formatter for every request: building an Intl.DateTimeFormat costs about 0.1 ms,
// a tenth of a whole /api/counties answer (docs/benchmarks.md).
const marketplaceCalendar = new Intl.DateTimeFormat("en-CA", {
  timeZone: DEFAULT_PLAN_YEAR_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The calendar date ("YYYY-MM-DD") on the marketplace's clock, which decides the plan year shopped. */
function marketplaceDate(now: Date): string {
  // US time zones are whole hours from UTC, so a date never changes within a clock minute: the last
  // minute's answer is reused (formatToParts was ~2 % of an /api/counties answer under load).
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute === lastMarketplaceDate.minute) return lastMarketplaceDate.date;
  const parts = marketplaceCalendar.formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const date = `${part("year")}-${part("month")}-${part("day")}`;
  lastMarketplaceDate = { minute, date };
  return date;
}
let lastMarketplaceDate = { minute: Number.NaN, date: "" };

/** The plan year to answer for: the one asked for, or the year being shopped today. */
export function resolvePlanYear(
  requested: number | undefined,
  store: PlanStore = planStore(),
  now = new Date(),
): number {
  const years = store.yearsWithData();
  if (requested !== undefined) {
    if (!years.includes(requested)) {
      throw new ApiError(404, "year_not_available", `No plan data for plan year ${requested}.`, {
        year: `No plan data for ${requested}; available: ${years.join(", ") || "none"}`,
      });
    }
    return requested;
  }
  if (years.length === 0) throw new ApiError(503, "plan_data_unavailable", "No plan data is loaded yet.");
  const shopped = defaultPlanYear(marketplaceDate(now), years);
  // The year shopped today may have no data (e.g. before 1 November with only next year's files
  // loaded): say so rather than answer empty lists (docs/decisions/090-default-year-without-data.md).
  if (!years.includes(shopped)) {
    throw new ApiError(
      404,
      "year_not_available",
      `No plan data for plan year ${shopped}, the year being shopped today.`,
      {
        year: `No plan data for ${shopped}; available: ${years.join(", ")}`,
      },
    );
  }
  return shopped;
}

/**
 * The coverage start date must be a real date inside the plan year: a date in
 * another year is bad input (400), not a failure of the calculation (500).
 */
export function checkCoverageDate(request: Pick<ShoppingRequest, "coverage_date">, year: number): void {
  const date = request.coverage_date;
  if (date === undefined) return;
  let dateYear: number | null;
  try {
    dateYear = isoDateYear(date);
  } catch {
    dateYear = null;
  }
  if (dateYear === null) {
    throw new ApiError(400, "validation_failed", `Invalid request body: check coverage_date.`, {
      coverage_date: `${date} is not a calendar date`,
    });
  }
  if (dateYear !== year) {
    throw new ApiError(400, "validation_failed", `The coverage date ${date} is not in plan year ${year}.`, {
      coverage_date: `Must be a date in plan year ${year}`,
    });
  }
}

// ---------------------------------------------------------------- counties

export interface SbeRedirect {
  state: string;
  marketplace_name: string;
  marketplace_url: string;
}

export interface CountyAnswer {
  fips: string;
  name: string;
  state: string;
  share: number | null;
  owned_data: boolean;
  sbeRedirect: SbeRedirect | null;
}

export interface CountiesAnswer {
  zip: string;
  year: number;
  counties: CountyAnswer[];
  source: "own" | "upstream";
  sbeRedirect: SbeRedirect | null;
}

/** A state that runs its own marketplace (and whose plans we do not price). */
export function sbeRedirectFor(state: StateInfo | undefined): SbeRedirect | null {
  if (!state || state.ownedData) return null;
  if (state.exchangeKind !== "sbe") return null;
  return {
    state: state.code,
    marketplace_name: state.marketplaceName ?? `${state.name}'s marketplace`,
    marketplace_url: state.marketplaceUrl ?? "https://www.healthcare.gov/marketplace-in-your-state/",
  };
}

/**
 * Counties for a ZIP, largest share first, from own data; only a ZIP absent
 * from own data goes to the upstream look-up. `state` narrows a ZIP that
 * crosses a state line.
 */
export async function lookUpCounties(input: { zip: string; state?: string; year?: number }): Promise<CountiesAnswer> {
  const store = planStore();
  const year = resolvePlanYear(input.year, store);
  let source: "own" | "upstream" = "own";
  let rows: Array<{ fips: string; name: string; state: string; share: number | null }> = store
    .countiesForZip(input.zip)
    .map((c) => ({ fips: c.countyFips, name: c.countyName, state: c.state, share: c.share }));
  if (rows.length === 0) {
    source = "upstream";
    try {
      const upstream = await countiesByZip(input.zip, year);
      rows = upstream.map((c) => ({ fips: c.fips, name: c.name, state: c.state, share: null }));
    } catch (error) {
      if (isUpstreamFailure(error)) {
        throw new ApiError(
          503,
          "county_lookup_unavailable",
          "We could not look up this ZIP code right now: it is not in our own data and the federal look-up is unavailable. Please try again shortly.",
        );
      }
      throw error;
    }
  }
  if (input.state) rows = rows.filter((r) => r.state === input.state);
  const counties = rows.map((r) => {
    const info = store.state(r.state, year);
    return { ...r, owned_data: Boolean(info?.ownedData), sbeRedirect: sbeRedirectFor(info) };
  });
  const allSbe = counties.length > 0 && counties.every((c) => c.sbeRedirect);
  return { zip: input.zip, year, counties, source, sbeRedirect: allSbe ? counties[0].sbeRedirect : null };
}

// ---------------------------------------------------------------- household

export function membersOf(request: Pick<ShoppingRequest, "household">): Member[] {
  return request.household.people.map((p) => ({
    age: p.age,
    usesTobacco: p.uses_tobacco,
    isPregnant: p.is_pregnant,
    relationship: p.relationship,
  }));
}

export function householdSizeOf(request: Pick<ShoppingRequest, "household">): number {
  return request.household.size ?? request.household.people.length;
}

/** Where a request's state stands: priced from own data, redirected, or federal upstream. */
export function marketFor(state: string, year: number, store: PlanStore = planStore()) {
  const info = store.state(state, year);
  if (!info) {
    // Not a state or DC the marketplace serves (a territory, or a typo): say so, not "upstream unavailable".
    throw new ApiError(
      400,
      "validation_failed",
      `${state} is not a state with a health insurance marketplace we know of.`,
      {
        "place.state": "Use the two-letter code of a US state or DC",
      },
    );
  }
  const redirect = sbeRedirectFor(info);
  if (redirect) {
    throw new ApiError(
      409,
      "state_based_marketplace",
      `${redirect.state} runs its own marketplace: shop at ${redirect.marketplace_name} (${redirect.marketplace_url}).`,
      { "place.state": `Plans for ${redirect.state} are sold through ${redirect.marketplace_name}` },
    );
  }
  return { info, ownedData: Boolean(info?.ownedData) };
}

/** The county must exist and belong to the state: a mismatched place is a 400, not a wrong price. */
export function checkPlace(request: Pick<ShoppingRequest, "place">, store: PlanStore = planStore()): void {
  const { zip, county_fips, state } = request.place;
  const counties = store.countiesForZip(zip);
  if (counties.length === 0) return; // a ZIP we do not hold: upstream validates it
  const match = counties.find((c) => c.countyFips === county_fips);
  if (!match) {
    throw new ApiError(400, "validation_failed", `County ${county_fips} does not contain ZIP ${zip}.`, {
      "place.county_fips": `Not a county of ZIP ${zip}; choose one of ${counties.map((c) => c.countyFips).join(", ")}`,
    });
  }
  if (match.state !== state) {
    throw new ApiError(400, "validation_failed", `County ${county_fips} is in ${match.state}, not ${state}.`, {
      "place.state": `County ${county_fips} is in ${match.state}`,
    });
  }
}

// ---------------------------------------------------------------- rating

export interface PlanRates {
  rateTable: RateTable;
  /** The plan's essential-health-benefit share of its premium (1 when the data does not say). */
  ehbShare: number;
}

/**
 * The rate table in the shape the rating domain reads. Community-rated plans
 * carry only a "Family Option" row: its single-adult rate stands for age 21.
 */
export function ratingTable(table: {
  ageRates: Record<string, { individual: number; tobacco: number | null }>;
  familyTiers?: { individual: number };
}): RateTable {
  if (!table.familyTiers) return table; // already the rating shape: no copy per plan
  if (Object.keys(table.ageRates).length === 0) {
    return { ageRates: { "21": { individual: table.familyTiers.individual, tobacco: null } } };
  }
  return { ageRates: table.ageRates };
}

export interface HouseholdPrice {
  /** Monthly premium for the household, tobacco surcharges included (cents). */
  premium: number;
  /** The same premium without tobacco surcharges (cents). */
  premiumWithoutTobacco: number;
  /** The part of `premium` that is tobacco surcharge; the credit never pays it. */
  tobaccoSurcharge: number;
}

/** A plan's monthly premium for the household, rounded to cents. */
export function priceForHousehold(
  rateTable: RateTable,
  members: Member[],
  state: string,
  year: number,
): HouseholdPrice {
  return householdPricer(
    members,
    state,
    year,
  )(rateTable, { premium: 0, premiumWithoutTobacco: 0, tobaccoSurcharge: 0 });
}

/**
 * priceForHousehold for one household on many plans: the household's part of
 * the rating (who is rated, age bands, tobacco) is worked out once, and the
 * price is written into `out` (a list reuses one object for hundreds of plans).
 */
export function householdPricer(
  members: Member[],
  state: string,
  year: number,
): (rateTable: RateTable, out: HouseholdPrice) => HouseholdPrice {
  const withTobacco = householdRater(members, state, year);
  // Without a tobacco user the surcharge-free premium is the same number: price once.
  const withoutTobacco = members.some((m) => m.usesTobacco)
    ? householdRater(members, state, year, { excludeTobaccoSurcharge: true })
    : null;
  return (rateTable, out) => {
    const premium = roundCents(withTobacco(rateTable));
    const noTobacco = withoutTobacco ? roundCents(withoutTobacco(rateTable)) : premium;
    out.premium = premium;
    out.premiumWithoutTobacco = noTobacco;
    out.tobaccoSurcharge = withoutTobacco ? roundCents(Math.max(0, premium - noTobacco)) : 0;
    return out;
  };
}

/** The essential-health-benefit part of a premium without tobacco: what a benchmark is built from (26 CFR 1.36B-3(j)). */
export function ehbPremium(premiumWithoutTobacco: number, ehbShare: number): number {
  return roundCents(premiumWithoutTobacco * ehbShare);
}

export interface Benchmark {
  /** Monthly second-lowest-cost silver premium for the household (EHB share, no tobacco), cents. */
  monthly: number;
  ratingArea: string;
  silverPlanCount: number;
}

/**
 * The household's benchmark: the second-lowest-cost silver plan offered in
 * its county (and ZIP, for partial-county service areas), priced for the
 * household without tobacco surcharges, EHB share only (26 CFR 1.36B-3(e),(f)).
 * Each silver premium is rounded to cents first, exactly as /api/plans shows
 * it, so the credit can be checked against the plan list to the cent.
 */
export function householdBenchmark(
  request: ShoppingRequest,
  year: number,
  store: PlanStore = planStore(),
): Benchmark | null {
  const { state, county_fips, zip } = request.place;
  const offer = store.placeOffer({ year, state, countyFips: county_fips, zip });
  const ratingArea = offer.ratingArea;
  if (!ratingArea) return null;
  if (!offer.plans.some((p) => p.metalLevel === "Silver")) return null;
  const rate = householdRater(membersOf(request), state, year, { excludeTobaccoSurcharge: true });
  const premiums: number[] = [];
  for (let i = 0; i < offer.plans.length; i++) {
    const plan = offer.plans[i];
    const table = offer.rateTables[i];
    if (plan.metalLevel !== "Silver" || !table) continue;
    const noTobacco = roundCents(rate(ratingTable(table)));
    premiums.push(ehbPremium(noTobacco, plan.ehbShare ?? 1));
  }
  const monthly = benchmarkPremium(premiums);
  return monthly === null ? null : { monthly, ratingArea, silverPlanCount: premiums.length };
}

// ---------------------------------------------------------------- eligibility

export interface EligibilityAnswer {
  year: number;
  aptc: number;
  csr: CsrLevel | null;
  is_medicaid_chip: boolean;
  in_coverage_gap: boolean;
  essential_plan?: boolean;
  fpl_percent: number | null;
  benchmark_premium: number | null;
  expected_contribution: number | null;
  source: "own" | "upstream";
  reasons: string[];
}

/** States whose eligibility the service computes itself (the rest ask upstream). */
const OWN_CALCULATION_STATES = new Set(["NY"]);

function coverageDateOf(request: ShoppingRequest, year: number): string {
  return request.coverage_date ?? `${year}-01-01`;
}

function ownEligibility(request: ShoppingRequest, year: number, store: PlanStore): EligibilityAnswer {
  const benchmark = householdBenchmark(request, year, store);
  if (!benchmark) {
    const { state, county_fips, zip } = request.place;
    if (!store.ratingAreaFor({ year, state, countyFips: county_fips, zip })) {
      // No rating area: not a county and ZIP of this state that we price, so bad input, not an outage (docs/decisions/103).
      throw new ApiError(400, "validation_failed", `We have no county ${county_fips} with ZIP ${zip} in ${state}.`, {
        "place.county_fips": `Not a county of ${state} in our data`,
      });
    }
    // Fewer than one silver plan priced here: a gap in the data, which a retry will not fill (docs/decisions/103).
    throw new ApiError(
      422,
      "benchmark_unavailable",
      "We cannot estimate the tax credit here: there are not enough silver plans in our data for this county.",
    );
  }
  const estimate: EligibilityEstimate = estimateEligibility({
    coverageYear: year,
    coverageDate: coverageDateOf(request, year),
    state: request.place.state,
    income: request.income,
    householdSize: householdSizeOf(request),
    applicantAge: request.household.people[0].age,
    benchmarkMonthly: benchmark.monthly,
  });
  return {
    year,
    aptc: roundCents(estimate.aptc),
    csr: estimate.csr,
    is_medicaid_chip: estimate.is_medicaid_chip,
    in_coverage_gap: estimate.in_coverage_gap,
    ...(estimate.essential_plan !== undefined ? { essential_plan: estimate.essential_plan } : {}),
    fpl_percent: estimate.fplPercent,
    benchmark_premium: benchmark.monthly,
    expected_contribution:
      estimate.expectedContributionMonthly === null ? null : roundCents(estimate.expectedContributionMonthly),
    source: "own",
    reasons: estimate.reasons,
  };
}

/**
 * The household in upstream's shape. Upstream takes the household size from
 * `people`, so for the eligibility estimate the tax-household members who are
 * not applying are added as people with other coverage (`has_mec`, not
 * `aptc_eligible`): counted in the size, left out of the benchmark. Their age
 * is not asked; the subscriber's stands in (docs/decisions/092-upstream-household-size.md).
 */
export function upstreamHousehold(
  request: ShoppingRequest,
  options: { countNonApplicants?: boolean } = {},
): UpstreamHousehold {
  const people: UpstreamHousehold["people"] = request.household.people.map((p) => ({
    age: p.age,
    uses_tobacco: p.uses_tobacco,
    is_pregnant: p.is_pregnant,
    relationship: { self: "Self", spouse: "Spouse", child: "Child", other: "Other Relative" }[p.relationship],
    aptc_eligible: true,
  }));
  if (options.countNonApplicants) {
    const notApplying = householdSizeOf(request) - request.household.people.length;
    for (let i = 0; i < notApplying; i++) {
      people.push({
        age: request.household.people[0].age,
        relationship: "Other Relative",
        aptc_eligible: false,
        has_mec: true,
      });
    }
  }
  return {
    income: request.income,
    people,
    has_married_couple: request.household.people.some((p) => p.relationship === "spouse"),
    effective_date: request.coverage_date,
  };
}

/**
 * Upstream eligibility answers, shared and kept a while (docs/decisions/120):
 * identical questions in flight share one upstream call, and a settled answer
 * answers the same question again for ELIGIBILITY_ANSWER_MS. A household's
 * list, its re-sorts, filters, pages and plan pages all ask the same question,
 * the estimate for it does not change from one minute to the next, and
 * upstream allows 200 calls a second per key. Failures are never kept.
 */
const ELIGIBILITY_ANSWER_MS = 10 * 60_000;
const ELIGIBILITY_ANSWER_ENTRIES = 10_000;
const eligibilityInFlight = new Map<string, Promise<EligibilityAnswer>>();
const eligibilitySettled = new Map<string, { answer: EligibilityAnswer; until: number }>();

/** Each caller gets its own copy: one changing its answer cannot change another's. */
function copyOf(answer: EligibilityAnswer): EligibilityAnswer {
  return { ...answer, reasons: [...answer.reasons] };
}

function upstreamEligibility(request: ShoppingRequest, year: number): Promise<EligibilityAnswer> {
  const key = JSON.stringify([year, request.income, request.household, request.place, request.coverage_date ?? null]);
  const settled = eligibilitySettled.get(key);
  if (settled && settled.until > Date.now()) return Promise.resolve(copyOf(settled.answer));
  if (settled) eligibilitySettled.delete(key);
  const pending = eligibilityInFlight.get(key);
  if (pending) return pending.then(copyOf);
  const call = askUpstreamEligibility(request, year).finally(() => eligibilityInFlight.delete(key));
  eligibilityInFlight.set(key, call);
  call.then(
    (answer) => {
      eligibilitySettled.set(key, { answer: copyOf(answer), until: Date.now() + ELIGIBILITY_ANSWER_MS });
      // Oldest first out: a Map iterates in insertion order.
      if (eligibilitySettled.size > ELIGIBILITY_ANSWER_ENTRIES)
        eligibilitySettled.delete(eligibilitySettled.keys().next().value as string);
    },
    () => undefined, // a failure is the caller's to handle, and is not kept
  );
  return call;
}

/** Forgets every kept eligibility answer (tests that change what upstream says for the same household). */
export function forgetEligibilityAnswers(): void {
  eligibilitySettled.clear();
}

async function askUpstreamEligibility(request: ShoppingRequest, year: number): Promise<EligibilityAnswer> {
  let estimates;
  try {
    estimates = await eligibilityEstimates({
      household: upstreamHousehold(request, { countNonApplicants: true }),
      place: { countyfips: request.place.county_fips, state: request.place.state, zipcode: request.place.zip },
      year,
    });
  } catch (error) {
    // Upstream refused this household or place itself: retrying will not help, so not a 503 (docs/decisions/103).
    if (error instanceof UpstreamRejectedError) throw eligibilityRejected(error);
    if (isUpstreamFailure(error)) throw eligibilityUnavailable();
    throw error;
  }
  // One estimate per person; the household's credit is the subscriber's entry.
  const first = estimates[0];
  if (!first) throw eligibilityUnavailable();
  return {
    year,
    aptc: roundCents(Math.max(0, first.aptc ?? 0)),
    csr: upstreamCsrLevel(first.csr),
    is_medicaid_chip: Boolean(first.is_medicaid_chip),
    in_coverage_gap: Boolean(first.in_coverage_gap),
    fpl_percent: null,
    benchmark_premium: null,
    expected_contribution: null,
    source: "upstream",
    reasons: [],
  };
}

/** 422: the federal Marketplace refused to estimate for this household and place (its words, bounded). */
export function eligibilityRejected(error: UpstreamRejectedError): ApiError {
  return new ApiError(
    422,
    "eligibility_rejected",
    `The federal Marketplace could not estimate a subsidy for this household and place: ${error.upstreamMessage.slice(0, 200)}. Check the state, county and ZIP code.`,
    { place: "The federal Marketplace did not accept this place" },
  );
}

export function eligibilityUnavailable(): ApiError {
  return new ApiError(
    503,
    "eligibility_unavailable",
    "The subsidy estimate is unavailable right now because the federal Marketplace service did not answer. Plans can still be shown at full price; please try the estimate again shortly.",
  );
}

/** POST /api/eligibility: NY computed here, other states from the upstream estimate. */
export async function determineEligibility(request: ShoppingRequest): Promise<EligibilityAnswer> {
  const store = planStore();
  const year = resolvePlanYear(request.year, store);
  checkCoverageDate(request, year);
  checkPlace(request, store);
  marketFor(request.place.state, year, store);
  if (OWN_CALCULATION_STATES.has(request.place.state)) return ownEligibility(request, year, store);
  return upstreamEligibility(request, year);
}

// ---------------------------------------------------------------- premiums after credit

/** A plan's monthly premium after the credit: never below zero, never paying tobacco surcharges. */
export function premiumAfterCredit(
  price: HouseholdPrice,
  aptc: number,
  ehbShare: number,
): { premiumWithCredit: number; creditApplied: number } {
  const premiumWithCredit = premiumWithCreditOf(price, aptc, ehbShare);
  return { premiumWithCredit, creditApplied: creditShown(price, premiumWithCredit) };
}

/** The premium after credit alone, rounded to cents (premiumAfterCredit without an object per plan). */
export function premiumWithCreditOf(price: HouseholdPrice, aptc: number, ehbShare: number): number {
  return roundCents(netPremium(price.premium, aptc, ehbShare, price.tobaccoSurcharge));
}

/**
 * The credit shown is the difference, so premium = premium_w_credit + credit_applied to the cent
 * (rounding each on its own can disagree by a cent when the credit ends in half a cent).
 */
export function creditShown(price: HouseholdPrice, premiumWithCredit: number): number {
  return roundCents(price.premium - premiumWithCredit);
}

// ---------------------------------------------------------------- priced plans

export interface CostLimitAnswer {
  individual: number | null;
  family: number | null;
}

export interface PricedPlan {
  id: string;
  name: string;
  issuer: { id: string; name: string };
  metal_level: string;
  type: string | null;
  hsa_eligible: boolean;
  /** Monthly premium for the household before the credit (cents). */
  premium: number;
  /** Monthly premium after the credit: never below 0, never paying tobacco surcharges. */
  premium_w_credit: number;
  credit_applied: number;
  /** The essential-health-benefit part of the premium without tobacco surcharge: what the benchmark is built from. */
  ehb_premium: number;
  tobacco_surcharge: number;
  /** The cost-sharing variant the household gets: its CSR level on silver plans, else null. */
  csr_variant: CsrLevel | null;
  variant_id: string;
  deductible: CostLimitAnswer;
  moop: CostLimitAnswer;
  key_benefits: Record<string, string | null>;
  quality_rating: number | null;
  estimated_yearly_cost: number;
  /** False when a cost-share the estimate needs was not in the data (assumed deductible-only). */
  estimated_yearly_cost_complete: boolean;
}

export interface PlansAnswer {
  year: number;
  source: "own" | "upstream";
  place: { state: string; county_fips: string; zip: string; rating_area: string | null };
  household_size: number;
  eligibility: EligibilityAnswer | null;
  /** Why there is no credit in the prices (the estimate could not be made). */
  eligibility_unavailable: string | null;
  usage: UsageLevel;
  sort: PlanSort;
  order: "asc" | "desc";
  /** Plans offered before filters, and after (all pages). */
  total_plan_count: number;
  plan_count: number;
  /** The page: plans[offset, offset + limit) of the sorted, filtered list. */
  limit: number;
  offset: number;
  plans: PricedPlan[];
}

type UsageLevel = "low" | "medium" | "high";
type PlanSort = "premium" | "deductible" | "moop" | "yearly_cost" | "quality_rating";

const KEY_BENEFIT_LABELS: Array<[keyof KeyBenefits, string]> = [
  ["primaryCare", "primary_care"],
  ["specialist", "specialist"],
  ["genericDrugs", "generic_drugs"],
  ["emergencyRoom", "emergency_room"],
  ["urgentCare", "urgent_care"],
];

const SERVICE_KEYS: Record<ServiceKind, keyof KeyBenefits> = {
  primaryCare: "primaryCare",
  specialist: "specialist",
  urgentCare: "urgentCare",
  imaging: "imaging",
  genericDrug: "genericDrugs",
  preferredBrandDrug: "preferredBrandDrugs",
  emergencyRoom: "emergencyRoom",
  inpatientStay: "inpatientStay",
};

/** "$30 Copay after deductible" / "20% Coinsurance" / "No Charge": what a person pays, in the PUF's words. */
export function describeTierCostShare(share: TierCostShare | undefined): string | null {
  if (!share) return null;
  const parts = [share.copay, share.coinsurance]
    .filter((v) => v.display && !v.notApplicable)
    .map((v) => v.display!.trim());
  if (parts.length === 0) return null;
  // "No Charge" twice says nothing more than once.
  return [...new Set(parts)].join(", ");
}

export function planCostShareOf(
  deductible: { individual: number | null; family: number | null },
  moop: { individual: number | null; family: number | null },
  keyBenefits: KeyBenefits,
): { costShare: PlanCostShare; complete: boolean } {
  let complete = deductible.individual !== null && moop.individual !== null;
  const services = {} as Record<ServiceKind, ServiceCostShare>;
  for (const [service, key] of Object.entries(SERVICE_KEYS) as Array<[ServiceKind, keyof KeyBenefits]>) {
    const share = keyBenefits[key];
    const parsed = share ? parseBenefitCostShare(share.copay.display, share.coinsurance.display) : null;
    if (parsed) services[service] = parsed;
    else {
      complete = false;
      // Unknown cost share: assume the member pays until the deductible is met, then nothing.
      services[service] = { copay: 0, coinsurance: 0, subjectToDeductible: true, covered: true };
    }
  }
  return {
    complete,
    costShare: {
      deductible: deductible.individual ?? 0,
      moop: moop.individual ?? 0,
      familyDeductible: deductible.family,
      familyMoop: moop.family,
      services,
    },
  };
}

const SORT_KEYS: Record<PlanSort, (p: PricedPlan) => number | null> = {
  premium: (p) => p.premium_w_credit,
  deductible: (p) => p.deductible.individual,
  moop: (p) => p.moop.individual,
  yearly_cost: (p) => p.estimated_yearly_cost,
  quality_rating: (p) => p.quality_rating,
};

/**
 * The first `count` of `indexes` in list order for the sort: unknown values
 * last whatever the order, ties by premium after credit, then plan id. Keys
 * are read once per plan, not twice per comparison.
 */
function sortedIndexes(
  list: PricedList,
  indexes: number[],
  sort: PlanSort,
  order: "asc" | "desc",
  count: number,
): number[] {
  const sign = order === "desc" ? -1 : 1;
  const keys = new Float64Array(list.length);
  let unknowns = false;
  for (const i of indexes) {
    const key = list.keyOf(sort, i);
    keys[i] = key ?? Number.NaN; // NaN stands for "not known"
    if (key === null) unknowns = true;
  }
  const premiums = list.premiumWithCredit;
  const byId = (a: number, b: number) => list.idOf(a).localeCompare(list.idOf(b));
  // The comparators answer -1, 0 or 1: a fractional difference would be a new heap number per comparison.
  const known = (a: number, b: number) => {
    const byKey = keys[a] - keys[b];
    if (byKey !== 0) return byKey < 0 ? -sign : sign;
    const byPremium = premiums[a] - premiums[b];
    if (byPremium !== 0) return byPremium < 0 ? -1 : 1;
    return byId(a, b);
  };
  if (!unknowns) return firstInOrder(indexes, count, known);
  return firstInOrder(indexes, count, (a, b) => {
    const unknownA = Number.isNaN(keys[a]);
    const unknownB = Number.isNaN(keys[b]);
    if (unknownA || unknownB) return (unknownA === unknownB ? 0 : unknownA ? 1 : -1) || byId(a, b);
    return known(a, b);
  });
}

/**
 * The whole list as one page, for the site's own pages, which show every plan
 * (the API's limit is 1-500; a server-side caller is not bound by it).
 */
export const EVERY_PLAN = Object.freeze({ limit: Number.MAX_SAFE_INTEGER, offset: 0 });

/**
 * One page of the sorted, filtered list, as the upstream plan search pages it
 * (docs/decisions/119-plan-list-pages.md): the sort is over every plan, the
 * slice after it. An offset past the end is an empty page.
 */
export function pageOf<T>(
  sorted: readonly T[],
  request: Pick<PlansRequest, "limit" | "offset">,
): { limit: number; offset: number; plans: T[] } {
  const { limit, offset } = request;
  return { limit, offset, plans: sorted.slice(offset, offset + limit) };
}

/** What the filters read of a plan. */
type FilterFields = Pick<
  PricedPlan,
  "metal_level" | "type" | "issuer" | "hsa_eligible" | "premium_w_credit" | "deductible"
>;

function passesFilters(plan: FilterFields, filters: PlansRequest["filters"]): boolean {
  if (!filters) return true;
  if (filters.metal_levels?.length && !filters.metal_levels.includes(plan.metal_level as never)) return false;
  if (filters.types?.length && !filters.types.includes((plan.type ?? "") as never)) return false;
  if (filters.issuers?.length) {
    const wanted = filters.issuers.map((i) => i.trim().toLowerCase());
    if (!wanted.includes(plan.issuer.id.toLowerCase()) && !wanted.includes(plan.issuer.name.toLowerCase()))
      return false;
  }
  if (filters.hsa_eligible !== undefined && plan.hsa_eligible !== filters.hsa_eligible) return false;
  if (filters.max_premium !== undefined && plan.premium_w_credit > filters.max_premium) return false;
  if (filters.max_deductible !== undefined && (plan.deductible.individual ?? Infinity) > filters.max_deductible)
    return false;
  return true;
}

/** The eligibility to price with; an upstream outage leaves it null with a reason, and plans at full price. */
async function eligibilityForPricing(request: ShoppingRequest, year: number, store: PlanStore) {
  try {
    const eligibility = OWN_CALCULATION_STATES.has(request.place.state)
      ? ownEligibility(request, year, store)
      : await upstreamEligibility(request, year);
    return { eligibility, unavailable: null };
  } catch (error) {
    // No estimate (upstream down, or it refused this place): plans still show, at full price, saying why.
    if (error instanceof ApiError && (error.status === 503 || error.status === 422)) {
      return { eligibility: null, unavailable: error.message };
    }
    throw error;
  }
}

/** POST /api/plans: every plan offered to the household's place, priced for it. */
export async function pricePlans(
  request: PlansRequest,
  timing: ServerTiming = new ServerTiming(),
  options: { onlyPlanIds?: readonly string[] } = {},
): Promise<PlansAnswer> {
  const store = planStore();
  const year = resolvePlanYear(request.year, store);
  checkCoverageDate(request, year);
  checkPlace(request, store);
  const { ownedData } = marketFor(request.place.state, year, store);
  if (!ownedData) return upstreamPlans(request, year, timing);

  const { state, county_fips, zip } = request.place;
  const members = membersOf(request);
  // Eligibility first: an upstream estimate is on its way while the store work below runs.
  const pendingEligibility = timing.measureAsync("eligibility", () => eligibilityForPricing(request, year, store));
  pendingEligibility.catch(() => undefined); // awaited below; not "unhandled" if the store work throws first
  const offer = timing.measure("store", () => store.placeOffer({ year, state, countyFips: county_fips, zip }));
  const { ratingArea } = offer;
  const { eligibility, unavailable } = await pendingEligibility;

  const plans = timing.measure("pricing", () =>
    priceOffer(offer, { members, state, year, usage: request.usage, eligibility, onlyPlanIds: options.onlyPlanIds }),
  );
  return plansAnswer(request, { year, source: "own", ratingArea, eligibility, unavailable, plans });
}

/**
 * Plans priced for one household, before they become answer objects: the
 * sort and the filters read numbers by index, and only the plans on the page
 * asked for are made into PricedPlan objects (a county lists up to ~500
 * plans; a page shows 50).
 */
interface PricedList {
  readonly length: number;
  /** Premium after credit by index: the sort's first tie-break. */
  readonly premiumWithCredit: ArrayLike<number>;
  keyOf(sort: PlanSort, i: number): number | null;
  idOf(i: number): string;
  passes(filters: PlansRequest["filters"], i: number): boolean;
  answerAt(i: number): PricedPlan;
}

/** A list already made of answer objects (the upstream branch). */
function listOfAnswers(plans: readonly PricedPlan[]): PricedList {
  return {
    length: plans.length,
    premiumWithCredit: plans.map((p) => p.premium_w_credit),
    keyOf: (sort, i) => SORT_KEYS[sort](plans[i]),
    idOf: (i) => plans[i].id,
    passes: (filters, i) => passesFilters(plans[i], filters),
    answerAt: (i) => plans[i],
  };
}

/** Every plan of a place's offer that has rates there, priced for the household (the own-data branch). */
const planIndexesByOffer = new WeakMap<PlaceOffer, ReadonlyMap<string, number>>();

/** Where `ids` are in the offer, in the offer's order (each once); ids not offered there are left out. */
function offeredIndexes(offer: PlaceOffer, ids: readonly string[]): number[] {
  let indexOf = planIndexesByOffer.get(offer);
  if (!indexOf) {
    indexOf = new Map(offer.plans.map((plan, i) => [plan.id, i]));
    planIndexesByOffer.set(offer, indexOf);
  }
  const found = new Set<number>();
  for (const id of ids) {
    const i = indexOf.get(id);
    if (i !== undefined) found.add(i);
  }
  return [...found].sort((a, b) => a - b);
}

function priceOffer(
  offer: PlaceOffer,
  household: {
    members: Member[];
    state: string;
    year: number;
    usage: UsageLevel;
    eligibility: EligibilityAnswer | null;
    onlyPlanIds?: readonly string[];
  },
): PricedList {
  const { members, state, year, usage, eligibility, onlyPlanIds } = household;
  const price = householdPricer(members, state, year);
  const coveredMembers = ratedMemberCount(members);
  // The household-independent part of each yearly estimate is memoised per plan under this key.
  const outOfPocketKey = `${usage}|${coveredMembers}|${year}`;
  // A plan page prices one plan and a compare page two or three: those are found by id, not by
  // walking the county's whole offer.
  const only = onlyPlanIds ? offeredIndexes(offer, onlyPlanIds) : null;
  const size = only ? only.length : offer.plans.length;
  const planAt: OfferedPlan[] = [];
  const variantAt: Array<CsrVariantSummary | undefined> = [];
  // Six numbers a plan, in one buffer.
  const numbers = new Float64Array(size * 6);
  const premium = numbers.subarray(0, size);
  const premiumWithoutTobacco = numbers.subarray(size, 2 * size);
  const tobaccoSurcharge = numbers.subarray(2 * size, 3 * size);
  const premiumWithCredit = numbers.subarray(3 * size, 4 * size);
  const creditApplied = numbers.subarray(4 * size, 5 * size);
  const yearlyCost = numbers.subarray(5 * size, 6 * size);
  const householdPrice: HouseholdPrice = { premium: 0, premiumWithoutTobacco: 0, tobaccoSurcharge: 0 };
  for (let n = 0; n < size; n++) {
    const i = only ? only[n] : n;
    const plan = offer.plans[i];
    const table = offer.rateTables[i];
    if (!table) continue; // offered but not priced in this rating area: cannot be sold here
    const k = planAt.length;
    price(ratingTable(table), householdPrice);
    // Catastrophic plans cannot be bought with the credit (26 CFR 1.36B-2(a); 45 CFR 155.305(h)).
    const aptc = plan.metalLevel === "Catastrophic" ? 0 : (eligibility?.aptc ?? 0);
    const withCredit = premiumWithCreditOf(householdPrice, aptc, plan.ehbShare ?? 1);
    const csr = plan.metalLevel === "Silver" && eligibility?.csr ? eligibility.csr : null;
    planAt.push(plan);
    variantAt.push(csr ? plan.csrVariants[csr] : undefined);
    premium[k] = householdPrice.premium;
    premiumWithoutTobacco[k] = householdPrice.premiumWithoutTobacco;
    tobaccoSurcharge[k] = householdPrice.tobaccoSurcharge;
    premiumWithCredit[k] = withCredit;
    creditApplied[k] = creditShown(householdPrice, withCredit);
    yearlyCost[k] = Number.NaN; // worked out when asked for (yearlyCostAt)
  }
  // A plan's cost-sharing fields and yearly cost are needed only by the page's plans, a sort on
  // them and the deductible filter: worked out on first use, not for every plan of the county.
  const fieldsAt: ListFields[] = new Array(planAt.length);
  const fieldsOfPlan = (k: number): ListFields => (fieldsAt[k] ??= listFieldsOf(variantAt[k] ?? planAt[k]));
  const yearlyCostAt = (k: number): number => {
    if (Number.isNaN(yearlyCost[k])) {
      // estimateYearlyCost's total: premiums after credit for the year plus the expected out-of-pocket
      // costs, which depend on the plan's cost sharing alone (derived once, see outOfPocketOf).
      yearlyCost[k] = roundCents(
        premiumWithCredit[k] * 12 + outOfPocketOf(fieldsOfPlan(k), outOfPocketKey, usage, coveredMembers, year),
      );
    }
    return yearlyCost[k];
  };
  const answerAt = (k: number): PricedPlan => {
    const plan = planAt[k];
    const variant = variantAt[k];
    const fields = fieldsOfPlan(k);
    const csr = variant && eligibility?.csr ? eligibility.csr : null;
    const answer: PricedPlan = {
      id: plan.id,
      name: plan.name,
      issuer: plan.issuer,
      metal_level: plan.metalLevel,
      type: plan.type,
      hsa_eligible: plan.hsaEligible,
      premium: premium[k],
      premium_w_credit: premiumWithCredit[k],
      credit_applied: creditApplied[k],
      ehb_premium: ehbPremium(premiumWithoutTobacco[k], plan.ehbShare ?? 1),
      tobacco_surcharge: tobaccoSurcharge[k],
      csr_variant: csr,
      variant_id: variant?.variantId ?? plan.variantId,
      deductible: fields.deductible,
      moop: fields.moop,
      key_benefits: fields.keyBenefits,
      quality_rating: plan.qualityRating,
      estimated_yearly_cost: yearlyCostAt(k),
      estimated_yearly_cost_complete: fields.complete,
    };
    const head = planHeadJson(plan);
    const tail = variantTailJson(plan, variant ?? plan, csr, answer);
    if (head !== null && tail !== null) planJsonParts.set(answer, { head, tail });
    return answer;
  };
  return {
    length: planAt.length,
    premiumWithCredit,
    keyOf(sort, k) {
      switch (sort) {
        case "premium":
          return premiumWithCredit[k];
        case "deductible":
          return fieldsOfPlan(k).deductible.individual;
        case "moop":
          return fieldsOfPlan(k).moop.individual;
        case "yearly_cost":
          return yearlyCostAt(k);
        case "quality_rating":
          return planAt[k].qualityRating;
      }
    },
    idOf: (k) => planAt[k].id,
    // Without filters nothing is built; with them, the fields the filters read.
    passes: (filters, k) =>
      !filters ||
      passesFilters(
        {
          metal_level: planAt[k].metalLevel,
          type: planAt[k].type,
          issuer: planAt[k].issuer,
          hsa_eligible: planAt[k].hsaEligible,
          premium_w_credit: premiumWithCredit[k],
          deductible: fieldsOfPlan(k).deductible,
        },
        filters,
      ),
    answerAt,
  };
}

/** The list answer both branches give: filtered, sorted, then one page of it. */
function plansAnswer(
  request: PlansRequest,
  priced: {
    year: number;
    source: "own" | "upstream";
    ratingArea: string | null;
    eligibility: EligibilityAnswer | null;
    unavailable: string | null;
    plans: PricedList;
  },
): PlansAnswer {
  const list = priced.plans;
  const chosen: number[] = [];
  for (let i = 0; i < list.length; i++) if (list.passes(request.filters, i)) chosen.push(i);
  // Only the places up to the end of the page are put in order (firstInOrder).
  const sorted = sortedIndexes(list, chosen, request.sort, request.order, request.offset + request.limit);
  const page = pageOf(sorted, request);
  const { state, county_fips, zip } = request.place;
  return {
    year: priced.year,
    source: priced.source,
    place: { state, county_fips, zip, rating_area: priced.ratingArea },
    household_size: householdSizeOf(request),
    eligibility: priced.eligibility,
    eligibility_unavailable: priced.unavailable,
    usage: request.usage,
    sort: request.sort,
    order: request.order,
    total_plan_count: list.length,
    plan_count: chosen.length,
    ...page,
    plans: page.plans.map((i) => list.answerAt(i)),
  };
}

// ---------------------------------------------------------------- the list as JSON

/**
 * The household-independent parts of a priced plan, as JSON text made once per
 * frozen plan summary (so once per store version): a request writes only its
 * numbers between them (docs/decisions/118). Keyed on the PricedPlan objects
 * pricePlans made; a plan without parts (upstream) is stringified whole.
 */
const planJsonParts = new WeakMap<PricedPlan, { head: string; tail: string }>();
const headJsonMemo = new WeakMap<object, string>();
const tailJsonMemo = new WeakMap<object, { csr: CsrLevel | null; text: string }>();

type OfferedPlan = ReturnType<PlanStore["plansOffered"]>[number];

/** `{"id":…,"name":…,"issuer":…,"metal_level":…,"type":…,"hsa_eligible":…,"premium":` — or null for a summary that is not frozen (it could change). */
function planHeadJson(plan: OfferedPlan): string | null {
  if (!Object.isFrozen(plan)) return null;
  const known = headJsonMemo.get(plan);
  if (known !== undefined) return known;
  const whole = JSON.stringify({
    id: plan.id,
    name: plan.name,
    issuer: plan.issuer,
    metal_level: plan.metalLevel,
    type: plan.type,
    hsa_eligible: plan.hsaEligible,
  });
  const text = `${whole.slice(0, -1)},"premium":`;
  headJsonMemo.set(plan, text);
  return text;
}

/** `,"csr_variant":…,"variant_id":…,"deductible":…,"moop":…,"key_benefits":…,"quality_rating":…,"estimated_yearly_cost":` */
function variantTailJson(plan: OfferedPlan, source: object, csr: CsrLevel | null, priced: PricedPlan): string | null {
  if (!Object.isFrozen(plan) || !Object.isFrozen(source)) return null;
  const known = tailJsonMemo.get(source);
  if (known !== undefined && known.csr === csr) return known.text;
  const whole = JSON.stringify({
    csr_variant: priced.csr_variant,
    variant_id: priced.variant_id,
    deductible: priced.deductible,
    moop: priced.moop,
    key_benefits: priced.key_benefits,
    quality_rating: priced.quality_rating,
  });
  const text = `,${whole.slice(1, -1)},"estimated_yearly_cost":`;
  tailJsonMemo.set(source, { csr, text });
  return text;
}

/**
 * JSON.stringify(answer), the same text, with each plan's household-independent
 * parts taken from the per-summary memo above instead of serialised again.
 */
export function plansAnswerJson(answer: PlansAnswer): string {
  const { plans, ...rest } = answer;
  const outer = JSON.stringify({ ...rest, plans: [] });
  let body = `${outer.slice(0, -3)}[`;
  for (let i = 0; i < plans.length; i++) {
    const p = plans[i];
    const parts = planJsonParts.get(p);
    if (i > 0) body += ",";
    body += parts
      ? `${parts.head}${p.premium},"premium_w_credit":${p.premium_w_credit},"credit_applied":${p.credit_applied},"ehb_premium":${p.ehb_premium},"tobacco_surcharge":${p.tobacco_surcharge}${parts.tail}${p.estimated_yearly_cost},"estimated_yearly_cost_complete":${p.estimated_yearly_cost_complete}}`
      : JSON.stringify(p);
  }
  return `${body}]}`;
}

/** A plan's (or CSR variant's) list fields that do not depend on the household. */
interface ListFields {
  deductible: CostLimitAnswer;
  moop: CostLimitAnswer;
  keyBenefits: Record<string, string | null>;
  costShare: PlanCostShare;
  complete: boolean;
  /** `${usage}|${coveredMembers}|${planYear}` → expected out-of-pocket dollars a year. */
  outOfPocket: Map<string, number>;
}

// The plan store hands out frozen summaries that live as long as their store
// version: what is derived from them alone is derived once, not per request
// (docs/decisions/112-pricing-derived-once.md). The derived objects are frozen
// too, as every answer shares them.
const listFieldsMemo = new WeakMap<object, ListFields>();

function listFieldsOf(source: {
  deductible: CostLimitAnswer;
  moop: CostLimitAnswer;
  keyBenefits: KeyBenefits;
}): ListFields {
  const known = listFieldsMemo.get(source);
  if (known) return known;
  const { costShare, complete } = planCostShareOf(source.deductible, source.moop, source.keyBenefits);
  const fields: ListFields = {
    deductible: { individual: source.deductible.individual, family: source.deductible.family },
    moop: { individual: source.moop.individual, family: source.moop.family },
    keyBenefits: Object.fromEntries(
      KEY_BENEFIT_LABELS.map(([key, label]) => [label, describeTierCostShare(source.keyBenefits[key])]),
    ),
    costShare,
    complete,
    outOfPocket: new Map(),
  };
  if (Object.isFrozen(source)) {
    const { outOfPocket, ...rest } = fields;
    deepFreeze(rest);
    listFieldsMemo.set(source, Object.freeze({ ...rest, outOfPocket }));
    return listFieldsMemo.get(source)!;
  }
  return fields;
}

/** Expected yearly out-of-pocket costs of a plan's cost sharing (the household-independent part of the yearly estimate). */
function outOfPocketOf(
  fields: ListFields,
  key: string,
  usage: UsageLevel,
  coveredMembers: number,
  planYear: number,
): number {
  const known = fields.outOfPocket.get(key);
  if (known !== undefined) return known;
  const amount = expectedOutOfPocket(fields.costShare, usage, coveredMembers, planYear).outOfPocket;
  if (fields.outOfPocket.size < 64) fields.outOfPocket.set(key, amount);
  return amount;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Members whose care the yearly estimate counts: the rated ones (at most three children under 21 are rated, but all use care). */
function ratedMemberCount(members: Member[]): number {
  return members.length;
}

/** Upstream's star rating: `global_rating` when `available`, else none. */
function upstreamQualityRating(value: unknown): number | null {
  const q = value as { available?: unknown; global_rating?: unknown } | null | undefined;
  return q && q.available === true && typeof q.global_rating === "number" && q.global_rating > 0
    ? q.global_rating
    : null;
}

/**
 * The federal branch: a state we hold no plan data for that is not
 * state-based. The specification notes it is not reached in practice; it maps
 * the upstream plan search into the same shape.
 */
async function upstreamPlans(request: PlansRequest, year: number, timing: ServerTiming): Promise<PlansAnswer> {
  const { eligibility, unavailable } = await eligibilityForPricing(request, year, planStore());
  let result;
  try {
    result = await timing.measureAsync("upstream", () =>
      searchPlans({
        household: upstreamHousehold(request),
        place: { countyfips: request.place.county_fips, state: request.place.state, zipcode: request.place.zip },
        market: "Individual",
        year,
        // Price with the estimate this answer reports (full price when it is unavailable), not
        // upstream's own re-estimate from the applicants alone.
        aptc_override: eligibility?.aptc ?? 0,
        ...(eligibility?.csr ? { csr_override: `CSR${eligibility.csr}` as const } : {}),
      }),
    );
  } catch (error) {
    if (isUpstreamFailure(error)) {
      throw new ApiError(
        503,
        "plans_unavailable",
        "Plans for this state come from the federal Marketplace service, which did not answer. Please try again shortly.",
      );
    }
    throw error;
  }
  const plans: PricedPlan[] = result.plans.map((p) => {
    const premium = roundCents(p.premium);
    const withCredit = roundCents(Math.max(0, p.premium_w_credit ?? premium));
    const extra = p as Record<string, unknown>;
    const firstAmount = (list: unknown) =>
      Array.isArray(list) && list.length > 0 && typeof (list[0] as { amount?: unknown }).amount === "number"
        ? (list[0] as { amount: number }).amount
        : null;
    const yearly = roundCents(withCredit * 12 + 0);
    return {
      id: p.id,
      name: p.name,
      issuer: { id: String(p.issuer?.id ?? ""), name: p.issuer?.name ?? "" },
      metal_level: p.metal_level,
      type: p.type ?? null,
      hsa_eligible: extra.hsa_eligible === true,
      premium,
      premium_w_credit: withCredit,
      credit_applied: roundCents(premium - withCredit),
      ehb_premium: roundCents(p.ehb_premium ?? premium),
      tobacco_surcharge: 0,
      csr_variant: null,
      variant_id: p.id,
      deductible: { individual: firstAmount(extra.deductibles), family: null },
      moop: { individual: firstAmount(extra.moops), family: null },
      key_benefits: {},
      quality_rating: upstreamQualityRating(extra.quality_rating),
      estimated_yearly_cost: yearly,
      estimated_yearly_cost_complete: false,
    };
  });
  return plansAnswer(request, {
    year,
    source: "upstream",
    ratingArea: null,
    eligibility,
    unavailable,
    plans: listOfAnswers(plans),
  });
}
