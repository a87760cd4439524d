import i18next, { type i18n, type TFunction } from "i18next";
import en from "./locales/en.json";
import es from "./locales/es.json";

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

export const CATALOGUES: Record<Language, typeof en> = { en, es };

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

const instances = new Map<Language, i18n>();

/** One initialised i18next instance per language, made once and shared by every request. */
export function i18nFor(lang: Language): i18n {
  let instance = instances.get(lang);
  if (!instance) {
    instance = i18next.createInstance();
    void instance.init({
      lng: lang,
      // A key missing in Spanish would show English rather than the key; tests/unit/i18n-catalogues keeps them complete.
      fallbackLng: DEFAULT_LANGUAGE,
      resources: { en: { translation: en }, es: { translation: es } },
      initAsync: false,
      // React escapes what it renders; escaping here too would show &amp; on the page.
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    instances.set(lang, instance);
  }
  return instance;
}

export function tFor(lang: Language): TFunction {
  return i18nFor(lang).t;
}
