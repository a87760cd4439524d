import { Form, Link } from "@remix-run/react";
import type { ShoppingState } from "../../lib/shopping-url";
import { StateFields } from "./state-fields";

export interface CountyOptionView {
  fips: string;
  name: string;
  state: string;
  share: number | null;
  sbe: boolean;
}

function shareWords(share: number | null): string | null {
  if (share === null) return null;
  if (share >= 0.5) return "most addresses in this ZIP code";
  if (share >= 0.1) return "some addresses in this ZIP code";
  return "a few addresses in this ZIP code";
}

/** Step 2 for a ZIP in several counties: prices depend on the county. */
export function CountyChoice({
  state,
  zip,
  counties,
  error,
}: {
  state: ShoppingState;
  zip: string;
  counties: CountyOptionView[];
  error: string | null;
}) {
  return (
    <Form method="get" action="/plans" className="step-form" noValidate>
      <input type="hidden" name="zip" value={zip} />
      {state.year ? <input type="hidden" name="year" value={state.year} /> : null}
      <StateFields state={state} omit={["place"]} />
      <fieldset aria-describedby={error ? "county-hint county-error" : "county-hint"}>
        <legend>Which county do you live in?</legend>
        <p className="hint" id="county-hint">
          ZIP code {zip} is in more than one county. Plans and prices depend on your county.
        </p>
        {error ? (
          <p className="error-text" id="county-error">
            {error}
          </p>
        ) : null}
        {counties.map((c) => (
          <div className="choice" key={c.fips}>
            <input
              type="radio"
              name="county"
              id={`county-${c.fips}`}
              value={c.fips}
              defaultChecked={c.fips === state.county}
            />
            <label htmlFor={`county-${c.fips}`}>
              {c.name}, {c.state}
              {shareWords(c.share) ? <span className="hint-inline"> ({shareWords(c.share)})</span> : null}
              {c.sbe ? <span className="hint-inline"> ({c.state} runs its own marketplace)</span> : null}
            </label>
          </div>
        ))}
      </fieldset>
      <button type="submit">Continue</button>
      <p>
        <Link to="/plans">Use a different ZIP code</Link>
      </p>
    </Form>
  );
}
