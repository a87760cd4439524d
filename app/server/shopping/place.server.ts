import type { z } from "zod";
import type { ShoppingRequest, SbeRedirect as SbeRedirectSchema } from "../../schemas/shopping";
import { planStore, type PlanStore, type StateInfo } from "../plan-store/plan-store.server";
import { ApiError } from "../platform/api.server";

/**
 * Where a request's place stands: a county that holds its ZIP, in a state we
 * price from own data, hand over to a state marketplace, or ask upstream about.
 */

export type SbeRedirect = z.infer<typeof SbeRedirectSchema>;

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
