/**
 * Issue 29 (decisions 460-462): what a start no longer does before the first answer is still done,
 * and done before it is needed. Runs the built files as `npm run build` leaves them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, startServer } from "../../helpers/server";

const BUILD_DIR = path.join(REPO_ROOT, "build");
const scratch = mkdtempSync(path.join(os.tmpdir(), "start-up-work-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The packages a built file imports at its top (what loads before the server can listen). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^import\s+(?:[^"';]*?\s+from\s+)?["']([^"']+)["'];?$/gm)].map((m) => m[1]!);
}

async function until(check: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe("a start's deferred work", () => {
  it("loads no PostgreSQL driver, no undici and not all of rate-limiter-flexible before listening (decision 460)", () => {
    const serverBuild = path.join(BUILD_DIR, "server", "index.js");
    const files = [path.join(BUILD_DIR, "server.js"), serverBuild];
    // The server build's entry re-exports its main chunk: that chunk's imports load at start too.
    for (const spec of staticImports(serverBuild))
      if (spec.startsWith("./")) files.push(path.join(path.dirname(serverBuild), spec));
    for (const file of files) {
      const imports = staticImports(file);
      expect(imports.length, file).toBeGreaterThan(0);
      expect(
        imports.filter((s) => s === "pg" || s.startsWith("drizzle-orm/node-postgres") || s === "drizzle-orm/pg-core"),
        file,
      ).toEqual([]);
      expect(imports, file).not.toContain("rate-limiter-flexible");
      // The undici package upstream calls go through: loaded on the first call or after the first answer.
      expect(imports, file).not.toContain("undici");
    }
  });

  it("opens the write store after the first answer, and a write that comes first opens it itself (decision 461)", async () => {
    const first = path.join(scratch, "first.db");
    const server = await startServer({ env: { DATABASE_URL: `file:${first}`, LOG_LEVEL: "info" } });
    try {
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { status: string }).status).toBe("ok");
      // Done once the first answer is written: the store file made and migrated.
      expect(await until(() => existsSync(first))).toBe(true);
      expect(
        await until(() => {
          const db = new Database(first, { readonly: true, fileMustExist: true });
          try {
            return (
              db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'waitlist_submissions'").get() !==
              undefined
            );
          } finally {
            db.close();
          }
        }),
      ).toBe(true);
      expect(server.output()).not.toMatch(/start-up work failed/);
    } finally {
      await server.stop();
    }

    const second = path.join(scratch, "second.db");
    const writer = await startServer({ env: { DATABASE_URL: `file:${second}` } });
    try {
      // The very first request is a write: it opens the store it needs, nothing refused.
      const answer = await fetch(`${writer.url}/api/waitlist`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "first-request@example.com", zip: "10001", interest: "consumer" }),
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { waitlist_submission_id?: string }).waitlist_submission_id).toBeTruthy();
    } finally {
      await writer.stop();
    }
    const db = new Database(second, { readonly: true, fileMustExist: true });
    try {
      expect(db.prepare("SELECT count(*) AS n FROM waitlist_submissions").get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it("answers the first health check in the route's shape from its plain answer, and a page right after (decision 462)", async () => {
    const server = await startServer({ env: { DATABASE_URL: `file:${path.join(scratch, "third.db")}` } });
    try {
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
      expect(health.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(health.headers.get("cache-control")).toBe("no-store");
      const body = (await health.json()) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual([
        "status",
        "commit",
        "env",
        "upstream",
        "planData",
        "planStore",
        "eligibilityDrift",
        "sharedState",
        "writeStore",
        "warnings",
      ]);
      // A page right after: the web Request and Response it needs are there.
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
