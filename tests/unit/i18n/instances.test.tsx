import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { tFor, type Language } from "../../../app/i18n/i18n";
import { PageLanguage } from "../../../app/i18n/language-context";
import { resolveLanguage } from "../../../app/i18n/language.server";
import { useT } from "../../../app/i18n/use-t";
import { useWords, wordsFor, type Words } from "../../../app/components/plans/format";

/**
 * Issue 29 item 1: i18n is set up once per language. Two requests in the same language get the
 * same translate function and Words; rendering a page builds no translator, wrapper or catalogue
 * copy of its own (the translate function is app/i18n/translate.ts, i18next is not run).
 */

const request = (headers: Record<string, string>) => new Request("http://127.0.0.1/plans", { headers });

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
    expect(tFor(first)).toBe(tFor(second));
    expect(wordsFor(first)).toBe(wordsFor(second));
    // One per language, not one for all: English and Spanish words differ.
    expect(tFor("en")).not.toBe(tFor("es"));
    expect(tFor("es")("site.nav.plans")).not.toBe(tFor("en")("site.nav.plans"));
  });

  it("renders pages with the shared translate function of their language", () => {
    const a = renderSeen("es");
    const b = renderSeen("es");
    const english = renderSeen("en");
    expect(a.t).toBe(tFor("es"));
    expect(b.t).toBe(a.t);
    expect(b.words).toBe(a.words);
    expect(english.t).toBe(tFor("en"));
    expect(a.html).toBe(b.html);
    expect(a.html).toContain(tFor("es")("site.brand"));
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

describe("Trans (a sentence with elements inside)", () => {
  it("draws each named part with its element and the rest as text", async () => {
    const { Trans } = await import("../../../app/i18n/trans");
    const t = ((key: string, values?: Record<string, string>) =>
      key === "x"
        ? `Go <home>back</home> or <plans>see {{n}} plans</plans>; <b>bold</b> <odd>.`
        : `${key}${values}`) as never;
    const html = renderToString(
      createElement(Trans, {
        t,
        i18nKey: "x",
        components: { home: createElement("a", { href: "/" }), plans: createElement("a", { href: "/plans" }) },
      }),
    );
    expect(html).toBe('Go <a href="/">back</a> or <a href="/plans">see {{n}} plans</a>; bold &lt;odd&gt;.');
  });
});
