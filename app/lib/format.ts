import { INTL_LOCALES, type Language } from "../i18n/i18n";

/**
 * Numbers, dollars and dates in the page's language, by Intl (runs in the browser too).
 * US Spanish (es-US) writes dollars as US English does ($1,234.56), as CuidadoDeSalud.gov does.
 * Formatters are made once per language and kind: Intl constructors are slow.
 */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(lang: Language, kind: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${lang}:${kind}`;
  let format = cache.get(key) as Intl.NumberFormat | undefined;
  if (!format) {
    format = new Intl.NumberFormat(INTL_LOCALES[lang], options);
    cache.set(key, format);
  }
  return format;
}

/** Whole-cent amounts as dollars with cents: 123456 -> "$1,234.56". Integer cents, so nothing is rounded. */
export function formatCents(cents: number, lang: Language): string {
  if (!Number.isInteger(cents)) throw new RangeError(`formatCents wants whole cents, got ${cents}`);
  return numberFormat(lang, "usd", { style: "currency", currency: "USD", minimumFractionDigits: 2 }).format(
    cents / 100,
  );
}

/** Whole dollars: 52000 -> "$52,000". */
export function formatWholeDollars(dollars: number, lang: Language): string {
  return numberFormat(lang, "usd0", { style: "currency", currency: "USD", maximumFractionDigits: 0 }).format(dollars);
}

export function formatNumber(value: number, lang: Language): string {
  return numberFormat(lang, "number", {}).format(value);
}

/** A share as a percentage: 0.0996 -> "9.96%" (both languages in the US). */
export function formatPercent(share: number, lang: Language, fractionDigits = 2): string {
  return numberFormat(lang, `pct${fractionDigits}`, {
    style: "percent",
    maximumFractionDigits: fractionDigits,
  }).format(share);
}

/** A calendar date (YYYY-MM-DD or a Date) in words: "November 1, 2026" / "1 de noviembre de 2026". */
export function formatDate(date: string | Date, lang: Language): string {
  // A bare ISO date is a calendar day, not a UTC instant: format it in UTC so no time zone moves it a day.
  const value = typeof date === "string" ? new Date(`${date.slice(0, 10)}T00:00:00Z`) : date;
  const key = `${lang}:date`;
  let format = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(INTL_LOCALES[lang], { dateStyle: "long", timeZone: "UTC" });
    cache.set(key, format);
  }
  return format.format(value);
}
