import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import * as uploadRoute from "../../../app/routes/api.agents.discovery.upload";
import * as waitlistRoute from "../../../app/routes/api.waitlist";
import { writeStore } from "../../../app/server/intake/write-store.server";
import { PROBE_EVERY_MS, writeStoreStatus } from "../../../app/server/intake/write-store-health.server";
import { isResourceFailure, isTransientFailure } from "../../../db/write-store-errors";
import { callRoute, createIntakeSandbox, jsonRequest, type IntakeSandbox } from "./support";
import { pdf } from "./files";

/**
 * Decision 509: a write store that is reachable but cannot write (its disk full, its volume
 * read-only) answers 503 with Retry-After and saves nothing; the same write passes once there is
 * room again. The faults are the real SQLite engine's own: `max_page_count` pinned to the file's
 * size is what a full disk does to an insert that needs a page (SQLITE_FULL), and `query_only` is a
 * connection that may not write (SQLITE_READONLY).
 */

let sandbox: IntakeSandbox;

beforeAll(async () => {
  sandbox = await createIntakeSandbox();
});
afterAll(async () => {
  await sandbox.cleanup();
});
afterEach(() => {
  const sqlite = writeStore().sqlite;
  sqlite.pragma("query_only = OFF");
  sqlite.pragma("max_page_count = 1073741823");
});

const signUp = (email: string) =>
  callRoute(waitlistRoute, jsonRequest("/api/waitlist", { email, zip: "99501", interest: "consumer" }));

const rowsFor = (email: string) =>
  sandbox.query<{ id: string }>("SELECT id FROM waitlist_submissions WHERE email = ?", email);

describe("the engine's own full and read-only errors", () => {
  it("are resource failures: a retry later may pass, nothing about the data was wrong", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (x TEXT)");
    db.pragma("max_page_count = 2");
    const full = (() => {
      try {
        for (let i = 0; i < 100; i++) db.prepare("INSERT INTO t VALUES (?)").run("x".repeat(2000));
      } catch (error) {
        return error;
      }
    })();
    expect((full as { code?: string }).code).toBe("SQLITE_FULL");
    expect(isResourceFailure(full)).toBe(true);
    db.pragma("query_only = ON");
    const readOnly = (() => {
      try {
        db.prepare("INSERT INTO t VALUES ('y')").run();
      } catch (error) {
        return error;
      }
    })();
    expect((readOnly as { code?: string }).code).toBe("SQLITE_READONLY");
    expect(isResourceFailure(readOnly)).toBe(true);
    db.close();
    // PostgreSQL: 53100 disk_full and 58030 io_error; a unique violation is no resource failure.
    expect(isResourceFailure(Object.assign(new Error("could not extend file"), { code: "53100" }))).toBe(true);
    expect(isResourceFailure(Object.assign(new Error("could not write"), { code: "58030" }))).toBe(true);
    expect(isResourceFailure(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isTransientFailure(Object.assign(new Error("CHECK"), { code: "SQLITE_CONSTRAINT_CHECK" }))).toBe(false);
  });
});

describe("POST /api/waitlist when the store's disk fills up", () => {
  it("answers 200 while there is room, then 503 with Retry-After saving nothing, then 200 once room is freed", async () => {
    const sqlite = writeStore().sqlite;
    // The file may not grow by a page from here on: a full disk.
    const pages = sqlite.pragma("page_count", { simple: true }) as number;
    sqlite.pragma(`max_page_count = ${pages}`);

    // Sign-ups land in the free space of pages the file already has, until one needs a new page.
    const acknowledged: string[] = [];
    let refused: { email: string; res: Response } | undefined;
    for (let i = 0; i < 500 && !refused; i++) {
      const email = `full.disk.${i}@example.com`;
      const res = await signUp(email);
      if (res.status === 200) acknowledged.push(email);
      else refused = { email, res };
    }
    expect(refused, "the file never needed a new page").toBeDefined();
    const { email, res } = refused!;
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("write_store_unavailable");
    expect(body.error.message).toContain("nothing was saved");
    expect(rowsFor(email)).toEqual([]);
    // Every sign-up acknowledged before the disk filled is stored, once.
    for (const stored of acknowledged) expect(rowsFor(stored)).toHaveLength(1);

    // An operator frees room: the same sign-up passes, without a restart.
    sqlite.pragma("max_page_count = 1073741823");
    const again = await signUp(email);
    expect(again.status).toBe(200);
    expect(rowsFor(email)).toHaveLength(1);
  });

  it("answers 503 with Retry-After when the store may not be written (a volume remounted read-only)", async () => {
    writeStore().sqlite.pragma("query_only = ON");
    const res = await signUp("read.only@example.com");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("write_store_unavailable");
    // Decision 519: /api/health says so (writeStore "unavailable", status "degraded") …
    expect(writeStoreStatus().state).toBe("unavailable");
    // … while the probe's own write is refused too, and a visitor's write is still tried.
    await new Promise((resolve) => setTimeout(resolve, 2 * PROBE_EVERY_MS));
    expect(writeStoreStatus().state).toBe("unavailable");
    expect((await signUp("read.only.again@example.com")).status).toBe(503);
    writeStore().sqlite.pragma("query_only = OFF");
    expect(rowsFor("read.only@example.com")).toEqual([]);
    // Writable again: the probe's write goes through and health is ok without a visitor's write.
    await new Promise((resolve) => setTimeout(resolve, 3 * PROBE_EVERY_MS));
    expect(writeStoreStatus().state).toBe("ok");
    expect((await signUp("read.only@example.com")).status).toBe(200);
  });
});

describe("POST /api/agents/discovery/upload when the store cannot write", () => {
  it("answers 503, and the file stored before the row was refused is removed (decision 505)", async () => {
    writeStore().sqlite.pragma("query_only = ON");
    const form = new FormData();
    form.append("docType", "consent_form");
    form.append("blankConfirmed", "true");
    form.append("file", new File([new Uint8Array(pdf())], "Read only disk.pdf", { type: "application/pdf" }));
    const res = await callRoute(
      uploadRoute,
      new Request("http://localhost/api/agents/discovery/upload", { method: "POST", body: form }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    writeStore().sqlite.pragma("query_only = OFF");
    expect(sandbox.query("SELECT id FROM agent_uploads WHERE original_file_name = ?", "Read only disk.pdf")).toEqual(
      [],
    );
    const dir = path.join(sandbox.uploadDir, "agent-survey-uploads", "consent_form");
    const left = existsSync(dir) ? readdirSync(dir).filter((name) => name.includes("Read-only-disk")) : [];
    expect(left).toEqual([]);
  });
});
