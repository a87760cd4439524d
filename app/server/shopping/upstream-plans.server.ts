import { roundCents } from "../../domain/pricing";
import type { Language } from "../../i18n/i18n";
import type { PlansRequest } from "../../schemas/shopping";
import { planStore } from "../plan-store/plan-store.server";
import { ApiError } from "../platform/api.server";
import type { ServerTiming } from "../platform/server-timing.server";
import { isUpstreamFailure, searchPlans } from "../upstream/client.server";
import { eligibilityForPricing } from "./eligibility.server";
import { householdDecisions, relationshipsOf, upstreamHousehold } from "./household.server";
import { listOfAnswers, plansAnswer, type PlansAnswer, type PricedPlan } from "./plan-list.server";
import { myPlanCostShareOf } from "../../domain/yearly-cost/from-benefits";
import { myYearlyCost } from "../../domain/yearly-cost/my-year";
import { careCoverage, chosenCareOf } from "./my-year.server";

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
export async function upstreamPlans(
  request: PlansRequest,
  year: number,
  timing: ServerTiming,
  lang?: Language,
): Promise<PlansAnswer> {
  const { eligibility, unavailable } = await eligibilityForPricing(request, year, planStore());
  // Only the people plans are priced for are sent, each with the relationship the whole household gave them.
  const household = householdDecisions(request, year);
  const relationships = relationshipsOf(request);
  const priced = {
    ...request,
    household: {
      ...request.household,
      people: household.pricedMembers.map((i) => ({ ...request.household.people[i], relationship: relationships[i] })),
    },
  };
  let result;
  try {
    result = await timing.measureAsync("upstream", () =>
      searchPlans({
        household: upstreamHousehold(priced),
        place: { countyfips: request.place.county_fips, state: request.place.state, zipcode: request.place.zip },
        market: "Individual",
        year,
        // Price with the estimate this answer reports (full price when it is unavailable), not
        // upstream's own re-estimate from the applicants alone.
        aptc_override: eligibility?.aptc_applied ?? 0,
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
  // "Your year" (issue 26): the chosen care's coverage for these plans; their cost sharing beyond the
  // deductible and maximum is not in upstream's answer, so it is priced as unstated (docs/yearly-cost.md).
  const care = await careCoverage(
    chosenCareOf(request),
    result.plans.map((p) => p.id),
    year,
  );
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
      standardized: extra.is_standardized_plan === true,
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
      my_yearly_cost: myYearlyCost({
        monthlyPremiumAfterCredit: withCredit,
        costShare: myPlanCostShareOf(
          { individual: firstAmount(extra.deductibles), family: null },
          { individual: firstAmount(extra.moops), family: null },
          {},
        ),
        usage: request.usage,
        coveredMembers: Math.max(1, household.pricedMembers.length),
        planYear: year,
        drugs: care.drugsOf(p.id),
        doctors: care.doctorsOf(p.id),
      }),
      ranking: { position: 0, reasons: [], changes: [], warnings: [] },
    };
  });
  return plansAnswer(request, {
    year,
    source: "upstream",
    ratingArea: null,
    eligibility,
    unavailable,
    plans: listOfAnswers(plans),
    household,
    lang,
  });
}
