import { Form, Link, useNavigate } from "@remix-run/react";
import { noUpstreamAnswer } from "./coverage-words";
import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
import {
  MAX_SELECTIONS,
  plansHref,
  withDoctor,
  withDrug,
  type Selection,
  type ShoppingState,
} from "../../lib/shopping-url";
import { LatestRequest } from "./latest-request";
import { StateFields } from "./state-fields";
import { useWords } from "./format";

/**
 * The drug and doctor pickers of the results page. Without JavaScript: a
 * search form (GET, the query in the URL) and a list of "Add …" links, and
 * chips that are submit buttons of a GET form. With JavaScript the same text
 * box becomes a combobox that asks /api/…/autocomplete on every keystroke
 * from the third character; only the newest answer is shown.
 */

export interface PickerOption extends Selection {
  detail: string;
  /** A doctor's `accepting` value as upstream gives it; said in the page's words where shown. */
  accepting?: string | null;
}

export interface SuggestionAnswer {
  unavailable: boolean;
  partial: boolean;
  options: PickerOption[];
}

export interface DrugSuggestionView {
  rxcui: string;
  name: string;
  strength: string;
  full_name: string;
}
export interface ProviderSuggestionView {
  npi: string;
  name: string;
  type: string;
  specialties: string[];
  accepting?: string | null;
  address?: { street: string; city: string; state: string; zip: string } | null;
}

/** Upstream's `accepting` values with words in the catalogue (picker.accepting.*); `unknown` says nothing. */
const ACCEPTING_KEYS: Record<string, string> = {
  accepting: "yes",
  "not accepting": "no",
  "accepting in some locations": "some",
};

/** "430 Prairie Wind Rd, Carrollton, TX": enough to tell two Dr. Smiths apart. */
export function providerPlace(address: ProviderSuggestionView["address"]): string {
  if (!address) return "";
  return [address.street, address.city, address.state].filter(Boolean).join(", ");
}

export function drugOption(d: DrugSuggestionView): PickerOption {
  return { code: d.rxcui, name: `${d.name} ${d.strength}`.replace(/\s+/g, " ").trim(), detail: d.full_name };
}

export function doctorOption(p: ProviderSuggestionView): PickerOption {
  const kind = p.type === "Individual" ? "" : p.type;
  return {
    code: p.npi,
    name: p.name.replace(/\s+/g, " ").trim(),
    detail: [p.specialties.slice(0, 2).join(", "), kind, providerPlace(p.address)].filter(Boolean).join(" · "),
    accepting: p.accepting ?? null,
  };
}

type Kind = "drug" | "doctor";

/** The id of a chosen drug's or doctor's chip (its remove button). */
export function chipId(kind: Kind, code: string): string {
  return `${kind}-chip-${code.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

/** An option's detail line: its specialty, address and city, then whether it takes new patients. */
function detailLine(option: PickerOption, t: (key: string) => string): string {
  const key = ACCEPTING_KEYS[option.accepting ?? ""];
  return [option.detail, key ? t(`picker.accepting.${key}`) : ""].filter(Boolean).join(" · ");
}

/** The URL parameters of each picker; its words are the catalogue's picker.<kind>.* entries. */
const PARAMS: Record<Kind, { param: string; remove: string }> = {
  drug: { param: "drugq", remove: "remove_drug" },
  doctor: { param: "doctorq", remove: "remove_npi" },
};

async function postJson(path: string, body: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok) throw new Error(`suggestions answered ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

function suggestionFetcher(kind: Kind, zip: string, year: number | undefined) {
  return async (query: string, signal: AbortSignal): Promise<SuggestionAnswer> => {
    if (kind === "drug") {
      const body = await postJson("/api/drugs/autocomplete", { query, ...(year ? { year } : {}) }, signal);
      const options = ((body.drugs as DrugSuggestionView[]) ?? []).map(drugOption);
      // Our own drug names answer while upstream does not: shown, with a hint that some may be missing.
      return {
        unavailable: noUpstreamAnswer(body.upstream) && options.length === 0,
        partial: noUpstreamAnswer(body.upstream) && options.length > 0,
        options,
      };
    }
    const body = await postJson("/api/providers/autocomplete", { query, zip }, signal);
    return {
      unavailable: noUpstreamAnswer(body.upstream),
      partial: body.upstream === "partial",
      options: ((body.providers as ProviderSuggestionView[]) ?? []).map(doctorOption),
    };
  };
}

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

/**
 * The text box of a picker. Server-rendered as a plain input of the search
 * form; once hydrated it is an ARIA combobox with a listbox of suggestions
 * and a polite live region that says how many there are.
 */
function SuggestInput({
  kind,
  id,
  defaultValue,
  hintId,
  zip,
  year,
  hrefFor,
  afterAdd,
  unavailableText,
}: {
  kind: Kind;
  id: string;
  defaultValue: string;
  hintId: string;
  zip: string;
  year: number | undefined;
  hrefFor: (option: Selection) => string;
  afterAdd: (option: Selection) => { focus: string[]; announce: string };
  unavailableText: string;
}) {
  const { t } = useWords();
  const navigate = useNavigate();
  const listId = useId();
  const [enhanced, setEnhanced] = useState(false);
  const [options, setOptions] = useState<PickerOption[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState("");
  const requests = useRef(new LatestRequest<SuggestionAnswer>());
  const fetchSuggestions = useRef(suggestionFetcher(kind, zip, year));

  useEffect(() => {
    setEnhanced(true);
    const current = requests.current;
    return () => current.cancel();
  }, []);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const onInput = (value: string) => {
    const query = value.trim();
    if (query.length < 3) {
      requests.current.cancel();
      setOptions([]);
      close();
      setStatus(query.length > 0 ? t("picker.typeMore") : "");
      return;
    }
    requests.current.run(
      (signal) => fetchSuggestions.current(query, signal),
      (answer) => {
        setActive(-1);
        if (answer.unavailable) {
          setOptions([]);
          setOpen(false);
          setStatus(unavailableText);
          return;
        }
        setOptions(answer.options);
        setOpen(answer.options.length > 0);
        const n = answer.options.length;
        setStatus(
          n === 0
            ? t(`picker.${kind}.noSuggestions`, { query })
            : `${t("picker.suggestions", { count: n })}${answer.partial ? ` ${t("picker.someMissing")}` : ""}`,
        );
      },
      () => {
        setOptions([]);
        close();
        setStatus(t("picker.loadFailed"));
      },
    );
  };

  const choose = (option: PickerOption) => {
    requests.current.cancel();
    close();
    setStatus(t("picker.added", { name: option.name }));
    navigate(hrefFor(option), { state: afterAdd(option), preventScrollReset: true });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!enhanced) return;
    if (event.key === "ArrowDown" && options.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((a) => (a + 1) % options.length);
    } else if (event.key === "ArrowUp" && options.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((a) => (a <= 0 ? options.length - 1 : a - 1));
    } else if (event.key === "Enter" && open && active >= 0 && options[active]) {
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      close();
    }
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  return (
    <div className="suggest">
      <input
        id={id}
        name={id}
        type="text"
        autoComplete="off"
        spellCheck={false}
        maxLength={100}
        defaultValue={defaultValue}
        aria-describedby={`${hintId} ${id}-status`}
        onChange={(e) => onInput(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(close, 150)}
        {...(enhanced
          ? {
              role: "combobox",
              "aria-autocomplete": "list" as const,
              "aria-expanded": open,
              "aria-controls": listId,
              "aria-activedescendant": open && active >= 0 ? optionId(active) : undefined,
            }
          : {})}
      />
      {enhanced ? (
        <ul
          id={listId}
          role="listbox"
          aria-label={t("picker.suggestionsLabel")}
          className="suggest-list"
          hidden={!open}
        >
          {options.map((o, i) => (
            <li
              key={o.code}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={i === active ? "active" : undefined}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(o)}
            >
              <span className="suggest-name">{o.name}</span>
              {detailLine(o, t) ? <span className="suggest-detail">{detailLine(o, t)}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="hint live" id={`${id}-status`} role="status" aria-live="polite">
        {status}
      </p>
    </div>
  );
}
