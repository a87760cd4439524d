import type { TFunction } from "i18next";
import { DEFAULT_LANGUAGE, INTL_LOCALES, tFor, type Language } from "../../i18n/i18n";
import { usePageLanguage } from "../../i18n/use-t";

/**
 * How the consumer pages write numbers and plan facts in the page's language: dollars with
 * cents ($1,234.56, by Intl for the language), plain words for metal levels, usage levels and
 * sorts from the message catalogue. Pure and small: it runs in the browser too.
 */

/** The page's language and its translate function: what the pure word helpers need. */
export interface Words {
  lang: Language;
  t: TFunction;
}

const words = new Map<Language, Words>();

/** One Words per language, made once: the same object for every request and component. */
export function wordsFor(lang: Language): Words {
  let w = words.get(lang);
  if (!w) {
    w = { lang, t: tFor(lang) };
    words.set(lang, w);
  }
  return w;
}

export const ENGLISH: Words = wordsFor(DEFAULT_LANGUAGE);

/**
 * The page's Words, in a component: the language app/root.tsx's Layout provides, English where
 * none is provided (a component rendered on its own).
 */
export function useWords(): Words {
  return wordsFor(usePageLanguage());
}

const usd = new Map<Language, Intl.NumberFormat>();

/** $1,234.56 — every amount on the pages goes through here. */
export function money(amount: number, lang: Language = DEFAULT_LANGUAGE): string {
  let format = usd.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(INTL_LOCALES[lang], {
      style: "currency",
      currency: "USD",
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    usd.set(lang, format);
  }
  return format.format(amount);
}
