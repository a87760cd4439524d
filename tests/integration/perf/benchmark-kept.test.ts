import { copyFileSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PlanStore } from "../../../app/server/plan-store/plan-store.server";
import { householdBenchmark } from "../../../app/server/shopping/benchmark.server";
import { PlansRequest } from "../../../app/schemas/shopping";
import { TEST_PLAN_STORE } from "../../helpers/server";
import { child, PLACES, self, shoppingBody, spouse, type PersonIn } from "../shopping/helpers";

/**
 * Decision 452: a household's benchmark is worked out once per store version, place and people
 * priced, and shared (frozen) by every household with the same people there, whatever the income.
 */
let dir: string;
let file: string;
let store: PlanStore;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "perf-benchmark-"));
  file = path.join(dir, "plan-store.sqlite");
  copyFileSync(TEST_PLAN_STORE, file);
  store = new PlanStore(file, { checkIntervalMs: 0 });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const request = (people: PersonIn[], income: number, place: (typeof PLACES)[keyof typeof PLACES] = PLACES.dallas) =>
  PlansRequest.parse(shoppingBody(place, people, income));
const family = [self(40), spouse(38), child(10), child(7)];

describe("the household benchmark, kept", () => {
  it("is the same frozen answer for the same people and place at another income, and another for other people", () => {
    const first = householdBenchmark(request(family, 90_001), 2027, store);
    expect(first).not.toBeNull();
    expect(Object.isFrozen(first)).toBe(true);
    expect(householdBenchmark(request(family, 90_002), 2027, store)).toBe(first);
    const older = householdBenchmark(request([self(60), spouse(38), child(10), child(7)], 90_001), 2027, store);
    expect(older!.monthly).toBeGreaterThan(first!.monthly);
    // Tobacco is not rated in the benchmark (26 CFR 1.36B-3(f)): the same amount, kept apart.
    const smoker = householdBenchmark(request([self(40, true), spouse(38), child(10), child(7)], 90_001), 2027, store);
    expect(smoker!.monthly).toBe(first!.monthly);
    // Only the coverage family: another list of members is another benchmark.
    const two = householdBenchmark(request(family, 90_001), 2027, store, [0, 1]);
    expect(two!.monthly).toBeLessThan(first!.monthly);
    // Another place is another benchmark.
    expect(householdBenchmark(request(family, 90_001, PLACES.travisInList), 2027, store)).not.toBe(first);
  });

  it("starts afresh with a new store version (a reseed)", () => {
    const first = householdBenchmark(request(family, 90_001), 2027, store);
    const next = path.join(dir, "next.sqlite");
    copyFileSync(TEST_PLAN_STORE, next);
    renameSync(next, file);
    const after = householdBenchmark(request(family, 90_001), 2027, store);
    expect(after).not.toBe(first);
    expect(after).toEqual(first);
  });
});
