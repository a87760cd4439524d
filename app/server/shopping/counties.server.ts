import type { z } from "zod";
import type { County, CountiesResponse } from "../../schemas/shopping";
import { planStore } from "../plan-store/plan-store.server";
import { ApiError } from "../platform/api.server";
import { countiesByZip, isUpstreamFailure } from "../upstream/client.server";
import { sbeRedirectFor } from "./place.server";
import { resolvePlanYear } from "./plan-year.server";

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
