import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startServer, type RunningServer } from "../helpers/server";
import { launchBrowser, watchedPage } from "./browser";

/**
 * The page's upload form in a real browser (decision 503): a blank form is stored and the page says
 * so, with JavaScript and without; and without JavaScript a form sent again from the same page
 * (Back, then Upload again: what a visitor does after "could not confirm" or a page that hung) is
 * stored once, because the page's key rides in the form's action.
 */

let dir: string;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "e2e-upload-"));
  server = await startServer({
    env: { DATABASE_URL: path.join(dir, "write-store.sqlite"), UPLOAD_LOCAL_DIR: path.join(dir, "uploads") },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A one-page PDF a visitor might have saved from a word processor. */
function blankPdf(): Buffer {
  return Buffer.from(
    "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n" +
      "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n" +
      "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\n" +
      "trailer << /Root 1 0 R >>\n%%EOF\n",
    "latin1",
  );
}

function uploadsNamed(name: string): number {
  const db = new Database(path.join(dir, "write-store.sqlite"), { readonly: true });
  try {
    return (
      db.prepare("SELECT COUNT(*) AS n FROM agent_uploads WHERE original_file_name = ?").get(name) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

function filesNamed(name: string): number {
  return readdirSync(path.join(dir, "uploads"), { recursive: true }).filter((f) => String(f).endsWith(name)).length;
}

async function upload(page: Page, name: string) {
  await page.getByLabel("What kind of document is it?").selectOption({ label: "Consumer consent form" });
  await page
    .getByLabel("File", { exact: true })
    .setInputFiles({ name, mimeType: "application/pdf", buffer: blankPdf() });
  await page.getByLabel(/This document is blank/).check();
  await page.getByRole("button", { name: "Upload the blank form" }).click();
  await page.getByText("Thank you: we stored your file.").waitFor({ timeout: 10_000 });
}

describe("the upload form in a browser", () => {
  it("JavaScript off: stored, said on the page; sent again from the same page (Back), stored once", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 780 } });
    try {
      const { page } = await watchedPage(context);
      await page.goto(`${server.url}/agent-discovery`);
      await upload(page, "consent-js-off.pdf");
      expect(new URL(page.url()).searchParams.get("uploaded")).toBe("1");
      await page.goBack();
      await page.waitForLoadState("load");
      await upload(page, "consent-js-off.pdf");
      expect(uploadsNamed("consent-js-off.pdf")).toBe(1);
      expect(filesNamed("consent-js-off.pdf")).toBe(1);
      // A new page load is a new form: a second, deliberate upload is stored.
      await page.goto(`${server.url}/agent-discovery`);
      await upload(page, "consent-js-off.pdf");
      expect(uploadsNamed("consent-js-off.pdf")).toBe(2);
    } finally {
      await context.close();
    }
  });

  it("JavaScript on: stored once, said on the page, the post carrying the page's key", async () => {
    const context = await browser.newContext({ javaScriptEnabled: true, viewport: { width: 360, height: 780 } });
    try {
      const { page, problems } = await watchedPage(context);
      const posts: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST") posts.push(r.url());
      });
      await page.goto(`${server.url}/agent-discovery`);
      await upload(page, "consent-js-on.pdf");
      expect(posts).toHaveLength(1);
      expect(new URL(posts[0]!).searchParams.get("upload_key")).toMatch(/^[0-9a-f-]{36}$/);
      expect(uploadsNamed("consent-js-on.pdf")).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
