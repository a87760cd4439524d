/**
 * /renew in a real browser with JavaScript off (issue 27): linked from the home page, the plan
 * picked after the ZIP, the answer in one screen, in English and Spanish; and with JavaScript on,
 * the same answer without console errors.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";
import { launchBrowser, screenshot, seriousAxeViolations, watchedPage } from "./browser";

describe("/renew", () => {
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

  for (const javaScriptEnabled of [false, true]) {
    it(`JavaScript ${javaScriptEnabled ? "on" : "off"}: home → /renew → ZIP → pick the plan → the answer`, async () => {
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 360, height: 740 } });
      try {
        const { page, problems } = await watchedPage(context);
        await page.goto(`${server.url}/?lang=en`, { waitUntil: "load" });
        await page.getByRole("link", { name: /See what it becomes next year/ }).click();
        await page.locator("h1", { hasText: "Your plan next year" }).waitFor();
        await page.getByLabel("ZIP code where you live").fill("75201");
        await page.getByRole("button", { name: "Show my plan next year" }).click();
        await page.getByLabel("Or pick your 2026 plan").waitFor();
        // The 2026 plans of Texas to pick from, by insurer.
        await page.getByLabel("Or pick your 2026 plan").selectOption("10101TX0019001");
        await page.getByLabel(/Ages of everyone covered/).fill("40");
        await page.getByLabel(/Expected household income in 2027/).fill("38000");
        await page.getByLabel(/Your drugs/).fill("atorvastatin");
        await page.getByRole("button", { name: "Show my plan next year" }).click();
        const answer = page.locator("section.renew-answer");
        await answer.waitFor();
        await expect(answer.textContent()).resolves.toContain("Your plan becomes Bluebonnet Bronze Essential");
        const text = (await answer.textContent()) ?? "";
        expect(text).toMatch(/About \$\d[\d,]*\.\d\d a month after your tax credit in 2027 \(was \$\d[\d,]*\.\d\d\)/);
        expect(text).toMatch(/Deductible \$6,500\.00 \(was \$6,200\.00\)/);
        expect(text).toContain("atorvastatin");
        expect(text).toContain("Plans that would cost you less");
        await expect(page.locator("#renew-rules").textContent()).resolves.toContain("Renewal rules for 2027 coverage");
        if (javaScriptEnabled) await page.waitForLoadState("networkidle");
        expect(problems).toEqual([]);
        await screenshot(page, `renew-js-${javaScriptEnabled ? "on" : "off"}`);
      } finally {
        await context.close();
      }
    });
  }

  it("JavaScript off, Spanish: an insurer leaving says where the Marketplace moves you; a plan without successor says so", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const { page } = await watchedPage(context);
      await page.goto(`${server.url}/renew?lang=es&zip=75201&plan=50102TX0010001&ages=40&income=38000`);
      await expect(page.locator("html").getAttribute("lang")).resolves.toBe("es");
      const answer = (await page.locator("section.renew-answer").textContent()) ?? "";
      expect(answer).toContain(
        "Su aseguradora se retira: el Mercado lo pasa a Gulf Prairie Silver de Gulf Prairie Health.",
      );
      expect(answer).toContain("Deducible");
      await page.goto(`${server.url}/renew?lang=es&zip=75201&plan=10202TX0029002&ages=40&income=38000`);
      const ended = (await page.locator("section.renew-answer").textContent()) ?? "";
      expect(ended).toContain("Su plan termina y ningún plan lo reemplaza");
      expect(ended).toContain("Planes con el menor costo anual para usted");
      await page.goto(`${server.url}/renew?lang=es&zip=75201&plan=99999TX0019999&ages=40&income=38000`);
      await expect(page.locator(".field-error").first().textContent()).resolves.toContain(
        "No encontramos ningún plan con este ID",
      );
    } finally {
      await context.close();
    }
  });

  it("has no serious accessibility violations with an answer shown", async () => {
    const context = await browser.newContext();
    try {
      const { page } = await watchedPage(context);
      await page.goto(`${server.url}/renew?lang=en&zip=75201&plan=10101TX0019001&ages=40&income=38000`, {
        waitUntil: "networkidle",
      });
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
