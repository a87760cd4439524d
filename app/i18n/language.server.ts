import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from "./i18n";
import { loadCatalogues } from "./catalogues.server";

// Every page and message the server words resolves its language here first: the catalogues are loaded with it.
loadCatalogues();

/** The cookie that keeps a visitor's language choice (docs/decisions/230). */
export const LANGUAGE_COOKIE = "lang";
const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export type LanguageSource = "query" | "cookie" | "header" | "default";

export interface ResolvedLanguage {
  lang: Language;
  source: LanguageSource;
  /** A Set-Cookie value to send when the URL chose a language the cookie does not hold yet. */
  setCookie?: string;
}

function cookieValue(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The best supported language in an Accept-Language header (RFC 9110 §12.5.4): the highest q
 * wins, the earlier one on a tie; "es-MX" counts as "es"; q=0 means "not this one".
 */
export function languageFromAcceptLanguage(header: string | null): Language | undefined {
  if (!header) return undefined;
  let best: { lang: Language; q: number } | undefined;
  for (const entry of header.split(",").slice(0, 20)) {
    const [tag, ...params] = entry.trim().split(";");
    const primary = tag.trim().toLowerCase().split("-")[0];
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split("=");
      if (key === "q") q = Number(value);
    }
    if (!Number.isFinite(q) || q <= 0) continue;
    const lang = primary === "*" ? DEFAULT_LANGUAGE : primary;
    if (isLanguage(lang) && (!best || q > best.q)) best = { lang, q };
  }
  return best?.lang;
}

export function languageCookie(lang: Language, secure: boolean): string {
  return `${LANGUAGE_COOKIE}=${lang}; Path=/; Max-Age=${COOKIE_MAX_AGE_SECONDS}; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
}

/**
 * The language of a page: `lang` in the URL first (a shared link opens in the sender's language,
 * and the choice is kept in a cookie), then the cookie, then Accept-Language, then English.
 */
export function resolveLanguage(request: Request): ResolvedLanguage {
  const url = new URL(request.url);
  const cookie = cookieValue(request.headers.get("Cookie"), LANGUAGE_COOKIE);
  const fromQuery = url.searchParams.get("lang");
  if (isLanguage(fromQuery)) {
    const secure = url.protocol === "https:" || request.headers.get("X-Forwarded-Proto") === "https";
    return {
      lang: fromQuery,
      source: "query",
      setCookie: cookie === fromQuery ? undefined : languageCookie(fromQuery, secure),
    };
  }
  if (isLanguage(cookie)) return { lang: cookie, source: "cookie" };
  const fromHeader = languageFromAcceptLanguage(request.headers.get("Accept-Language"));
  if (fromHeader) return { lang: fromHeader, source: "header" };
  return { lang: DEFAULT_LANGUAGE, source: "default" };
}

/** The language for server-side text only (an action's messages, an email). */
export function requestLanguage(request: Request): Language {
  return resolveLanguage(request).lang;
}

export { LANGUAGES };
