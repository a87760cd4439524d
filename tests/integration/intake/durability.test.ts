import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../helpers/server";
import { WRITE_STORE_DIALECTS, writeStoreTarget, type WriteStoreTarget } from "../../helpers/write-store-target";

/**
 * No acknowledged submission is lost: the real server is SIGKILLed in the
 * middle of a stream of concurrent waitlist posts, restarted on the same
 * DATABASE_URL, and every submission it had answered 200 for must be there,
 * with its outbox rows, and the API must answer the same id for it again.
 * On both write stores (SQLite file, PostgreSQL).
 */

const dir = mkdtempSync(path.join(os.tmpdir(), "intake-durability-"));
const dbFile = path.join(dir, "app.db");
const targets: WriteStoreTarget[] = [];
afterAll(async () => {
  for (const target of targets) await target.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Ack {
  email: string;
  interest: string;
  id: string;
}

async function postWaitlist(url: string, email: string, interest: string): Promise<{ status: number; id?: string }> {
  const res = await fetch(`${url}/api/waitlist`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, zip: "10001", interest }),
  });
  const body = (await res.json()) as { waitlist_submission_id?: string };
  return { status: res.status, id: body.waitlist_submission_id };
}

describe.each(WRITE_STORE_DIALECTS)("durability on the %s write store", (dialect) => {
  it("keeps every acknowledged waitlist submission when the server is killed mid-load", async () => {
    const target = await writeStoreTarget(dialect, dir);
    targets.push(target);
    const env = { DATABASE_URL: target.databaseUrl, RATE_LIMIT_MAX: "1000000" };
    const first = await startServer({ env });
    const acked: Ack[] = [];
    let attempted = 0;
    let killed = false;
    const KILL_AFTER = 300;

    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const email = `durable-${w}-${i}@example.com`;
        const interest = i % 3 === 0 ? "agent" : "consumer";
        attempted++;
        try {
          const result = await postWaitlist(first.url, email, interest);
          if (result.status === 200 && result.id) acked.push({ email, interest, id: result.id });
        } catch {
          return; // connection refused or reset: the server is gone
        }
        if (acked.length >= KILL_AFTER && !killed) {
          killed = true;
          await first.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: 40 }, (_, w) => worker(w)));
    expect(killed).toBe(true);
    expect(first.process.signalCode).toBe("SIGKILL");
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER);
    // Some requests were in flight when the process died (the kill really was mid-load).
    expect(attempted).toBeGreaterThan(acked.length);

    // The store as the dead process left it: intact, and holding every acknowledged row.
    if (dialect === "sqlite") {
      const db = new Database(dbFile, { readonly: true });
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      } finally {
        db.close();
      }
    }
    const byId = new Map(
      (
        await target.query<{ id: string; email: string; interest: string }>(
          "SELECT id, email, interest FROM waitlist_submissions",
        )
      ).map((r) => [r.id, r]),
    );
    const missing = acked.filter((a) => byId.get(a.id)?.email !== a.email || byId.get(a.id)?.interest !== a.interest);
    expect(missing).toEqual([]);
    // Their emails were committed with them, so none can be lost either.
    const outbox = await target.query<{ subject_id: string; n: number }>(
      "SELECT subject_id, COUNT(*) AS n FROM email_outbox WHERE kind = 'email' GROUP BY subject_id",
    );
    const emailsPer = new Map(outbox.map((o) => [o.subject_id, o.n]));
    expect(acked.filter((a) => emailsPer.get(a.id) !== 2)).toEqual([]);

    // Restarted on the same store, the service knows every acknowledged submission.
    const second = await startServer({ env });
    try {
      const again: { ack: Ack; status: number; id?: string }[] = [];
      for (let start = 0; start < acked.length; start += 25) {
        const batch = acked.slice(start, start + 25);
        again.push(
          ...(await Promise.all(
            batch.map(async (ack) => ({
              ack,
              ...(await postWaitlist(second.url, ack.email.toUpperCase(), ack.interest)),
            })),
          )),
        );
      }
      expect(again.filter((r) => r.status !== 200 || r.id !== r.ack.id)).toEqual([]);
    } finally {
      await second.stop();
    }
  }, 180_000);
});
