import { createElement } from "react";
import { renderToString } from "react-dom/server";
import i18next from "i18next";
import { afterEach, describe, expect, it, vi } from "vitest";
import { i18nContextValue, i18nFor, tFor, type Language } from "../../../app/i18n/i18n";
import { PageLanguage } from "../../../app/i18n/language-context";
import { resolveLanguage } from "../../../app/i18n/language.server";
import { useT } from "../../../app/i18n/use-t";
import { useWords, wordsFor, type Words } from "../../../app/components/plans/format";

/**
 * Issue 29 item 1: i18n is set up once per language. Two requests in the same language get the
 * same i18next instance, translate function, react-i18next context value and Words; rendering a
 * page builds no instance, wrapper or catalogue copy of its own.
 */

const request = (headers: Record<string, string>) => new Request("http://127.0.0.1/plans", { headers });

afterEach(() => vi.restoreAllMocks());

/** What one server render of a component in `lang` sees from useT() and useWords(). */
function renderSeen(lang: Language): { t: unknown; words: Words; html: string } {
  const seen: { t?: unknown; words?: Words } = {};
  function Probe() {
    const t = useT();
    seen.t = t;
    seen.words = useWords();
    return createElement("p", null, t("site.brand"));
  }
  const html = renderToString(createElement(PageLanguage.Provider, { value: lang }, createElement(Probe)));
  return { t: seen.t, words: seen.words!, html };
}

describe("i18n set up once per language", () => {
  it("gives two requests in the same language the same objects", () => {
    const first = resolveLanguage(request({ "Accept-Language": "es-MX" })).lang;
    const second = resolveLanguage(request({ Cookie: "lang=es" })).lang;
    expect(first).toBe("es");
    expect(second).toBe("es");
    expect(i18nFor(first)).toBe(i18nFor(second));
    expect(tFor(first)).toBe(tFor(second));
    expect(i18nContextValue(first)).toBe(i18nContextValue(second));
    expect(wordsFor(first)).toBe(wordsFor(second));
    // One per language, not one for all: English and Spanish words differ.
    expect(i18nFor("en")).not.toBe(i18nFor("es"));
    expect(tFor("es")("site.nav.plans")).not.toBe(tFor("en")("site.nav.plans"));
  });

  it("renders pages with the shared translate function and builds no i18next instance per render", () => {
    // Made before the spy: the first use of a language may make its instance, once.
    i18nFor("en");
    i18nFor("es");
    const createInstance = vi.spyOn(i18next, "createInstance");
    const cloneInstance = vi.spyOn(i18nFor("es"), "cloneInstance");
    const getFixedT = vi.spyOn(i18nFor("es"), "getFixedT");
    const a = renderSeen("es");
    const b = renderSeen("es");
    const english = renderSeen("en");
    expect(a.t).toBe(tFor("es"));
    expect(b.t).toBe(a.t);
    expect(b.words).toBe(a.words);
    expect(english.t).toBe(tFor("en"));
    expect(a.html).toBe(b.html);
    expect(createInstance).not.toHaveBeenCalled();
    expect(cloneInstance).not.toHaveBeenCalled();
    expect(getFixedT).not.toHaveBeenCalled();
  });

  it("renders English where no Layout provides a language", () => {
    const seen: { t?: unknown } = {};
    function Probe() {
      seen.t = useT();
      return null;
    }
    renderToString(createElement(Probe));
    expect(seen.t).toBe(tFor("en"));
  });
});
