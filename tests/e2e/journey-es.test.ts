import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CATALOGUES } from "../../app/i18n/catalogues.server";
import { englishFound } from "../helpers/english-scan";
import { startServer, type RunningServer } from "../helpers/server";
import { launchBrowser, seriousAxeViolations, watchedPage } from "./browser";

/**
 * Issue 21: the shopping journey in Spanish in chromium against the built server, with JavaScript
 * off and on: ZIP → county → household → results → drug → plan page → compare. Every page answers
 * `<html lang="es">` with no English sentence of the catalogue; with JavaScript on, axe finds no
 * serious or critical violation in Spanish. The "Español / English" link switches both ways and
 * keeps the household, the filters, the drugs and the doctors.
 */

const PHONE = { width: 360, height: 780 };
/** Carrollton, TX: in Denton, Dallas and Collin counties. */
const MULTI_COUNTY_ZIP = "75007";
const es = CATALOGUES.es;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The page's h1, once it reads `text` (with JavaScript a navigation changes the URL before the page). */
async function expectHeading(page: Page, text: string): Promise<void> {
  await page.locator("h1", { hasText: text }).first().waitFor({ timeout: 15_000 });
  expect(((await page.locator("h1").first().textContent()) ?? "").trim()).toBe(text);
}

/** Every page of the Spanish journey: Spanish document, no English catalogue sentence, axe with JavaScript on. */
async function checkSpanish(page: Page, name: string, javaScript: boolean, problems: string[], status = 200) {
  await expect(page.locator("html").getAttribute("lang"), `${name}: <html lang>`).resolves.toBe("es");
  expect(englishFound(await page.content()), `${name}: English sentences`).toEqual([]);
  if (javaScript) expect(await seriousAxeViolations(page, 45_000), `${name}: axe`).toEqual([]);
  const expected = `console: Failed to load resource: the server responded with a status of ${status}`;
  expect(
    problems.filter((p) => status === 200 || !p.startsWith(expected)),
    `${name}: console errors`,
  ).toEqual([]);
}

async function phone(javaScriptEnabled: boolean): Promise<BrowserContext> {
  return browser.newContext({ javaScriptEnabled, viewport: PHONE, locale: "es-US" });
}

for (const javaScript of [false, true]) {
  const how = javaScript ? "JavaScript on" : "JavaScript off";
  describe(`the journey in Spanish, ${how}`, () => {
    it("goes from the Spanish home page to a compare table of three plans, in Spanish all the way", async () => {
      const context = await phone(javaScript);
      try {
        const { page, problems } = await watchedPage(context);
        await page.goto(`${server.url}/?lang=es`);
        await checkSpanish(page, "home", javaScript, problems);

        // ZIP → county (the ZIP is in three counties); the form carries lang.
        await page.getByLabel(es.zipForm.label).fill(MULTI_COUNTY_ZIP);
        await page.getByRole("button", { name: es.zipForm.submit, exact: true }).click();
        await page.waitForURL(/\/plans\?.*zip=75007/);
        expect(new URL(page.url()).searchParams.get("lang")).toBe("es");
        await expectHeading(page, es.results.title.county);
        await checkSpanish(page, "county", javaScript, problems);
        await page.getByLabel(/Dallas County, TX/).check();
        await page.getByRole("button", { name: es.county.continue }).click();

        // Household and income.
        await page.waitForURL(/county=48113/);
        await expectHeading(page, es.results.title.household);
        await checkSpanish(page, "household", javaScript, problems);
        await page.getByLabel(es.householdForm.age, { exact: true }).fill("35");
        await page.getByLabel(es.householdForm.incomeLabel).fill("36,000");
        await page.getByRole("button", { name: es.householdForm.submit }).click();

        // Results.
        await page.waitForURL(/income=/);
        await expectHeading(page, "Planes en Dallas County, TX");
        const summary = (await page.getByTestId("eligibility-summary").textContent()) ?? "";
        expect(summary).toMatch(/Usted podría recibir un crédito fiscal para la prima de \$[\d,]+\.\d{2} al mes/);
        expect(summary).toContain("Su nivel de ahorro: los planes de plata tienen");
        await checkSpanish(page, "results", javaScript, problems);

        // A drug, by the search form (JavaScript off) or the combobox (on).
        await page.getByText(es.drugsDoctors.check).click();
        await page.getByLabel(es.picker.drug.label).fill("lipi");
        if (javaScript) {
          const option = page.locator("[role=listbox]:not([hidden]) [role=option]").first();
          await option.waitFor();
          await option.click();
        } else {
          await page.getByRole("button", { name: es.picker.drug.button }).click();
          await page.waitForURL(/drugq=lipi/);
          await checkSpanish(page, "drug-search", javaScript, problems);
          await page.getByRole("link", { name: "Agregar Lipitor 20 mg" }).click();
        }
        await page.waitForURL(/drug=617318/);
        // With JavaScript the address changes before the page: wait for the chip and the cards' coverage lines.
        await page.getByRole("button", { name: "Quitar Lipitor 20 mg" }).waitFor();
        await page.locator(".plan-card .coverage-lines li").first().waitFor({ state: "attached" });
        const words = await page.locator(".plan-card .coverage-lines li").allTextContents();
        expect(words.length).toBeGreaterThan(0);
        expect(words.every((w) => /Lipitor 20 mg: (Cubierto|No cubierto|Se desconoce)/.test(w))).toBe(true);
        await checkSpanish(page, "results-with-drug", javaScript, problems);

        // The plan page.
        const firstName = ((await page.locator(".plan-card .plan-name").first().textContent()) ?? "").trim();
        await page.getByRole("link", { name: `${es.planCard.details} para ${firstName}` }).click();
        await page.waitForURL(/\/plans\/[^/?]+\?/);
        await expectHeading(page, firstName);
        expect(new URL(page.url()).searchParams.get("lang")).toBe("es");
        await expect(page.locator("main").textContent()).resolves.toContain(es.planPage.costHeading);
        await checkSpanish(page, "plan", javaScript, problems);
        await page
          .getByRole("link", { name: `← ${es.planPage.backToPlans}` })
          .first()
          .click();
        await page.waitForURL(/\/plans\?/);
        await expectHeading(page, "Planes en Dallas County, TX");
        await page.locator(".plan-card .plan-name").first().waitFor();

        // Compare three plans.
        const names = (await page.locator(".plan-card .plan-name").allTextContents()).slice(0, 3).map((n) => n.trim());
        for (const name of names) await page.getByLabel(`${es.planCard.compare} ${name}`).check();
        await page.getByRole("button", { name: es.results.compareButton }).first().click();
        // With JavaScript the tray navigates in the page (no load event): wait for the compare page's heading.
        await expectHeading(page, "Comparar 3 planes");
        expect(new URL(page.url()).pathname).toBe("/plans/compare");
        const drugCells = await page.locator("tr[data-row='drug-617318'] td").allTextContents();
        expect(drugCells).toHaveLength(3);
        await checkSpanish(page, "compare", javaScript, problems);
      } finally {
        await context.close();
      }
    }, 300_000);

    it("the language link switches both ways, keeping the household, filters, drugs and doctors", async () => {
      const context = await phone(javaScript);
      try {
        const { page } = await watchedPage(context);
        const start =
          "/plans?zip=75201&county=48113&state=TX&income=36000&age=35&tobacco=no&pregnant=no&rel=self" +
          "&metal=Silver&drug=617318:Lipitor%2020%20mg&npi=1480000003:Tobias%20Pembrook&lang=es";
        await page.goto(server.url + start);
        await expectHeading(page, "Planes en Dallas County, TX");
        const kept = (url: string) => {
          const params = new URL(url).searchParams;
          return {
            zip: params.get("zip"),
            income: params.get("income"),
            ages: params.getAll("age"),
            metal: params.getAll("metal"),
            drugs: params.getAll("drug"),
            doctors: params.getAll("npi"),
          };
        };
        const before = kept(page.url());

        await page.getByTestId("language-link").click();
        await page.waitForURL(/lang=en/);
        await expect(page.locator("html").getAttribute("lang")).resolves.toBe("en");
        await expectHeading(page, "Plans in Dallas County, TX");
        expect(kept(page.url())).toEqual(before);
        // The chips are in the folded drugs-and-doctors line (issue 28 item 1).
        await expect(
          page.getByRole("button", { name: "Remove Lipitor 20 mg", includeHidden: true }).count(),
        ).resolves.toBe(1);
        // The chips are in the folded drugs-and-doctors line (issue 28 item 1).
        await expect(
          page.getByRole("button", { name: "Remove Tobias Pembrook", includeHidden: true }).count(),
        ).resolves.toBe(1);
        await expect(page.locator("#metal-Silver").isChecked()).resolves.toBe(true);

        await page.getByTestId("language-link").click();
        await page.waitForURL(/lang=es/);
        await expect(page.locator("html").getAttribute("lang")).resolves.toBe("es");
        await expectHeading(page, "Planes en Dallas County, TX");
        expect(kept(page.url())).toEqual(before);
        // The chips are in the folded drugs-and-doctors line (issue 28 item 1).
        await expect(
          page.getByRole("button", { name: "Quitar Lipitor 20 mg", includeHidden: true }).count(),
        ).resolves.toBe(1);
        // The chips are in the folded drugs-and-doctors line (issue 28 item 1).
        await expect(
          page.getByRole("button", { name: "Quitar Tobias Pembrook", includeHidden: true }).count(),
        ).resolves.toBe(1);
        await expect(page.locator("#metal-Silver").isChecked()).resolves.toBe(true);
        expect(englishFound(await page.content())).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  });
}
