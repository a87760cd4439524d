import { parsePlanId } from "../../domain/renewal/renewal";
import { RenewalRequest, type RenewalResponse } from "../../schemas/renewal";
import { searchOwnDrugNames } from "../plan-store/drug-names.server";
import { planStore, PlanStoreUnavailableError } from "../plan-store/plan-store.server";
import { ApiError } from "../platform/api.server";
import { resolvePlanYear } from "../shopping/plan-year.server";
import { plansOfState, type PlanName } from "./crosswalk.server";
import { renewal } from "./renewal.server";

/**
 * What GET /renew shows (issue 27): the form as the visitor filled it, the
 * plans of their state to pick from once a ZIP is known, and the renewal
 * answer (POST /api/renewal's, computed here) or the fields to fix. The form
 * is a GET form, so the page works without JavaScript and its address can be
 * bookmarked.
 */

export type RenewForm = {
  zip: string;
  county: string;
  income: string;
  ages: string;
  plan: string;
  pick: string;
  drugs: string;
};

export type RenewPage = {
  form: RenewForm;
  years: { current: number; next: number } | null;
  counties: Array<{ fips: string; name: string }>;
  planChoices: PlanName[];
  /** Field → message key (renew.errors.*) with its values. */
  errors: Record<string, { key: string; values?: Record<string, string> }>;
  answer: RenewalResponse | null;
  drugsNotFound: string[];
  asked: boolean;
};

const field = (url: URL, name: string, max = 200) => (url.searchParams.get(name) ?? "").trim().slice(0, max);

export async function renewPage(url: URL): Promise<RenewPage> {
  const form: RenewForm = {
    zip: field(url, "zip", 10),
    county: field(url, "county", 10),
    income: field(url, "income", 20),
    ages: field(url, "ages", 100),
    plan: field(url, "plan", 40),
    pick: field(url, "pick", 20),
    drugs: field(url, "drugs", 400),
  };
  const page: RenewPage = {
    form,
    years: null,
    counties: [],
    planChoices: [],
    errors: {},
    answer: null,
    drugsNotFound: [],
    // A ZIP alone is the first step (the plan list for its state), not a request with fields missing.
    asked: ["plan", "pick", "ages", "income"].some((name) => field(url, name) !== ""),
  };
  const store = planStore();
  let next: number;
  try {
    next = resolvePlanYear(undefined, store);
  } catch (error) {
    if (error instanceof ApiError || error instanceof PlanStoreUnavailableError) return page;
    throw error;
  }
  page.years = { current: next - 1, next };

  let state: string | null = null;
  if (/^\d{5}$/.test(form.zip)) {
    const counties = store.countiesForZip(form.zip);
    page.counties = counties.map((c) => ({ fips: c.countyFips, name: c.countyName }));
    const chosen = counties.find((c) => c.countyFips === form.county) ?? (counties.length === 1 ? counties[0] : null);
    if (chosen) {
      form.county = chosen.countyFips;
      state = chosen.state;
      page.planChoices = plansOfState(store, next - 1, state);
    } else if (page.asked || counties.length === 0)
      page.errors.county = { key: counties.length ? "countyChoose" : "zipUnknown" };
  } else if (page.asked || form.zip !== "") page.errors.zip = { key: "zip" };
  if (!page.asked) return page;

  const planText = form.plan || form.pick;
  if (!planText) page.errors.plan = { key: "planMissing" };
  else if (!parsePlanId(planText)) page.errors.plan = { key: "planFormat" };
  const income = Number(form.income.replace(/[$,\s]/g, ""));
  if (form.income === "" || !Number.isFinite(income) || income < 0) page.errors.income = { key: "income" };
  const ages = form.ages
    .split(/[,;\s]+/)
    .filter(Boolean)
    .map((a) => Number(a));
  if (ages.length === 0 || ages.some((a) => !Number.isInteger(a) || a < 0 || a > 120))
    page.errors.ages = { key: "ages" };

  const drugs: Array<{ rxcui: string; name: string }> = [];
  for (const name of form.drugs
    .split(",")
    .map((d) => d.trim())
    .filter(Boolean)
    .slice(0, 20)) {
    const found = searchOwnDrugNames(store, { year: next, text: name, limit: 1 })[0];
    if (found) drugs.push({ rxcui: found.rxcui, name: found.full_name });
    else page.drugsNotFound.push(name);
  }
  if (Object.keys(page.errors).length > 0 || !state) return page;

  const parsed = RenewalRequest.safeParse({
    current_plan_id: planText,
    income: Math.round(income * 100) / 100,
    household: { people: ages.map((age) => ({ age })) },
    place: { state, county_fips: form.county, zip: form.zip },
    drugs,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const top = String(issue.path[0] ?? "form");
      const name = top === "current_plan_id" ? "plan" : top === "household" ? "ages" : top;
      page.errors[name] ??= { key: "invalid", values: { detail: issue.message } };
    }
    return page;
  }
  try {
    page.answer = await renewal(parsed.data);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const fields = error.fields ?? {};
    if ("current_plan_id" in fields)
      page.errors.plan = {
        key: error.status === 404 ? "planUnknown" : "planNotHere",
        values: { detail: String(fields.current_plan_id) },
      };
    else page.errors.form = { key: "invalid", values: { detail: error.message } };
  }
  return page;
}
