import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";
import { startPostgres, type RunningPostgres } from "../../helpers/engines";

/**
 * A PostgreSQL that answers but will not write (docs/decisions/515): after a failover the old
 * primary goes on as a standby, and the connections still open to it get 25006
 * (read_only_sql_transaction) for every write; a server put in read-only mode for maintenance does
 * the same. Here the whole server is made read-only (default_transaction_read_only, reloaded into
 * every session). Before, each write answered 500 "could not save this" with no Retry-After,
 * /api/health said ok, and a process starting then could not open the store (500 too).
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let pg: RunningPostgres;
let databaseUrl: string;
let laterDatabaseUrl: string;
let server: RunningServer | undefined;
let later: RunningServer | undefined;

const serverEnv = (url: string) => ({ DATABASE_URL: url, TRUST_PROXY: "1" });

beforeAll(async () => {
  pg = await startPostgres();
  [databaseUrl, laterDatabaseUrl] = await Promise.all([pg.createDatabase(), pg.createDatabase()]);
  server = await startServer({ timeoutMs: 40_000, env: serverEnv(databaseUrl) });
}, 90_000);

afterAll(async () => {
  await Promise.all([server?.stop().catch(() => undefined), later?.stop().catch(() => undefined)]);
  await pg?.stop();
});

async function readOnly(on: boolean): Promise<void> {
  await pg.query(
    pg.url,
    on ? "ALTER SYSTEM SET default_transaction_read_only = on" : "ALTER SYSTEM RESET default_transaction_read_only",
  );
  await pg.query(pg.url, "SELECT pg_reload_conf()");
  await sleep(300); // every backend rereads its configuration
}

interface Answer {
  status: number;
  email: string;
  id?: string;
  code?: string;
  message?: string;
  retryAfter: string | null;
  ms: number;
}

let sent = 0;
async function join(on: RunningServer): Promise<Answer> {
  const n = ++sent;
  const email = `readonly-${n}-k4z@example.com`;
  const started = Date.now();
  const res = await fetch(`${on.url}/api/waitlist`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `10.52.0.${n}` },
    body: JSON.stringify({ email, zip: "10001", interest: "consumer" }),
    signal: AbortSignal.timeout(20_000),
  });
  const json = (await res.json()) as { waitlist_submission_id?: string; error?: { code: string; message: string } };
  return {
    status: res.status,
    email,
    id: json.waitlist_submission_id,
    code: json.error?.code,
    message: json.error?.message,
    retryAfter: res.headers.get("retry-after"),
    ms: Date.now() - started,
  };
}

async function health(on: RunningServer): Promise<{ status: string; writeStore: { state: string } }> {
  const res = await fetch(`${on.url}/api/health`, { signal: AbortSignal.timeout(5_000) });
  return (await res.json()) as { status: string; writeStore: { state: string } };
}

/** The backends serving the database's clients now (pg_stat_activity), other than the asking one. */
async function backends(url: string): Promise<number[]> {
  const name = new URL(url).pathname.slice(1);
  const rows = await pg.query<{ pid: number }>(
    pg.url,
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    [name],
  );
  return rows.map((r) => r.pid);
}

/** Writes until `count` are acknowledged or `withinMs` passes; each other answer must be the 503. */
async function untilAcknowledged(on: RunningServer, count: number, withinMs: number): Promise<Answer[]> {
  const started = Date.now();
  const acknowledged: Answer[] = [];
  while (acknowledged.length < count && Date.now() - started < withinMs) {
    const answer = await join(on);
    if (answer.status === 200) acknowledged.push(answer);
    else expect(answer).toMatchObject({ status: 503, code: "write_store_unavailable", retryAfter: "2" });
    await sleep(100);
  }
  return acknowledged;
}

describe("a PostgreSQL that will not write", () => {
  it("answers writes 503 with Retry-After, says degraded, follows new connections, and writes again once it can", async () => {
    const before = await join(server!);
    expect(before.status).toBe(200);
    const poolBefore = await backends(databaseUrl);
    expect(poolBefore.length).toBeGreaterThan(0);

    await readOnly(true);
    const refused = await join(server!);
    expect(refused).toMatchObject({ status: 503, code: "write_store_unavailable", retryAfter: "2" });
    expect(refused.message).toContain("cannot write for now");
    expect(refused.message).toContain("nothing was saved");

    // Marked down: health says so, and the next writes are refused at once with the same words.
    const state = await health(server!);
    expect(state.status).toBe("degraded");
    expect(state.writeStore.state).toBe("unavailable");
    const fast = await join(server!);
    expect(fast).toMatchObject({ status: 503, code: "write_store_unavailable", retryAfter: "2" });
    expect(fast.message).toContain("cannot write for now");
    expect(fast.ms).toBeLessThan(1_000);

    // A process started now cannot migrate its store: its writes are the same 503, not a 500.
    later = await startServer({ timeoutMs: 40_000, env: serverEnv(laterDatabaseUrl) });
    const laterRefused = await join(later);
    expect(laterRefused).toMatchObject({ status: 503, code: "write_store_unavailable", retryAfter: "2" });

    // The pool that reached the read-only server was retired: none of its connections is left.
    await sleep(500);
    const poolDuring = await backends(databaseUrl);
    expect(poolDuring.filter((pid) => poolBefore.includes(pid))).toEqual([]);

    await readOnly(false);
    const back = await untilAcknowledged(server!, 3, 5_000);
    expect(back.length).toBe(3);
    const laterBack = await untilAcknowledged(later, 2, 5_000);
    expect(laterBack.length).toBe(2);
    expect((await health(server!)).writeStore.state).toBe("ok");

    // Every acknowledged id stored once; nothing refused was stored.
    const rows = [
      ...(await pg.query<{ id: string; email: string }>(databaseUrl, "SELECT id, email FROM waitlist_submissions")),
      ...(await pg.query<{ id: string; email: string }>(
        laterDatabaseUrl,
        "SELECT id, email FROM waitlist_submissions",
      )),
    ];
    for (const answer of [before, ...back, ...laterBack])
      expect(rows.filter((r) => r.id === answer.id).map((r) => r.email)).toEqual([answer.email]);
    for (const answer of [refused, fast, laterRefused])
      expect(rows.filter((r) => r.email === answer.email)).toEqual([]);

    // No process died, and no submitted address reached the logs.
    for (const running of [server!, later]) {
      expect(running.process.exitCode).toBeNull();
      expect(running.output()).not.toMatch(/readonly-\d+-k4z@example\.com/);
      expect(running.output()).toContain("write store cannot write (read-only, no room or failing storage)");
    }
  }, 90_000);

  it("is found read-only by the email outbox's round (every 5 s) too, with no visitor writing", async () => {
    expect((await health(server!)).writeStore.state).toBe("ok");
    await readOnly(true);
    try {
      await expect
        .poll(async () => (await health(server!)).writeStore.state, { timeout: 8_000, interval: 250 })
        .toBe("unavailable");
    } finally {
      await readOnly(false);
    }
    await expect.poll(async () => (await health(server!)).writeStore.state, { timeout: 5_000 }).toBe("ok");
    expect((await join(server!)).status).toBe(200);
  }, 30_000);
});
