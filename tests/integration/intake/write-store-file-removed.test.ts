import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * The SQLite write store's file removed under the running server (docs/decisions/517): an
 * operator's `rm data/app.db*`, a clean-up job, a volume swapped. The connection went on writing to
 * the removed file, and every sign-up was answered 200 and lost at the next start; /api/health said
 * ok. Now the process notices within a second (or at the next write), copies everything it holds to
 * `<file>.recovered-…` with VACUUM INTO, and answers writes 503 until a restart.
 */

let dir: string;
let server: RunningServer | undefined;
const file = () => path.join(dir, "app.db");

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "store-removed-"));
  server = await startServer({ env: { DATABASE_URL: `file:${file()}`, TRUST_PROXY: "1" } });
}, 60_000);
afterAll(async () => {
  await server?.stop().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

let sent = 0;
async function join(): Promise<{
  status: number;
  email: string;
  id?: string;
  message?: string;
  retryAfter: string | null;
}> {
  const email = `removed-${++sent}-p2w@example.com`;
  const res = await fetch(`${server!.url}/api/waitlist`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `10.61.0.${sent}` },
    body: JSON.stringify({ email, zip: "10001", interest: "consumer" }),
    signal: AbortSignal.timeout(10_000),
  });
  const json = (await res.json()) as { waitlist_submission_id?: string; error?: { message: string } };
  return {
    status: res.status,
    email,
    id: json.waitlist_submission_id,
    message: json.error?.message,
    retryAfter: res.headers.get("retry-after"),
  };
}

const emailsIn = (db: string) => {
  const copy = new Database(db, { readonly: true });
  try {
    return (copy.prepare("SELECT email FROM waitlist_submissions ORDER BY email").all() as { email: string }[]).map(
      (r) => r.email,
    );
  } finally {
    copy.close();
  }
};

describe("the write store's file removed while the server runs", () => {
  it("refuses writes with 503, says degraded, and keeps every acknowledged row in a recovery copy", async () => {
    const before = [await join(), await join()];
    expect(before.map((a) => a.status)).toEqual([200, 200]);

    for (const name of ["app.db", "app.db-wal", "app.db-shm"]) rmSync(path.join(dir, name), { force: true });
    // The next write: committed to the removed file, so it cannot be confirmed; never a 200.
    const during = await join();
    expect(during.status).toBe(503);
    expect(during.retryAfter).toBe("2");
    expect(during.message).toContain("removed while the service was running");
    const after = await join();
    expect(after.status).toBe(503);
    expect(after.message).toContain("nothing was saved");

    const health = (await (await fetch(`${server!.url}/api/health`)).json()) as {
      status: string;
      writeStore: { state: string };
    };
    expect(health.status).toBe("degraded");
    expect(health.writeStore.state).toBe("unavailable");

    // Everything acknowledged (and the unconfirmed one) is in the recovery copy; nothing refused.
    const copies = readdirSync(dir).filter((name) => name.startsWith("app.db.recovered-"));
    expect(copies).toHaveLength(1);
    const kept = emailsIn(path.join(dir, copies[0]!));
    expect(kept).toEqual([...before.map((a) => a.email), during.email].sort());
    expect(kept).not.toContain(after.email);
    expect(server!.output()).toContain("write store file removed or replaced while open");
    expect(server!.process.exitCode).toBeNull();
  }, 60_000);

  it("is noticed within seconds with no write at all, and what was acknowledged is copied", async () => {
    const quietDir = mkdtempSync(path.join(os.tmpdir(), "store-removed-quiet-"));
    const quiet = await startServer({
      env: { DATABASE_URL: `file:${path.join(quietDir, "app.db")}`, TRUST_PROXY: "1" },
    });
    try {
      const res = await fetch(`${quiet.url}/api/waitlist`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "10.61.1.1" },
        body: JSON.stringify({ email: "quiet-1-p2w@example.com", zip: "10001", interest: "consumer" }),
      });
      expect(res.status).toBe(200);
      rmSync(path.join(quietDir, "app.db"), { force: true }); // the file alone; its WAL is left
      await expect
        .poll(() => readdirSync(quietDir).filter((name) => name.startsWith("app.db.recovered-")).length, {
          timeout: 5_000,
          interval: 100,
        })
        .toBe(1);
      const copy = readdirSync(quietDir).find((name) => name.startsWith("app.db.recovered-"))!;
      expect(emailsIn(path.join(quietDir, copy))).toEqual(["quiet-1-p2w@example.com"]);
      const health = (await (await fetch(`${quiet.url}/api/health`)).json()) as { writeStore: { state: string } };
      expect(health.writeStore.state).toBe("unavailable");
    } finally {
      await quiet.stop().catch(() => undefined);
      rmSync(quietDir, { recursive: true, force: true });
    }
  }, 60_000);
});
