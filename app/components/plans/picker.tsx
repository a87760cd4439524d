import { Form, Link, useNavigate } from "@remix-run/react";
import type { MouseEvent } from "react";
import {
  MAX_SELECTIONS,
  plansHref,
  withDoctor,
  withDrug,
  type Selection,
  type ShoppingState,
} from "../../lib/shopping-url";
import { StateFields } from "./state-fields";
import { useWords } from "./format";
import { chipId, detailLine, type Kind, type PickerOption } from "./picker-options";
import { SuggestInput } from "./suggest-input";
import pickerWords from "virtual:english/picker";
import { addEnglish, type Catalogue } from "../../i18n/i18n";

// Its words come with it: the results page loads it when it is used (decision 440).
addEnglish({ picker: pickerWords } as Partial<Catalogue>);

export {
  chipId,
  doctorOption,
  drugOption,
  providerPlace,
  type DrugSuggestionView,
  type PickerOption,
  type ProviderSuggestionView,
  type SuggestionAnswer,
} from "./picker-options";

/**
 * The drug and doctor pickers of the results page. Without JavaScript: a
 * search form (GET, the query in the URL) and a list of "Add …" links, and
 * chips that are submit buttons of a GET form. With JavaScript the same text
 * box becomes a combobox that asks /api/…/autocomplete on every keystroke
 * from the third character; only the newest answer is shown.
 */

/** The URL parameters of each picker; its words are the catalogue's picker.<kind>.* entries. */
const PARAMS: Record<Kind, { param: string; remove: string }> = {
  drug: { param: "drugq", remove: "remove_drug" },
  doctor: { param: "doctorq", remove: "remove_npi" },
};

export interface SearchView {
  query: string;
  error: string | null;
  unavailable: boolean;
  partial: boolean;
  options: PickerOption[];
}

export function Picker({
  kind,
  state,
  selections,
  search,
  year,
  coverageUnavailable,
}: {
  kind: Kind;
  state: ShoppingState;
  selections: Selection[];
  search: SearchView | null;
  year: number | undefined;
  coverageUnavailable: boolean;
}) {
  const { t } = useWords();
  const text = PARAMS[kind];
  const words = (key: string, values?: Record<string, unknown>) => t(`picker.${kind}.${key}`, values);
  const id = kind === "drug" ? "drugs" : "doctors";
  const add = (option: Selection) =>
    plansHref(kind === "drug" ? withDrug(state, option) : withDoctor(state, option)) + `#${id}`;
  const full = selections.length >= MAX_SELECTIONS;
  // After a choice the search box keeps focus (or, when the list is full and the box is gone,
  // the new chip); after a removal the box or the first chip left (docs/decisions/270).
  const afterAdd = (option: Selection) => ({
    focus: [text.param, chipId(kind, option.code)],
    announce: t("picker.added", { name: option.name }),
  });
  const afterRemove = { focus: [text.param, ...selections.map((s) => chipId(kind, s.code)), `${id}-heading`] };
  const navigate = useNavigate();
  // With JavaScript a chip goes straight to the address without it (the form's GET would be
  // redirected there, and a redirect drops the focus target the navigation carries).
  const remove = (event: MouseEvent<HTMLButtonElement>, chosen: Selection) => {
    event.preventDefault();
    const left = selections.filter((s) => s.code !== chosen.code);
    const next = kind === "drug" ? { ...state, drugs: left } : { ...state, doctors: left };
    navigate(plansHref(next), {
      state: { ...afterRemove, announce: t("picker.removed", { name: chosen.name }) },
      preventScrollReset: true,
    });
  };
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="picker">
      <h2 id={`${id}-heading`}>{words("heading")}</h2>
      <p className="hint">{words("intro")}</p>
      {selections.length > 0 ? (
        <Form method="get" action="/plans" aria-label={words("chosen")}>
          <StateFields state={state} />
          <ul className="chip-list">
            {selections.map((s) => (
              <li key={s.code}>
                <button
                  type="submit"
                  id={chipId(kind, s.code)}
                  onClick={(event) => remove(event, s)}
                  name={text.remove}
                  value={s.code}
                  className="chip"
                  aria-label={t("picker.remove", { name: s.name })}
                >
                  {s.name} <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        </Form>
      ) : null}
      {coverageUnavailable ? (
        <p className="notice warn" role="status">
          {words("coverageUnavailable")}
        </p>
      ) : null}
      {full ? (
        <p className="hint">{t("picker.full", { max: MAX_SELECTIONS })}</p>
      ) : (
        <Form method="get" action={`/plans#${id}`} role="search" aria-label={words("search")} className="picker-form">
          <StateFields state={state} />
          <label htmlFor={text.param}>{words("label")}</label>
          <p className="hint" id={`${text.param}-hint`}>
            {words("hint")}
          </p>
          <SuggestInput
            key={selections.map((s) => s.code).join(",")}
            kind={kind}
            id={text.param}
            defaultValue={search?.query ?? ""}
            hintId={`${text.param}-hint`}
            zip={state.zip}
            year={year}
            hrefFor={add}
            afterAdd={afterAdd}
            unavailableText={words("unavailable")}
          />
          <button type="submit" className="secondary">
            {words("button")}
          </button>
        </Form>
      )}
      {search ? (
        <div className="search-results" id={`${id}-results`}>
          <h3>{t("picker.resultsFor", { query: search.query })}</h3>
          {search.error ? (
            <p className="error-text">{search.error}</p>
          ) : search.unavailable ? (
            <p className="notice warn">{words("unavailable")}</p>
          ) : search.options.length === 0 ? (
            <p>{words("noMatch", { query: search.query })}</p>
          ) : (
            <>
              {search.partial ? <p className="hint">{t("picker.partial")}</p> : null}
              <ul className="search-list">
                {search.options.map((o) => (
                  <li key={o.code}>
                    <Link to={add(o)} state={afterAdd(o)} preventScrollReset>
                      {t("picker.add", { name: o.name })}
                    </Link>
                    {detailLine(o, t) ? <span className="hint-inline"> {detailLine(o, t)}</span> : null}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : null}
    </section>
  );
}
