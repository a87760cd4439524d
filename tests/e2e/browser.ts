import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";
import { REPO_ROOT } from "../helpers/server";

export const ARTIFACTS = path.join(REPO_ROOT, "tests", "artifacts");

/** Debian's chromium, headless, with the flags this closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface WatchedPage {
  page: Page;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
}

/** A page that records every console error and uncaught exception. */
export async function watchedPage(context: BrowserContext): Promise<WatchedPage> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return { page, problems };
}

/** axe-core scan; returns serious and critical violations only. Bounded in time. */
export async function seriousAxeViolations(page: Page, timeoutMs = 30_000) {
  const scan = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("axe scan timed out")), timeoutMs),
  );
  const result = await Promise.race([scan, timeout]);
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** True when the document is wider than the viewport (horizontal scroll). */
export async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

/**
 * axe-core with every rule it has (WCAG A/AA, best practices such as `region`,
 * `heading-order`, `landmark-*`), every impact: each violation as text. Bounded in time;
 * JavaScript must be on in the page (axe runs in it).
 */
export async function allAxeViolations(page: Page, timeoutMs = 30_000): Promise<string[]> {
  const scan = new AxeBuilder({ page }).analyze();
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("axe scan timed out")), timeoutMs),
  );
  const result = await Promise.race([scan, timeout]);
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(", ")}`,
  );
}
