import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Decision 519: a SQLite write store that cannot be opened at start (its disk full, its directory
 * not writable) answers writes 503 with Retry-After, /api/health says degraded, and the store opens
 * on its own once it can. The built server runs with a file-size limit of 0 (RLIMIT_FSIZE): SQLite
 * creates the file but cannot write its first page (SQLITE_IOERR_WRITE), as on a full disk. The
 * limit is then lifted from outside (prlimit), as an operator frees room. On the parent, every
 * write answered 500 and /api/health said ok throughout.
 */

let server: RunningServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "write-store-cannot-open-"));
  server = await startServer({
    env: { DATABASE_URL: `file:${path.join(dir, "app.db")}`, UPLOAD_LOCAL_DIR: path.join(dir, "uploads") },
    fileSizeLimitKiB: 0,
  });
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const health = async () =>
  (await (await fetch(`${server.url}/api/health`)).json()) as { status: string; writeStore: { state: string } };

const signUp = (email: string) =>
  fetch(`${server.url}/api/waitlist`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, zip: "99501", interest: "consumer" }),
  });

async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe("a SQLite write store that cannot be opened", () => {
  it("answers 503 with Retry-After and says degraded, then opens on its own once it can write", async () => {
    // Start-up opens the store once the first answer is written; the health check is that answer.
    expect(await eventually(async () => (await health()).status === "degraded", 5_000)).toBe(true);
    expect((await health()).writeStore.state).toBe("unavailable");

    const refused = await signUp("no.room@example.com");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(await refused.json()).toEqual({
      error: { code: "write_store_unavailable", message: expect.stringContaining("cannot be opened for now") },
    });
    // The sign-up form posted by a browser: the same 503, never the thank-you page.
    const page = await fetch(`${server.url}/updates`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=no.room.page%40example.com&zip=99501&interest=consumer",
      redirect: "manual",
    });
    expect(page.status).toBe(503);
    expect(await page.text()).not.toContain("You are on the list");

    // Room again: no restart, no write needed for the store to open (the probe opens it).
    execFileSync("prlimit", ["--pid", String(server.process.pid), "--fsize=unlimited"]);
    expect(await eventually(async () => (await health()).status === "ok", 5_000)).toBe(true);
    const stored = await signUp("no.room@example.com");
    expect(stored.status).toBe(200);
    const { waitlist_submission_id: id } = (await stored.json()) as { waitlist_submission_id: string };

    const db = new Database(path.join(dir, "app.db"), { readonly: true });
    try {
      expect(db.prepare("SELECT id, email FROM waitlist_submissions").all()).toEqual([
        { id, email: "no.room@example.com" },
      ]);
    } finally {
      db.close();
    }
    expect(server.output()).toContain("write store cannot be opened");
    expect(server.output()).toContain("write store reachable again");
  }, 30_000);
});
