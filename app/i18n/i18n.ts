import i18next, { type i18n, type TFunction } from "i18next";
import en from "./locales/en.json";

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

export type Catalogue = typeof en;

/**
 * The catalogues this process has. English (the fallback) is always here; another language is
 * added before its pages render: on the server by catalogues.server.ts, in the browser by
 * entry.client.tsx from its own chunk, loaded only for a page in that language (the results page
 * ships no catalogue it does not show: tests/e2e/journey's JavaScript budget).
 */
const resources: Partial<Record<Language, Catalogue>> = { en };

export function addCatalogue(lang: Language, catalogue: Catalogue): void {
  if (resources[lang] === catalogue) return;
  resources[lang] = catalogue;
  instances.get(lang)?.addResourceBundle(lang, "translation", catalogue, true, true);
  // A language's words may now come from the new catalogue (or stop falling back to English).
  for (const texts of plainTexts.values()) texts.clear();
}

export function hasCatalogue(lang: Language): boolean {
  return resources[lang] !== undefined;
}

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
      resources: Object.fromEntries(
        Object.entries(resources).map(([code, catalogue]) => [code, { translation: catalogue }]),
      ),
      initAsync: false,
      // React escapes what it renders; escaping here too would show &amp; on the page.
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    instances.set(lang, instance);
  }
  return instance;
}

/**
 * The translate function of a language: the shared instance's own (bound) `t`, the same function
 * for every request and every component in that language (no per-render getFixedT or wrapper).
 */
export function tFor(lang: Language): TFunction {
  let t = translators.get(lang);
  if (!t) {
    t = keptTranslator(lang, i18nFor(lang));
    translators.set(lang, t);
  }
  return t;
}

const translators = new Map<Language, TFunction>();
/** By language, the text of every key asked for without options, as i18next resolved it the first time. */
const plainTexts = new Map<Language, Map<string, string>>();

/**
 * The instance's `t`, except that a key asked for without options (most of a page's words) is
 * resolved by i18next once and then read from a map: i18next's own look-up (key splitting,
 * resolution, fallback, post-processing) per word was most of the i18n time in a page's render.
 * Calls with options (interpolation, counts, defaults) go to i18next as they are.
 */
function keptTranslator(lang: Language, instance: i18n): TFunction {
  const texts = new Map<string, string>();
  plainTexts.set(lang, texts);
  const translate = instance.t as unknown as (key: unknown, a?: unknown, b?: unknown) => unknown;
  return function t(key: unknown, a?: unknown, b?: unknown): unknown {
    if (a !== undefined || b !== undefined || typeof key !== "string") return translate(key, a, b);
    let text = texts.get(key);
    if (text === undefined) {
      const resolved = translate(key);
      if (typeof resolved !== "string") return resolved;
      text = resolved;
      texts.set(key, text);
    }
    return text;
  } as unknown as TFunction;
}

const contextValues = new Map<Language, { i18n: i18n }>();

/**
 * The value app/root.tsx gives react-i18next's context (read by <Trans>): one object per
 * language, made once, so no render builds a provider value of its own.
 */
export function i18nContextValue(lang: Language): { i18n: i18n } {
  let value = contextValues.get(lang);
  if (!value) {
    value = { i18n: i18nFor(lang) };
    contextValues.set(lang, value);
  }
  return value;
}
