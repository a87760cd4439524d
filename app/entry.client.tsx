import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { addEnglish, addWords } from "./i18n/i18n";
import { ignoreAbortedNavigation } from "./lib/aborted-navigation";

/**
 * A page's words come from its own language's chunk, loaded before React hydrates it (the server
 * rendered it with the same words): the English core for an English page, the Spanish core for a
 * Spanish one (a page's own namespaces come with the modules that show them, decision 407). No
 * page carries the other language (decision 405). The language link is a full page load, so a page never changes
 * language without passing here.
 */
async function loadPageCatalogue(): Promise<void> {
  if (document.documentElement.lang === "es") {
    addWords("es", (await import("virtual:catalogue/es")).default);
    return;
  }
  addEnglish((await import("./i18n/english-browser")).englishForBrowser);
}

/**
 * With single fetch, RemixBrowser's first render decodes the server's state and, until that is
 * done, suspends with no Suspense boundary above it (there can be none: it draws the whole
 * document). A tap or a key while it waited made React hydrate the document synchronously, which
 * cannot wait, and the page threw React error #345 (seen in CI, and in 11 of 20 throttled loads
 * clicked early). Called once outside React, RemixBrowser starts that decoding and throws its
 * promise before touching a hook: the document is hydrated once the promise settles, so nothing
 * suspends while hydrating. A decoding error is left to the hydration, which shows it as before.
 */
async function decodeRemixState(): Promise<void> {
  try {
    RemixBrowser({});
  } catch (thrown) {
    if (thrown instanceof Promise) await thrown.catch(() => {});
  }
}

// An aborted navigation's data request is not an error of the page (aborted-navigation.ts).
window.addEventListener("unhandledrejection", ignoreAbortedNavigation);

void Promise.allSettled([loadPageCatalogue(), decodeRemixState()]).finally(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
});
