import { upstreamProgrammeFlags } from "../../domain/upstream-flags";
import type { z } from "zod";
import { estimateHousehold } from "../../domain/eligibility/household-eligibility";
import { householdReasons } from "../../domain/eligibility/household-reasons";
import { roundCents } from "../../domain/pricing";
import type { EligibilityResponse, ShoppingRequest } from "../../schemas/shopping";
import { planStore, type PlanStore } from "../plan-store/plan-store.server";
import { ApiError } from "../platform/api.server";
import { BoundedCache } from "../platform/cache.server";
import { readSharedAnswers, sharedAnswersEnabled, writeSharedAnswers } from "../platform/shared-answers.server";
import {
  csrLevel as upstreamCsrLevel,
  eligibilityEstimates,
  isUpstreamFailure,
  type UpstreamRejectedError,
  type UpstreamUnavailableError,
  upstreamProblem,
} from "../upstream/client.server";
import { fallbackReason, ownEstimateInstead, recordEligibilityDrift } from "./eligibility-fallback.server";
import { householdBenchmark } from "./benchmark.server";
import { withRepaymentRisk } from "./repayment-risk.server";
import { householdDecisions, incomeLinesAnswer, upstreamHousehold, type HouseholdDecisions } from "./household.server";
import { checkPlace, marketFor } from "./place.server";
import { checkCoverageDate, resolvePlanYear } from "./plan-year.server";
import { forgetPlanListAnswers } from "./plan-list-cache.server";

/** POST /api/eligibility's answer, and the estimate a plan list prices with (the shape is the schema's). */
export type EligibilityAnswer = z.infer<typeof EligibilityResponse>;
/** The estimate before the credit taken in advance and its repayment risk are added (what is kept and shared). */
export type EligibilityEstimate = Omit<EligibilityAnswer, "aptc_applied" | "repayment_risk">;

/** States whose eligibility the service computes itself (the rest ask upstream). */
const OWN_CALCULATION_STATES = new Set(["NY"]);

/** The answer's per-person and household fields from our own rules (every state). */
function householdFields(d: HouseholdDecisions) {
  const e = d.estimate;
  return {
    fpl_percent: e.fplPercent,
    medicaid_chip_members: e.medicaidChipMembers,
    essential_plan_members: e.essentialPlanMembers,
    medicare_members: e.medicareMembers,
    coverage_family_members: e.coverageFamily,
    income_lines: incomeLinesAnswer(d.lines),
  };
}

/** Our own credit and programme decisions for the household, without the answer's words (what the drift metric compares). */
function ownDecision(request: ShoppingRequest, year: number, store: PlanStore, decided?: HouseholdDecisions) {
  const decisions = decided ?? householdDecisions(request, year);
  const benchmark = householdBenchmark(request, year, store, decisions.pricedMembers);
  return benchmark
    ? { decisions, benchmark, estimate: estimateHousehold(decisions.input, () => benchmark.monthly) }
    : null;
}

function ownEligibility(
  request: ShoppingRequest,
  year: number,
  store: PlanStore,
  decided?: HouseholdDecisions,
): EligibilityEstimate {
  // The benchmark for the people plans are priced for (the coverage family, or everyone when it is
  // empty), so a place without rating area or silver plans is refused whoever the household is.
  const own = ownDecision(request, year, store, decided);
  if (!own) {
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
  const { decisions, benchmark, estimate } = own;
  return {
    year,
    aptc: roundCents(estimate.aptc),
    // A state's own help after the federal credit (docs/decisions/315); absent where none is registered.
    ...(estimate.stateSubsidyMonthly > 0 ? { state_subsidy: roundCents(estimate.stateSubsidyMonthly) } : {}),
    csr: estimate.csr,
    is_medicaid_chip: estimate.isMedicaidChip,
    in_coverage_gap: estimate.inCoverageGap,
    ...(estimate.essentialPlan !== undefined ? { essential_plan: estimate.essentialPlan } : {}),
    ...householdFields({ ...decisions, estimate }),
    benchmark_premium: benchmark.monthly,
    expected_contribution:
      estimate.expectedContributionMonthly === null ? null : roundCents(estimate.expectedContributionMonthly),
    source: "own",
    reasons: householdReasons(estimate, year, request.place.state),
  };
}

/**
 * Upstream eligibility answers, shared and kept a while (docs/decisions/114, 120):
 * identical questions in flight share one upstream call, and a settled answer
 * answers the same question again for ELIGIBILITY_ANSWER_MS. A household's
 * list, its re-sorts, filters, pages and plan pages all ask the same question,
 * the estimate for it does not change from one minute to the next, and
 * upstream allows 200 calls a second per key. Failures are never kept. With
 * REDIS_URL the settled answers are kept on Redis too, for every process
 * (decision 291).
 */
const ELIGIBILITY_ANSWER_MS = 10 * 60_000;
const ELIGIBILITY_ANSWER_ENTRIES = 10_000;
/** The shared cache's namespace (Redis, with REDIS_URL; decision 291). */
const SHARED = "eligibility";
/** Questions asked and not yet answered: each leaves when its call settles, so this needs no bound of its own. */
const eligibilityInFlight = new Map<string, Promise<EligibilityEstimate>>();
const eligibilitySettled = new BoundedCache<string, EligibilityEstimate>({
  limit: ELIGIBILITY_ANSWER_ENTRIES,
  ttlMs: ELIGIBILITY_ANSWER_MS,
  // The wall clock, as the answer's age is: tests move it with vi.spyOn(Date, "now").
  clock: { now: () => Date.now() },
});

/** Each caller gets its own copy: one changing its answer cannot change another's. */
function copyOf(answer: EligibilityEstimate): EligibilityEstimate {
  return {
    ...answer,
    reasons: [...answer.reasons],
    medicaid_chip_members: [...answer.medicaid_chip_members],
    essential_plan_members: [...answer.essential_plan_members],
    medicare_members: [...answer.medicare_members],
    coverage_family_members: [...answer.coverage_family_members],
    income_lines: answer.income_lines.map((l) => ({ ...l })),
  };
}

/**
 * The federal estimate, or, when it cannot be had (outage, busy, key refused,
 * year not published), our own for an owned-data state, marked as ours
 * (docs/decisions/205-own-estimate-when-upstream-cannot.md). Fresh federal
 * estimates are compared with our own (a drift metric).
 */
async function federalOrOwnEligibility(
  request: ShoppingRequest,
  year: number,
  store: PlanStore,
  ownedData: boolean,
  /** The request's household decisions when the caller has made them (the same for the same request and year). */
  decided?: HouseholdDecisions,
): Promise<EligibilityEstimate> {
  let fresh = false;
  try {
    const answer = await upstreamEligibility(request, year, () => (fresh = true), decided);
    if (fresh && ownedData) {
      // The drift metric reads the credit, the CSR level and the Medicaid flag: our own decision
      // without the answer's words and income lines (docs/decisions/450).
      try {
        const own = ownDecision(request, year, store, decided);
        // No own estimate for this place (no benchmark): nothing to compare.
        if (own) {
          const e = own.estimate;
          recordEligibilityDrift(answer, { aptc: roundCents(e.aptc), csr: e.csr, is_medicaid_chip: e.isMedicaidChip });
        }
      } catch {
        // Our own rules cannot estimate here: nothing to compare.
      }
    }
    return answer;
  } catch (error) {
    if (!isUpstreamFailure(error)) throw error;
    const reason = fallbackReason(error);
    if (ownedData && reason) {
      try {
        return ownEstimateInstead(ownEligibility(request, year, store, decided), reason);
      } catch (ownError) {
        if (!(ownError instanceof ApiError)) throw ownError;
        // Our own data cannot estimate here either: the federal failure is the answer.
      }
    }
    throw eligibilityError(error);
  }
}

function upstreamEligibility(
  request: ShoppingRequest,
  year: number,
  onAsk: () => void,
  decided?: HouseholdDecisions,
): Promise<EligibilityEstimate> {
  const key = JSON.stringify([year, request.income, request.household, request.place, request.coverage_date ?? null]);
  const settled = eligibilitySettled.get(key);
  if (settled) return Promise.resolve(copyOf(settled));
  const pending = eligibilityInFlight.get(key);
  if (pending) return pending.then(copyOf);
  const call = (
    sharedAnswersEnabled() ? sharedOrAsk(key, request, year, onAsk, decided) : ask(key, request, year, onAsk, decided)
  ).finally(() => eligibilityInFlight.delete(key));
  eligibilityInFlight.set(key, call);
  call.catch(() => undefined); // a failure is the caller's to handle, and is not kept
  return call;
}

function ask(
  key: string,
  request: ShoppingRequest,
  year: number,
  onAsk: () => void,
  decided?: HouseholdDecisions,
): Promise<EligibilityEstimate> {
  onAsk();
  return askUpstreamEligibility(request, year, decided).then((answer) => {
    eligibilitySettled.set(key, copyOf(answer));
    writeSharedAnswers(SHARED, [[key, answer]], ELIGIBILITY_ANSWER_MS);
    return answer;
  });
}

/** With REDIS_URL: another process's answer to the same question, kept for the time it has left, else ask. */
async function sharedOrAsk(
  key: string,
  request: ShoppingRequest,
  year: number,
  onAsk: () => void,
  decided?: HouseholdDecisions,
): Promise<EligibilityEstimate> {
  const kept = (await readSharedAnswers<EligibilityEstimate>(SHARED, [key])).get(key);
  if (!kept) return ask(key, request, year, onAsk, decided);
  eligibilitySettled.set(key, copyOf(kept.value), { ttlMs: kept.ttlMs });
  return kept.value;
}

/** Forgets every kept eligibility answer (tests that change what upstream says for the same household). */
export function forgetEligibilityAnswers(): void {
  eligibilitySettled.clear();
  forgetPlanListAnswers(); // the lists priced with them
}

async function askUpstreamEligibility(
  request: ShoppingRequest,
  year: number,
  decided?: HouseholdDecisions,
): Promise<EligibilityEstimate> {
  const decisions = decided ?? householdDecisions(request, year);
  const own = decisions.estimate;
  const fields = householdFields(decisions);
  const flags = {
    is_medicaid_chip: own.isMedicaidChip,
    in_coverage_gap: own.inCoverageGap,
    ...(own.essentialPlan !== undefined ? { essential_plan: own.essentialPlan } : {}),
  };
  const answer = (aptc: number, csr: EligibilityEstimate["csr"]): EligibilityEstimate => ({
    year,
    aptc,
    csr,
    ...flags,
    ...fields,
    benchmark_premium: null,
    expected_contribution: null,
    source: "upstream",
    reasons: [],
  });
  // Everyone has other coverage (Medicare, Medicaid/CHIP): no credit to ask upstream for.
  if (own.coverageFamily.length === 0) return answer(0, null);
  // A failure is classified by the caller: our own estimate, or the failure's own code and message.
  const estimates = await eligibilityEstimates({
    household: upstreamHousehold(request, {
      countNonApplicants: true,
      outsideCoverageFamily: {
        medicare: own.medicareMembers,
        other: [...own.medicaidChipMembers, ...own.essentialPlanMembers],
      },
    }),
    place: { countyfips: request.place.county_fips, state: request.place.state, zipcode: request.place.zip },
    year,
  });
  // One estimate per person, in the order sent: the household's credit is the same for everyone in the
  // coverage family, so the largest of theirs is read, whoever is listed first (docs/decisions/211).
  let best: (typeof estimates)[number] | undefined;
  for (const i of own.coverageFamily) {
    const e = estimates[i];
    if (e && (best === undefined || (e.aptc ?? 0) > (best.aptc ?? 0))) best = e;
  }
  if (!best) throw eligibilityUnavailable();
  const result = answer(roundCents(Math.max(0, best.aptc ?? 0)), upstreamCsrLevel(best.csr));
  // Upstream's own flags for the people it estimated still count, person by person, never both for one person.
  Object.assign(result, upstreamProgrammeFlags(own, estimates));
  return result;
}

/**
 * A federal failure our own estimate could not stand in for, by its class
 * (docs/decisions/200): 422 when upstream refused this household, place or
 * year (retrying will not help, docs/decisions/103), 503 when it could not
 * answer. The 503 keeps the code eligibility_unavailable (clients know it).
 */
export function eligibilityError(error: UpstreamUnavailableError | UpstreamRejectedError): ApiError {
  const problem = upstreamProblem(error);
  if (problem.status === 503) {
    return new ApiError(
      503,
      "eligibility_unavailable",
      `The subsidy estimate is unavailable right now: ${problem.message} Plans can still be shown at full price.`,
    );
  }
  return new ApiError(
    422,
    problem.code,
    `The federal Marketplace could not estimate a subsidy here. ${problem.message}`,
    { [problem.field ?? "place"]: problem.message },
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
  const { ownedData } = marketFor(request.place.state, year, store);
  const estimate = OWN_CALCULATION_STATES.has(request.place.state)
    ? ownEligibility(request, year, store)
    : await federalOrOwnEligibility(request, year, store, ownedData);
  return withRepaymentRisk(estimate, request, year, store);
}

/** The eligibility to price with; an upstream outage leaves it null with a reason, and plans at full price. */
export async function eligibilityForPricing(
  request: ShoppingRequest,
  year: number,
  store: PlanStore,
  /** The request's household decisions when the caller has made them (the same for the same request and year). */
  decided?: HouseholdDecisions,
): Promise<{ eligibility: EligibilityAnswer | null; unavailable: string | null }> {
  let estimate: EligibilityEstimate;
  try {
    estimate = OWN_CALCULATION_STATES.has(request.place.state)
      ? ownEligibility(request, year, store, decided)
      : await federalOrOwnEligibility(
          request,
          year,
          store,
          Boolean(store.state(request.place.state, year)?.ownedData),
          decided,
        );
  } catch (error) {
    // No estimate (upstream down, or it refused this place): plans still show, at full price, saying why.
    if (error instanceof ApiError && (error.status === 503 || error.status === 422)) {
      return { eligibility: null, unavailable: error.message };
    }
    throw error;
  }
  // Outside the try: aptc_applied above the credit is the request's mistake (a 400), not an outage.
  return { eligibility: withRepaymentRisk(estimate, request, year, store, decided), unavailable: null };
}
