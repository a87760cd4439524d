import { DEFAULT_LANGUAGE, type Language } from "../i18n/i18n";

/**
 * The same page in another language: the path and every query parameter kept, `lang` set
 * (runs in the browser too). `null` drops `lang` (the x-default address).
 */
export function urlWithLanguage(pathname: string, search: string, lang: Language | null): string {
  const params = new URLSearchParams(search);
  // Remix's own data-request marker never belongs in a link.
  params.delete("_data");
  if (lang) params.set("lang", lang);
  else params.delete("lang");
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** A site path in the page's language: `?lang=es` added for any language but the default (a new search keeps it). */
export function pathInLanguage(pathname: string, lang: Language): string {
  return lang === DEFAULT_LANGUAGE ? pathname : `${pathname}?lang=${lang}`;
}
