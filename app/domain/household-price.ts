// A plan's monthly premium for one household, from the plan's rate table: the shopping layer's
// use of the rating rules (./rating.ts), rounded to cents once per plan, as the plan list shows it.

import { roundCents } from "./pricing";
import { householdRater, type Member, type RateTable } from "./rating";

export interface HouseholdPrice {
  /** Monthly premium for the household, tobacco surcharges included (dollars, to the cent). */
  premium: number;
  /** The same premium without tobacco surcharges. */
  premiumWithoutTobacco: number;
  /** The part of `premium` that is tobacco surcharge; the credit never pays it. */
  tobaccoSurcharge: number;
}

/**
 * The rate table in the shape the rating rules read. Community-rated plans
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

/** Members whose care the yearly estimate counts: every covered member (at most three children under 21 are rated, but all use care). */
export function coveredMemberCount(members: readonly Member[]): number {
  return members.length;
}
