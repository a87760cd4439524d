import type { MetaArgs } from "@remix-run/node";
import type { TFunction } from "i18next";
import { DEFAULT_LANGUAGE, isLanguage, tFor, type Language } from "./i18n";

/** The language a route's meta() should use: the one the root loader resolved. */
export function metaLanguage(matches: MetaArgs["matches"]): Language {
  const root = matches.find((match) => match.id === "root")?.data as { lang?: unknown } | undefined;
  return isLanguage(root?.lang) ? root.lang : DEFAULT_LANGUAGE;
}

export function metaT(matches: MetaArgs["matches"]): TFunction {
  return tFor(metaLanguage(matches));
}
