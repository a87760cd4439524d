import { describe, expect, it } from "vitest";
import { BoundedCache } from "../../../app/server/platform/cache.server";

describe("BoundedCache", () => {
  it("drops the least recently used entry past its limit", () => {
    const cache = new BoundedCache<string, number>({ limit: 2 });
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // a is now the most recent
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
  });

  it("keeps null answers apart from misses", () => {
    const cache = new BoundedCache<string, string | null>({ limit: 4 });
    cache.set("missing-plan", null);
    expect(cache.get("missing-plan")).toBeNull();
    expect(cache.has("missing-plan")).toBe(true);
    expect(cache.get("never-asked")).toBeUndefined();
  });

  it("bounds total weight when entries weigh more than one", () => {
    const cache = new BoundedCache<string, number[]>({ limit: 5, weigh: (plans) => plans.length });
    cache.set("county-a", [1, 2, 3]);
    cache.set("county-b", [4, 5]);
    expect(cache.size).toBe(2);
    cache.set("county-c", [6, 7]); // 3 + 2 + 2 > 5: county-a goes
    expect(cache.get("county-a")).toBeUndefined();
    expect(cache.get("county-b")).toEqual([4, 5]);
  });

  it("forgets entries after their time to live", () => {
    let now = 10_000;
    const cache = new BoundedCache<string, number>({ limit: 10, ttlMs: 1_000, clock: { now: () => now } });
    cache.set("a", 1);
    now += 999;
    expect(cache.get("a")).toBe(1);
    now += 2;
    expect(cache.get("a")).toBeUndefined();
  });

  it("keeps an entry set with less time left only for that time", () => {
    let now = 10_000;
    const cache = new BoundedCache<string, number>({ limit: 10, ttlMs: 1_000, clock: { now: () => now } });
    cache.set("shared", 1, { ttlMs: 300 }); // copied from Redis with 300 ms left
    cache.set("fresh", 2);
    now += 299;
    expect(cache.get("shared")).toBe(1);
    now += 2;
    expect(cache.get("shared")).toBeUndefined();
    expect(cache.get("fresh")).toBe(2);
  });
});
