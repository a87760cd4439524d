import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * Decision 440: the results page's filters, pickers and pager are the server's plain HTML until
 * first used. What the visitor does before their code is in is done once it is: a filter ticked,
 * text typed in a picker, a click on a page link — each as the live part does it, in the same
 * document (no page load), and without an error.
 */
const RESULTS = "/plans?zip=75201&county=48113&state=TX&income=36000&age=35&tobacco=no&pregnant=no&rel=self";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A fresh results page with JavaScript, marked so that a page load would show. */
async function freshPage(problems: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  await page.goto(`${server.url}${RESULTS}`, { waitUntil: "networkidle" });
  await page.evaluate(() => Object.assign(window, { liveMarker: "same document" }));
  return page;
}

const sameDocument = (page: Page) => page.evaluate(() => (window as { liveMarker?: string }).liveMarker);

describe("the results page's parts made live on first use (decision 440)", () => {
  it("a filter ticked at once applies in place", async () => {
    const problems: string[] = [];
    const page = await freshPage(problems);
    try {
      expect(await page.locator("form[data-auto-apply]").count()).toBe(0); // not live before use
      // A click, not check(): check() also asserts the box's state the moment the click is done,
      // while the part is being made live and the tick replayed (decision 440); what the visitor
      // sees at the end is what counts, asserted below.
      await page.getByLabel(/^Silver/).click();
      await page.waitForURL(/metal=Silver/);
      await page.locator("form[data-auto-apply]").waitFor();
      expect(await page.getByLabel(/^Silver/).isChecked()).toBe(true);
      expect(await sameDocument(page)).toBe("same document");
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("text typed in a picker before it is live gets its suggestions", async () => {
    const problems: string[] = [];
    const page = await freshPage(problems);
    try {
      await page.locator(".drugs-doctors > summary").click();
      await page.locator("#drugq").click();
      await page.keyboard.type("lipi", { delay: 0 });
      await page.getByRole("option").filter({ hasText: "Lipitor" }).first().waitFor();
      expect(await page.locator("#drugq").inputValue()).toBe("lipi");
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("a page link clicked before the pager is live is a client-side navigation", async () => {
    const problems: string[] = [];
    const page = await freshPage(problems);
    try {
      await page.getByTestId("pager").getByRole("link", { name: "Page 2", exact: true }).click();
      await page.waitForURL(/page=2/);
      await page.getByTestId("plan-count").filter({ hasText: "11–" }).waitFor();
      expect(await sameDocument(page)).toBe("same document");
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
