import { ehbPremium, roundCents } from "../../domain/pricing";
import { ratingTable } from "../../domain/household-price";
import { benchmarkPremium, householdRater } from "../../domain/rating";
import type { ShoppingRequest } from "../../schemas/shopping";
import { planStore, type PlanStore } from "../plan-store/plan-store.server";
import { membersAt, membersOf } from "./household.server";

export interface Benchmark {
  /** Monthly second-lowest-cost silver premium for the household (EHB share, no tobacco), cents. */
  monthly: number;
  ratingArea: string;
  silverPlanCount: number;
}

/**
 * The household's benchmark: the second-lowest-cost silver plan offered in
 * its county (and ZIP, for partial-county service areas), priced for the
 * household (its coverage family) without tobacco surcharges, EHB share only (26 CFR 1.36B-3(e),(f)).
 * Each silver premium is rounded to cents first, exactly as /api/plans shows
 * it, so the credit can be checked against the plan list to the cent.
 */
export function householdBenchmark(
  request: ShoppingRequest,
  year: number,
  store: PlanStore = planStore(),
  /** The people it is for (indexes): the credit's coverage family; default everyone. */
  members?: readonly number[],
): Benchmark | null {
  const { state, county_fips, zip } = request.place;
  const offer = store.placeOffer({ year, state, countyFips: county_fips, zip });
  const ratingArea = offer.ratingArea;
  if (!ratingArea) return null;
  if (!offer.plans.some((p) => p.metalLevel === "Silver")) return null;
  const who = members ? membersAt(request, members) : membersOf(request);
  const rate = householdRater(who, state, year, { excludeTobaccoSurcharge: true });
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
