import { useLocation, useNavigationType } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { focusAfterNavigation, focusIntent } from "./navigation-focus";
import { noteClientNavigation } from "./plans/use-focus-heading";

/**
 * After every client-side navigation: moves focus where the reader should
 * start (navigation-focus.ts: a named target, an error summary, or the new
 * page's h1) and says what happened in a polite live region: the new page's
 * title, or the words the navigation asked for ("Added Lipitor 10 mg").
 * A full page load is announced by the screen reader itself, so the first
 * render does nothing. A jump to a section of the same page (#id) is left alone.
 */
export function PageAnnouncer() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const [message, setMessage] = useState("");
  const previous = useRef<{ address: string; title: string } | null>(null);
  useEffect(() => {
    const address = location.pathname + location.search;
    const before = previous.current;
    if (!before) {
      previous.current = { address, title: document.title };
      return;
    }
    if (before.address === address && location.hash && location.state == null) return; // an in-page #link
    // Runs before the new page's own effects (an earlier sibling), so its heading knows it was navigated to.
    noteClientNavigation();
    // After the page's own effects (a picker focusing its box) and once Remix has written the new <title>.
    const timer = window.setTimeout(() => {
      const title = document.title;
      const newPage = before.address.split("?")[0] !== location.pathname || before.title !== title;
      previous.current = { address, title };
      // History keeps a navigation's state: Back or Forward to it is a visit, not the choice again.
      const intent = navigationType === "POP" ? {} : focusIntent(location.state);
      const outcome = focusAfterNavigation({
        main: document.getElementById("main"),
        intent,
        hash: location.hash,
        newPage,
      });
      // An error summary is role=alert and says itself; a page updated in place announces its own result.
      if (intent.announce) setMessage(intent.announce);
      else if (newPage && outcome !== "error") setMessage(title);
    }, 0);
    return () => window.clearTimeout(timer);
  }, [location.key, location.pathname, location.search, location.hash, location.state, navigationType]);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="page-announcer">
      {message}
    </div>
  );
}
