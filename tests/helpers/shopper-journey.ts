/**
 * One shopper's journey through the service's routes, in process, as the
 * pages make it (issue 16's measure): ZIP → results (every plan of the county
 * with its price) → two drugs and one doctor searched and added (coverage for
 * the plans listed) → a plan page → compare three plans. Used by
 * tests/integration/upstream/shopper-journeys.test.ts and
 * scripts/journey-upstream-calls.ts (docs/benchmarks.md). Only route modules,
 * so it runs against older commits too.
 */
import * as counties from "../../app/routes/api.counties";
import * as drugsAutocomplete from "../../app/routes/api.drugs.autocomplete";
import * as drugsCovered from "../../app/routes/api.drugs.covered";
import * as plans from "../../app/routes/api.plans";
import * as providersAutocomplete from "../../app/routes/api.providers.autocomplete";
import * as providersCovered from "../../app/routes/api.providers.covered";

type Args = { request: Request; params: Record<string, string | undefined>; context: unknown };
type Route = { loader?: (a: Args) => Promise<Response> | Response; action?: (a: Args) => Promise<Response> | Response };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

async function call(route: Route, path: string, body?: unknown): Promise<Body> {
  const request = new Request(`http://localhost${path}`, {
    method: body === undefined ? "GET" : "POST",
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const handler = body === undefined ? route.loader! : route.action!;
  const response = await handler({ request, params: {}, context: {} });
  return { status: response.status, ...(await response.json()) };
}

export interface JourneyOutcome {
  /** Each answer's `upstream` field (or the estimate's), by step. */
  upstream: Array<{ step: string; upstream: string }>;
  statuses: number[];
}

/** One shopper: `income` and `age` make the household (distinct shoppers ask distinct estimates). */
export async function shopperJourney(shopper: { income: number; age: number; year?: number }): Promise<JourneyOutcome> {
  const outcome: JourneyOutcome = { upstream: [], statuses: [] };
  const note = (step: string, body: Body) => {
    outcome.statuses.push(body.status);
    if (typeof body.upstream === "string") outcome.upstream.push({ step, upstream: body.upstream });
  };
  const year = shopper.year ?? 2027;
  const place = { state: "TX", county_fips: "48113", zip: "75201" };
  const household = { income: shopper.income, household: { people: [{ age: shopper.age }] }, place, year };

  note("counties", await call(counties, "/api/counties?zip=75201"));
  // Results: the whole list, as the results page asks it.
  const list = await call(plans, "/api/plans", { ...household, limit: 500 });
  note("plans", list);
  if (list.eligibility?.upstream) outcome.upstream.push({ step: "eligibility", upstream: list.eligibility.upstream });
  const planIds: string[] = (list.plans ?? []).map((p: Body) => p.id);

  const lipitor = await call(drugsAutocomplete, "/api/drugs/autocomplete", { query: "lipitor", year });
  note("drug search 1", lipitor);
  const metformin = await call(drugsAutocomplete, "/api/drugs/autocomplete", { query: "metformin", year });
  note("drug search 2", metformin);
  const doctor = await call(providersAutocomplete, "/api/providers/autocomplete", { query: "pembrook", zip: "75201" });
  note("doctor search", doctor);
  const rxcuis = [lipitor.drugs?.[0]?.rxcui, metformin.drugs?.[0]?.rxcui].filter(Boolean);
  const npis = [doctor.providers?.[0]?.npi].filter(Boolean);

  const coverage = async (step: string, ids: string[]) => {
    if (ids.length === 0) return;
    if (rxcuis.length) note(step, await call(drugsCovered, "/api/drugs/covered", { rxcuis, plan_ids: ids, year }));
    if (npis.length) note(step, await call(providersCovered, "/api/providers/covered", { npis, plan_ids: ids, year }));
  };
  await coverage("results coverage", planIds);
  // Plan page: the household's price for one plan, and its coverage.
  note("plan page", await call(plans, "/api/plans", { ...household, limit: 500 }));
  await coverage("plan page coverage", planIds.slice(0, 1));
  // Compare: three plans.
  note("compare", await call(plans, "/api/plans", { ...household, limit: 500 }));
  await coverage("compare coverage", planIds.slice(0, 3));
  return outcome;
}
