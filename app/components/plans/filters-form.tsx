import { Form, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { PLAN_FILTERS, type ChoicesFilter, type FilterOptions, type PlanFilter } from "../../domain/plan-filters";
import {
  controlValues,
  filtering as anyFilterSet,
  filterValue,
  plansHref,
  readShoppingState,
  stateQuery,
  type ShoppingState,
} from "../../lib/shopping-url";
import { StateFields } from "./state-fields";
import { sortLabels, USAGE_LEVELS, usageLabel, usageShort, useWords, type Words } from "./format";
import { COVERAGE_SORT } from "../../domain/coverage-order";
import { inPage, useHydrated } from "./use-hydrated";

/** A choices filter's options: what the plans sold here offer, in the words the form shows. */
function choicesOf(filter: ChoicesFilter, options: FilterOptions, w: Words): Array<{ value: string; words: string }> {
  const offered = options[filter.options];
  return offered.map((o) =>
    typeof o === "string" ? { value: o, words: optionWords(filter, o, w) } : { value: o.id, words: o.name },
  );
}

/** A choice's words in the page's language: filters.option.<value> where the filter words its options. */
function optionWords(filter: ChoicesFilter, value: string, { t, lang }: Words): string {
  const english = filter.optionWords?.[value];
  if (!english || lang === "en") return english ?? value;
  return t(`filters.option.${value.replace(/\s+/g, "")}`);
}

/** A filter's label, and a group's legend, in the page's language (filters.label.<field>, filters.group.*). */
function filterLabel(filter: PlanFilter, { t }: Words): string {
  return t(`filters.label.${filter.field}`);
}

const GROUP_KEYS: Record<string, string> = { "Costs and accounts": "filters.group.costs" };
function legendWords(legend: string, { t }: Words): string {
  return GROUP_KEYS[legend] ? t(GROUP_KEYS[legend]) : legend;
}

/**
 * The form's fieldsets, from PLAN_FILTERS: each choices filter its own (legend: its label), the
 * flag and amount filters one per group, in order of first appearance, amounts before tick boxes.
 */
function fieldsets(): Array<{ legend: string; filters: PlanFilter[] }> {
  const sets: Array<{ legend: string; filters: PlanFilter[] }> = [];
  for (const filter of PLAN_FILTERS as readonly PlanFilter[]) {
    const legend = filter.kind === "choices" ? filter.label : filter.group;
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

/**
 * Sort, usage level and the plans API's filters, as one GET form. Sort and
 * its button on one row; the usage level and the narrowing filters in a
 * native disclosure (no JavaScript needed), open whenever a filter is set.
 *
 * Issue 17 item 2 (docs/decisions/261): the controls always show the state the list was made
 * from. The form has autocomplete="off" (the browser restores no values on Back or reload), and
 * with JavaScript every change of the URL (Back, Forward, a link) writes the URL's values into
 * the controls. With JavaScript a change applies at once (no "Update plans"), keeping the scroll
 * position; without it the button stays.
 */
export function FiltersForm({ state, options, sort }: { state: ShoppingState; options: FilterOptions; sort: string }) {
  // Ordering by coverage needs a drug or doctor to order by: offered once one is chosen.
  const chosen = state.drugs.length > 0 || state.doctors.length > 0;
  const filtering = anyFilterSet(state);
  const w = useWords();
  const { t } = w;
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const form = useRef<HTMLFormElement>(null);
  // Opened by the shopper or by a filter being set; never closed under the shopper's focus when the last filter is unticked.
  const [open, setOpen] = useState(filtering);
  useEffect(() => {
    if (filtering) setOpen(true);
  }, [filtering]);

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
    if (!form.current) return;
    const sent = new URLSearchParams();
    for (const [name, value] of new FormData(form.current)) if (typeof value === "string") sent.append(name, value);
    const changed = event.target instanceof HTMLElement && event.target.id ? event.target.id : null;
    navigate(plansHref(readShoppingState(sent)), { preventScrollReset: true, state: inPage(changed) });
  };
  // A text box applies when its value is committed (Enter or leaving it), not at every keystroke.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === "Enter" && event.target instanceof HTMLInputElement && event.target.type !== "checkbox") {
      event.preventDefault();
      apply(event);
    }
  };
  useEffect(() => {
    const element = form.current;
    if (!element || !hydrated) return;
    element.addEventListener("change", apply);
    return () => element.removeEventListener("change", apply);
  });

  return (
    <Form
      ref={form}
      method="get"
      action="/plans"
      className="filters"
      aria-label={t("filters.ariaLabel")}
      autoComplete="off"
      preventScrollReset
      onKeyDown={hydrated ? onKeyDown : undefined}
      data-auto-apply={hydrated ? "" : undefined}
    >
      <StateFields state={state} omit={["view", "filters"]} />
      <div className="filters-row sort-row">
        <div>
          <label htmlFor="sort">{t("filters.sortBy")}</label>
          <select id="sort" name="sort" defaultValue={sort}>
            {sortLabels(w)
              .filter((s) => s.value !== COVERAGE_SORT || chosen || sort === COVERAGE_SORT)
              .map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
          </select>
        </div>
        {/* With JavaScript a change applies at once: no buttons (issue 17 item 2). */}
        {hydrated ? null : <button type="submit">{t("filters.update")}</button>}
      </div>
      {/* Usage and the narrowing filters folded (issue 17 item 3: the list starts high on a phone). */}
      <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          {t("filters.summary")}
          {filtering ? ` ${t("filters.on")}` : ""}{" "}
          <span className="hint-inline">
            · {t("filters.careUse", { usage: usageShort(state.usage || "medium", w) })}
          </span>
        </summary>
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
        {hydrated ? (
          <p className="hint">{t("filters.autoApply")}</p>
        ) : (
          <button type="submit">{t("filters.apply")}</button>
        )}
      </details>
    </Form>
  );
}
