import { COVERAGE_SORT } from "../../domain/coverage-order";
import type { z } from "zod";
import { PLAN_FILTERS, type FilterState, type PlanFilter, type PlanFilterValues } from "../../domain/plan-filters";
import { filterValue, pregnancyAsked, type ShoppingState } from "../../lib/shopping-url";
import { PlanSort, PlansRequest, UsageLevel, Zip } from "../../schemas/shopping";
import { DEFAULT_LANGUAGE, tFor, type Language } from "../../i18n/i18n";
import type { TFunction } from "i18next";

type SortKey = z.infer<typeof PlanSort>;
type Usage = z.infer<typeof UsageLevel>;

/**
 * The URL's shopping state, validated with the same zod schemas as
 * POST /api/plans. A person reads the messages next to the fields, so they
 * are written for people ("Enter an age from 0 to 120"), keyed by the form
 * field they belong to ("income", "size", "age-0"). A view setting or filter
 * the schema does not accept is dropped and reported, never a 500.
 */

export type FieldErrors = Record<string, string>;

export type HouseholdCheck =
  { ok: true; request: PlansRequest; ignored: string[]; state: ShoppingState } | { ok: false; errors: FieldErrors };

/** "36,000", "$36000.50", " 36000 " → 36000.5; anything else → null. */
export function parseDollars(text: string): number | null {
  const cleaned = text.replace(/[\s$,]/g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return Number(cleaned);
}

export function zipError(zip: string, lang: Language = DEFAULT_LANGUAGE): string | null {
  const t = tFor(lang);
  if (zip === "") return t("results.error.zipEmpty");
  return Zip.safeParse(zip).success ? null : t("results.error.zipInvalid");
}

function sizeMessage(people: number, t: TFunction): string {
  return t("householdCheck.size", { count: people });
}

/**
 * The household rules' own messages (app/domain/eligibility/household.ts, English for the JSON API) in the
 * page's language: each has a catalogue sentence with its numbers taken from the English.
 */
function householdRuleMessage(message: string, t: TFunction): string {
  const adult = /^A household needs an adult \((\d+) or older\)/.exec(message);
  if (adult) return t("householdCheck.needsAdult", { age: adult[1] });
  const spouse = /^A spouse must be at least (\d+)/.exec(message);
  if (spouse) return t("householdCheck.spouseAge", { age: spouse[1] });
  const one = /^Only one person can be "([^"]+)" \(person (\d+) already is\)/.exec(message);
  if (one) {
    const relationship = t(`householdForm.${one[1] === "other" ? "otherRelative" : one[1]}`);
    return t("householdCheck.onlyOne", { relationship, number: one[2] });
  }
  if (/^Household size cannot be smaller/.test(message)) return t("householdCheck.sizeSmaller");
  return `${message}.`;
}

/**
 * The filters of the URL as API filter values, each filter by its kind
 * (PLAN_FILTERS): a value the API would refuse is dropped and named in
 * `ignored`, and `cleaned` keeps only the values used.
 */
function filtersOf(state: ShoppingState, ignored: string[], noun: (key: string) => string) {
  const filters: Record<string, unknown> = {};
  const cleaned: Record<string, unknown> = {};
  for (const filter of PLAN_FILTERS as readonly PlanFilter[]) {
    const value = filterValue(state, filter);
    if (filter.kind === "choices") {
      const values = value as string[];
      const accepts = (v: string) => (filter.values ? filter.values.includes(v) : (filter.urlPattern?.test(v) ?? true));
      const ok = values.filter(accepts);
      for (const v of values) if (!ok.includes(v)) ignored.push(`${noun(filter.field)} "${v}"`);
      if (ok.length) filters[filter.field] = ok;
      cleaned[filter.stateField] = ok;
    } else if (filter.kind === "flag") {
      if (value) filters[filter.field] = true;
    } else {
      const text = value as string;
      if (text === "") continue;
      const amount = parseDollars(text);
      if (amount === null) ignored.push(`${noun(filter.field)} "${text}"`);
      if (amount !== null) filters[filter.field] = amount;
      cleaned[filter.stateField] = amount === null ? "" : text;
    }
  }
  return { filters: filters as PlanFilterValues, cleaned: cleaned as Partial<FilterState> };
}

/** View settings and filters: only values the plans API accepts; the rest are dropped and named. */
export function viewOptionsOf(state: ShoppingState, lang: Language = DEFAULT_LANGUAGE) {
  const ignored: string[] = [];
  // What was dropped, named in the page's language (filters.noun.*: the catalogues hold the filters' words).
  const t = tFor(lang);
  const noun = (key: string) => t(`filters.noun.${key}`);
  // The results page's own sort (docs/decisions/251): the list is priced in premium order, then reordered.
  const coverageFirst = state.sort === COVERAGE_SORT;
  // Once a drug or doctor is chosen, "Lowest cost for me" is the sort unless the URL says otherwise (issue 26).
  const cared = state.drugs.length > 0 || state.doctors.length > 0;
  const sortValue = coverageFirst ? "premium" : state.sort || (cared ? "my_yearly_cost" : "premium");
  const sort = PlanSort.safeParse(sortValue).success ? (sortValue as SortKey) : "premium";
  if (state.sort && !coverageFirst && sort !== state.sort) ignored.push(`${noun("sort")} "${state.sort}"`);
  // Costs sort cheapest first; a quality rating sorts best first unless the URL says otherwise.
  const defaultOrder = sort === "quality_rating" ? "desc" : "asc";
  const order = state.order === "asc" || state.order === "desc" ? state.order : defaultOrder;
  if (state.order && order !== state.order) ignored.push(`${noun("order")} "${state.order}"`);
  const usageValue = state.usage || "medium";
  const usage = UsageLevel.safeParse(usageValue).success ? (usageValue as Usage) : "medium";
  if (state.usage && usage !== state.usage) ignored.push(`${noun("usage")} "${state.usage}"`);
  const { filters, cleaned: usedFilters } = filtersOf(state, ignored, noun);
  /** The state with only the values that were used: hidden fields and links carry no rejected value forward. */
  const cleaned: ShoppingState = {
    ...state,
    sort: coverageFirst ? COVERAGE_SORT : state.sort && sort === state.sort ? state.sort : "",
    order: state.order && order === state.order ? state.order : "",
    usage: state.usage && usage === state.usage ? state.usage : "",
    ...usedFilters,
  };
  return { sort, order: order as "asc" | "desc", usage, filters, ignored, cleaned };
}

/** Whether the household part of the URL has been filled in at all (the form was sent). */
export function householdSubmitted(search: URLSearchParams): boolean {
  return search.has("income") || search.has("age");
}

/**
 * The household and place of the URL as a PlansRequest (the schema of
 * POST /api/plans), or the field errors a person has to fix.
 */
export function checkHousehold(state: ShoppingState, lang: Language = DEFAULT_LANGUAGE): HouseholdCheck {
  const t = tFor(lang);
  const AGE_MESSAGE = t("householdCheck.age");
  const INCOME_MESSAGE = t("householdCheck.income");
  // English keeps the rules' own words (the JSON API's); another language has them from the catalogue.
  const rule = (message: string) => (lang === DEFAULT_LANGUAGE ? `${message}.` : householdRuleMessage(message, t));
  const errors: FieldErrors = {};
  const income = parseDollars(state.income);
  if (income === null) errors.income = INCOME_MESSAGE;
  if (state.people.length === 0) errors["age-0"] = AGE_MESSAGE;
  const ages = state.people.map((p, i) => {
    if (!/^\d{1,3}$/.test(p.age) || Number(p.age) > 120) {
      errors[`age-${i}`] = AGE_MESSAGE;
      return NaN;
    }
    return Number(p.age);
  });
  // An added person's relationship is asked, never guessed (docs/decisions/210).
  state.people.forEach((p, i) => {
    if (i > 0 && p.relationship === "") errors[`rel-${i}`] = t("householdCheck.rel", { number: i + 1 });
  });
  let size: number | undefined;
  if (state.size !== "") {
    const people = Math.max(1, state.people.length);
    if (!/^\d{1,2}$/.test(state.size) || Number(state.size) < people || Number(state.size) > 20)
      errors.size = sizeMessage(people, t);
    else size = Number(state.size);
  }
  let year: number | undefined;
  if (state.year !== "") {
    if (!/^\d{4}$/.test(state.year)) errors.year = t("householdCheck.yearDigits");
    else year = Number(state.year);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const view = viewOptionsOf(state, lang);
  // The credit taken in advance: a typed amount that is not dollars is dropped and named, like a filter.
  const applied = state.aptcApplied ? parseDollars(state.aptcApplied) : null;
  if (state.aptcApplied && applied === null) {
    view.ignored.push(`${t("repaymentRisk.noun")} "${state.aptcApplied}"`);
    delete view.cleaned.aptcApplied;
  }
  const candidate = {
    income,
    household: {
      ...(size !== undefined ? { size } : {}),
      people: state.people.map((p, i) => ({
        age: ages[i],
        uses_tobacco: p.tobacco,
        // The page asks about pregnancy only at ages 12-55 (decision 311): an answer for another age is not one.
        ...(p.pregnant && pregnancyAsked(p.age)
          ? { is_pregnant: true, ...(p.babies ? { expected_babies: p.babies } : {}) }
          : { is_pregnant: false }),
        relationship: i === 0 ? "self" : p.relationship,
        ...(p.noMedicare ? { medicare_eligible: false } : {}),
      })),
    },
    place: { state: state.state, county_fips: state.county, zip: state.zip },
    ...(year !== undefined ? { year } : {}),
    ...(Object.keys(view.filters).length ? { filters: view.filters } : {}),
    ...(applied !== null ? { aptc_applied: applied } : {}),
    ...(state.hardshipExemption ? { hardship_exemption: true } : {}),
    // The chosen drugs and doctors, for each plan's "your year" (issue 26).
    ...(state.drugs.length ? { drugs: state.drugs.map((d) => ({ rxcui: d.code })) } : {}),
    // A doctor the search answered as primary care is priced as one (decision 490); the rest as specialists.
    ...(state.doctors.length
      ? {
          doctors: state.doctors.map((d) => ({ npi: d.code, ...(d.primaryCare ? { specialty: "Primary care" } : {}) })),
        }
      : {}),
    sort: view.sort,
    order: view.order,
    usage: view.usage,
  };
  const parsed = PlansRequest.safeParse(candidate);
  if (parsed.success) return { ok: true, request: parsed.data, ignored: view.ignored, state: view.cleaned };

  for (const issue of parsed.error.issues) {
    const [head, second, third, fourth] = issue.path.map(String);
    let key: string;
    let message: string;
    if (head === "income") [key, message] = ["income", INCOME_MESSAGE];
    else if (head === "household" && second === "people" && third !== undefined && fourth === "age")
      [key, message] = [`age-${third}`, AGE_MESSAGE];
    else if (head === "household" && second === "people" && third !== undefined && fourth === "relationship")
      [key, message] = [`rel-${third}`, rule(issue.message)];
    else if (head === "household" && second === "people" && third === undefined && issue.code === "custom")
      [key, message] = ["age-0", rule(issue.message)];
    else if (head === "household" && second === "size")
      [key, message] = ["size", sizeMessage(Math.max(1, state.people.length), t)];
    else if (head === "household" && second === "people") [key, message] = ["age-0", t("householdCheck.addPerson")];
    else if (head === "place") [key, message] = ["place", t("householdCheck.place")];
    else if (head === "year") [key, message] = ["year", t("householdCheck.year")];
    else [key, message] = ["form", t("householdCheck.form", { what: issue.path.join(".") || "request" })];
    if (!(key in errors)) errors[key] = message;
  }
  return { ok: false, errors };
}
