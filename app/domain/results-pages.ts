// The pages of the results list on /plans (issue 17 item 3, issue 16 item 2;
// docs/decisions/250-results-list-paged.md): which page a URL asks for, which
// part of the sorted list it shows, and the page links offered.

import { MAX_PLAN_IDS_PER_UPSTREAM_CALL } from "./coverage";

/**
 * Plans on one page of the results: one upstream coverage call per list of
 * drugs (or doctors) answers a whole page, since the real API takes at most 10
 * plan ids a call; and ten cards are a few screens at phone width.
 */
export const PLANS_PER_PAGE = MAX_PLAN_IDS_PER_UPSTREAM_CALL;

/** The most pages a URL may name (a 1,000-page list would be 10,000 plans: more than any county sells). */
const MAX_PAGE = 1000;

/** The page number a URL's `page` value asks for: a whole number from 1; anything else is page 1. */
export function requestedPage(value: string | null | undefined): number {
  const text = (value ?? "").trim();
  if (!/^\d{1,4}$/.test(text)) return 1;
  const page = Number(text);
  return page >= 1 ? Math.min(page, MAX_PAGE) : 1;
}

/** One page of a list of `total` plans. */
export interface ListPage {
  /** 1-based, within 1..pageCount. */
  page: number;
  /** At least 1 (an empty list is one empty page). */
  pageCount: number;
  offset: number;
  limit: number;
  /** 1-based position of the page's first and last plan ("Plans 11–20 of 32"); 0 and 0 for an empty list. */
  first: number;
  last: number;
}

/**
 * The page shown for a requested page of a list of `total` plans: a page past
 * the end (the list got shorter, a filter was added by hand) shows the last
 * page rather than nothing.
 */
export function listPage(requested: number, total: number, perPage: number = PLANS_PER_PAGE): ListPage {
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(Math.max(1, Math.floor(requested) || 1), pageCount);
  const offset = (page - 1) * perPage;
  const last = Math.min(total, offset + perPage);
  return { page, pageCount, offset, limit: perPage, first: total === 0 ? 0 : offset + 1, last };
}

/** A page link of the pager, or a gap ("…") between page links. */
export type PagerItem = { page: number; current: boolean } | { gap: true };

/**
 * The page links offered: the first and last page, the current one and its
 * neighbours, with a gap where two or more pages are left out; every page
 * when there are at most 7 (a short list needs no gaps). One page: no links at all.
 */
export function pagerItems(page: number, pageCount: number): PagerItem[] {
  if (pageCount <= 1) return [];
  const shown = new Set<number>();
  if (pageCount <= 7) for (let p = 1; p <= pageCount; p++) shown.add(p);
  else for (const p of [1, page - 1, page, page + 1, pageCount]) if (p >= 1 && p <= pageCount) shown.add(p);
  // A gap of one page is that page's link: "…" would take the same room and hide it.
  for (const p of [...shown]) if (!shown.has(p + 1) && shown.has(p + 2)) shown.add(p + 1);
  const pages = [...shown].sort((a, b) => a - b);
  const items: PagerItem[] = [];
  pages.forEach((p, i) => {
    if (i > 0 && p - pages[i - 1] > 1) items.push({ gap: true });
    items.push({ page: p, current: p === page });
  });
  return items;
}
