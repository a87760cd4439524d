/**
 * The shopping state as it lives in the URL of /plans, /plans/<planId> and
 * /plans/compare, so a search can be bookmarked, shared and reloaded
 * (docs/decisions/080-shopping-state-in-the-url.md).
 *
 * This module reads and writes query strings only: no zod, no server
 * imports, so page components can build links and hidden form fields with it
 * in the browser too. Validation into a PlansRequest is in
 * shopping-url.server.ts.
 *
 *   /plans?zip=75201&county=48113&state=TX&income=36000&size=1
 *         &age=35&tobacco=no&pregnant=no&rel=self      (one group per person, in order; pregnant=yes|2|3 babies)
 *         &no_medicare=2                                (index of a person told "no premium-free Part A")
 *         &aptc_applied=150                             (credit taken in advance a month; absent: all of it)
 *         &usage=medium&sort=premium&metal=Silver&drug=617318:Lipitor%2020%20mg
 *
 * The filters' part of the state and of the URL is derived from their one
 * description, PLAN_FILTERS (app/domain/plan-filters.ts).
 *
 * Not shopping state: `page=N` (the page of the results list, decision 250),
 * carried by page links and plan links only, so any new search starts at
 * page 1; `compare=ID` (plans ticked for comparison). `sort=coverage` is the
 * results page's own sort (decision 251).
 */
import { isLanguage } from "../i18n/i18n";
import { PLAN_FILTERS, type FilterState, type PlanFilter } from "../domain/plan-filters";
import { RELATIONSHIPS, type Relationship } from "../domain/eligibility/relationship";
import { PREGNANCY_ASKED_AGES } from "../domain/eligibility/household";

export { RELATIONSHIPS, type Relationship } from "../domain/eligibility/relationship";

export interface PersonInput {
  /** As typed: validated later (an empty string is a person row not filled in yet). */
  age: string;
  tobacco: boolean;
  pregnant: boolean;
  /** Babies expected when more than one (the URL's pregnant=2, 3…; pregnant=yes is one). */
  babies?: number;
  /** "" when not chosen yet: the page asks, it never guesses (docs/decisions/210). */
  relationship: Relationship | "";
  /** Told "not eligible for premium-free Medicare Part A" (matters from 65). */
  noMedicare?: boolean;
}

/** A chosen drug (RxCUI) or doctor (NPI) with the name shown on its chip. */
export interface Selection {
  code: string;
  name: string;
  /**
   * A doctor whose specialty the search answered as primary care (family, internal medicine,
   * pediatrics): the yearly cost prices the visits as primary care ones. Kept in the URL as
   * `pcp=<NPI>` (decision 490); without it a doctor is priced as a specialist, the dearer visit.
   */
  primaryCare?: boolean;
}

export interface ShoppingState extends FilterState {
  zip: string;
  state: string;
  county: string;
  year: string;
  income: string;
  size: string;
  people: PersonInput[];
  usage: string;
  sort: string;
  order: string;
  /* …then each filter's field (FilterState), in PLAN_FILTERS' order… */
  drugs: Selection[];
  doctors: Selection[];
  /** The page's language when the URL chose it (`lang=es`): every link and form keeps it (issue 21). */
  lang?: string;
  /** Plan ids ticked for comparison, in the order ticked (kept in the URL so Back and paging keep them). */
  compare: string[];
  /** `aptc_applied`: the monthly credit to take in advance, as typed (docs/decisions/320); absent: all of it. */
  aptcApplied?: string;
  /** `hardship_exemption=yes`: the household holds a hardship exemption (catastrophic plans at any age, decision 313). */
  hardshipExemption?: boolean;
}

/** The schema's limit on people in one request. */
export const MAX_PEOPLE = 20;
/** Drugs and doctors one search may check at once (each is a coverage call per 10 plans). */
export const MAX_SELECTIONS = 10;
const MAX_NAME_LENGTH = 120;

const RXCUI = /^\d{1,10}$/;
const NPI = /^\d{10}$/;

export function emptyState(): ShoppingState {
  return {
    zip: "",
    state: "",
    county: "",
    year: "",
    income: "",
    size: "",
    people: [],
    usage: "",
    sort: "",
    order: "",
    ...clearedFilters(),
    drugs: [],
    doctors: [],
    compare: [],
  };
}

const one = (search: URLSearchParams, name: string) => (search.get(name) ?? "").trim();
const many = (search: URLSearchParams, name: string) => [
  ...new Set(
    search
      .getAll(name)
      .map((v) => v.trim())
      .filter(Boolean),
  ),
];

/**
 * The relationship the page proposes for an added person as their age is typed (JavaScript only;
 * the person can change it): a child under 19, otherwise another relative — the API's rule for a
 * person whose relationship is not given (docs/api.md "Relationships"). "" until the age is a number.
 */
export function proposedRelationship(age: string): Relationship | "" {
  if (!/^\d{1,3}$/.test(age.trim())) return "";
  return Number(age) < 19 ? "child" : "other";
}

/** True when the page asks this age about pregnancy; an age not typed yet is asked too (no JavaScript). */
export function pregnancyAsked(age: string): boolean {
  if (!/^\d{1,3}$/.test(age.trim())) return true;
  return Number(age) >= PREGNANCY_ASKED_AGES[0] && Number(age) <= PREGNANCY_ASKED_AGES[1];
}

/** The URL's pregnant value: no, yes (one baby), or the number of babies when more than one. */
export function pregnancyValue(p: Pick<PersonInput, "pregnant" | "babies">): string {
  if (!p.pregnant) return "no";
  return p.babies !== undefined && p.babies > 1 ? String(p.babies) : "yes";
}

function peopleOf(search: URLSearchParams): PersonInput[] {
  const ages = search.getAll("age").map((a) => a.trim());
  const tobacco = search.getAll("tobacco");
  const pregnant = search.getAll("pregnant");
  const rel = search.getAll("rel");
  // Checkboxes send only when ticked, so they carry the person's index rather than a place in a list.
  const noMedicare = new Set(search.getAll("no_medicare").map((v) => v.trim()));
  return ages.slice(0, MAX_PEOPLE).map((age, i) => {
    const r = (rel[i] ?? "").trim().toLowerCase() as Relationship;
    const pregnancy = (pregnant[i] ?? "").trim().toLowerCase();
    const babies = /^[2-8]$/.test(pregnancy) ? Number(pregnancy) : undefined;
    const person: PersonInput = {
      age,
      tobacco: (tobacco[i] ?? "").trim().toLowerCase() === "yes",
      pregnant: pregnancy === "yes" || babies !== undefined,
      // The first person is "you"; anyone else without a (valid) relationship has not chosen one.
      relationship: i === 0 ? "self" : RELATIONSHIPS.includes(r) && r !== "self" ? r : "",
    };
    if (noMedicare.has(String(i))) person.noMedicare = true;
    if (babies !== undefined) person.babies = babies;
    return person;
  });
}

/** "617318:Lipitor 20 mg" → {code, name}; a malformed code is dropped. */
export function parseSelection(value: string, pattern: RegExp): Selection | null {
  const at = value.indexOf(":");
  const code = (at === -1 ? value : value.slice(0, at)).trim();
  if (!pattern.test(code)) return null;
  const name = (at === -1 ? "" : value.slice(at + 1)).replace(/\s+/g, " ").trim().slice(0, MAX_NAME_LENGTH);
  return { code, name: name || code };
}

function selectionsOf(search: URLSearchParams, param: string, pattern: RegExp): Selection[] {
  const out: Selection[] = [];
  for (const value of search.getAll(param)) {
    const s = parseSelection(value, pattern);
    if (s && !out.some((o) => o.code === s.code)) out.push(s);
    if (out.length === MAX_SELECTIONS) break;
  }
  return out;
}

/** The URL parameter naming a chosen doctor whose visits are primary care ones (decision 490). */
const PRIMARY_CARE_PARAM = "pcp";

function primaryCareMarked(doctors: Selection[], marked: string[]): Selection[] {
  return doctors.map((d) => (marked.includes(d.code) ? { ...d, primaryCare: true } : d));
}

export const isRxcui = (code: string) => RXCUI.test(code);
export const isNpi = (code: string) => NPI.test(code);

// ---------------------------------------------------------------- filters, from PLAN_FILTERS

const FILTERS: readonly PlanFilter[] = PLAN_FILTERS;
const YES = ["1", "yes", "true"];

/** One filter's value in a state (FilterState is keyed by each filter's stateField). */
export function filterValue(state: FilterState, filter: PlanFilter): string[] | boolean | string {
  return (state as unknown as Record<string, string[] | boolean | string>)[filter.stateField];
}

/** A filter's value in the state when it is not set. */
function clearedValue(filter: PlanFilter): string[] | boolean | string {
  return filter.kind === "choices" ? [] : filter.kind === "flag" ? false : "";
}

/** Every filter, not set. */
export function clearedFilters(): FilterState {
  return Object.fromEntries(FILTERS.map((f) => [f.stateField, clearedValue(f)])) as unknown as FilterState;
}

/** Whether a filter is set in the state. */
export function filterIsSet(state: FilterState, filter: PlanFilter): boolean {
  const value = filterValue(state, filter);
  return Array.isArray(value) ? value.length > 0 : value !== false && value !== "";
}

/** Whether any filter is set (the form opens its filters, the results offer "Clear filters"). */
export function filtering(state: FilterState): boolean {
  return FILTERS.some((f) => filterIsSet(state, f));
}

/** "Clear filters": the same search without any filter (place, household, view, drugs and doctors kept). */
export function withoutFilters<S extends FilterState>(state: S): S {
  return { ...state, ...clearedFilters() };
}

function filterStateOf(search: URLSearchParams): FilterState {
  return Object.fromEntries(
    FILTERS.map((f) => [
      f.stateField,
      f.kind === "choices"
        ? many(search, f.urlKey)
        : f.kind === "flag"
          ? YES.includes(one(search, f.urlKey).toLowerCase())
          : one(search, f.urlKey),
    ]),
  ) as unknown as FilterState;
}

/** The shopping state held in a query string (unvalidated apart from shape). */
export function readShoppingState(search: URLSearchParams): ShoppingState {
  return {
    zip: one(search, "zip"),
    state: one(search, "state").toUpperCase(),
    county: one(search, "county"),
    year: one(search, "year"),
    income: one(search, "income"),
    size: one(search, "size"),
    people: peopleOf(search),
    usage: one(search, "usage"),
    sort: one(search, "sort"),
    order: one(search, "order"),
    ...filterStateOf(search),
    drugs: selectionsOf(search, "drug", RXCUI),
    doctors: primaryCareMarked(selectionsOf(search, "npi", NPI), search.getAll(PRIMARY_CARE_PARAM)),
    ...(isLanguage(search.get("lang")) ? { lang: search.get("lang")! } : {}),
    compare: compareIdsOf(search),
    ...(one(search, APTC_APPLIED) ? { aptcApplied: one(search, APTC_APPLIED) } : {}),
    ...(one(search, HARDSHIP_EXEMPTION).toLowerCase() === "yes" ? { hardshipExemption: true } : {}),
  };
}

/** Groups of parameters a form can leave out of its hidden fields because it asks for them itself. */
export type StateGroup = "place" | "household" | "credit" | "view" | "filters" | "drugs" | "doctors" | "compare";

/** The URL parameter of the monthly credit taken in advance (the same name as the API's field). */
export const APTC_APPLIED = "aptc_applied";
/** The URL parameter of a hardship exemption (`yes`; the same name as the API's field). */
export const HARDSHIP_EXEMPTION = "hardship_exemption";

/**
 * The canonical query parameters of a state, in a fixed order, empty values
 * left out (except a person's age, which keeps a row that is not filled in).
 */
export function stateEntries(state: ShoppingState, omit: readonly StateGroup[] = []): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const put = (name: string, value: string) => {
    if (value !== "") out.push([name, value]);
  };
  if (!omit.includes("place")) {
    put("zip", state.zip);
    put("county", state.county);
    put("state", state.state);
    put("year", state.year);
  }
  if (!omit.includes("household")) {
    put("income", state.income);
    put("size", state.size);
    state.people.forEach((p, i) => {
      out.push(["age", p.age]);
      out.push(["tobacco", p.tobacco ? "yes" : "no"]);
      out.push(["pregnant", pregnancyValue(p)]);
      // Kept even when empty: the nth rel belongs to the nth person.
      out.push(["rel", i === 0 ? "self" : p.relationship]);
    });
    state.people.forEach((p, i) => {
      if (p.noMedicare) out.push(["no_medicare", String(i)]);
    });
    if (state.hardshipExemption) out.push([HARDSHIP_EXEMPTION, "yes"]);
  }
  if (!omit.includes("credit")) put(APTC_APPLIED, state.aptcApplied ?? "");
  if (!omit.includes("view")) {
    put("usage", state.usage);
    put("sort", state.sort);
    put("order", state.order);
  }
  if (!omit.includes("filters")) {
    for (const filter of FILTERS) {
      const value = filterValue(state, filter);
      if (filter.kind === "choices") (value as string[]).forEach((v) => put(filter.urlKey, v));
      else if (filter.kind === "flag") put(filter.urlKey, value ? "1" : "");
      else put(filter.urlKey, value as string);
    }
  }
  if (!omit.includes("drugs")) state.drugs.forEach((d) => put("drug", `${d.code}:${d.name}`));
  if (!omit.includes("doctors")) {
    state.doctors.forEach((d) => put("npi", `${d.code}:${d.name}`));
    for (const d of state.doctors) if (d.primaryCare) put(PRIMARY_CARE_PARAM, d.code);
  }
  if (!omit.includes("compare")) state.compare.forEach((id) => put("compare", id));
  // Last, so the language never reorders the search's own parameters.
  if (isLanguage(state.lang)) put("lang", state.lang);
  return out;
}

export function stateQuery(state: ShoppingState, extra: Array<[string, string]> = []): string {
  const search = new URLSearchParams([...stateEntries(state), ...extra]);
  const text = search.toString();
  return text ? `?${text}` : "";
}

export function plansHref(state: ShoppingState, extra: Array<[string, string]> = []): string {
  return `/plans${stateQuery(state, extra)}`;
}

/** A plan's page; `extra` carries what is not shopping state, e.g. the results page it was opened from (`page`). */
export function planHref(planId: string, state: ShoppingState, extra: Array<[string, string]> = []): string {
  return `/plans/${encodeURIComponent(planId)}${stateQuery(state, extra)}`;
}

/** The `page` parameter that brings a link back to page `listPage` of the results (none for the first). */
export function listPageParam(listPage: number | undefined): Array<[string, string]> {
  return listPage && listPage > 1 ? [["page", String(listPage)]] : [];
}

export function compareHref(
  state: ShoppingState,
  planIds: readonly string[],
  extra: Array<[string, string]> = [],
): string {
  return `/plans/compare${stateQuery({ ...state, compare: [...planIds] }, extra)}`;
}

export function withDrug(state: ShoppingState, drug: Selection): ShoppingState {
  if (state.drugs.some((d) => d.code === drug.code) || state.drugs.length >= MAX_SELECTIONS) return state;
  return { ...state, drugs: [...state.drugs, drug] };
}

export function withDoctor(state: ShoppingState, doctor: Selection): ShoppingState {
  if (state.doctors.some((d) => d.code === doctor.code) || state.doctors.length >= MAX_SELECTIONS) return state;
  return { ...state, doctors: [...state.doctors, doctor] };
}

// ---------------------------------------------------------------- comparing plans (docs/decisions/260)

/** The least and most plans the comparison shows side by side. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 3;
/**
 * The most ticks the URL keeps: more than COMPARE_MAX, so a fourth tick stays visible with its
 * message (the shopper unticks one), but bounded so a URL cannot grow without end.
 */
export const MAX_COMPARE_TICKS = 10;
const PLAN_ID = /^[A-Z0-9-]{1,30}$/;

/**
 * Plan ids chosen for comparison: repeated `compare` params (what the form's tick boxes send) or
 * one comma-joined list, in order, no repeats, malformed ids dropped, at most MAX_COMPARE_TICKS.
 */
export function compareIdsOf(search: URLSearchParams): string[] {
  const ids = search
    .getAll("compare")
    .flatMap((v) => v.split(","))
    .map((v) => v.trim().toUpperCase())
    .filter((v) => PLAN_ID.test(v));
  return [...new Set(ids)].slice(0, MAX_COMPARE_TICKS);
}

/** The ticks after one box is ticked (added at the end) or unticked; unchanged when nothing changes. */
export function withCompareTick(ids: readonly string[], planId: string, ticked: boolean): string[] {
  const id = planId.trim().toUpperCase();
  if (ticked) return ids.includes(id) || ids.length >= MAX_COMPARE_TICKS || !PLAN_ID.test(id) ? [...ids] : [...ids, id];
  return ids.filter((i) => i !== id);
}

export type CompareProblem = "too_few" | "too_many";

/** Why a set of ticks cannot be compared yet, or null when it can (2 or 3 plans). */
export function compareProblem(count: number): CompareProblem | null {
  if (count < COMPARE_MIN) return "too_few";
  if (count > COMPARE_MAX) return "too_many";
  return null;
}

/** The submit button's name on the compare form: present, the form asked to compare (docs/decisions/260). */
export const COMPARE_SUBMIT = "compare_go";

/**
 * Whether two /plans URLs differ only in their compare ticks (or not at all): the plan list is the
 * same, so the page need not be priced again when a box is ticked.
 */
export function sameListExceptTicks(a: URLSearchParams, b: URLSearchParams): boolean {
  const rest = (search: URLSearchParams) =>
    [...search.entries()]
      .filter(([key]) => key !== "compare")
      .map(([key, value]) => `${key}=${value}`)
      .join("&");
  return rest(a) === rest(b);
}

/** The view and filter parameters: what the sort-and-filter form's own controls hold. */
export function viewAndFilterKeys(): string[] {
  return ["usage", "sort", "order", ...FILTERS.map((f) => f.urlKey)];
}

/**
 * The values the sort-and-filter form's controls must show for a state (issue 17 item 2: the form is
 * always drawn from the URL, never from what the browser restored): each control's name → its
 * values, with the defaults the list was made with where the URL says nothing (sort, usage).
 */
export function controlValues(state: ShoppingState, defaults: { sort: string; usage: string }): Map<string, string[]> {
  const values = new Map<string, string[]>(viewAndFilterKeys().map((key) => [key, []]));
  for (const [key, value] of stateEntries(state, ["place", "household", "drugs", "doctors", "compare"])) {
    values.get(key)?.push(value);
  }
  if (values.get("sort")!.length === 0) values.set("sort", [defaults.sort]);
  if (values.get("usage")!.length === 0) values.set("usage", [defaults.usage]);
  return values;
}
