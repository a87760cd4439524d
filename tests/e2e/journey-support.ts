import type { Browser, Page } from "playwright-core";
import { seriousAxeViolations } from "./browser";

/**
 * axe needs JavaScript in the page, so a page rendered with JavaScript off is
 * scanned as a copy: its exact HTML, scripts removed, served at the same
 * address (same stylesheets) to a page where axe can run
 * (docs/decisions/086-testing-pages-without-javascript.md).
 */
export async function axeWithoutJavaScript(browser: Browser, page: Page): Promise<string[]> {
  const html = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script>/gi, "")
    .replace(/<link rel="modulepreload"[^>]*>/g, "");
  const context = await browser.newContext({ viewport: page.viewportSize() ?? { width: 360, height: 780 } });
  try {
    const copy = await context.newPage();
    const url = page.url();
    await copy.route(
      (u) => u.href === url,
      (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }),
    );
    await copy.goto(url, { waitUntil: "load" });
    return await seriousAxeViolations(copy);
  } finally {
    await context.close();
  }
}

/** The options of the open autocomplete list (not the options of a select). */
export function suggestions(page: Page) {
  return page.locator("[role=listbox]:not([hidden]) [role=option]");
}

export const usd = (n: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n);
