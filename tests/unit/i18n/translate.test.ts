import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { CATALOGUES } from "../../../app/i18n/catalogues.server";
import { LANGUAGES, tFor, type Language } from "../../../app/i18n/i18n";

/**
 * Issue 29: the site's own translate function (app/i18n/translate.ts) answers every key of both
 * catalogues exactly as i18next did (the set-up the site used: English fallback, no escaping),
 * with and without options: interpolated values, counts 0, 1, 2 and 1,000,000, a missing value,
 * a default value and a key no catalogue has.
 */
function keysOf(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

const reference = new Map<Language, (key: string, options?: unknown) => unknown>();
beforeAll(async () => {
  for (const lang of LANGUAGES) {
    const instance = i18next.createInstance();
    await instance.init({
      lng: lang,
      fallbackLng: "en",
      resources: Object.fromEntries(Object.entries(CATALOGUES).map(([code, c]) => [code, { translation: c }])),
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    reference.set(lang, instance.t.bind(instance) as (key: string, options?: unknown) => unknown);
  }
});

const keys = [...new Set(keysOf(CATALOGUES.en).concat(keysOf(CATALOGUES.es)))];
// Plural keys are asked for by their base (`count_one` by `count`).
const bases = [...new Set(keys.map((k) => k.replace(/_(zero|one|two|few|many|other)$/, "")))];
const NAMES = ["count", "amount", "name", "plan", "year", "state", "min", "max", "status", "total", "title", "zip"];

describe("the site's translate function against i18next", () => {
  it("has keys to compare", () => expect(bases.length).toBeGreaterThan(500));

  for (const lang of LANGUAGES)
    it(`answers every key in ${lang} as i18next does`, () => {
      const ours = tFor(lang) as unknown as (key: string, options?: unknown) => unknown;
      const theirs = reference.get(lang)!;
      const values = Object.fromEntries(NAMES.map((n) => [n, `<${n}>`]));
      let compared = 0;
      for (const key of [...bases, "no.such.key"]) {
        for (const options of [
          undefined,
          values,
          { ...values, count: 0 },
          { ...values, count: 1 },
          { ...values, count: 2 },
          { ...values, count: 1_000_000 },
          { amount: "$1.00" },
        ]) {
          expect(ours(key, options), `${lang} ${key} ${JSON.stringify(options)}`).toEqual(theirs(key, options));
          compared++;
        }
        expect(ours(key), `${lang} ${key} twice`).toEqual(theirs(key));
      }
      expect(compared).toBeGreaterThan(3_500);
    });
});
