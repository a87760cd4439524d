import type { z } from "zod";
import type { County, CountiesResponse } from "../../schemas/shopping";
import { planStore } from "../plan-store/plan-store.server";
import { ApiError } from "../platform/api.server";
import { countiesByZip, isUpstreamFailure } from "../upstream/client.server";
import { sbeRedirectFor } from "./place.server";
import { resolvePlanYear } from "./plan-year.server";
import { stateForZipPrefix } from "../../domain/zip-prefix";

/** GET /api/counties: the counties of a ZIP code (the answer's shape is the schema's). */
export type CountyAnswer = z.infer<typeof County>;
export type CountiesAnswer = z.infer<typeof CountiesResponse>;

/**
 * Counties for a ZIP, largest share first, from own data; only a ZIP absent
 * from own data goes to the upstream look-up. `state` narrows a ZIP that
 * crosses a state line.
 */
export async function lookUpCounties(input: { zip: string; state?: string; year?: number }): Promise<CountiesAnswer> {
  const store = planStore();
  const year = resolvePlanYear(input.year, store);
  let source: "own" | "upstream" = "own";
  let prefixState: string | null = null;
  let rows: Array<{ fips: string; name: string; state: string; share: number | null }> = store
    .countiesForZip(input.zip)
    .map((c) => ({ fips: c.countyFips, name: c.countyName, state: c.state, share: c.share }));
  if (rows.length === 0) {
    source = "upstream";
    // A ZIP missing from both ZIP–county lists (a PO-box ZIP such as 30303, a new ZIP): its state from
    // the USPS 3-digit prefix; a state on its own marketplace is handed off, another offers its counties.
    const byPrefix = stateForZipPrefix(input.zip);
    const prefixInfo = byPrefix ? store.state(byPrefix, year) : undefined;
    try {
      const upstream = await countiesByZip(input.zip, year);
      rows = upstream.map((c) => ({ fips: c.fips, name: c.name, state: c.state, share: null }));
    } catch (error) {
      if (!isUpstreamFailure(error)) throw error;
      if (!sbeRedirectFor(prefixInfo)) {
        throw new ApiError(
          503,
          "county_lookup_unavailable",
          "We could not look up this ZIP code right now: it is not in our own data and the federal look-up is unavailable. Please try again shortly.",
        );
      }
    }
    if (rows.length === 0 && byPrefix && prefixInfo && (!input.state || input.state === byPrefix)) {
      prefixState = byPrefix;
      const redirect = sbeRedirectFor(prefixInfo);
      if (redirect)
        return { zip: input.zip, year, counties: [], source, sbeRedirect: redirect, zip_prefix_state: byPrefix };
      rows = store
        .countiesOfState(byPrefix)
        .map((c) => ({ fips: c.countyFips, name: c.countyName, state: c.state, share: null }));
    }
  }
  if (input.state) rows = rows.filter((r) => r.state === input.state);
  const counties = rows.map((r) => {
    const info = store.state(r.state, year);
    return { ...r, owned_data: Boolean(info?.ownedData), sbeRedirect: sbeRedirectFor(info) };
  });
  const allSbe = counties.length > 0 && counties.every((c) => c.sbeRedirect);
  return {
    zip: input.zip,
    year,
    counties,
    source,
    sbeRedirect: allSbe ? counties[0].sbeRedirect : null,
    zip_prefix_state: prefixState,
  };
}
