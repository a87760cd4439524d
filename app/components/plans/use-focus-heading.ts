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
