import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { addCatalogue, DEFAULT_LANGUAGE, hasCatalogue, isLanguage } from "./i18n/i18n";

/**
 * A page in another language than English gets its catalogue from its own chunk before React
 * hydrates it (the server rendered it with the same words). The language link is a full page
 * load, so a page never changes language without passing here.
 */
async function loadPageCatalogue(): Promise<void> {
  const lang = document.documentElement.lang;
  if (!isLanguage(lang) || lang === DEFAULT_LANGUAGE || hasCatalogue(lang)) return;
  if (lang === "es") addCatalogue("es", (await import("./i18n/locales/es.json")).default);
}

void loadPageCatalogue().finally(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
});
