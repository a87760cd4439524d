import { Form } from "@remix-run/react";
import type { ShoppingState } from "../../lib/shopping-url";
import { StateFields } from "./state-fields";
import { METAL_HINTS, SORT_LABELS, TYPE_HINTS, USAGE_LABELS } from "./format";

export interface FilterOptionsView {
  metals: string[];
  types: string[];
  issuers: Array<{ id: string; name: string }>;
}

/**
 * Sort, usage level and the plans API's filters, as one GET form. The
 * narrowing filters sit in a native disclosure (no JavaScript needed), open
 * whenever one of them is set.
 */
export function FiltersForm({
  state,
  options,
  sort,
}: {
  state: ShoppingState;
  options: FilterOptionsView;
  sort: string;
}) {
  const filtering =
    state.metal.length > 0 ||
    state.type.length > 0 ||
    state.issuer.length > 0 ||
    state.hsa ||
    state.maxPremium !== "" ||
    state.maxDeductible !== "";
  return (
    <Form method="get" action="/plans" className="filters" aria-label="Sort and filter plans">
      <StateFields state={state} omit={["view", "filters"]} />
      <div className="filters-row">
        <div>
          <label htmlFor="sort">Sort plans by</label>
          <select id="sort" name="sort" defaultValue={sort}>
            {SORT_LABELS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div>
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
      </div>
      <details open={filtering}>
        <summary>Filter plans{filtering ? " (filters on)" : ""}</summary>
        <fieldset>
          <legend>Metal level</legend>
          {options.metals.map((m) => (
            <div className="choice" key={m}>
              <input
                type="checkbox"
                id={`metal-${m}`}
                name="metal"
                value={m}
                defaultChecked={state.metal.includes(m)}
              />
              <label htmlFor={`metal-${m}`}>{METAL_HINTS[m] ?? m}</label>
            </div>
          ))}
        </fieldset>
        {options.types.length > 1 ? (
          <fieldset>
            <legend>Plan type</legend>
            {options.types.map((t) => (
              <div className="choice" key={t}>
                <input type="checkbox" id={`type-${t}`} name="type" value={t} defaultChecked={state.type.includes(t)} />
                <label htmlFor={`type-${t}`}>{TYPE_HINTS[t] ?? t}</label>
              </div>
            ))}
          </fieldset>
        ) : null}
        {options.issuers.length > 1 ? (
          <fieldset>
            <legend>Insurance company</legend>
            {options.issuers.map((i) => (
              <div className="choice" key={i.id}>
                <input
                  type="checkbox"
                  id={`issuer-${i.id}`}
                  name="issuer"
                  value={i.id}
                  defaultChecked={state.issuer.includes(i.id)}
                />
                <label htmlFor={`issuer-${i.id}`}>{i.name}</label>
              </div>
            ))}
          </fieldset>
        ) : null}
        <fieldset>
          <legend>Costs and accounts</legend>
          <label htmlFor="max_premium">Highest monthly premium after credit, in dollars</label>
          <input
            id="max_premium"
            name="max_premium"
            inputMode="decimal"
            className="short"
            defaultValue={state.maxPremium}
          />
          <label htmlFor="max_deductible">Highest deductible per person, in dollars</label>
          <input
            id="max_deductible"
            name="max_deductible"
            inputMode="decimal"
            className="short"
            defaultValue={state.maxDeductible}
          />
          <div className="choice">
            <input type="checkbox" id="hsa" name="hsa" value="1" defaultChecked={state.hsa} />
            <label htmlFor="hsa">Only plans that work with a health savings account (HSA)</label>
          </div>
        </fieldset>
      </details>
      <button type="submit">Update plans</button>
    </Form>
  );
}
