import { ehbPremium, roundCents } from "../../domain/pricing";
import { ratingTable } from "../../domain/household-price";
import { benchmarkPremium, householdRater, type Member } from "../../domain/rating";
import type { ShoppingRequest } from "../../schemas/shopping";
import { planStore, type PlaceOffer, type PlanStore } from "../plan-store/plan-store.server";
import { cachesPerOwner } from "../platform/cache.server";
import { membersAt, membersOf } from "./household.server";

export interface Benchmark {
  /** Monthly second-lowest-cost silver premium for the household (EHB share, no tobacco), cents. */
  monthly: number;
  ratingArea: string;
  silverPlanCount: number;
}

/**
 * Benchmarks worked out, per store version, place and the people priced (docs/decisions/452): the
 * same people in the same place have the same benchmark, whatever their income, and a plan list
 * for a new household asked for it twice (its own estimate beside upstream's, and the repayment
 * risk). Frozen: callers share them. ~300 bytes an entry.
 */
const benchmarksOf = cachesPerOwner<string, Benchmark | null>({ limit: 10_000 });

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
  const kept = benchmarksOf(store.version());
  // The place as the offer is found, and everything the rating reads of the people (age,
  // relationship, tobacco).
  const key = `${year}|${state}|${county_fips}|${zip}|${JSON.stringify(who)}`;
  const known = kept.get(key);
  if (known !== undefined) return known;
  const benchmark = benchmarkOf(offer, who, state, year);
  kept.set(key, benchmark);
  return benchmark;
}

function benchmarkOf(offer: PlaceOffer, who: Member[], state: string, year: number): Benchmark | null {
  const ratingArea = offer.ratingArea!;
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
  return monthly === null ? null : Object.freeze({ monthly, ratingArea, silverPlanCount: premiums.length });
}
