import type { TFunction } from "i18next";
import { cataloguesChanged, makeTranslate } from "./translate";
import type enFull from "./locales/en.json";
import * as core from "./english-core";

/**
 * The site's languages and their message catalogues (app/i18n/locales/*.json). Runs on the server
 * and in the browser: both render from the same catalogues, so hydration sees the same words.
 */
export const LANGUAGES = ["en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** The name of each language in that language, for the "Español / English" link. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", es: "Español" };

/** The BCP 47 locale Intl formats with: US English and US Spanish (dollars as $1,234.56 in both). */
export const INTL_LOCALES: Record<Language, string> = { en: "en-US", es: "es-US" };

export type Catalogue = typeof enFull;

/**
 * The catalogues this process has. On the server (and in tests) English, the fallback, is always
 * here, and catalogues.server.ts adds every other language. In the browser a page has only its
 * own language (decision 405): the browser build gives this module an empty stand-in for
 * english-core (vite.config.ts, `languageInUse`), and entry.client.tsx loads the English core or
 * another language's catalogue from its own chunk before hydrating.
 */
const resources: Partial<Record<Language, Catalogue>> = core.english ? { en: core.english as Catalogue } : {};

export function addCatalogue(lang: Language, catalogue: Catalogue): void {
  if (resources[lang] === catalogue) return;
  resources[lang] = catalogue;
  // A language's words may now come from the new catalogue (or stop falling back to English).
  cataloguesChanged();
}

/**
 * Adds namespaces of English kept out of the core bundle (app/i18n/english-core.ts): the modules
 * of the pages that show them call this at their top, so the browser loads them with that page.
 */
export function addEnglish(part: Partial<Catalogue>): void {
  addWords("en", part);
}

/**
 * Adds namespaces to a language's catalogue. In the browser a page's own namespaces may come
 * before the core (route modules run before the entry; on a page in another language than
 * English, vite.config.ts's `virtual:english/<ns>` adds that language's words of the namespace
 * before the module that shows them runs, decision 407), and the core has a few keys of a page's
 * namespace (the plan card's planPage words): a namespace given twice keeps the keys of both.
 */
export function addWords(lang: Language, part: Partial<Catalogue>): void {
  const had = (resources[lang] ?? {}) as Record<string, unknown>;
  if (resources[lang] && Object.entries(part).every(([ns, words]) => had[ns] === words)) return;
  const merged: Record<string, unknown> = { ...had };
  for (const [ns, words] of Object.entries(part)) {
    const before = had[ns];
    merged[ns] = isWords(before) && isWords(words) ? { ...before, ...words } : words;
  }
  resources[lang] = merged as Catalogue;
  cataloguesChanged();
}

const isWords = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

export function hasCatalogue(lang: Language): boolean {
  return resources[lang] !== undefined;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

const translators = new Map<Language, TFunction>();
const catalogueOf = (lang: string) => resources[lang as Language] as Record<string, unknown> | undefined;

/**
 * The translate function of a language (app/i18n/translate.ts): made once per language and shared
 * by every request and component; English fills in a key the language lacks.
 */
export function tFor(lang: Language): TFunction {
  let t = translators.get(lang);
  if (!t) {
    t = makeTranslate(lang, DEFAULT_LANGUAGE, catalogueOf);
    translators.set(lang, t);
  }
  return t;
}
