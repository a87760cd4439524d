import { describe, expect, it } from "vitest";
import {
  EVERY_PLAN,
  pageOf,
  PLAN_SORTS,
  SORT_KEYS,
  sortedIndexes,
  type SortableList,
  type SortFields,
} from "../../../app/domain/plan-order";

/** The plan list's order and pages (docs/decisions/119, 122, 130). */

type Plan = SortFields & { id: string };

const plan = (id: string, patch: Partial<SortFields> = {}): Plan => ({
  id,
  premium_w_credit: 300,
  deductible: { individual: 5000 },
  moop: { individual: 9000 },
  estimated_yearly_cost: 6000,
  my_yearly_cost: { typical: 6000, bad_year: 12000 },
  quality_rating: 3,
  ...patch,
});

/** A SortableList over plan objects, as the upstream branch builds one. */
const listOf = (plans: Plan[]): SortableList => ({
  length: plans.length,
  premiumWithCredit: plans.map((p) => p.premium_w_credit),
  keyOf: (sort, i) => SORT_KEYS[sort](plans[i]),
  tieKeyOf: (sort, i) => (sort === "my_yearly_cost" ? plans[i].my_yearly_cost.bad_year : 0),
  idOf: (i) => plans[i].id,
});

const order = (plans: Plan[], sort: (typeof PLAN_SORTS)[number], dir: "asc" | "desc", count = plans.length) =>
  sortedIndexes(
    listOf(plans),
    plans.map((_, i) => i),
    sort,
    dir,
    count,
  ).map((i) => plans[i].id);

describe("sort keys", () => {
  it("read premium after credit, individual deductible and MOOP, yearly cost and stars", () => {
    const p = plan("A", {
      premium_w_credit: 12.5,
      deductible: { individual: 100 },
      moop: { individual: 200 },
      estimated_yearly_cost: 300,
      my_yearly_cost: { typical: 350, bad_year: 900 },
      quality_rating: 4,
    });
    expect(PLAN_SORTS.map((s) => SORT_KEYS[s](p))).toEqual([12.5, 100, 200, 300, 350, 4]);
  });
});

describe("sortedIndexes", () => {
  it("sorts by the key, cheapest first or, desc, dearest first", () => {
    const plans = [
      plan("A", { premium_w_credit: 310 }),
      plan("B", { premium_w_credit: 120.5 }),
      plan("C", { premium_w_credit: 200 }),
    ];
    expect(order(plans, "premium", "asc")).toEqual(["B", "C", "A"]);
    expect(order(plans, "premium", "desc")).toEqual(["A", "C", "B"]);
  });

  it("breaks a tie on the key by premium after credit (always cheapest first), then by plan id", () => {
    const plans = [
      plan("D", { deductible: { individual: 1000 }, premium_w_credit: 400 }),
      plan("C", { deductible: { individual: 1000 }, premium_w_credit: 300 }),
      plan("B", { deductible: { individual: 1000 }, premium_w_credit: 300 }),
      plan("A", { deductible: { individual: 2000 }, premium_w_credit: 100 }),
    ];
    expect(order(plans, "deductible", "asc")).toEqual(["B", "C", "D", "A"]);
    // desc turns the key round, not the tie-breaks.
    expect(order(plans, "deductible", "desc")).toEqual(["A", "B", "C", "D"]);
  });

  it("puts unknown keys last in either order, among themselves by plan id", () => {
    const plans = [
      plan("Z", { quality_rating: null }),
      plan("M", { quality_rating: 2 }),
      plan("A", { quality_rating: null }),
      plan("K", { quality_rating: 5 }),
    ];
    expect(order(plans, "quality_rating", "desc")).toEqual(["K", "M", "A", "Z"]);
    expect(order(plans, "quality_rating", "asc")).toEqual(["M", "K", "A", "Z"]);
  });

  it("asked for the first n, gives the head of the full order", () => {
    const plans = Array.from({ length: 40 }, (_, i) =>
      plan(`P${String(i).padStart(2, "0")}`, { estimated_yearly_cost: (i * 7919) % 13, premium_w_credit: i % 3 }),
    );
    const whole = order(plans, "yearly_cost", "asc");
    for (const n of [0, 1, 5, 39, 40]) expect(order(plans, "yearly_cost", "asc", n)).toEqual(whole.slice(0, n));
  });
});

describe("pageOf", () => {
  const ids = ["P0", "P1", "P2", "P3", "P4", "P5", "P6"];

  it("slices [offset, offset + limit) of the sorted list", () => {
    expect(pageOf(ids, { limit: 3, offset: 0 }).plans).toEqual(["P0", "P1", "P2"]);
    expect(pageOf(ids, { limit: 3, offset: 3 }).plans).toEqual(["P3", "P4", "P5"]);
    // The last page is short: 7 plans, offset 6 → one plan.
    expect(pageOf(ids, { limit: 3, offset: 6 })).toEqual({ limit: 3, offset: 6, plans: ["P6"] });
  });

  it("answers an empty page for an offset at or past the end", () => {
    expect(pageOf(ids, { limit: 3, offset: 7 }).plans).toEqual([]);
    expect(pageOf(ids, { limit: 3, offset: 1000 }).plans).toEqual([]);
  });

  it("EVERY_PLAN is the whole list as one page", () => {
    expect(pageOf(ids, EVERY_PLAN).plans).toEqual(ids);
  });
});

describe("my_yearly_cost (issue 26)", () => {
  it("orders by the typical year, ties by the bad year, then the premium", () => {
    const plans = [
      plan("A", { premium_w_credit: 100, my_yearly_cost: { typical: 5000, bad_year: 9000 } }),
      plan("B", { premium_w_credit: 200, my_yearly_cost: { typical: 4000, bad_year: 12000 } }),
      plan("C", { premium_w_credit: 50, my_yearly_cost: { typical: 5000, bad_year: 8000 } }),
    ];
    expect(order(plans, "my_yearly_cost", "asc")).toEqual(["B", "C", "A"]);
  });
});
