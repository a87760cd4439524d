import { Form, Link, useNavigate } from "@remix-run/react";
import { noUpstreamAnswer } from "./coverage-words";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
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

/**
 * The drug and doctor pickers of the results page. Without JavaScript: a
 * search form (GET, the query in the URL) and a list of "Add …" links, and
 * chips that are submit buttons of a GET form. With JavaScript the same text
 * box becomes a combobox that asks /api/…/autocomplete on every keystroke
 * from the third character; only the newest answer is shown.
 */

export interface PickerOption extends Selection {
  detail: string;
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
}

export function drugOption(d: DrugSuggestionView): PickerOption {
  return { code: d.rxcui, name: `${d.name} ${d.strength}`.replace(/\s+/g, " ").trim(), detail: d.full_name };
}

export function doctorOption(p: ProviderSuggestionView): PickerOption {
  const kind = p.type === "Individual" ? "" : p.type;
  return {
    code: p.npi,
    name: p.name.replace(/\s+/g, " ").trim(),
    detail: [p.specialties.slice(0, 2).join(", "), kind].filter(Boolean).join(" · "),
  };
}

type Kind = "drug" | "doctor";

const TEXT: Record<
  Kind,
  {
    heading: string;
    intro: string;
    label: string;
    hint: string;
    param: string;
    remove: string;
    button: string;
    plural: string;
    unavailable: string;
  }
> = {
  drug: {
    heading: "Your prescription drugs",
    intro: "Add the drugs you take to see whether each plan covers them.",
    label: "Drug name",
    hint: "Type at least 3 letters, for example lipitor or metformin.",
    param: "drugq",
    remove: "remove_drug",
    button: "Search drugs",
    plural: "drugs",
    unavailable:
      "Drug search is unavailable right now. Plans and prices are not affected; please try again in a few minutes.",
  },
  doctor: {
    heading: "Your doctors and facilities",
    intro: "Add your doctors, clinics or hospitals to see whether they are in each plan's network.",
    label: "Doctor or facility name",
    hint: "Type at least 3 letters of a name near your ZIP code.",
    param: "doctorq",
    remove: "remove_npi",
    button: "Search doctors",
    plural: "doctors or facilities",
    unavailable:
      "Doctor search is unavailable right now. Plans and prices are not affected; please try again in a few minutes.",
  },
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
  const text = TEXT[kind];
  const id = kind === "drug" ? "drugs" : "doctors";
  const add = (option: Selection) =>
    plansHref(kind === "drug" ? withDrug(state, option) : withDoctor(state, option)) + `#${id}`;
  const full = selections.length >= MAX_SELECTIONS;
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="picker">
      <h2 id={`${id}-heading`}>{text.heading}</h2>
      <p className="hint">{text.intro}</p>
      {selections.length > 0 ? (
        <Form method="get" action="/plans" aria-label={`Chosen ${text.plural}`}>
          <StateFields state={state} />
          <ul className="chip-list">
            {selections.map((s) => (
              <li key={s.code}>
                <button
                  type="submit"
                  name={text.remove}
                  value={s.code}
                  className="chip"
                  aria-label={`Remove ${s.name}`}
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
          We could not check {kind === "drug" ? "drug coverage" : "doctor networks"} right now, so every plan shows
          &quot;unknown&quot; below. Prices are not affected.
        </p>
      ) : null}
      {full ? (
        <p className="hint">You have added {MAX_SELECTIONS}, the most we check at once. Remove one to add another.</p>
      ) : (
        <Form
          method="get"
          action={`/plans#${id}`}
          role="search"
          aria-label={`Search ${text.plural}`}
          className="picker-form"
        >
          <StateFields state={state} />
          <label htmlFor={text.param}>{text.label}</label>
          <p className="hint" id={`${text.param}-hint`}>
            {text.hint}
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
            unavailableText={text.unavailable}
          />
          <button type="submit" className="secondary">
            {text.button}
          </button>
        </Form>
      )}
      {search ? (
        <div className="search-results" id={`${id}-results`}>
          <h3>Results for &ldquo;{search.query}&rdquo;</h3>
          {search.error ? (
            <p className="error-text">{search.error}</p>
          ) : search.unavailable ? (
            <p className="notice warn">{text.unavailable}</p>
          ) : search.options.length === 0 ? (
            <p>
              No {text.plural} match &ldquo;{search.query}&rdquo;. Check the spelling
              {kind === "drug" ? " or try the generic name" : ""}.
            </p>
          ) : (
            <>
              {search.partial ? (
                <p className="hint">Some results may be missing: part of the search did not answer.</p>
              ) : null}
              <ul className="search-list">
                {search.options.map((o) => (
                  <li key={o.code}>
                    <Link to={add(o)}>Add {o.name}</Link>
                    {o.detail ? <span className="hint-inline"> {o.detail}</span> : null}
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
  unavailableText,
}: {
  kind: Kind;
  id: string;
  defaultValue: string;
  hintId: string;
  zip: string;
  year: number | undefined;
  hrefFor: (option: Selection) => string;
  unavailableText: string;
}) {
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
      setStatus(query.length > 0 ? "Type at least 3 letters to see suggestions." : "");
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
            ? `No ${kind === "drug" ? "drugs" : "doctors or facilities"} match “${query}”.`
            : `${n} ${n === 1 ? "suggestion" : "suggestions"}. Use the up and down arrow keys to choose, then press Enter.${answer.partial ? " Some results may be missing." : ""}`,
        );
      },
      () => {
        setOptions([]);
        close();
        setStatus("Suggestions could not be loaded. Press the search button to look it up instead.");
      },
    );
  };

  const choose = (option: PickerOption) => {
    requests.current.cancel();
    close();
    setStatus(`Added ${option.name}.`);
    navigate(hrefFor(option));
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
        <ul id={listId} role="listbox" aria-label="Suggestions" className="suggest-list" hidden={!open}>
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
              {o.detail ? <span className="suggest-detail">{o.detail}</span> : null}
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
