import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startServer, type RunningServer } from "../helpers/server";
import { hasHorizontalScroll, launchBrowser, screenshot, seriousAxeViolations, watchedPage } from "./browser";
import { axeWithoutJavaScript } from "./journey-support";

/**
 * Issue 17 item 3 at phone width (360 × 780), with JavaScript on and off: the
 * household and savings estimate compact above the list (their details in
 * native disclosures), the first plan card within a screen and a half, the
 * list in pages of 10 with plain page links, and "Back to all plans" on a
 * plan page returning to the same page of the list, at the plan's card.
 */

const PHONE = { width: 360, height: 780 };
// A family of three in Dallas County, TX (32 plans: pages 1–10, 11–20, 21–30, 31–32), with a hardship
// exemption so the 2 catastrophic plans are listed too (decision 313).
const FAMILY =
  "zip=75201&county=48113&state=TX&income=60000&hardship_exemption=yes" +
  "&age=40&tobacco=no&pregnant=no&rel=self&age=38&tobacco=no&pregnant=no&rel=spouse" +
  "&age=10&tobacco=no&pregnant=no&rel=child";

let server: RunningServer;
let browser: Browser;
/** The whole list as the API orders it (premium after credit, lowest first). */
let ordered: Array<{ id: string; name: string }>;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const answer = await fetch(`${server.url}/api/plans`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      income: 60000,
      household: {
        people: [
          { age: 40, relationship: "self" },
          { age: 38, relationship: "spouse" },
          { age: 10, relationship: "child" },
        ],
      },
      place: { state: "TX", county_fips: "48113", zip: "75201" },
      hardship_exemption: true,
      limit: 100,
    }),
  }).then((r) => r.json() as Promise<{ plan_count: number; plans: Array<{ id: string; name: string }> }>);
  expect(answer.plan_count).toBe(32);
  ordered = answer.plans;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");
const cardIds = (page: Page) => page.locator(".plan-card").evaluateAll((cards) => cards.map((c) => c.id));

/** After a full load, or a client-side navigation (its URL can change before React shows the new page: callers poll). */
async function settle(page: Page, javaScript: boolean) {
  await page.waitForLoadState(javaScript ? "networkidle" : "load");
}

describe("results that fit a phone, in pages", () => {
  for (const javaScript of [false, true]) {
    it(`first card within 1.5 screens, page links, and Back from a plan returns to its page and card (JavaScript ${javaScript ? "on" : "off"})`, async () => {
      const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport: PHONE });
      try {
        const { page, problems } = await watchedPage(context);
        const response = await page.goto(`${server.url}/plans?${FAMILY}`);
        expect(response?.status()).toBe(200);
        await settle(page, javaScript);

        // The first card's top within 1.5 × the viewport's height.
        const top = await page
          .locator(".plan-card")
          .first()
          .evaluate((card) => card.getBoundingClientRect().top);
        expect(top).toBeLessThanOrEqual(1.5 * PHONE.height);
        expect(await hasHorizontalScroll(page)).toBe(false);
        // The savings estimate's details fold away and open without JavaScript (a native disclosure).
        const more = page.locator(".savings-details > summary");
        await expect(page.locator(".savings-details").getAttribute("open")).resolves.toBeNull();
        await more.click();
        await expect(page.locator(".savings-details").getAttribute("open")).resolves.toBe("");
        await more.click();

        // Page 1: the first ten plans of the list, then the page links.
        await expect.poll(() => cardIds(page)).toEqual(ordered.slice(0, 10).map((p) => `plan-${p.id}`));
        await expect(page.getByTestId("plan-count").textContent()).resolves.toContain("Plans 1–10 of 32.");
        const pager = page.getByRole("navigation", { name: "Pages of plans" });
        await expect(pager.locator("[aria-current=page]").textContent()).resolves.toBe("Page 1");

        // Page 2 by its link (a plain link: the same with JavaScript off).
        await pager.getByRole("link", { name: "Next page of plans" }).click();
        await page.waitForURL(/[?&]page=2(&|#|$)/);
        await settle(page, javaScript);
        await expect.poll(() => cardIds(page)).toEqual(ordered.slice(10, 20).map((p) => `plan-${p.id}`));
        await expect(page.getByTestId("plan-count").textContent()).resolves.toContain("Plans 11–20 of 32.");
        // With JavaScript the new page's list heading takes focus (where reading goes on).
        if (javaScript) await expect.poll(() => activeId(page)).toBe("plans-heading");
        const violations = javaScript ? await seriousAxeViolations(page) : await axeWithoutJavaScript(browser, page);
        expect(violations).toEqual([]);

        // A plan far down page 2, then its page's "Back to all plans".
        const chosen = ordered[17];
        await page.getByRole("link", { name: `Plan details for ${chosen.name}` }).click();
        await page.waitForURL(new RegExp(`/plans/${chosen.id}\\?.*page=2`));
        await settle(page, javaScript);
        await expect.poll(() => page.locator("h1").textContent()).toBe(chosen.name);
        await page.getByRole("link", { name: "← Back to all plans" }).first().click();
        await page.waitForURL(new RegExp(`/plans\\?.*page=2.*#plan-${chosen.id}$`));
        await settle(page, javaScript);
        await expect.poll(() => cardIds(page)).toEqual(ordered.slice(10, 20).map((p) => `plan-${p.id}`));
        // The chosen plan's card is on screen (the list was not reloaded at its top).
        const cardTop = () => page.locator(`#plan-${chosen.id}`).evaluate((c) => c.getBoundingClientRect().top);
        await expect.poll(async () => (await cardTop()) >= -1 && (await cardTop()) < PHONE.height).toBe(true);
        // With JavaScript focus is on the plan's name in its card (without, the browser's fragment target is).
        if (javaScript) await expect.poll(() => activeId(page)).toBe(`plan-${chosen.id}-name`);

        if (javaScript) {
          // The browser's Back from a plan page: the same page of the list too.
          await page.getByRole("link", { name: `Plan details for ${chosen.name}` }).click();
          await page.waitForURL(new RegExp(`/plans/${chosen.id}\\?`));
          await settle(page, javaScript);
          await page.goBack();
          await page.waitForURL(/[?&]page=2/);
          await settle(page, javaScript);
          await expect.poll(() => cardIds(page)).toEqual(ordered.slice(10, 20).map((p) => `plan-${p.id}`));
        }

        // The last page holds the rest; a page past the end shows the last page.
        await page.goto(`${server.url}/plans?${FAMILY}&page=9`);
        await settle(page, javaScript);
        await expect.poll(() => cardIds(page)).toEqual(ordered.slice(30).map((p) => `plan-${p.id}`));
        await expect(page.getByTestId("plan-count").textContent()).resolves.toContain("Plans 31–32 of 32.");
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it("screenshot of the results at 360 px (tests/artifacts/results-360-after.png)", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/plans?${FAMILY}`, { waitUntil: "networkidle" });
      await screenshot(page, "results-360-after");
    } finally {
      await context.close();
    }
  });
});
