import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import * as waitlistRoute from "../../../app/routes/api.waitlist";
import { LOCK_WAIT_BUDGET_MS } from "../../../db/write-store-sqlite";
import { callRoute, createIntakeSandbox, jsonRequest, type IntakeSandbox } from "./support";

/**
 * Decision 512: while another connection holds the SQLite write store's lock (a second process, an
 * operator's open transaction), a write waits for it without holding the event loop, and either
 * saves once the lock is released or, past LOCK_WAIT_BUDGET_MS, answers 503 with Retry-After having
 * saved nothing. The lock is a real one: BEGIN IMMEDIATE on a second connection to the same file.
 * On the parent the write waited inside SQLite's busy handler, synchronously: the event loop
 * stood still for as long as the lock was held, up to 5 s, and every other request with it.
 */

let sandbox: IntakeSandbox;
beforeAll(async () => {
  sandbox = await createIntakeSandbox();
  // The store exists (and is migrated) before the lock is taken.
  expect((await signUp("first.signup@example.com")).status).toBe(200);
});
afterAll(async () => {
  await sandbox.cleanup();
});

function signUp(email: string) {
  return callRoute(waitlistRoute, jsonRequest("/api/waitlist", { email, zip: "99501", interest: "consumer" }));
}

/** Hold the write lock from another connection for `ms`, then release it. */
function holdLock(ms: number): { released: Promise<void> } {
  const other = new Database(sandbox.dbFile);
  other.exec("BEGIN IMMEDIATE");
  const released = new Promise<void>((resolve) =>
    setTimeout(() => {
      other.exec("ROLLBACK");
      other.close();
      resolve();
    }, ms),
  );
  return { released };
}

/** The longest the event loop stood still while `run` ran, in ms. */
async function longestStall<T>(run: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // The histogram counts from its first tick: a stall before it would go unseen.
  await new Promise((resolve) => setTimeout(resolve, 50));
  try {
    const result = await run();
    return { result, stallMs: delay.max / 1e6 };
  } finally {
    delay.disable();
  }
}

const rows = (email: string) => sandbox.query("SELECT id FROM waitlist_submissions WHERE email = ?", email);

describe("a write while another connection holds the SQLite lock", () => {
  it("waits without holding the event loop, and saves once the lock is released", async () => {
    const lock = holdLock(1_000);
    const started = Date.now();
    const { result: res, stallMs } = await longestStall(() => signUp("waits.for.lock@example.com"));
    await lock.released;
    expect(res.status).toBe(200);
    // It did wait for the lock: it could not commit before the release.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(rows("waits.for.lock@example.com")).toHaveLength(1);
    // Each try waits at most BUSY_WAIT_MS (10 ms) synchronously; a busy machine adds its own.
    expect(stallMs).toBeLessThan(250);
  });

  it("answers 503 with Retry-After, saving nothing, when the lock outlasts the wait", async () => {
    const lock = holdLock(LOCK_WAIT_BUDGET_MS + 1_500);
    const { result: res, stallMs } = await longestStall(() => signUp("lock.outlasts@example.com"));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("write_store_unavailable");
    // Known not saved, not "may or may not have been saved": the lock was never taken.
    expect(body.error.message).toContain("busy with other writes; nothing was saved");
    expect(stallMs).toBeLessThan(250);
    await lock.released;
    expect(rows("lock.outlasts@example.com")).toEqual([]);
    expect((await signUp("lock.outlasts@example.com")).status).toBe(200);
  }, 15_000);
});
