import { describe, expect, it } from "vitest";
import en from "../../../app/i18n/locales/en.json";
import { english, LATER } from "../../../app/i18n/english-core";
import { tFor } from "../../../app/i18n/i18n";
import { englishForBrowser } from "../../../app/i18n/english-browser";
import { readFileSync } from "node:fs";

describe("the English catalogue split for the browser (issue 29 item 4)", () => {
  it("puts every namespace of en.json in the core bundle or in the named later ones, never both", () => {
    const core = Object.keys(english);
    expect([...core, ...LATER].sort()).toEqual(Object.keys(en).sort());
    for (const ns of LATER) expect(core).not.toContain(ns);
  });

  it("keeps the core namespaces the same objects as the catalogue's", () => {
    for (const [ns, words] of Object.entries(english)) expect(words).toEqual(en[ns as keyof typeof en]);
  });

  it("words a later namespace once the catalogues are loaded (the server has all of English)", () => {
    // tests/setup-catalogues.ts loads every catalogue, as the server does.
    expect(tFor("en")("renew.homeLink")).toBe(en.renew.homeLink);
    expect(tFor("en")("legal.vendorsTitle")).toBe(en.legal.vendorsTitle);
  });

  it("gives the plan card every planPage word it asks for with the browser's core (the plan page brings the rest)", () => {
    const card = readFileSync(new URL("../../../app/components/plans/plan-card.tsx", import.meta.url), "utf8");
    const asked = [...card.matchAll(/planPage\.(\w+)/g)].map((m) => m[1]!);
    expect(asked.length).toBeGreaterThan(0);
    expect(card).not.toMatch(/`planPage\.\$\{/); // no key made at run time
    const given = englishForBrowser.planPage as Record<string, unknown>;
    for (const key of asked) expect(given[key], key).toBe(en.planPage[key as keyof typeof en.planPage]);
    expect(Object.keys(given).sort()).toEqual([...new Set(asked)].sort());
  });
});
