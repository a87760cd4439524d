import { useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { Selection } from "../../lib/shopping-url";
import { useWords } from "./format";
import { LatestRequest } from "./latest-request";
import { detailLine, type Kind, type PickerOption, type SuggestionAnswer } from "./picker-options";

type Fetcher = (query: string, signal: AbortSignal) => Promise<SuggestionAnswer>;

/**
 * The text box of a picker. Server-rendered as a plain input of the search
 * form; once hydrated it is an ARIA combobox with a listbox of suggestions
 * and a polite live region that says how many there are.
 */
export function SuggestInput({
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
  // The requests' code loads when the box first has focus (decision 406), once per box.
  const fetcher = useRef<Promise<Fetcher> | null>(null);
  const loadFetcher = () =>
    (fetcher.current ??= import("./suggest-fetch").then(
      (m) => m.suggestionFetcher(kind, zip, year),
      (error: unknown) => {
        fetcher.current = null; // tried again with the next letter
        throw error;
      },
    ));
  const suggestions = (query: string, signal: AbortSignal) => loadFetcher().then((send) => send(query, signal));

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
      (signal) => suggestions(query, signal),
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
        onFocus={() => void loadFetcher().catch(() => {})}
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
