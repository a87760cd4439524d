import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startServer, type RunningServer } from "../helpers/server";
import { startFakeUpstream, type FakeUpstream } from "../../mocks/cms-api/index";
import { hasHorizontalScroll, launchBrowser, screenshot, seriousAxeViolations, watchedPage } from "./browser";
import { axeWithoutJavaScript, suggestions, usd } from "./journey-support";

/**
 * The upstream (the federal Marketplace API) is down: doctor search says so,
 * drug search answers from our own drug names (saying some may be missing),
 * and the federal-state subsidy estimate is our own, saying so
 * (docs/decisions/205), so plans keep their credit. NY, priced and estimated
 * from own data, keeps its credit too.
 */

const KEY = "journey-outage-key-0123456789";

let fake: FakeUpstream;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  fake = await startFakeUpstream({ apiKey: KEY });
  server = await startServer({
    env: { MARKETPLACE_API_KEY: KEY, MARKETPLACE_API_BASE_URL: fake.url, UPSTREAM_IS_SAMPLE: "1" },
  });
  browser = await launchBrowser();
  await fake.setMode("refuse");
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.close();
});

const TX_RESULTS = "/plans?zip=75201&county=48113&state=TX&income=36000&age=35";

describe("upstream down", () => {
  for (const javaScriptEnabled of [false, true]) {
    it(`keeps prices with our own estimate, and drug search answers from our own names (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async () => {
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 360, height: 780 } });
      try {
        const { page, problems } = await watchedPage(context);
        const res = await page.goto(`${server.url}${TX_RESULTS}&drug=617318:Lipitor%2020%20mg`, {
          waitUntil: javaScriptEnabled ? "networkidle" : "load",
        });
        expect(res?.status()).toBe(200);

        // The federal estimate cannot be made: said so, and every plan at its full price.
        const api = await fetch(`${server.url}/api/plans`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            income: 36000,
            household: { people: [{ age: 35 }] },
            place: { state: "TX", county_fips: "48113", zip: "75201" },
            // With a drug chosen the page's list is "Lowest cost for me" (issue 26).
            drugs: [{ rxcui: "617318" }],
            sort: "my_yearly_cost",
          }),
        }).then(
          (r) =>
            r.json() as Promise<{
              eligibility: { source: string; upstream: string; aptc: number } | null;
              eligibility_unavailable: string | null;
              plans: Array<{ premium: number; premium_w_credit: number }>;
            }>,
        );
        // The federal estimate cannot be made: our own stands in, saying so, and prices carry its credit.
        expect(api.eligibility).toMatchObject({ source: "own", upstream: "unavailable" });
        expect(api.eligibility?.aptc).toBeGreaterThan(0);
        const summary = (await page.getByTestId("eligibility-summary").textContent()) ?? "";
        expect(summary).toContain("Our own estimate");
        expect(summary).toContain("the federal Marketplace did not answer");
        const premiums = await page.locator(".plan-card [data-testid=premium-after-credit]").allTextContents();
        // The first page of the list (10 plans, docs/decisions/250).
        expect(premiums).toHaveLength(10);
        expect(premiums).toEqual(api.plans.slice(0, 10).map((p) => usd(p.premium_w_credit)));

        // The chosen drug's coverage is unknown on every plan, never "not covered".
        await expect(page.locator("#drugs .notice").textContent()).resolves.toContain(
          "We could not check drug coverage right now",
        );
        const lines = await page.locator(".plan-card .coverage-lines li").allTextContents();
        expect(lines).toHaveLength(10);
        for (const line of lines) expect(line).toContain("Unknown: the coverage check is unavailable right now");

        // The pickers fold to one line once a drug is chosen (issue 28 item 1): open them to search again.
        await page.locator(".drugs-doctors > summary").click();
        if (javaScriptEnabled) {
          await page.getByRole("combobox", { name: "Drug name" }).click();
          await page.keyboard.type("metf", { delay: 60 });
          // Our own drug names answer: suggestions, marked as possibly incomplete.
          await expect
            .poll(() => page.locator("#drugq-status").textContent(), { timeout: 10_000 })
            .toContain("Some results may be missing");
          expect(await suggestions(page).count()).toBeGreaterThan(0);
        } else {
          await page.getByLabel("Drug name").fill("metf");
          await page.getByRole("button", { name: "Search drugs" }).click();
          await page.waitForURL(/drugq=metf/);
          await expect(page.locator("#drugs-results").textContent()).resolves.toContain("Some results may be missing");
          await expect(page.locator("#drugs-results").textContent()).resolves.toContain("metformin");
          await page.getByLabel("Doctor or facility name").fill("pembrook");
          await page.getByRole("button", { name: "Search doctors" }).click();
          await page.waitForURL(/doctorq=pembrook/);
          await expect(page.locator("#doctors-results").textContent()).resolves.toContain(
            "Doctor search is unavailable right now",
          );
          expect(await page.locator(".plan-card").count()).toBe(10);
        }
        expect(await hasHorizontalScroll(page)).toBe(false);
        expect(
          javaScriptEnabled ? await seriousAxeViolations(page) : await axeWithoutJavaScript(browser, page),
        ).toEqual([]);
        await screenshot(page, `journey-outage-results-js-${javaScriptEnabled ? "on" : "off"}`);
        expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  }

  it("keeps New York's own estimate: the credit still shows while the upstream is down", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 780 } });
    try {
      const { page } = await watchedPage(context);
      await page.goto(`${server.url}/plans?zip=12203&county=36001&state=NY&income=60000&age=40`);
      const summary = (await page.getByTestId("eligibility-summary").textContent()) ?? "";
      expect(summary).not.toContain("We could not estimate");
      expect(summary).toMatch(/You could get a tax credit of \$[\d,]+\.\d\d a month/);
      const first = page.locator(".plan-card").first();
      await expect(first.locator("[data-testid=premium-after-credit]").textContent()).resolves.toMatch(
        /^\$[\d,]+\.\d\d$/,
      );
      await expect(first.locator(".card-figures").textContent()).resolves.toMatch(/before your \$[\d,]+\.\d\d credit/);
    } finally {
      await context.close();
    }
  }, 60_000);
});
