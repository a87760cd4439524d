import { Form } from "@remix-run/react";
import { PLAN_FILTERS, type ChoicesFilter, type FilterOptions, type PlanFilter } from "../../domain/plan-filters";
import { filtering as anyFilterSet, filterValue, type ShoppingState } from "../../lib/shopping-url";
import { StateFields } from "./state-fields";
import { SORT_LABELS, USAGE_LABELS, USAGE_SHORT } from "./format";
import { COVERAGE_SORT } from "../../domain/coverage-order";

/** A choices filter's options: what the plans sold here offer, in the words the form shows. */
function choicesOf(filter: ChoicesFilter, options: FilterOptions): Array<{ value: string; words: string }> {
  const offered = options[filter.options];
  return offered.map((o) =>
    typeof o === "string" ? { value: o, words: filter.optionWords?.[o] ?? o } : { value: o.id, words: o.name },
  );
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

function FilterField({ filter, state }: { filter: PlanFilter; state: ShoppingState }) {
  const value = filterValue(state, filter);
  if (filter.kind === "flag") {
    return (
      <div className="choice">
        <input type="checkbox" id={filter.urlKey} name={filter.urlKey} value="1" defaultChecked={value === true} />
        <label htmlFor={filter.urlKey}>{filter.label}</label>
      </div>
    );
  }
  return (
    <>
      <label htmlFor={filter.urlKey}>{filter.label}</label>
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
}: {
  filter: ChoicesFilter;
  state: ShoppingState;
  options: FilterOptions;
}) {
  const choices = choicesOf(filter, options);
  if (choices.length < filter.minOptions) return null;
  const chosen = filterValue(state, filter) as string[];
  return (
    <fieldset>
      <legend>{filter.label}</legend>
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
 * Sort, usage level and the plans API's filters, as one GET form. Sort and
 * its button on one row; the usage level and the narrowing filters in a
 * native disclosure (no JavaScript needed), open whenever a filter is set.
 */
export function FiltersForm({ state, options, sort }: { state: ShoppingState; options: FilterOptions; sort: string }) {
  // Ordering by coverage needs a drug or doctor to order by: offered once one is chosen.
  const chosen = state.drugs.length > 0 || state.doctors.length > 0;
  const filtering = anyFilterSet(state);
  return (
    <Form method="get" action="/plans" className="filters" aria-label="Sort and filter plans">
      <StateFields state={state} omit={["view", "filters"]} />
      <div className="filters-row sort-row">
        <div>
          <label htmlFor="sort">Sort plans by</label>
          <select id="sort" name="sort" defaultValue={sort}>
            {SORT_LABELS.filter((s) => s.value !== COVERAGE_SORT || chosen || sort === COVERAGE_SORT).map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Update plans</button>
      </div>
      {/* Usage and the narrowing filters folded (issue 17 item 3: the list starts high on a phone). */}
      <details open={filtering}>
        <summary>
          Filter plans{filtering ? " (filters on)" : ""}{" "}
          <span className="hint-inline">· care use: {USAGE_SHORT[state.usage] ?? "medium"}</span>
        </summary>
        <div className="usage-field">
          <label htmlFor="usage">How much care do you expect to use?</label>
          <select id="usage" name="usage" defaultValue={state.usage || "medium"} aria-describedby="usage-hint">
            {Object.entries(USAGE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <p className="hint" id="usage-hint">
            Used for the estimated yearly cost: premiums plus what you would pay for that much care. Medium is a few
            doctor visits, a specialist, a scan and a monthly generic drug; high adds a brand-name drug, an emergency
            room visit and a hospital stay.
          </p>
        </div>
        {FIELDSETS.map((set) =>
          set.filters[0].kind === "choices" ? (
            <ChoicesFieldset key={set.legend} filter={set.filters[0]} state={state} options={options} />
          ) : (
            <fieldset key={set.legend}>
              <legend>{set.legend}</legend>
              {set.filters.map((filter) => (
                <FilterField key={filter.field} filter={filter} state={state} />
              ))}
            </fieldset>
          ),
        )}
        <button type="submit">Apply filters</button>
      </details>
    </Form>
  );
}
