import { describe, expect, it } from "vitest";
import { languageFromAcceptLanguage, resolveLanguage } from "../../../app/i18n/language.server";
import { urlWithLanguage } from "../../../app/lib/language-url";
import { formatCents, formatDate, formatNumber, formatPercent, formatWholeDollars } from "../../../app/lib/format";

const request = (url: string, headers: Record<string, string> = {}) =>
  new Request(`http://127.0.0.1${url}`, { headers });

describe("language resolution: URL, then cookie, then Accept-Language", () => {
  it("takes lang from the URL over the cookie and the header, and keeps it in a cookie", () => {
    const got = resolveLanguage(request("/privacy?lang=es", { Cookie: "lang=en", "Accept-Language": "en-US" }));
    expect(got).toMatchObject({ lang: "es", source: "query" });
    expect(got.setCookie).toMatch(/^lang=es; Path=\/; Max-Age=31536000; SameSite=Lax; HttpOnly$/);
  });

  it("sends no cookie when the cookie already holds the URL's language, and marks it Secure behind https", () => {
    expect(resolveLanguage(request("/?lang=es", { Cookie: "a=1; lang=es" })).setCookie).toBeUndefined();
    expect(resolveLanguage(request("/?lang=en", { "X-Forwarded-Proto": "https" })).setCookie).toMatch(/; Secure$/);
  });

  it("uses the cookie over Accept-Language, and ignores languages the site does not have", () => {
    expect(resolveLanguage(request("/", { Cookie: "lang=en", "Accept-Language": "es" }))).toMatchObject({
      lang: "en",
      source: "cookie",
    });
    expect(resolveLanguage(request("/?lang=fr", { Cookie: "lang=xx", "Accept-Language": "es-MX" }))).toMatchObject({
      lang: "es",
      source: "header",
    });
    expect(resolveLanguage(request("/"))).toMatchObject({ lang: "en", source: "default" });
  });

  it("reads Accept-Language by quality, region-blind, skipping q=0", () => {
    expect(languageFromAcceptLanguage("es-US,es;q=0.9,en;q=0.8")).toBe("es");
    expect(languageFromAcceptLanguage("fr-FR, en;q=0.5, es;q=0.7")).toBe("es");
    expect(languageFromAcceptLanguage("es;q=0, en;q=0.1")).toBe("en");
    expect(languageFromAcceptLanguage("de, fr")).toBeUndefined();
    expect(languageFromAcceptLanguage("*")).toBe("en");
    expect(languageFromAcceptLanguage("es;q=abc")).toBeUndefined();
  });
});

describe("the language link's address", () => {
  it("keeps the path and every query parameter (repeated ones too), swapping lang", () => {
    expect(urlWithLanguage("/plans", "?zip=99501&drug=1&drug=2&lang=en", "es")).toBe(
      "/plans?zip=99501&drug=1&drug=2&lang=es",
    );
    expect(urlWithLanguage("/privacy", "", "es")).toBe("/privacy?lang=es");
    expect(urlWithLanguage("/privacy", "?lang=es", null)).toBe("/privacy");
    expect(urlWithLanguage("/", "?_data=root&a=b%20c", "en")).toBe("/?a=b+c&lang=en");
  });
});

describe("Intl formatting by language", () => {
  it("writes dollars to the cent in both languages, US style", () => {
    expect(formatCents(123456, "en")).toBe("$1,234.56");
    expect(formatCents(123456, "es")).toBe("$1,234.56");
    expect(formatCents(5, "es")).toBe("$0.05");
    expect(() => formatCents(1.5, "en")).toThrow(RangeError);
    expect(formatWholeDollars(52000, "es")).toBe("$52,000");
    expect(formatNumber(1234567.5, "es")).toBe("1,234,567.5");
    expect(formatPercent(0.0996, "es")).toBe("9.96%");
  });

  it("writes a calendar date in words without a time zone moving it", () => {
    expect(formatDate("2026-11-01", "en")).toBe("November 1, 2026");
    expect(formatDate("2026-11-01", "es")).toBe("1 de noviembre de 2026");
  });
});
