import { describe, expect, it } from "vitest";
import { firstInOrder } from "../../../app/domain/first-in-order";

/**
 * firstInOrder must give exactly the head of a full sort (the plan list's
 * pages depend on it), whatever the input order, page size or ties in the
 * first key, as long as the comparator is a strict total order.
 */

// A small deterministic generator, so a failure can be replayed.
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Plan = { id: string; premium: number; deductible: number | null };

// The plan sort's shape: a key that may be unknown (last), ties by premium, then by id.
const byDeductible = (a: Plan, b: Plan) => {
  if (a.deductible === null || b.deductible === null)
    return (a.deductible === null ? 1 : 0) - (b.deductible === null ? 1 : 0) || a.id.localeCompare(b.id);
  return a.deductible - b.deductible || a.premium - b.premium || a.id.localeCompare(b.id);
};

function plans(n: number, next: () => number): Plan[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `P${String(Math.floor(next() * 1e6)).padStart(6, "0")}-${i}`,
    premium: Math.round(next() * 20) * 25, // few distinct premiums: many ties
    deductible: next() < 0.1 ? null : Math.round(next() * 8) * 500,
  }));
}

describe("firstInOrder", () => {
  it("is the head of the full sort for every page size, on lists with many ties and unknowns", () => {
    const next = random(20261121);
    for (const n of [0, 1, 2, 3, 7, 50, 97, 478]) {
      const list = plans(n, next);
      const sorted = [...list].sort(byDeductible);
      for (const k of [0, 1, 2, 5, 10, 49, 50, 51, Math.floor(n / 2), n - 1, n, n + 10]) {
        if (k < 0) continue;
        expect(firstInOrder(list, k, byDeductible), `n=${n} k=${k}`).toEqual(sorted.slice(0, k));
      }
    }
  });

  it("does not depend on the order it is given the items in", () => {
    const next = random(7);
    const list = plans(300, next);
    const expected = [...list].sort(byDeductible).slice(0, 50);
    for (let round = 0; round < 5; round++) {
      const shuffled = [...list].sort(() => next() - 0.5);
      expect(firstInOrder(shuffled, 50, byDeductible)).toEqual(expected);
    }
    // Already sorted and reversed inputs (the heap's best and worst cases).
    expect(firstInOrder([...list].sort(byDeductible), 50, byDeductible)).toEqual(expected);
    expect(firstInOrder([...list].sort(byDeductible).reverse(), 50, byDeductible)).toEqual(expected);
  });

  it("leaves its input as it was", () => {
    const list = [5, 3, 9, 1, 7, 2, 8];
    firstInOrder(list, 2, (a, b) => a - b);
    firstInOrder(list, 7, (a, b) => a - b);
    expect(list).toEqual([5, 3, 9, 1, 7, 2, 8]);
    expect(firstInOrder(list, 3, (a, b) => b - a)).toEqual([9, 8, 7]);
  });

  it("needs fewer comparisons than a full sort for a page of 50 out of 478", () => {
    const next = random(42);
    const list = plans(478, next);
    let heapComparisons = 0;
    firstInOrder(list, 50, (a, b) => (heapComparisons++, byDeductible(a, b)));
    let sortComparisons = 0;
    [...list].sort((a, b) => (sortComparisons++, byDeductible(a, b)));
    expect(heapComparisons).toBeLessThan(sortComparisons / 2);
  });
});
