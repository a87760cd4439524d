/**
 * The per-store-version caches of the plan-store reader
 * (docs/decisions/111-plan-store-caches.md, 122): what one store version
 * answers the same way every time, kept with its handle, so that a
 * swapped-in store starts with empty caches and the old ones go with the old
 * handle. All are least-recently-used, on the service's one BoundedCache.
 */
import { BoundedCache } from "../platform/cache.server";
import type { CountyMatch, PlaceOffer, PlanDetail, PlanSummary, RateTable, StateInfo } from "./types";

// Bounds of the per-store-version caches (docs/decisions/111-plan-store-caches.md):
// a county's list (hundreds of plans) and its rate tables must fit, the whole
// nation's rate tables (54,000 at national scale, ~3.5 KB each) need not.
export const SUMMARY_CACHE_ENTRIES = 50_000;
const OFFERED_CACHE_ENTRIES = 4_096;
const RATE_TABLE_CACHE_ENTRIES = 16_384;
const PLAN_DETAIL_CACHE_ENTRIES = 64;
// Place offers hold their rate tables: bounded by the plans they list, so the
// tables they keep alive beyond RATE_TABLE_CACHE_ENTRIES stay as many again at most.
// (One offer listing more plans than this would not be kept at all; the largest
// county lists 478.)
const PLACE_OFFER_PLAN_SLOTS = 16_384;
const COUNTY_CACHE_ENTRIES = 16_384;
const STATE_CACHE_ENTRIES = 1_024;

/**
 * Each cache is made on first use: lru-cache reserves a count-bounded cache's
 * slots up front (the six together ~2 MB, ~10–20 ms), which a store version
 * that only answers /api/health, or only counties, should not pay.
 */
export class StoreCache {
  years: number[] | undefined;
  #summaries?: BoundedCache<string, PlanSummary | null>;
  #offered?: BoundedCache<string, readonly PlanSummary[]>;
  #placeOffers?: BoundedCache<string, PlaceOffer>;
  #rateTables?: BoundedCache<string, RateTable | null>;
  #states?: BoundedCache<string, StateInfo | null>;
  #countiesForZip?: BoundedCache<string, CountyMatch[]>;
  #details?: BoundedCache<string, PlanDetail | null>;

  /** `${year}|${planId}` → the plan's list summary (null: not in the store). */
  get summaries() {
    return (this.#summaries ??= new BoundedCache({ limit: SUMMARY_CACHE_ENTRIES }));
  }
  /** `${year}|${state}|${county}|${zip}` → the plans offered there, by plan id. */
  get offered() {
    return (this.#offered ??= new BoundedCache({ limit: OFFERED_CACHE_ENTRIES }));
  }
  /** `${year}|${state}|${county}|${zip}` → the plans offered there with their rate tables (see placeOffer). */
  get placeOffers() {
    return (this.#placeOffers ??= new BoundedCache({
      limit: PLACE_OFFER_PLAN_SLOTS,
      weigh: (offer) => offer.plans.length,
    }));
  }
  /** `${year}|${ratingArea}|${planId}` → the plan's rate table there (null: no rates there). */
  get rateTables() {
    return (this.#rateTables ??= new BoundedCache({ limit: RATE_TABLE_CACHE_ENTRIES }));
  }
  /** `${year}|${state}` → the state's marketplace (null: not in the store). */
  get states() {
    return (this.#states ??= new BoundedCache({ limit: STATE_CACHE_ENTRIES }));
  }
  /** ZIP → its counties (an unknown ZIP too: [], so a scan for unknown ZIPs stays bounded). */
  get countiesForZip() {
    return (this.#countiesForZip ??= new BoundedCache({ limit: COUNTY_CACHE_ENTRIES }));
  }
  /** `${year}|${planId}` → the full record without the area-dependent premium. */
  get details() {
    return (this.#details ??= new BoundedCache({ limit: PLAN_DETAIL_CACHE_ENTRIES }));
  }
}
