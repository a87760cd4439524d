import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_DATABASE_URL, openWriteStoreFile, resolveWriteStoreLocation } from "../../../db/write-store-client";
import { BUSY_WAIT_MS } from "../../../db/write-store-sqlite";
import * as updatesPage from "../../../app/routes/updates";
import { callRoute, createIntakeSandbox, formRequest } from "./support";

const scratch = mkdtempSync(path.join(os.tmpdir(), "write-store-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("resolveWriteStoreLocation (the DATABASE_URL setting)", () => {
  it("defaults to file:./data/app.db under the working directory when unset", () => {
    expect(DEFAULT_DATABASE_URL).toBe("file:./data/app.db");
    expect(resolveWriteStoreLocation(undefined, "/srv/app")).toEqual({
      ok: true,
      dialect: "sqlite",
      file: "/srv/app/data/app.db",
    });
  });

  it.each([
    ["file:./data/other.db", "/srv/app/data/other.db"],
    ["file:data/x.sqlite", "/srv/app/data/x.sqlite"],
    ["file:/var/lib/marketplace/app.db", "/var/lib/marketplace/app.db"],
    ["file:///var/lib/marketplace/app.db", "/var/lib/marketplace/app.db"],
    ["file://localhost/var/lib/app.db", "/var/lib/app.db"],
    ["file:/var/lib/my%20store/app.db?mode=rwc", "/var/lib/my store/app.db"],
    ["./relative.db", "/srv/app/relative.db"],
    ["/abs/path.db", "/abs/path.db"],
  ])("%s -> %s", (value, file) => {
    expect(resolveWriteStoreLocation(value, "/srv/app")).toEqual({ ok: true, dialect: "sqlite", file });
  });

  it("takes postgres:// and postgresql:// URLs as PostgreSQL, with the password hidden from logs", () => {
    expect(resolveWriteStoreLocation("postgres://app:s3cret@db.internal:5432/marketplace")).toEqual({
      ok: true,
      dialect: "postgres",
      url: "postgres://app:s3cret@db.internal:5432/marketplace",
      display: "postgres://app:***@db.internal:5432/marketplace",
    });
    expect(resolveWriteStoreLocation("postgresql://db.internal/marketplace")).toMatchObject({ dialect: "postgres" });
  });

  it.each([
    ["", "set but empty"],
    ["   ", "set but empty"],
    ["mysql://db.internal/marketplace", 'unsupported scheme "mysql:"'],
    ["postgres:///marketplace", "no PostgreSQL host"],
    ["libsql://example.turso.io", 'unsupported scheme "libsql:"'],
    ["file::memory:", "in-memory"],
    [":memory:", "in-memory"],
    ["file://otherhost/app.db", "another host"],
  ])("refuses %j, naming DATABASE_URL (%s)", (value, why) => {
    const result = resolveWriteStoreLocation(value, "/srv/app");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem).toContain("DATABASE_URL");
      expect(result.problem).toContain(why);
    }
  });
});

describe("openWriteStoreFile", () => {
  it("creates the directory, switches to WAL with synchronous=FULL and applies the migrations once", () => {
    const file = path.join(scratch, "nested", "dir", "app.db");
    const first = openWriteStoreFile(file);
    expect(first.sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(first.sqlite.pragma("synchronous", { simple: true })).toBe(2); // FULL
    // A short synchronous wait for a lock: longer ones are waited for off the event loop (decision 512).
    expect(first.sqlite.pragma("busy_timeout", { simple: true })).toBe(BUSY_WAIT_MS);
    const tables = (
      first.sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%sqlite%' ORDER BY name")
        .all() as { name: string }[]
    ).map((t) => t.name);
    expect(tables).toEqual([
      "__drizzle_migrations",
      "agent_discovery_submissions",
      "agent_uploads",
      "email_outbox",
      "enrollment_applications",
      "idempotent_requests",
      "unsubscribes",
      "waitlist_submissions",
    ]);
    first.sqlite
      .prepare("INSERT INTO unsubscribes (email_key, method, unsubscribed_at) VALUES ('kept@example.com', 'page', 1)")
      .run();
    first.close();
    // Reopening (a restart) applies nothing twice and keeps the data.
    const second = openWriteStoreFile(file);
    expect(second.sqlite.prepare("SELECT COUNT(*) AS n FROM __drizzle_migrations").get()).toEqual({ n: 3 });
    expect(second.sqlite.prepare("SELECT email_key FROM unsubscribes").all()).toEqual([
      { email_key: "kept@example.com" },
    ]);
    second.close();
  });

  it("throws for a path that cannot hold a database", () => {
    expect(() => openWriteStoreFile(scratch)).toThrow();
  });
});

describe("the /updates page (waitlist sign-up, works without JavaScript)", () => {
  it("commits and redirects to the thank-you state; invalid input re-renders with errors (400); a store failure never says success", async () => {
    const sandbox = await createIntakeSandbox();
    try {
      const ok = await callRoute(
        updatesPage,
        formRequest("/updates", { email: "page.signup@example.com", zip: "10001", interest: "agent_agency" }),
      );
      expect(ok.status).toBe(302);
      expect(ok.headers.get("location")).toBe("/updates?joined=1");
      expect(
        sandbox.query("SELECT interest, source FROM waitlist_submissions WHERE email_key = 'page.signup@example.com'"),
      ).toEqual([{ interest: "agent_agency", source: "form" }]);
      const thanks = await callRoute(updatesPage, new Request("http://localhost/updates?joined=1"));
      expect(await thanks.json()).toEqual({ joined: true, interest: "consumer" });
      const preselected = await callRoute(updatesPage, new Request("http://localhost/updates?interest=agent"));
      expect(await preselected.json()).toEqual({ joined: false, interest: "agent_independent" });

      const bad = await callRoute(
        updatesPage,
        formRequest("/updates", { email: "nope", zip: "1", interest: "consumer" }),
      );
      expect(bad.status).toBe(400);
      const body = (await bad.json()) as { errors: Record<string, string>; values: Record<string, string> };
      expect(Object.keys(body.errors).sort()).toEqual(["email", "zip"]);
      expect(body.values).toEqual({ email: "nope", zip: "1", interest: "consumer" });

      await sandbox.configure({ DATABASE_URL: "" });
      const down = await callRoute(
        updatesPage,
        formRequest("/updates", { email: "down@example.com", zip: "10001", interest: "consumer" }),
      );
      expect(down.status).toBe(500);
      expect(((await down.json()) as { formError: string }).formError).toMatch(/not on the list yet/);
    } finally {
      await sandbox.settleOutbox().catch(() => undefined);
      await sandbox.cleanup();
    }
  });
});
