import { Form, Link } from "@remix-run/react";
import { useRef, useState, type FormEvent } from "react";
import type { ShoppingState } from "../../lib/shopping-url";
import { StateFields } from "./state-fields";
import { useWords, type Words } from "./format";
import { pathInLanguage } from "../../lib/language-url";
import countyWords from "virtual:english/county";
import { addEnglish, type Catalogue } from "../../i18n/i18n";

// Its words come with it: it loads on the county step only (decision 406).
addEnglish({ county: countyWords } as Partial<Catalogue>);

export interface CountyOptionView {
  fips: string;
  name: string;
  state: string;
  share: number | null;
  sbe: boolean;
}

function shareWords(share: number | null, w: Words): string | null {
  if (share === null) return null;
  if (share >= 0.5) return w.t("county.shareMost");
  if (share >= 0.1) return w.t("county.shareSome");
  return w.t("county.shareFew");
}

import { CHOOSE_A_COUNTY, COUNTY_FORM_FIELD } from "../../lib/page-views";
export { CHOOSE_A_COUNTY, COUNTY_FORM_FIELD } from "../../lib/page-views";

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
  const w = useWords();
  const { t } = w;
  const [clientError, setClientError] = useState<string | null>(null);
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const shown = clientError ?? error;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const chosen = event.currentTarget.querySelector<HTMLInputElement>('input[name="county"]:checked');
    if (chosen) return setClientError(null);
    event.preventDefault();
    setClientError(t("county.choose"));
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
        <legend>{t("county.legend")}</legend>
        <p className="hint" id="county-hint">
          {zipPrefixState ? t("county.notListed", { zip, state: zipPrefixState }) : t("county.several", { zip })}{" "}
          {t("county.depends")}
        </p>
        {shown ? (
          <p className="error-text" id="county-error">
            <span className="visually-hidden">{t("county.errorPrefix")} </span>
            {shown === CHOOSE_A_COUNTY ? t("county.choose") : shown}
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
              {shareWords(c.share, w) ? <span className="hint-inline"> ({shareWords(c.share, w)})</span> : null}
              {c.sbe ? <span className="hint-inline"> ({t("county.ownMarketplace", { state: c.state })})</span> : null}
            </label>
          </div>
        ))}
      </fieldset>
      <button type="submit">{t("county.continue")}</button>
      <p>
        <Link to={pathInLanguage("/plans", w.lang)}>{t("county.otherZip")}</Link>
      </p>
    </Form>
  );
}
