import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startServer, type RunningServer } from "../helpers/server";
import { hasHorizontalScroll, launchBrowser } from "./browser";
import { axeWithoutJavaScript } from "./journey-support";

/**
 * Issue 25 item 5 in chromium with JavaScript off, on a 360 px phone: the repayment table and the
 * credit form on the results page; typing half the credit and sending the form puts it in the URL
 * and every premium the credit covered rises by the rest (docs/decisions/320).
 */

const PHONE = { width: 360, height: 780 };
// Kings County NY, single 40 at $40,000, 2027: credit $617.07 a month.
const KINGS = "/plans?zip=11201&county=36047&state=NY&year=2027&income=40000&age=40&tobacco=no&pregnant=no&rel=self";

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

async function premiums(page: Page): Promise<Map<string, number>> {
  const rows = await page.$$eval("li.plan-card", (cards) =>
    cards.map((card) => [
      card.getAttribute("data-plan-id") ?? "",
      card.querySelector("[data-testid=premium-after-credit]")?.textContent ?? "",
    ]),
  );
  return new Map(rows.map(([id, text]) => [id, Number(text.replace(/[$,\s]/g, ""))]));
}

describe("the credit taken in advance, JavaScript off", () => {
  it("the form changes the premiums after credit", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}${KINGS}`);
      const section = page.getByTestId("repayment-risk");
      // Folded to one line above the list (issue 28 item 1): open it.
      await page.locator(".repayment-details > summary").click();
      await expect(section.isVisible()).resolves.toBe(true);
      // 12 × 617.07 = 7,404.84 taken in advance and, over 4 × 15,960 = $63,840, all paid back.
      await expect(section.locator("tr[data-scenario=above_400_fpl]").textContent()).resolves.toContain("$7,404.84");
      expect(await hasHorizontalScroll(page)).toBe(false);
      expect(await axeWithoutJavaScript(browser, page)).toEqual([]);
      const before = await premiums(page);

      // Half the credit, as typed: 617.07 / 2 → 308.54; the rest, 308.53, is added to each premium.
      await page.getByLabel(/Credit to take each month/).fill("308.54");
      await Promise.all([
        page.waitForURL(/aptc_applied=308\.54/),
        page.getByRole("button", { name: "Use this amount" }).click(),
      ]);
      await expect(page.getByTestId("plan-count").textContent()).resolves.toContain(
        "Prices use $308.54 of your $617.07 monthly tax credit.",
      );
      const after = await premiums(page);
      let covered = 0;
      for (const [id, was] of before) {
        const now = after.get(id);
        if (now === undefined || was === 0) continue;
        expect(Math.round((now - was) * 100) / 100, id).toBe(308.53);
        covered += 1;
      }
      expect(covered).toBeGreaterThan(0);
      // The form shows the amount now used, and the table follows it: 12 × 308.54 = 3,702.48.
      await expect(page.getByLabel(/Credit to take each month/).inputValue()).resolves.toBe("308.54");
      await expect(
        page.getByTestId("repayment-risk").locator("tr[data-scenario=above_400_fpl]").textContent(),
      ).resolves.toContain("$3,702.48");
    } finally {
      await context.close();
    }
  });
});
