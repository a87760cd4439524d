/**
 * The plans of one page of the results list, with the drug and doctor
 * coverage the page shows (docs/decisions/250, 251). The list's own sorts
 * price just the page (`limit`/`offset`) and ask coverage for its plans; the
 * results page's own sort "covers my drugs and doctors first" needs coverage
 * for the whole (filtered) list first, then orders it and shows the page.
 */
import type { CoverageValue } from "../../domain/coverage";
import type { Language } from "../../i18n/i18n";
import { orderByCoverage } from "../../domain/coverage-order";
import { EVERY_PLAN } from "../../domain/plan-order";
import { listPage, PLANS_PER_PAGE, type ListPage } from "../../domain/results-pages";
import type { ShoppingState } from "../../lib/shopping-url";
import type { PlansRequest } from "../../schemas/shopping";
import type { PlansAnswer } from "../shopping/plan-list.server";
import { pricePlans } from "../shopping/priced-plans.server";
import {
  doctorCoverageFor,
  drugCoverageFor,
  type CoverageCheck,
  type DoctorCoverageCheck,
  type DrugCoverageCheck,
} from "./page-parts.server";

export interface ResultsList {
  /** `plans` is the page shown; `plan_count` counts every plan that matches. */
  results: PlansAnswer;
  listPage: ListPage;
  drugCoverage: DrugCoverageCheck | null;
  doctorCoverage: DoctorCoverageCheck | null;
}

/** Page `requested` of the list in the request's own sort; coverage for that page's plans only. */
export async function pagedList(
  request: PlansRequest,
  state: ShoppingState,
  requested: number,
  lang?: Language,
): Promise<ResultsList> {
  const wanted = listPage(requested, Number.MAX_SAFE_INTEGER);
  // "Lowest cost for me" needs every plan's coverage; another sort prices the page first, then the
  // page's plans with the chosen drugs and doctors, asking coverage for those plans only (decision 250).
  const cared = (request.drugs?.length ?? 0) > 0 || (request.doctors?.length ?? 0) > 0;
  const pageFirst = cared && request.sort !== "my_yearly_cost";
  const listed = pageFirst ? { ...request, drugs: undefined, doctors: undefined } : request;
  let results = await pricePlans({ ...listed, limit: PLANS_PER_PAGE, offset: wanted.offset }, undefined, { lang });
  const shown = listPage(wanted.page, results.plan_count);
  if (shown.offset !== wanted.offset) {
    // A page past the end of the list (it got shorter since the link was made): the last page.
    results = await pricePlans({ ...listed, limit: PLANS_PER_PAGE, offset: shown.offset }, undefined, { lang });
  }
  if (pageFirst) {
    results = await pricePlans({ ...request, limit: PLANS_PER_PAGE, offset: shown.offset }, undefined, {
      coveragePlanIds: results.plans.map((p) => p.id),
      lang,
    });
  }
  // Coverage for the plans on this page only (issue 16 item 2): one upstream call per list of codes,
  // kept a day per (year, code, plan), so paging back costs nothing.
  const planIds = results.plans.map((p) => p.id);
  const [drugCoverage, doctorCoverage] = await Promise.all([
    drugCoverageFor(state.drugs, planIds, results.year),
    doctorCoverageFor(state.doctors, planIds, results.year),
  ]);
  return { results, listPage: shown, drugCoverage, doctorCoverage };
}

/**
 * Page `requested` of the list ordered by how well each plan covers the chosen
 * drugs and doctors, ties in premium order (docs/decisions/251). Coverage is
 * asked for every plan of the filtered list: one upstream call per 10 plans
 * per list of codes not kept yet.
 */
export async function coverageFirstList(
  request: PlansRequest,
  state: ShoppingState,
  requested: number,
  lang?: Language,
): Promise<ResultsList> {
  const all = await pricePlans({ ...request, sort: "premium", order: "asc", ...EVERY_PLAN }, undefined, { lang });
  const ids = all.plans.map((p) => p.id);
  const [drugs, doctors] = await Promise.all([
    drugCoverageFor(state.drugs, ids, all.year),
    doctorCoverageFor(state.doctors, ids, all.year),
  ]);
  const values = new Map<string, CoverageValue[]>();
  for (const row of [...(drugs?.results ?? []), ...(doctors?.results ?? [])]) {
    const list = values.get(row.plan_id) ?? [];
    list.push(row.coverage);
    values.set(row.plan_id, list);
  }
  const order = orderByCoverage(ids, values);
  const shown = listPage(requested, order.length);
  const pageIds = order.slice(shown.offset, shown.offset + shown.limit);
  const byId = new Map(all.plans.map((p) => [p.id, p]));
  const onPage = new Set(pageIds);
  const forPage = <T extends { plan_id: string }>(check: CoverageCheck<T> | null) =>
    check && { ...check, results: check.results.filter((r) => onPage.has(r.plan_id)) };
  return {
    results: { ...all, plans: pageIds.map((id) => byId.get(id)!), limit: shown.limit, offset: shown.offset },
    listPage: shown,
    drugCoverage: forPage(drugs),
    doctorCoverage: forPage(doctors),
  };
}
