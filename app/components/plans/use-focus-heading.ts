import { useEffect, useRef } from "react";

/**
 * After a client-side navigation to a new step, move focus to the page's
 * heading so keyboard and screen-reader users start reading the new content
 * (a full page load starts there anyway). The first render never moves focus.
 */
export function useFocusHeading<T extends HTMLElement>(key: string) {
  const ref = useRef<T>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (window.location.hash) return; // a link to a section: the browser scrolls there
    ref.current?.focus();
  }, [key]);
  return ref;
}

/** Set by PageAnnouncer (root) at the first client-side navigation of this page load. */
let navigated = false;
export function noteClientNavigation(): void {
  navigated = true;
}

/**
 * For a page reached by a client-side navigation (results → plan, results →
 * compare): its heading takes focus when it first shows and whenever `key`
 * changes. On a full page load nothing has navigated yet, so focus stays where
 * the browser puts it; Back to the first page is a navigation like any other.
 */
export function useFocusHeadingOnArrival<T extends HTMLElement>(key: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!navigated) return;
    if (window.location.hash) return;
    ref.current?.focus();
  }, [key]);
  return ref;
}
