import { Form, useNavigate } from "@remix-run/react";
import { useEffect, useRef, type FormEvent } from "react";
import { COMPARE_SUBMIT, compareHref, listPageParam, type ShoppingState } from "../../lib/shopping-url";
import { COMPARE_ERROR_ID, COMPARE_FORM_ID, type CompareTicks } from "./compare-ticks";
import compareTrayWords from "virtual:english/compareTray";
import { addEnglish, type Catalogue } from "../../i18n/i18n";
import {
  compareCountWords,
  compareErrorOf,
  compareErrorWords,
  compareHintWords,
  type CompareChoice,
} from "./compare-words";
import { useWords } from "./format";
import { StateFields } from "./state-fields";
import { useHydrated } from "./use-hydrated";

// Its words come with it: with JavaScript it loads with the first tick (decision 406).
addEnglish({ compareTray: compareTrayWords } as Partial<Catalogue>);

/**
 * The compare tray: with JavaScript, a bar that comes with the first tick and stays at the bottom
 * of the screen while the plan list is in view (never over the focused control: plans.css gives
 * the page a scroll padding of its height, and it does not stick on short screens or at 400 %
 * zoom), with the number of plans ticked, their names and the Compare button. It is the compare form
 * itself: without JavaScript the ticks are sent with it to /plans, which goes on to the comparison
 * for 2 or 3 and shows the list again with the error here for 1 or 4 (its action's #compare-tray
 * brings the error into view). With JavaScript the count and names follow each tick, said in a
 * polite live region, and a wrong count is said here without leaving the page.
 */
export function CompareTray({
  state,
  ticks,
  names,
  listPage,
}: {
  state: ShoppingState;
  ticks: CompareTicks;
  names: Map<string, string>;
  /** The page of the list shown: the comparison's "Back to all plans" returns to it. */
  listPage: number;
}) {
  const hydrated = useHydrated();
  const { t } = useWords();
  const navigate = useNavigate();
  const choices: CompareChoice[] = ticks.ids.map((id) => ({ id, name: names.get(id) ?? id }));
  const count = choices.length;
  // The page's bottom scroll padding follows the tray's height (plans.css --tray-height), so the
  // browser scrolls a focused control clear of it (issue 28 item 2, WCAG 2.4.11).
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const element = form.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty("--tray-height", `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty("--tray-height");
    };
  }, []);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const error = compareErrorOf(choices);
    ticks.setError(error);
    if (!error) navigate(compareHref(state, ticks.ids, listPageParam(listPage)));
  };

  return (
    <Form
      ref={form}
      method="get"
      action="/plans#compare-tray"
      id={COMPARE_FORM_ID}
      // Sticky only with JavaScript, where it comes with the first tick (issue 28 item 2); without, it stays at the list's end.
      className={hydrated ? "compare-tray sticky" : "compare-tray"}
      aria-labelledby="compare-tray-title"
      autoComplete="off"
      onSubmit={hydrated ? onSubmit : undefined}
    >
      <div id="compare-tray" className="compare-tray-inner">
        <StateFields state={state} omit={["compare"]} />
        {listPage > 1 ? <input type="hidden" name="page" value={listPage} /> : null}
        <div className="compare-tray-text">
          <h2 id="compare-tray-title" className="compare-tray-title">
            {t("compareTray.title")}
          </h2>
          {hydrated ? (
            <div aria-live="polite" aria-atomic="true" data-testid="compare-count">
              <p className="compare-tray-count">
                <strong>{compareCountWords(t, count)}</strong>
                {count > 0 ? (
                  <>
                    <span className="visually-hidden">: </span>
                    <span className="compare-tray-names" data-testid="compare-names">
                      {choices.map((c, i) => (
                        <span key={c.id} data-plan-id={c.id}>
                          {i > 0 ? <span aria-hidden="true"> · </span> : null}
                          {c.name}
                          {i < count - 1 ? <span className="visually-hidden">,</span> : null}
                        </span>
                      ))}
                    </span>
                  </>
                ) : null}
              </p>
              {ticks.error ? null : <p className="hint">{compareHintWords(t, count)}</p>}
            </div>
          ) : (
            <p className="hint" id="compare-hint">
              {t("results.compareHint")}
            </p>
          )}
          <p id={COMPARE_ERROR_ID} className="error-text compare-error" role="alert" data-field="compare">
            {ticks.error ? compareErrorWords(t, ticks.error) : ""}
          </p>
        </div>
        <button
          type="submit"
          name={COMPARE_SUBMIT}
          value="1"
          aria-describedby={ticks.error ? COMPARE_ERROR_ID : hydrated ? undefined : "compare-hint"}
        >
          {t("results.compareButton")}
        </button>
      </div>
    </Form>
  );
}
