import { Form, Link } from "@remix-run/react";
import { useRef, useState, type FormEvent } from "react";
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

export const CHOOSE_A_COUNTY = "Choose a county";
/** The hidden field the county form sends (see shoppingPage). */
export const COUNTY_FORM_FIELD = "county_form";

/** Step 2 for a ZIP in several counties: prices depend on the county. */
export function CountyChoice({
  state,
  zip,
  counties,
  error,
  zipPrefixState = null,
}: {
  state: ShoppingState;
  zip: string;
  counties: CountyOptionView[];
  error: string | null;
  zipPrefixState?: string | null;
}) {
  // With JavaScript the missing choice is caught before the request; without it the server answers the same words.
  const [clientError, setClientError] = useState<string | null>(null);
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const shown = clientError ?? error;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const chosen = event.currentTarget.querySelector<HTMLInputElement>('input[name="county"]:checked');
    if (chosen) return setClientError(null);
    event.preventDefault();
    setClientError(CHOOSE_A_COUNTY);
    fieldset.current?.querySelector<HTMLInputElement>('input[name="county"]')?.focus();
  };
  return (
    <Form method="get" action="/plans" className="step-form" noValidate onSubmit={onSubmit}>
      <input type="hidden" name="zip" value={zip} />
      {/* Tells the server the county question was answered (or skipped): a skip is a field error, not a fresh start. */}
      <input type="hidden" name={COUNTY_FORM_FIELD} value="1" />
      {state.year ? <input type="hidden" name="year" value={state.year} /> : null}
      <StateFields state={state} omit={["place"]} />
      <fieldset ref={fieldset} aria-describedby={shown ? "county-hint county-error" : "county-hint"}>
        <legend>Which county do you live in?</legend>
        <p className="hint" id="county-hint">
          {zipPrefixState
            ? `ZIP code ${zip} is not in our list of ZIP codes by county (a PO-box or new ZIP code). It is in ${zipPrefixState}: choose the county you live in.`
            : `ZIP code ${zip} is in more than one county.`}{" "}
          Plans and prices depend on your county.
        </p>
        {shown ? (
          <p className="error-text" id="county-error">
            <span className="visually-hidden">Error: </span>
            {shown}
          </p>
        ) : null}
        {counties.map((c, i) => (
          <div className="choice" key={c.fips}>
            <input
              type="radio"
              name="county"
              id={`county-${c.fips}`}
              value={c.fips}
              defaultChecked={c.fips === state.county}
              aria-invalid={shown ? true : undefined}
              // After a page load with the error (no JavaScript), the first choice has focus.
              autoFocus={Boolean(error) && i === 0}
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
