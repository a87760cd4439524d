import { describe, expect, it } from "vitest";
import { StoreCache } from "../../../app/server/plan-store/caches.server";
import type { PlaceOffer, PlanSummary } from "../../../app/server/plan-store/types";

/**
 * The plan store's per-version caches (docs/decisions/111, 122) on the one
 * BoundedCache: a place's offer weighs its plan count, so the bound (16,384
 * plan slots) is on the rate tables the offers keep alive, not on places.
 */
function offer(planCount: number): PlaceOffer {
  const plans = Array.from({ length: planCount }, (_, i) => ({ id: `plan-${i}` }) as unknown as PlanSummary);
  return { ratingArea: "Rating Area 1", plans, rateTables: plans.map(() => null) };
}

describe("plan-store caches", () => {
  it("bound place offers by the plans they hold, the least recently used out first", () => {
    const cache = new StoreCache();
    cache.placeOffers.set("dallas", offer(8_000));
    cache.placeOffers.set("harris", offer(8_000)); // 16,000 of 16,384 slots
    expect(cache.placeOffers.get("dallas")?.plans).toHaveLength(8_000); // dallas now the most recent
    cache.placeOffers.set("travis", offer(1_000)); // 17,000 > 16,384: harris goes
    expect(cache.placeOffers.get("harris")).toBeUndefined();
    expect(cache.placeOffers.get("dallas")?.plans).toHaveLength(8_000);
    expect(cache.placeOffers.get("travis")?.plans).toHaveLength(1_000);
  });

  it("replaces an offer's weight when the offer is replaced", () => {
    const cache = new StoreCache();
    cache.placeOffers.set("dallas", offer(10_000));
    cache.placeOffers.set("dallas", offer(10)); // 10 slots now, not 10,010
    cache.placeOffers.set("harris", offer(16_000)); // 16,010 fits in 16,384
    expect(cache.placeOffers.get("dallas")?.plans).toHaveLength(10);
    expect(cache.placeOffers.get("harris")?.plans).toHaveLength(16_000);
  });

  it("counts a place without plans as one slot, so empty places stay bounded too", () => {
    const cache = new StoreCache();
    for (let i = 0; i < 16_384; i++) cache.placeOffers.set(`empty-${i}`, offer(0));
    expect(cache.placeOffers.size).toBe(16_384);
    cache.placeOffers.set("one-more", offer(0));
    expect(cache.placeOffers.size).toBe(16_384);
    expect(cache.placeOffers.get("empty-0")).toBeUndefined();
  });

  it("keeps 'not in the store' (null) apart from 'not asked yet'", () => {
    const cache = new StoreCache();
    cache.summaries.set("2027|99999XX9999999", null);
    expect(cache.summaries.get("2027|99999XX9999999")).toBeNull();
    expect(cache.summaries.get("2027|11111TX0010001")).toBeUndefined();
  });

  it("hold 50,000 plan summaries and 64 full plan records", () => {
    const cache = new StoreCache();
    for (let i = 0; i < 50_001; i++) cache.summaries.set(`2027|${i}`, null);
    expect(cache.summaries.size).toBe(50_000);
    expect(cache.summaries.get("2027|0")).toBeUndefined();
    for (let i = 0; i < 65; i++) cache.details.set(`2027|${i}`, null);
    expect(cache.details.size).toBe(64);
  });
});
