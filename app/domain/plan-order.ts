// The order of a plan list and its pages (docs/decisions/119, 122, 130): the sort keys a person
// can choose, the tie-breaks that make the order a strict total order, and the page slice.

import { firstInOrder } from "./first-in-order";

/** The sorts the plans API offers (its schema's enum is built from this list). */
export const PLAN_SORTS = ["premium", "deductible", "moop", "yearly_cost", "my_yearly_cost", "quality_rating"] as const;
export type PlanSort = (typeof PLAN_SORTS)[number];
export type SortOrder = "asc" | "desc";

/** What the sort keys read of a priced plan. */
export interface SortFields {
  premium_w_credit: number;
  deductible: { individual: number | null };
  moop: { individual: number | null };
  estimated_yearly_cost: number;
  my_yearly_cost: { typical: number; bad_year: number };
  quality_rating: number | null;
}

/** Each sort's key of a priced plan; null is "not known" (sorted last whatever the order). */
export const SORT_KEYS: Readonly<Record<PlanSort, (plan: SortFields) => number | null>> = {
  premium: (p) => p.premium_w_credit,
  deductible: (p) => p.deductible.individual,
  moop: (p) => p.moop.individual,
  yearly_cost: (p) => p.estimated_yearly_cost,
  my_yearly_cost: (p) => p.my_yearly_cost.typical,
  quality_rating: (p) => p.quality_rating,
};

/** A list the sort reads by index (a priced list keeps its numbers in arrays, not objects). */
export interface SortableList {
  readonly length: number;
  /** Premium after credit by index: the first tie-break. */
  readonly premiumWithCredit: ArrayLike<number>;
  keyOf(sort: PlanSort, i: number): number | null;
  /** A sort's own tie-break before the premium: my_yearly_cost ties by the bad year (issue 26). */
  tieKeyOf?(sort: PlanSort, i: number): number;
  /** The plan id: the last tie-break, which makes the order total (pages never depend on input order). */
  idOf(i: number): string;
}

/**
 * The first `count` of `indexes` in list order for the sort: unknown values
 * last whatever the order, ties by premium after credit, then plan id. Keys
 * are read once per plan, not twice per comparison.
 */
export function sortedIndexes(
  list: SortableList,
  indexes: number[],
  sort: PlanSort,
  order: SortOrder,
  count: number,
): number[] {
  const sign = order === "desc" ? -1 : 1;
  const keys = new Float64Array(list.length);
  const ties = list.tieKeyOf ? new Float64Array(list.length) : null;
  let unknowns = false;
  for (const i of indexes) {
    const key = list.keyOf(sort, i);
    keys[i] = key ?? Number.NaN; // NaN stands for "not known"
    if (key === null) unknowns = true;
    if (ties) ties[i] = list.tieKeyOf!(sort, i);
  }
  const premiums = list.premiumWithCredit;
  const byId = (a: number, b: number) => list.idOf(a).localeCompare(list.idOf(b));
  // The comparators answer -1, 0 or 1: a fractional difference would be a new heap number per comparison.
  const known = (a: number, b: number) => {
    const byKey = keys[a] - keys[b];
    if (byKey !== 0) return byKey < 0 ? -sign : sign;
    const byTie = ties ? ties[a] - ties[b] : 0;
    if (byTie !== 0) return byTie < 0 ? -sign : sign;
    const byPremium = premiums[a] - premiums[b];
    if (byPremium !== 0) return byPremium < 0 ? -1 : 1;
    return byId(a, b);
  };
  if (!unknowns) return firstInOrder(indexes, count, known);
  return firstInOrder(indexes, count, (a, b) => {
    const unknownA = Number.isNaN(keys[a]);
    const unknownB = Number.isNaN(keys[b]);
    if (unknownA || unknownB) return (unknownA === unknownB ? 0 : unknownA ? 1 : -1) || byId(a, b);
    return known(a, b);
  });
}

/** Which part of the sorted, filtered list a request asks for. */
export interface PageRequest {
  limit: number;
  offset: number;
}

/**
 * The whole list as one page, for the site's own pages, which show every plan
 * (the API's limit is 1-500; a server-side caller is not bound by it).
 */
export const EVERY_PLAN: Readonly<PageRequest> = Object.freeze({ limit: Number.MAX_SAFE_INTEGER, offset: 0 });

/**
 * One page of the sorted, filtered list, as the upstream plan search pages it
 * (docs/decisions/119-plan-list-pages.md): the sort is over every plan, the
 * slice after it. An offset past the end is an empty page.
 */
export function pageOf<T>(sorted: readonly T[], request: PageRequest): { limit: number; offset: number; plans: T[] } {
  const { limit, offset } = request;
  return { limit, offset, plans: sorted.slice(offset, offset + limit) };
}
