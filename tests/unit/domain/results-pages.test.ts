import { describe, expect, it } from "vitest";
import { listPage, pagerItems, PLANS_PER_PAGE, requestedPage } from "../../../app/domain/results-pages";

const pages = (page: number, count: number) =>
  pagerItems(page, count).map((item) => ("gap" in item ? "…" : item.current ? `[${item.page}]` : String(item.page)));

describe("the pages of the results list", () => {
  it("a page is one upstream coverage call's worth of plans (10 plan ids per call)", () => {
    expect(PLANS_PER_PAGE).toBe(10);
  });

  it("reads the page a URL asks for; anything that is not a whole number from 1 is page 1", () => {
    expect(requestedPage("3")).toBe(3);
    expect(requestedPage(" 2 ")).toBe(2);
    for (const bad of [null, undefined, "", "0", "-1", "2.5", "two", "1e3", "99999"])
      expect(requestedPage(bad)).toBe(1);
    expect(requestedPage("9999")).toBe(1000);
  });

  it("slices 32 plans into pages 1–10, 11–20, 21–30 and 31–32", () => {
    expect(listPage(1, 32)).toEqual({ page: 1, pageCount: 4, offset: 0, limit: 10, first: 1, last: 10 });
    expect(listPage(2, 32)).toEqual({ page: 2, pageCount: 4, offset: 10, limit: 10, first: 11, last: 20 });
    expect(listPage(4, 32)).toEqual({ page: 4, pageCount: 4, offset: 30, limit: 10, first: 31, last: 32 });
  });

  it("a page past the end shows the last page; an exact multiple has no empty last page", () => {
    expect(listPage(9, 32).page).toBe(4);
    expect(listPage(3, 30)).toMatchObject({ page: 3, pageCount: 3, first: 21, last: 30 });
    expect(listPage(4, 30).page).toBe(3);
  });

  it("an empty list (filters that match nothing) is one empty page", () => {
    expect(listPage(3, 0)).toEqual({ page: 1, pageCount: 1, offset: 0, limit: 10, first: 0, last: 0 });
  });

  it("offers no page links for one page and every page up to 7", () => {
    expect(pages(1, 1)).toEqual([]);
    expect(pages(2, 4)).toEqual(["1", "[2]", "3", "4"]);
    expect(pages(7, 7)).toEqual(["1", "2", "3", "4", "5", "6", "[7]"]);
  });

  it("a long list (478 plans, 48 pages): first, last, the current page and its neighbours, gaps between", () => {
    expect(pages(1, 48)).toEqual(["[1]", "2", "…", "48"]);
    expect(pages(20, 48)).toEqual(["1", "…", "19", "[20]", "21", "…", "48"]);
    expect(pages(48, 48)).toEqual(["1", "…", "47", "[48]"]);
  });

  it("a gap of a single page shows that page instead of '…'", () => {
    expect(pages(4, 10)).toEqual(["1", "2", "3", "[4]", "5", "…", "10"]);
    expect(pages(8, 10)).toEqual(["1", "…", "7", "[8]", "9", "10"]);
  });
});
