import { useLocation } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { COMPARE_SUBMIT, compareIdsOf, compareProblem, withCompareTick } from "../../lib/shopping-url";
import { compareErrorOf, type CompareError } from "./compare-words";

/** The id of the compare form (each card's tick box joins it with form=) and of its error. */
export const COMPARE_FORM_ID = "compare-form";
export const COMPARE_ERROR_ID = "compare-error";

export interface CompareTicks {
  /** Plan ids ticked, in the order ticked: the URL's. */
  ids: string[];
  /** Tick or untick a plan (JavaScript: the URL changes in place, no new history entry). */
  tick(planId: string, ticked: boolean): void;
  /** The inline error shown now, if any. */
  error: CompareError | null;
  setError(error: CompareError | null): void;
}

/**
 * The ticks for comparison, held in the URL (docs/decisions/260): read from the address, so Back,
 * reload and paging keep them; a tick replaces the address in place with the History API (no
 * request; the router reads the address again on Back and Forward, and shouldRevalidate in
 * routes/plans._index.tsx spares the pricing when only the ticks differ).
 */
export function useCompareTicks(serverError: CompareError | null, names: Map<string, string>): CompareTicks {
  const location = useLocation();
  // Ticks of plans not sold here (unknown names) are not ticks: the loader dropped them too.
  const fromUrl = compareIdsOf(new URLSearchParams(location.search)).filter((id) => names.has(id));
  const urlKey = fromUrl.join(",");
  // Held here once ticked; the router's address (Back, Forward, a link) wins whenever it changes.
  const [ids, setIds] = useState(fromUrl);
  useEffect(() => setIds(urlKey ? urlKey.split(",") : []), [urlKey]);
  const [error, setError] = useState<CompareError | null>(serverError);
  useEffect(() => setError(serverError), [serverError]);

  const tick = useCallback(
    (planId: string, ticked: boolean) => {
      const next = withCompareTick(ids, planId, ticked);
      setIds(next);
      // The address follows in place, as the browser's own history entry (no router navigation: a tick
      // is not a new page, costs no request, and cannot be undone by a navigation still under way).
      const search = new URLSearchParams(window.location.search);
      search.delete("compare");
      search.delete(COMPARE_SUBMIT);
      for (const id of next) search.append("compare", id);
      const choices = next.map((id) => ({ id, name: names.get(id) ?? id }));
      // Past three the message shows at once; under two it waits for "Compare" (ticking the first is not an error).
      setError(compareProblem(next.length) === "too_many" ? compareErrorOf(choices) : null);
      window.history.replaceState(window.history.state, "", `${window.location.pathname}?${search.toString()}`);
    },
    [ids, names],
  );
  return { ids, tick, error, setError };
}
