import { describe, expect, it } from "vitest";
import { PLAN_FILTERS, passesFilters, type FilterFields, type PlanFilter } from "../../../app/domain/plan-filters";
import {
  filterIsSet,
  filtering,
  filterValue,
  plansHref,
  readShoppingState,
  stateEntries,
  withoutFilters,
  type ShoppingState,
} from "../../../app/lib/shopping-url";
import { PlanFilters } from "../../../app/schemas/shopping";
import { checkHousehold } from "../../../app/server/shopping/shopping-url.server";
import EN from "../../../app/i18n/locales/en.json";

/**
 * The plan filters are described once (PLAN_FILTERS, docs/decisions/140); the
 * URL codec, "Clear filters", the page's API request and the API schema are
 * derived from that list. These tests walk the list, so a filter added to it
 * is checked without a new test.
 */

const FILTERS: readonly PlanFilter[] = PLAN_FILTERS;

/** A value the filter accepts, as the URL's state holds it. */
const stateValue = (f: PlanFilter): string[] | boolean | string =>
  f.kind === "choices" ? [f.values?.[0] ?? "10101"] : f.kind === "flag" ? true : String(f.max);

/** A search with place, household, view, drugs and doctors, and no filter. */
const SEARCH =
  "zip=75201&county=48113&state=TX&year=2027&income=52000&size=3" +
  "&age=40&tobacco=yes&pregnant=no&rel=self&age=38&tobacco=no&pregnant=yes&rel=spouse" +
  "&usage=high&sort=deductible&order=desc&drug=617318:Lipitor%2020%20mg&npi=1234567890:Dr%20Ames";
const base = () => readShoppingState(new URLSearchParams(SEARCH));

const withFilters = (state: ShoppingState, filters: readonly PlanFilter[]): ShoppingState => ({
  ...state,
  ...Object.fromEntries(filters.map((f) => [f.stateField, stateValue(f)])),
});

const readHref = (href: string) => readShoppingState(new URL(href, "http://localhost").searchParams);

describe("Clear filters", () => {
  it("clears every filter of PLAN_FILTERS and keeps place, household, view, drugs and doctors", () => {
    const filtered = withFilters(base(), FILTERS);
    for (const f of FILTERS) expect(filterIsSet(filtered, f), f.field).toBe(true);
    expect(filtering(filtered)).toBe(true);

    const href = plansHref(withoutFilters(filtered));
    const params = new URL(href, "http://localhost").searchParams;
    for (const f of FILTERS) expect(params.has(f.urlKey), f.urlKey).toBe(false);
    const after = readHref(href);
    expect(filtering(after)).toBe(false);
    // Everything but the filters is as it was: the same search, link for link.
    expect(after).toEqual(base());
    expect(href).toBe(plansHref(base()));
  });

  it.each(FILTERS.map((f) => [f.field, f] as const))("clears %s set alone", (_field, filter) => {
    const filtered = withFilters(base(), [filter]);
    expect(filtering(filtered)).toBe(true);
    expect(filtering(withoutFilters(filtered))).toBe(false);
    expect(readHref(plansHref(withoutFilters(filtered)))).toEqual(base());
  });
});

describe("each filter, from its one description", () => {
  it.each(FILTERS.map((f) => [f.field, f] as const))("%s: URL → state → URL → the API request", (_field, f) => {
    const state = withFilters(base(), [f]);
    const entries = stateEntries(state).filter(([key]) => key === f.urlKey);
    expect(entries.length).toBeGreaterThan(0);
    // The URL reads back to the same state.
    expect(filterValue(readHref(plansHref(state)), f)).toEqual(stateValue(f));
    // The page's request to the plans core carries it, and the API schema accepts it.
    const check = checkHousehold(state);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    const value = (check.request.filters as Record<string, unknown> | undefined)?.[f.field];
    expect(value).toEqual(f.kind === "choices" ? stateValue(f) : f.kind === "flag" ? true : f.max);
    expect(PlanFilters.safeParse({ [f.field]: value }).success).toBe(true);
    expect(check.ignored).toEqual([]);
  });

  it("the API schema has exactly the described filters", () => {
    const everything = Object.fromEntries(
      FILTERS.map((f) => [f.field, f.kind === "choices" ? [stateValue(f)].flat() : f.kind === "flag" ? true : f.min]),
    );
    expect(PlanFilters.parse(everything)).toEqual(everything);
    expect(PlanFilters.safeParse({ ...everything, not_a_filter: 1 }).success).toBe(false);
  });

  it("a value the API would refuse is dropped from the page's request and named", () => {
    const state: ShoppingState = {
      ...base(),
      ...Object.fromEntries(
        FILTERS.filter((f) => f.kind !== "flag").map((f) => [f.stateField, f.kind === "choices" ? ["x y"] : "lots"]),
      ),
    };
    const check = checkHousehold(state);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.request.filters).toBeUndefined();
    expect(check.ignored).toEqual(
      // Named in the catalogue's words (filters.noun.<field>): the filter descriptor holds no words.
      FILTERS.filter((f) => f.kind !== "flag").map(
        (f) => `${(EN.filters.noun as Record<string, string>)[f.field]} "${f.kind === "choices" ? "x y" : "lots"}"`,
      ),
    );
    expect(filtering(check.state)).toBe(false);
  });

  it("the plan list's predicate applies each described filter", () => {
    const plan: FilterFields = {
      metal_level: "Bronze",
      type: "PPO",
      issuer: { id: "20202", name: "Other" },
      hsa_eligible: false,
      standardized: false,
      premium_w_credit: 2_000_000,
      deductible: { individual: null },
      quality_rating: null,
    };
    // Set alone, each filter's example value excludes this plan: each is applied.
    for (const f of FILTERS) {
      const value = f.kind === "choices" ? [stateValue(f)].flat() : f.kind === "flag" ? true : f.min;
      expect(passesFilters(plan, { [f.field]: value }), f.field).toBe(false);
    }
  });
});
