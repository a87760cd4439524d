import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startServer, type RunningServer } from "../helpers/server";
import { hasHorizontalScroll, launchBrowser, screenshot, seriousAxeViolations, watchedPage } from "./browser";

const PAGES = ["/", "/plans", "/agents", "/agent-onboarding", "/agent-discovery", "/updates", "/privacy", "/terms"];

describe("every page in a real browser", () => {
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

  for (const javaScriptEnabled of [true, false]) {
    it(`loads every page with JavaScript ${javaScriptEnabled ? "on" : "off"}: 200, headers, no console errors, no horizontal scroll at 360 px`, async () => {
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 360, height: 740 } });
      try {
        for (const path of PAGES) {
          const { page, problems } = await watchedPage(context);
          const res = await page.goto(`${server.url}${path}`, { waitUntil: "load" });
          expect(res?.status(), path).toBe(200);
          const headers = res!.headers();
          expect(headers["strict-transport-security"], path).toBe("max-age=31536000; includeSubDomains; preload");
          expect(headers["x-frame-options"], path).toBe("DENY");
          expect(headers["content-security-policy"], path).toContain("script-src");
          expect(headers["server"], path).toBe("health-plan-marketplace");
          expect(await page.locator("h1").count(), `${path} has a heading`).toBeGreaterThan(0);
          if (javaScriptEnabled) await page.waitForLoadState("networkidle");
          expect(await hasHorizontalScroll(page), `${path} scrolls sideways at 360 px`).toBe(false);
          expect(problems, `${path} console`).toEqual([]);
          await screenshot(
            page,
            `page${path === "/" ? "-home" : path.replaceAll("/", "-")}-js-${javaScriptEnabled ? "on" : "off"}`,
          );
          await page.close();
        }
      } finally {
        await context.close();
      }
    });
  }

  it("finds no serious or critical accessibility violations on any page (JavaScript on)", async () => {
    const context = await browser.newContext();
    try {
      for (const path of PAGES) {
        const { page } = await watchedPage(context);
        await page.goto(`${server.url}${path}`, { waitUntil: "networkidle" });
        expect(await seriousAxeViolations(page), path).toEqual([]);
        await page.close();
      }
    } finally {
      await context.close();
    }
  });

  it("hydrates: client-side navigation works with JavaScript on", async () => {
    const context = await browser.newContext();
    try {
      const { page, problems } = await watchedPage(context);
      await page.goto(`${server.url}/`, { waitUntil: "networkidle" });
      const requested: Array<{ path: string; type: string }> = [];
      page.on("request", (r) => requested.push({ path: new URL(r.url()).pathname, type: r.resourceType() }));
      // A link in the page's content (the header and footer use plain links, docs/decisions/134).
      await page.getByRole("main").getByRole("link", { name: "See what we are building for agents" }).click();
      await page.waitForURL(/\/agents$/);
      // React renders the new route just after the URL changes: wait for it rather than race it.
      await expect
        .poll(() => page.locator("h1").textContent(), { timeout: 5_000 })
        .toBe("For licensed agents and brokers");
      // Client-side: the route's data was fetched, the document was not loaded again.
      expect(requested).toContainEqual(expect.objectContaining({ path: "/agents.data" }));
      expect(requested.filter((r) => r.type === "document")).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
