import { describe, expect, it } from "vitest";
import { CATALOGUES } from "../../../app/i18n/catalogues.server";
import { LANGUAGES, tFor } from "../../../app/i18n/i18n";
import { localiseFieldErrors } from "../../../app/i18n/validation";
import { fieldsFromIssues } from "../../../app/server/platform/api.server";
import { WaitlistInput } from "../../../app/server/intake/write-store.server";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** The {{placeholders}} and <tags> a message uses: a translation must keep every one. */
function slots(message: string): string[] {
  return [...message.matchAll(/\{\{\w+\}\}|<\/?\w+>/g)].map((m) => m[0]).sort();
}

describe("message catalogues", () => {
  const flat = Object.fromEntries(LANGUAGES.map((lang) => [lang, flatten(CATALOGUES[lang] as Tree)]));

  it("have the same keys in English and Spanish, none empty", () => {
    const en = [...flat.en.keys()].sort();
    const es = [...flat.es.keys()].sort();
    expect(es).toEqual(en);
    expect(en.length).toBeGreaterThan(80);
    for (const lang of LANGUAGES) {
      for (const [key, value] of flat[lang]) expect(value.trim(), `${lang}:${key}`).not.toBe("");
    }
  });

  it("keep each message's placeholders and markup in the translation", () => {
    for (const [key, english] of flat.en) expect(slots(flat.es.get(key)!), key).toEqual(slots(english));
  });

  it("translate the sentences: a Spanish value equal to the English one is only a name", () => {
    const same = [...flat.en].filter(([key, english]) => flat.es.get(key) === english).map(([key]) => key);
    // "No" and "Error:" are the same words in both languages.
    expect(same.sort()).toEqual(["compare.no", "county.errorPrefix", "meta.pageTitle", "meta.siteName", "site.brand"]);
  });

  it("render through i18next with interpolation, in each language", () => {
    expect(tFor("en")("error.statusTitle", { status: 503 })).toBe("Something went wrong (503)");
    expect(tFor("es")("error.statusTitle", { status: 503 })).toBe("Algo salió mal (503)");
    expect(tFor("es")("meta.pageTitle", { page: "Privacidad" })).toBe("Privacidad | Health Plan Marketplace");
  });
});

describe("form validation messages in the page's language", () => {
  it("the waitlist schema's messages are catalogue entries, so a Spanish page shows them in Spanish", () => {
    const cases = [
      { email: "", zip: "123", interest: "consumer" },
      { email: "not-an-address", zip: "12345", interest: "consumer" },
      { email: `${"a".repeat(250)}@example.com`, zip: "12345", interest: "consumer" },
    ];
    const english = new Set(Object.values(CATALOGUES.en.validation));
    for (const values of cases) {
      const parsed = WaitlistInput.safeParse(values);
      expect(parsed.success).toBe(false);
      const fields = fieldsFromIssues(parsed.error!.issues);
      for (const message of Object.values(fields)) expect(english, message).toContain(message);
    }
  });

  it("maps known messages to Spanish, keeps unknown ones, and fixes the interest question", () => {
    const t = tFor("es");
    expect(
      localiseFieldErrors(
        {
          email: "Enter your email address.",
          zip: "Enter a 5-digit ZIP code.",
          other: "Something new.",
          interest: "x",
        },
        t,
        { interest: "validation.interestChoose" },
      ),
    ).toEqual({
      email: "Escriba su correo electrónico.",
      zip: "Escriba un código postal de 5 dígitos.",
      other: "Something new.",
      interest: "Elija qué lo trae por aquí.",
    });
  });
});
