import { copyFileSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PlanStore } from "../../../app/server/plan-store/plan-store.server";
import { TEST_PLAN_STORE } from "../../helpers/server";

/**
 * The per-store-version caches of the plan-store reader (docs/decisions/111):
 * repeated questions are answered from the cache, what it hands out is frozen,
 * and a store file swapped in by a reseed starts with empty caches.
 */
const DALLAS = { year: 2027, state: "TX", countyFips: "48113", zip: "75201" };

let dir: string;
let file: string;
let store: PlanStore;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "perf-store-"));
  file = path.join(dir, "plan-store.sqlite");
  copyFileSync(TEST_PLAN_STORE, file);
  // Look for a swapped file on every call, so the swap below is seen at once.
  store = new PlanStore(file, { checkIntervalMs: 0 });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What a reseed does: a new file renamed over the old one (a new inode). */
function swapInCopy(): void {
  const next = path.join(dir, "next.sqlite");
  copyFileSync(TEST_PLAN_STORE, next);
  renameSync(next, file);
}

describe("plan-store caches", () => {
  it("hands out the same frozen plan summaries for the same place, in fresh arrays", () => {
    const first = store.plansOffered(DALLAS);
    const second = store.plansOffered(DALLAS);
    expect(first.length).toBe(32); // service-area-puf.csv: 32 individual medical plans in Dallas County
    expect(second).not.toBe(first); // callers filter and sort their own array
    second.pop();
    expect(store.plansOffered(DALLAS)).toHaveLength(32);
    first.forEach((plan, i) => expect(second[i] ?? first[i]).toBe(plan));
    for (const plan of first) {
      expect(Object.isFrozen(plan)).toBe(true);
      expect(Object.isFrozen(plan.issuer)).toBe(true);
      expect(Object.isFrozen(plan.keyBenefits)).toBe(true);
    }
    // A caller that changed a shared summary would change other requests' answers: it fails loudly.
    expect(() => {
      (first[0] as { name: string }).name = "changed";
    }).toThrow(TypeError);
    expect(store.plansOffered(DALLAS)[0].name).not.toBe("changed");
  });

  it("keeps rate tables and plan records frozen and reuses them", () => {
    const ids = store.plansOffered(DALLAS).map((p) => p.id);
    const area = store.ratingAreaFor(DALLAS)!;
    const tables = store.rateTables({ year: 2027, planIds: ids, ratingArea: area });
    const again = store.rateTables({ year: 2027, planIds: ids, ratingArea: area });
    expect(tables.size).toBe(ids.length);
    for (const id of ids) {
      expect(again.get(id)).toBe(tables.get(id));
      expect(Object.isFrozen(tables.get(id))).toBe(true);
    }
    // The record is cached; only its premium (per rating area) is filled in per call, on a shallow copy.
    const detail = store.planById(ids[0], 2027, { ratingArea: area })!;
    const detailAgain = store.planById(ids[0], 2027, { ratingArea: area })!;
    expect(detail.id).toBe(ids[0]);
    expect(detailAgain).not.toBe(detail);
    expect(detailAgain.puf).toBe(detail.puf);
    expect(Object.isFrozen(detail.puf)).toBe(true);
    expect(detail.premium).toBeGreaterThan(0);
  });

  it("starts a swapped-in store with empty caches: new objects, same answers", () => {
    const before = store.plansOffered(DALLAS);
    const ids = before.map((p) => p.id);
    const area = store.ratingAreaFor(DALLAS)!;
    const tablesBefore = store.rateTables({ year: 2027, planIds: ids, ratingArea: area });
    const countiesBefore = store.countiesForZip("75201");

    swapInCopy();

    const after = store.plansOffered(DALLAS);
    expect(after.map((p) => p.id)).toEqual(ids);
    // Not one object carried over from the old version's cache.
    after.forEach((plan, i) => {
      expect(plan).not.toBe(before[i]);
      expect(plan).toEqual(before[i]);
    });
    const tablesAfter = store.rateTables({ year: 2027, planIds: ids, ratingArea: area });
    for (const id of ids) {
      expect(tablesAfter.get(id)).not.toBe(tablesBefore.get(id));
      expect(tablesAfter.get(id)).toEqual(tablesBefore.get(id));
    }
    expect(store.countiesForZip("75201")).toEqual(countiesBefore);
  });

  it("answers from the swapped-in file, not a cached copy of the old one", () => {
    expect(store.plansOffered(DALLAS)).toHaveLength(32);
    // A reseed whose file has no Dallas plans at all.
    const next = path.join(dir, "next.sqlite");
    copyFileSync(TEST_PLAN_STORE, next);
    const edited = new Database(next);
    edited.prepare("DELETE FROM service_areas").run();
    edited.close();
    renameSync(next, file);
    expect(store.plansOffered(DALLAS)).toHaveLength(0);
  });

  it("answers a place's offer once per store version: the plans offered there with their rate tables, in order", () => {
    const offer = store.placeOffer(DALLAS);
    const plans = store.plansOffered(DALLAS);
    expect(offer.ratingArea).toBe(store.ratingAreaFor(DALLAS));
    expect(offer.plans.map((p) => p.id)).toEqual(plans.map((p) => p.id));
    const tables = store.rateTables({ year: 2027, planIds: plans.map((p) => p.id), ratingArea: offer.ratingArea! });
    offer.plans.forEach((plan, i) => expect(offer.rateTables[i]).toBe(tables.get(plan.id) ?? null));
    expect(offer.rateTables.filter((t) => t !== null).length).toBeGreaterThan(0);
    expect(Object.isFrozen(offer) && Object.isFrozen(offer.plans) && Object.isFrozen(offer.rateTables)).toBe(true);
    expect(store.placeOffer(DALLAS)).toBe(offer);
    swapInCopy();
    const afterReseed = store.placeOffer(DALLAS);
    expect(afterReseed).not.toBe(offer);
    expect(afterReseed.plans.map((p) => p.id)).toEqual(offer.plans.map((p) => p.id));
  });

  it("a place where no plan is sold has an empty offer", () => {
    const nowhere = store.placeOffer({ year: 2027, state: "TX", countyFips: "99999", zip: "75201" });
    expect(nowhere.plans).toEqual([]);
    expect(nowhere.rateTables).toEqual([]);
  });
});
