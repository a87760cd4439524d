import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { noteClientNavigation } from "./plans/use-focus-heading";

/**
 * After a client-side navigation, says the new page's title in a polite live
 * region (a full page load is announced by the screen reader itself). The
 * title is read a moment later, once Remix has written the new <title>.
 */
export function PageAnnouncer() {
  const location = useLocation();
  const [message, setMessage] = useState("");
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // Runs before the new page's own effects (an earlier sibling), so its heading knows it was navigated to.
    noteClientNavigation();
    const timer = window.setTimeout(() => setMessage(document.title), 100);
    return () => window.clearTimeout(timer);
  }, [location.pathname, location.search]);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="page-announcer">
      {message}
    </div>
  );
}
