import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../../app/server/plan-store/plan-store.server";

/**
 * The plan store's least-recently-used caches hold at most `limit` weight
 * (docs/decisions/111, 122): a place's offer weighs its plan count, so the
 * bound is on the rate tables kept alive, not on the number of places.
 */
describe("BoundedMap", () => {
  it("counts each entry as 1 by default and drops the least recently used", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    expect(map.get("a")).toBe(1); // a is now the most recent
    map.set("c", 3);
    expect(map.get("b")).toBeUndefined();
    expect(map.get("a")).toBe(1);
    expect(map.get("c")).toBe(3);
  });

  it("with a weight, keeps the total weight within the limit, oldest out first", () => {
    const map = new BoundedMap<string, number[]>(10, (plans) => plans.length);
    map.set("six", [1, 2, 3, 4, 5, 6]);
    map.set("three", [1, 2, 3]);
    map.set("two", [1, 2]); // 6 + 3 + 2 = 11 > 10: "six" goes
    expect(map.get("six")).toBeUndefined();
    expect(map.get("three")).toHaveLength(3);
    expect(map.get("two")).toHaveLength(2);
    map.set("three", [1]); // replacing an entry replaces its weight: 1 + 2 = 3
    map.set("seven", [1, 2, 3, 4, 5, 6, 7]); // 3 + 7 = 10, within the limit
    expect(map.get("three")).toHaveLength(1);
    expect(map.get("two")).toHaveLength(2);
    expect(map.get("seven")).toHaveLength(7);
  });

  it("keeps the newest entry even when it alone weighs more than the limit", () => {
    const map = new BoundedMap<string, number[]>(3, (plans) => plans.length);
    map.set("small", [1]);
    map.set("huge", [1, 2, 3, 4, 5]);
    expect(map.get("small")).toBeUndefined();
    expect(map.get("huge")).toHaveLength(5);
  });
});
