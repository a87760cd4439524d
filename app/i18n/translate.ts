import type { TFunction } from "i18next";

/**
 * The translate function of the site's catalogues, without i18next at run time (issue 29: i18next
 * was ~16 KB gzipped of every page's JavaScript and a few per cent of a page's server time). It
 * does what the catalogues use of i18next, the same way (tests/unit/i18n/translate.test.ts
 * compares every key of both catalogues with i18next's answers):
 * - keys are paths through the catalogue, `a.b.c`;
 * - `{{name}}` is replaced by the option of that name (not escaped: React escapes), and left as
 *   it is when the option is missing;
 * - with a numeric `count`, `key_zero` (count 0), then `key_<plural rule of the language>`
 *   (Intl.PluralRules: `one`, `other`, …), then `key` itself;
 * - a key the language lacks comes from the fallback language; a key no catalogue has is
 *   answered as the key.
 */
export type Lookup = (lang: string) => Record<string, unknown> | undefined;

const INTERPOLATION = /\{\{\s*([\w.-]+)\s*\}\}/g;
const pluralRules = new Map<string, Intl.PluralRules>();

function pluralOf(lang: string, count: number): string {
  let rules = pluralRules.get(lang);
  if (!rules) {
    rules = new Intl.PluralRules(lang);
    pluralRules.set(lang, rules);
  }
  return rules.select(count);
}

function find(catalogue: Record<string, unknown> | undefined, key: string): string | undefined {
  let node: unknown = catalogue;
  let start = 0;
  while (node !== undefined && node !== null && typeof node === "object") {
    const dot = key.indexOf(".", start);
    const part = dot === -1 ? key.slice(start) : key.slice(start, dot);
    node = (node as Record<string, unknown>)[part];
    if (dot === -1) break;
    start = dot + 1;
  }
  return typeof node === "string" ? node : undefined;
}

function resolve(catalogue: Record<string, unknown> | undefined, lang: string, key: string, count: unknown) {
  if (typeof count === "number") {
    if (count === 0) {
      const zero = find(catalogue, `${key}_zero`);
      if (zero !== undefined) return zero;
    }
    const plural = find(catalogue, `${key}_${pluralOf(lang, count)}`);
    if (plural !== undefined) return plural;
  }
  return find(catalogue, key);
}

function interpolate(text: string, options: Record<string, unknown>): string {
  if (!text.includes("{{")) return text;
  return text.replace(INTERPOLATION, (match, name: string) => {
    const value = options[name];
    return value === undefined || value === null ? match : String(value);
  });
}

/** The translate function of `lang`, falling back to `fallback`; catalogues are looked up at each call (they may be added later). */
export function makeTranslate(lang: string, fallback: string, catalogueOf: Lookup): TFunction {
  const texts = new Map<string, string>();
  let generation = -1;
  const t = (key: unknown, options?: unknown): string => {
    const k = String(key);
    const opts = typeof options === "object" && options !== null ? (options as Record<string, unknown>) : undefined;
    const plain = options === undefined;
    if (plain) {
      // Most of a page's words: no options, so the answer for a key never changes (until a catalogue is added).
      if (generation !== catalogueGeneration) {
        texts.clear();
        generation = catalogueGeneration;
      }
      const known = texts.get(k);
      if (known !== undefined) return known;
    }
    const count = opts?.count;
    let text = resolve(catalogueOf(lang), lang, k, count);
    if (text === undefined && fallback !== lang) text = resolve(catalogueOf(fallback), fallback, k, count);
    if (text === undefined) text = typeof options === "string" ? options : k;
    if (plain) texts.set(k, text);
    return opts === undefined ? text : interpolate(text, opts);
  };
  return t as unknown as TFunction;
}

let catalogueGeneration = 0;

/** Called when a catalogue is added: answers kept by every translate function are forgotten. */
export function cataloguesChanged(): void {
  catalogueGeneration++;
}
