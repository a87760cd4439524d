import type { PlansRequest } from "../../schemas/shopping";
import { planStore } from "../plan-store/plan-store.server";
import { ServerTiming } from "../platform/server-timing.server";
import type { Language } from "../../i18n/i18n";
import { eligibilityForPricing } from "./eligibility.server";
import { householdDecisions, membersAt } from "./household.server";
import { plansAnswer, type PlansAnswer } from "./plan-list.server";
import { checkPlace, marketFor } from "./place.server";
import { checkCoverageDate, resolvePlanYear } from "./plan-year.server";
import { priceOffer } from "./priced-offer.server";
import { upstreamPlans } from "./upstream-plans.server";
import { careCoverage, chosenCareOf } from "./my-year.server";

/** POST /api/plans: every plan offered to the household's place, priced for it. */
export async function pricePlans(
  request: PlansRequest,
  timing: ServerTiming = new ServerTiming(),
  options: {
    onlyPlanIds?: readonly string[];
    /** Ask the chosen drugs' and doctors' coverage for these plans only (a results page of another sort). */
    coveragePlanIds?: readonly string[];
    /** The language of the ranking's words (the API's Accept-Language, the page's language). */
    lang?: Language;
  } = {},
): Promise<PlansAnswer> {
  const store = planStore();
  const year = resolvePlanYear(request.year, store);
  checkCoverageDate(request, year);
  checkPlace(request, store);
  const { ownedData } = marketFor(request.place.state, year, store);
  if (!ownedData) return upstreamPlans(request, year, timing, options.lang);

  const { state, county_fips, zip } = request.place;
  // Plans are priced for the credit's coverage family: people on Medicare, Medicaid/CHIP or the
  // Essential Plan do not buy one (everyone, when nobody is left; docs/decisions/211).
  const household = householdDecisions(request, year);
  const members = membersAt(request, household.pricedMembers);
  // Eligibility first: an upstream estimate is on its way while the store work below runs.
  const pendingEligibility = timing.measureAsync("eligibility", () =>
    eligibilityForPricing(request, year, store, household),
  );
  pendingEligibility.catch(() => undefined); // awaited below; not "unhandled" if the store work throws first
  const offer = timing.measure("store", () => store.placeOffer({ year, state, countyFips: county_fips, zip }));
  const { ratingArea } = offer;
  // The chosen drugs' and doctors' coverage for every plan sold here (issue 26; decision 334), asked
  // while the eligibility estimate is on its way.
  const care = chosenCareOf(request);
  const sold = offer.plans.filter((_, i) => offer.rateTables[i]).map((p) => p.id);
  const pendingCare = timing.measureAsync("coverage", () =>
    careCoverage(
      care,
      sold.filter((id) => (options.onlyPlanIds ?? options.coveragePlanIds ?? [id]).includes(id)),
      year,
    ),
  );
  pendingCare.catch(() => undefined);
  const { eligibility, unavailable } = await pendingEligibility;
  const coverage = await pendingCare;

  const plans = timing.measure("pricing", () =>
    priceOffer(offer, {
      members,
      state,
      year,
      usage: request.usage,
      eligibility,
      onlyPlanIds: options.onlyPlanIds,
      care: coverage,
    }),
  );
  return plansAnswer(request, {
    year,
    source: "own",
    ratingArea,
    eligibility,
    unavailable,
    plans,
    household,
    lang: options.lang,
  });
}
