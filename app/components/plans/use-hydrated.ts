import { useEffect, useState } from "react";

/**
 * False in the server's HTML and the first render in the browser, true once the page runs
 * JavaScript: a control that only works with JavaScript shows from then on, and the HTML a
 * browser without JavaScript gets keeps its plain form.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * The navigation state of a change within the same page (a filter, a tick): focus stays on the
 * control changed (`focus`, read by the root's PageAnnouncer, docs/decisions/270) — also when the
 * page then shows an invalid field, which would otherwise take focus.
 */
export function inPage(focusId: string | null): { inPage: true; focus?: string[] } {
  return focusId ? { inPage: true, focus: [focusId] } : { inPage: true };
}
