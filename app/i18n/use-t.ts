import { useRouteLoaderData } from "@remix-run/react";
import type { TFunction } from "i18next";
import { useContext } from "react";
import { DEFAULT_LANGUAGE, isLanguage, tFor, type Language } from "./i18n";
import { PageLanguage, RequestLanguage } from "./language-context";

/**
 * The page's language, as the root loader resolved it. Where the root loader did not run (a 404
 * for an unknown URL): the server's own resolution of the request, and in the browser the
 * <html lang> that server wrote, so hydration renders the same words.
 */
export function useLanguage(): Language {
  const data = useRouteLoaderData("root") as { lang?: unknown } | undefined;
  const fromRequest = useContext(RequestLanguage);
  if (isLanguage(data?.lang)) return data.lang;
  if (fromRequest) return fromRequest;
  if (typeof document !== "undefined" && isLanguage(document.documentElement.lang)) {
    return document.documentElement.lang;
  }
  return DEFAULT_LANGUAGE;
}

/** The language app/root.tsx's Layout provides (English outside one). */
export function usePageLanguage(): Language {
  return useContext(PageLanguage) ?? DEFAULT_LANGUAGE;
}

/** The translate function for the page's language: the one shared per language (app/i18n/i18n.ts). */
export function useT(): TFunction {
  return tFor(usePageLanguage());
}
