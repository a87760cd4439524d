import { Form, useNavigate } from "@remix-run/react";
import { RESULTS_ANCHOR } from "./results-anchor";
import { useEffect, useRef, type KeyboardEvent } from "react";
import { PLAN_FILTERS, type ChoicesFilter, type FilterOptions, type PlanFilter } from "../../domain/plan-filters";
import {
  controlValues,
  filterValue,
  plansHref,
  readShoppingState,
  stateQuery,
  type ShoppingState,
} from "../../lib/shopping-url";
import { StateFields } from "./state-fields";
import { useWords, type Words } from "./format";
import { sortLabels, USAGE_LEVELS, usageLabel } from "./plan-words";
import { COVERAGE_SORT } from "../../domain/coverage-order";
import { inPage, useHydrated } from "./use-hydrated";
import filtersWords from "virtual:english/filters";
import { addEnglish, type Catalogue } from "../../i18n/i18n";

// Its words come with it: the results page loads it when it is used (decision 440).
addEnglish({ filters: filtersWords } as Partial<Catalogue>);

/** A choices filter's options: what the plans sold here offer, in the words the form shows. */
function choicesOf(filter: ChoicesFilter, options: FilterOptions, w: Words): Array<{ value: string; words: string }> {
  const offered = options[filter.options];
  return offered.map((o) =>
    typeof o === "string" ? { value: o, words: optionWords(filter, o, w) } : { value: o.id, words: o.name },
  );
}

/**
 * A choice's words, from the catalogue only (issue 28 item 9: the filter descriptor holds keys, the
 * words live in app/i18n): filters.option.<value> where the filter words its options, else the value.
 */
function optionWords(filter: ChoicesFilter, value: string, { t }: Words): string {
  const key = filter.optionKeys?.[value];
  return key ? t(key) : value;
}

/** A filter's label, and a group's legend, in the page's language (filters.label.<field>, filters.group.*). */
function filterLabel(filter: PlanFilter, { t }: Words): string {
  return t(`filters.label.${filter.field}`);
}

/** A flag and amount group's legend: filters.group.<group>. */
function legendWords(group: string, { t }: Words): string {
  return t(`filters.group.${group}`);
}

/**
 * The form's fieldsets, from PLAN_FILTERS: each choices filter its own (legend: its label; keyed by its field), the
 * flag and amount filters one per group, in order of first appearance, amounts before tick boxes.
 */
function fieldsets(): Array<{ legend: string; filters: PlanFilter[] }> {
  const sets: Array<{ legend: string; filters: PlanFilter[] }> = [];
  for (const filter of PLAN_FILTERS as readonly PlanFilter[]) {
    const legend = filter.kind === "choices" ? filter.field : filter.group;
    const set = filter.kind === "choices" ? undefined : sets.find((s) => s.legend === legend);
    if (set) set.filters.push(filter);
    else sets.push({ legend, filters: [filter] });
  }
  for (const set of sets) set.filters.sort((a, b) => Number(a.kind === "flag") - Number(b.kind === "flag"));
  return sets;
}
const FIELDSETS = fieldsets();

function FilterField({ filter, state, w }: { filter: PlanFilter; state: ShoppingState; w: Words }) {
  const value = filterValue(state, filter);
  if (filter.kind === "flag") {
    return (
      <div className="choice">
        <input type="checkbox" id={filter.urlKey} name={filter.urlKey} value="1" defaultChecked={value === true} />
        <label htmlFor={filter.urlKey}>{filterLabel(filter, w)}</label>
      </div>
    );
  }
  return (
    <>
      <label htmlFor={filter.urlKey}>{filterLabel(filter, w)}</label>
      <input
        id={filter.urlKey}
        name={filter.urlKey}
        inputMode="decimal"
        className="short"
        defaultValue={value as string}
      />
    </>
  );
}

function ChoicesFieldset({
  filter,
  state,
  options,
  w,
}: {
  filter: ChoicesFilter;
  state: ShoppingState;
  options: FilterOptions;
  w: Words;
}) {
  const choices = choicesOf(filter, options, w);
  if (choices.length < filter.minOptions) return null;
  const chosen = filterValue(state, filter) as string[];
  return (
    <fieldset>
      <legend>{filterLabel(filter, w)}</legend>
      {choices.map((c) => (
        <div className="choice" key={c.value}>
          <input
            type="checkbox"
            id={`${filter.urlKey}-${c.value}`}
            name={filter.urlKey}
            value={c.value}
            defaultChecked={chosen.includes(c.value)}
          />
          <label htmlFor={`${filter.urlKey}-${c.value}`}>{c.words}</label>
        </div>
      ))}
    </fieldset>
  );
}

/**
 * Make every control of the form show what `values` says (name → values), whatever the browser
 * restored or the shopper left behind: the form is drawn from the URL the list was made from.
 */
export function showValues(form: HTMLFormElement, values: Map<string, string[]>): void {
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement)) continue;
    const wanted = values.get(element.name);
    if (!wanted || (element instanceof HTMLInputElement && element.type === "hidden")) continue;
    if (element instanceof HTMLInputElement && element.type === "checkbox")
      element.checked = wanted.includes(element.value);
    else element.value = wanted[0] ?? "";
  }
}

/** How many filter values are set: "Filters (n)". */
function setCount(state: ShoppingState): number {
  let n = 0;
  for (const filter of PLAN_FILTERS as readonly PlanFilter[]) {
    const value = filterValue(state, filter);
    n += Array.isArray(value) ? value.length : value !== false && value !== "" ? 1 : 0;
  }
  return n;
}

/** Keys that change a closed select's value one step at a time: a change they make waits for Enter or leaving it. */
const STEP_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

export { RESULTS_ANCHOR };

/**
 * Sort, usage level and the plans API's filters, as one GET form in one native disclosure
 * (issue 28 item 3): on a phone a sticky "Filters (n)" line above the list that opens on the
 * panel, ending in "Show N plans" (with JavaScript: closes the panel and goes to the list) or a
 * submit whose action lands on the list (#results, without JavaScript); from 1024 px the panel
 * stands open beside the list (plans.css).
 *
 * Issue 17 item 2 (docs/decisions/261): the controls always show the state the list was made
 * from. The form has autocomplete="off" (the browser restores no values on Back or reload), and
 * with JavaScript every change of the URL (Back, Forward, a link) writes the URL's values into
 * the controls. With JavaScript a change applies at once, keeping the scroll position; a select
 * changed with the arrow keys applies on Enter or when focus leaves it, not at every step.
 */
export function FiltersForm({
  state,
  options,
  sort,
  planCount,
}: {
  state: ShoppingState;
  options: FilterOptions;
  sort: string;
  /** The plans the list holds now: "Show N plans". */
  planCount: number;
}) {
  // Ordering by coverage needs a drug or doctor to order by: offered once one is chosen.
  const chosen = state.drugs.length > 0 || state.doctors.length > 0;
  const count = setCount(state);
  const w = useWords();
  const { t } = w;
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const form = useRef<HTMLFormElement>(null);
  const panel = useRef<HTMLDetailsElement>(null);
  // A select stepped with the keyboard: its change waits (issue 28 item 3).
  const keyed = useRef(false);
  const pending = useRef<Event | null>(null);

  const shown = controlValues(state, { sort, usage: "medium" });
  const shownKey = stateQuery({ ...state, drugs: [], doctors: [], compare: [] });
  useEffect(() => {
    if (form.current) showValues(form.current, shown);
    // shownKey stands for `shown` (a new Map each render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shownKey]);

  // The form's values as the canonical URL (no empty parameters), as a new history entry so Back
  // undoes a change; focus stays on the control changed (docs/decisions/270's state.focus).
  const apply = (event: Event | KeyboardEvent<HTMLFormElement>) => {
    pending.current = null;
    if (!form.current) return;
    const sent = new URLSearchParams();
    for (const [name, value] of new FormData(form.current)) if (typeof value === "string") sent.append(name, value);
    const changed = event.target instanceof HTMLElement && event.target.id ? event.target.id : null;
    navigate(plansHref(readShoppingState(sent)), { preventScrollReset: true, state: inPage(changed) });
  };
  // A text box applies when its value is committed (Enter or leaving it), not at every keystroke;
  // so does a select stepped with the arrow keys.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    const target = event.target;
    if (target instanceof HTMLSelectElement) {
      if (STEP_KEYS.has(event.key) || event.key.length === 1) keyed.current = true;
      if (event.key === "Enter" && pending.current) {
        event.preventDefault();
        apply(pending.current);
      }
      return;
    }
    if (event.key === "Enter" && target instanceof HTMLInputElement && target.type !== "checkbox") {
      event.preventDefault();
      apply(event);
    }
  };
  useEffect(() => {
    const element = form.current;
    if (!element || !hydrated) return;
    const onChange = (event: Event) => {
      if (event.target instanceof HTMLSelectElement && keyed.current) pending.current = event;
      else apply(event);
    };
    const onFocusOut = () => {
      keyed.current = false;
      if (pending.current) apply(pending.current);
    };
    const onPointer = () => {
      keyed.current = false;
    };
    element.addEventListener("change", onChange);
    element.addEventListener("focusout", onFocusOut);
    element.addEventListener("pointerdown", onPointer);
    return () => {
      element.removeEventListener("change", onChange);
      element.removeEventListener("focusout", onFocusOut);
      element.removeEventListener("pointerdown", onPointer);
    };
  });

  // "Show N plans": the panel folds and the list's first plan is in view, its count said.
  const showPlans = () => {
    if (panel.current) panel.current.open = false;
    const list = document.getElementById(RESULTS_ANCHOR);
    list?.scrollIntoView({ block: "start" });
    list?.focus({ preventScroll: true });
  };

  const sortWords = sortLabels(w).find((s) => s.value === sort)?.label ?? sort;
  return (
    <Form
      ref={form}
      method="get"
      action={`/plans#${RESULTS_ANCHOR}`}
      className="filters"
      aria-label={t("filters.ariaLabel")}
      autoComplete="off"
      preventScrollReset
      onKeyDown={hydrated ? onKeyDown : undefined}
      data-auto-apply={hydrated ? "" : undefined}
    >
      <StateFields state={state} omit={["view", "filters"]} />
      <details className="filters-panel" ref={panel} data-testid="filters-panel">
        <summary>
          <span className="filters-title">{t("filters.title", { count })}</span>{" "}
          <span className="hint-inline filters-sorted">· {sortWords}</span>
        </summary>
        <div className="sort-field">
          <label htmlFor="sort">{t("filters.sortBy")}</label>
          <select id="sort" name="sort" defaultValue={sort}>
            {sortLabels(w)
              .filter((s) => (s.value !== COVERAGE_SORT && s.value !== "my_yearly_cost") || chosen || sort === s.value)
              .map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
          </select>
        </div>
        <div className="usage-field">
          <label htmlFor="usage">{t("filters.usageLabel")}</label>
          <select id="usage" name="usage" defaultValue={state.usage || "medium"} aria-describedby="usage-hint">
            {USAGE_LEVELS.map((value) => (
              <option key={value} value={value}>
                {usageLabel(value, w)}
              </option>
            ))}
          </select>
          <p className="hint" id="usage-hint">
            {t("filters.usageHint")}
          </p>
        </div>
        {FIELDSETS.map((set) =>
          set.filters[0].kind === "choices" ? (
            <ChoicesFieldset key={set.legend} filter={set.filters[0]} state={state} options={options} w={w} />
          ) : (
            <fieldset key={set.legend}>
              <legend>{legendWords(set.legend, w)}</legend>
              {set.filters.map((filter) => (
                <FilterField key={filter.field} filter={filter} state={state} w={w} />
              ))}
            </fieldset>
          ),
        )}
        <div className="filters-end">
          {hydrated ? (
            <>
              <p className="hint">{t("filters.autoApply")}</p>
              <button type="button" className="show-plans" onClick={showPlans}>
                {t("filters.showPlans", { count: planCount })}
              </button>
            </>
          ) : (
            <button type="submit" className="show-plans">
              {t("filters.apply")}
            </button>
          )}
        </div>
      </details>
    </Form>
  );
}
