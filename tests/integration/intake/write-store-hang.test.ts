import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";
import { startPostgres, type RunningPostgres } from "../../helpers/engines";
import { startFakeResend, type FakeResend } from "../../fakes/resend";
import pgDriver from "pg";
import { MIGRATION_LOCK_KEY } from "../../../db/write-store-postgres";
import { pdf } from "../../unit/intake/files";

/**
 * A PostgreSQL that stops answering without closing anything (a hung host, a network partition:
 * here every server process SIGSTOPped), docs/decisions/491. No query fails, so before the write
 * deadline a write waited on its pooled connection until the client gave up (60 s and more,
 * measured). Now:
 *  - a write in flight answers 503 write_store_unavailable with Retry-After once
 *    WRITE_DEADLINE_MS (5 s) has passed, saying its outcome is unknown;
 *  - the store is marked unreachable: /api/health says degraded and the next writes answer 503 at
 *    once, saying nothing was saved;
 *  - once PostgreSQL answers again, writes are acknowledged within 5 s;
 *  - every acknowledged id is stored exactly once, and no submitted address reaches the log.
 */

const DEADLINE_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
let pg: RunningPostgres;
let resend: FakeResend;
let databaseUrl: string;
let server: RunningServer | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "intake-hang-"));
  [pg, resend] = await Promise.all([startPostgres(), startFakeResend()]);
  databaseUrl = await pg.createDatabase();
  server = await startServer({
    timeoutMs: 40_000,
    env: {
      DATABASE_URL: databaseUrl,
      TRUST_PROXY: "1",
      UPLOAD_LOCAL_DIR: path.join(dir, "uploads"),
      RESEND_BASE_URL: resend.url,
      RESEND_API_KEY: resend.apiKey,
      OPERATIONS_EMAIL: "ops@marketplace.test",
    },
  });
}, 90_000);

afterAll(async () => {
  pg?.thaw();
  await server?.stop().catch(() => undefined);
  await Promise.all([pg?.stop(), resend?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  ms: number;
  email: string;
  id?: string;
  code?: string;
  message?: string;
  retryAfter?: string | null;
  replayed?: boolean;
}

let sent = 0;
/** One write; `again` sends an earlier one's body once more (with `key`, its Idempotency-Key). */
async function join(kind: "waitlist" | "discovery", options: { key?: string; again?: number } = {}): Promise<Answer> {
  const n = options.again ?? ++sent;
  const email = `hang-${n}-q7x@example.com`;
  const body =
    kind === "waitlist"
      ? { email, zip: "10001", interest: "consumer" }
      : {
          name: `Ravella Quint${n}`,
          email,
          phone: `646-555-01${String(n).padStart(2, "0")}`,
          npn: String(300000 + n),
          licensed_states: ["NY"],
          consent: true,
          consent_version: "2025-11-01",
        };
  const started = Date.now();
  const res = await fetch(`${server!.url}/api/${kind === "waitlist" ? "waitlist" : "agents/discovery"}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-forwarded-for": `10.41.0.${n}`,
      ...(options.key ? { "idempotency-key": options.key } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const json = (await res.json()) as Record<string, unknown> & { error?: { code: string; message: string } };
  return {
    status: res.status,
    ms: Date.now() - started,
    email,
    id: (json.waitlist_submission_id ?? json.discovery_submission_id) as string | undefined,
    code: json.error?.code,
    message: json.error?.message,
    retryAfter: res.headers.get("retry-after"),
    replayed: res.headers.get("idempotent-replayed") === "true",
  };
}

/** Every submission's rows; each acknowledged id must be there once, with the address it was acknowledged for. */
async function storedOnce(acknowledged: Answer[]): Promise<Array<{ id: string; email: string }>> {
  const rows = await pg.query<{ id: string; email: string }>(
    databaseUrl,
    "SELECT id, email FROM waitlist_submissions UNION ALL SELECT id, email FROM agent_discovery_submissions",
  );
  for (const answer of acknowledged)
    expect(rows.filter((r) => r.id === answer.id).map((r) => r.email)).toEqual([answer.email]);
  return rows;
}

describe("a PostgreSQL that hangs", () => {
  it("answers writes 503 within the deadline, fails fast while it hangs, and writes again soon after it answers", async () => {
    const before = await join("waitlist");
    expect(before.status).toBe(200);

    pg.freeze();
    const frozenAt = Date.now();
    // In flight on pooled connections that no longer answer: two API writes and a page's form post.
    const pageEmail = "hang-page-q7x@example.com";
    const [inFlight, page] = await Promise.all([
      Promise.all([join("waitlist"), join("discovery")]),
      fetch(`${server!.url}/updates`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          accept: "text/html",
          "x-forwarded-for": "10.41.1.1",
        },
        body: new URLSearchParams({ email: pageEmail, zip: "10001", interest: "consumer" }),
        redirect: "manual",
        signal: AbortSignal.timeout(30_000),
      }),
    ]);
    // The page does not say "not saved" when it cannot know.
    expect(page.status).toBe(503);
    const pageHtml = await page.text();
    expect(pageHtml).toContain("We could not confirm your sign-up just now");
    expect(pageHtml).not.toContain("you are not on the list yet");
    for (const answer of inFlight) {
      expect(answer.status).toBe(503);
      expect(answer.code).toBe("write_store_unavailable");
      expect(answer.retryAfter).toBe("2");
      expect(answer.message).toContain("may or may not have been saved");
      expect(answer.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
      expect(answer.ms).toBeLessThan(DEADLINE_MS + 3_000);
    }

    // Marked unreachable: health says so, and the next write is refused at once, nothing saved.
    const health = await fetch(`${server!.url}/api/health`, { signal: AbortSignal.timeout(5_000) });
    expect(health.status).toBe(200);
    const state = (await health.json()) as { status: string; writeStore: { state: string } };
    expect(state.status).toBe("degraded");
    expect(state.writeStore.state).toBe("unavailable");
    const refused = await join("discovery");
    expect(refused.status).toBe(503);
    expect(refused.code).toBe("write_store_unavailable");
    expect(refused.message).toContain("nothing was saved");
    expect(refused.ms).toBeLessThan(1_000);

    // Still hanging 10 s in: still refused.
    await sleep(Math.max(0, frozenAt + 10_000 - Date.now()));
    expect((await join("waitlist")).status).toBe(503);

    pg.thaw();
    const thawedAt = Date.now();
    let back: Answer | undefined;
    const acknowledged = [before];
    while (Date.now() - thawedAt < 15_000) {
      const answer = await join(sent % 2 ? "waitlist" : "discovery");
      if (answer.status === 200) {
        back ??= answer;
        acknowledged.push(answer);
        if (acknowledged.length >= 4) break;
      } else expect(answer.status).toBe(503);
      await sleep(100);
    }
    expect(back).toBeDefined();
    const backAfterMs = Date.now() - thawedAt;
    console.log(
      `hung PostgreSQL: in-flight writes answered 503 after ${inFlight.map((a) => a.ms).join(" and ")} ms; writes back within ${backAfterMs} ms of it answering again`,
    );
    expect(backAfterMs).toBeLessThan(5_000 + 2_000);

    // Every acknowledged id stored once with its address; the two whose outcome was unknown at most once.
    await sleep(1_000);
    const rows = await storedOnce(acknowledged);
    for (const answer of inFlight) expect(rows.filter((r) => r.email === answer.email).length).toBeLessThanOrEqual(1);
    expect(rows.filter((r) => r.email === refused.email)).toEqual([]);

    // The connections it had hang for good while new ones are served (a failover to a new host
    // looks so): the store's pool is replaced, so writes do not keep taking a connection that hangs.
    expect(pg.freezeConnections()).toBeGreaterThan(0);
    const stuck = await join("waitlist");
    expect(stuck.status).toBe(503);
    expect(stuck.message).toContain("may or may not have been saved");
    const failedOverAt = Date.now();
    let afterFailover: Answer | undefined;
    while (!afterFailover && Date.now() - failedOverAt < 15_000) {
      const answer = await join(sent % 2 ? "waitlist" : "discovery");
      if (answer.status === 200) afterFailover = answer;
      else expect(answer.status).toBe(503);
      await sleep(100);
    }
    expect(afterFailover).toBeDefined();
    const failoverMs = Date.now() - failedOverAt;
    console.log(`old connections hung for good: a write acknowledged ${failoverMs} ms after the deadline answer`);
    expect(failoverMs).toBeLessThan(5_000);
    // Five more in a row, each on the new pool.
    for (let i = 0; i < 5; i++) {
      const answer = await join(i % 2 ? "waitlist" : "discovery");
      expect(answer.status).toBe(200);
      acknowledged.push(answer);
    }
    acknowledged.push(afterFailover!);
    // Email delivery goes on too: its round on a connection that hangs gives up at its own
    // deadline (10 s), and the next round uses the new pool.
    let delivered = false;
    for (let i = 0; i < 300 && !delivered; i++) {
      delivered = resend.emails.some((e) => e.to.includes(afterFailover!.email));
      if (!delivered) await sleep(100);
    }
    console.log(
      `old connections hung for good: the confirmation email went out ${Date.now() - failedOverAt} ms after the deadline answer`,
    );
    expect(delivered).toBe(true);
    pg.thaw();
    await sleep(1_000);
    const later = await storedOnce(acknowledged);
    expect(later.filter((r) => r.email === stuck.email).length).toBeLessThanOrEqual(1);

    // The log says what happened, and never whose write it was. The server's log lines reach this
    // process through a pipe and may trail the answers on a busy machine: wait for them.
    await expect.poll(() => server!.output(), { timeout: 5_000 }).toContain("a late write store operation");
    const output = server!.output();
    expect(output).toContain("write store operation did not finish in time");
    for (let n = 1; n <= sent; n++) expect(output).not.toContain(`hang-${n}-q7x@example.com`);
    expect(output).toContain("a late write store operation");
    expect(output).not.toContain("Ravella Quint");
    expect(output).not.toContain(pageEmail);
  }, 90_000);
  it("answers 503 within the deadline when opening the new pool does not finish (another instance holds the migration lock)", async () => {
    // Retire the pool: its connections hang for one write, then answer again.
    pg.freezeConnections();
    const overrun = await join("waitlist");
    expect(overrun.status).toBe(503);
    pg.thaw();
    // Another instance migrating: the lock the opening waits for.
    const holder = new pgDriver.Client({ connectionString: databaseUrl });
    holder.on("error", () => undefined);
    await holder.connect();
    await holder.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      // The probe answers, so the store is marked reachable; the next write opens a new pool. (An
      // email round's own overrun can mark the store unreachable again meanwhile: then the write is
      // refused at once without opening anything, and is sent again once the probe has answered.)
      let waiting: Answer | undefined;
      for (let attempt = 0; attempt < 3 && !(waiting && waiting.ms >= DEADLINE_MS - 200); attempt++) {
        let state = "unavailable";
        for (let i = 0; i < 150 && state !== "ok"; i++) {
          await sleep(100);
          const health = await fetch(`${server!.url}/api/health`, { signal: AbortSignal.timeout(5_000) });
          state = ((await health.json()) as { writeStore: { state: string } }).writeStore.state;
        }
        expect(state).toBe("ok");
        waiting = await join("discovery");
        expect(waiting.status).toBe(503);
      }
      expect(waiting!.code).toBe("write_store_unavailable");
      expect(waiting!.message).toContain("nothing was saved");
      expect(waiting!.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 200);
      expect(waiting!.ms).toBeLessThan(DEADLINE_MS + 3_000);
      // Its log line comes through a pipe and may trail the answer (a CI run read the output first).
      await expect
        .poll(() => server!.output(), { timeout: 5_000 })
        .toContain("write store could not be opened in time");
    } finally {
      await holder.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
      await holder.end();
    }
    let back: Answer | undefined;
    const releasedAt = Date.now();
    while (!back && Date.now() - releasedAt < 15_000) {
      const answer = await join("waitlist");
      if (answer.status === 200) back = answer;
      else expect(answer.status).toBe(503);
      await sleep(100);
    }
    expect(back).toBeDefined();
    console.log(`migration lock released: writes acknowledged again after ${Date.now() - releasedAt} ms`);
    await storedOnce([back!]);
  }, 60_000);

  it("a form whose outcome was unknown, sent again with its Idempotency-Key once the database answers, is stored once (decision 495)", async () => {
    const key = "hang-resend-7f3a9c";
    pg.freezeConnections();
    const unknown = await join("discovery", { key });
    expect(unknown.status).toBe(503);
    expect(unknown.message).toContain("may or may not have been saved");
    pg.thaw();
    // The client does what the answer asks: it sends the same form again, with the same key, until
    // it is acknowledged. Whether the first write committed late or not, one record comes of it.
    const n = sent;
    let acknowledged: Answer | undefined;
    const thawedAt = Date.now();
    while (!acknowledged && Date.now() - thawedAt < 20_000) {
      const answer = await join("discovery", { key, again: n });
      if (answer.status === 200) acknowledged = answer;
      else expect(answer.status).toBe(503);
      await sleep(200);
    }
    expect(acknowledged).toBeDefined();
    expect(acknowledged!.email).toBe(unknown.email);
    const again = await join("discovery", { key, again: n });
    expect(again.status).toBe(200);
    expect(again.replayed).toBe(true);
    expect(again.id).toBe(acknowledged!.id);
    await sleep(1_000);
    const rows = await pg.query<{ id: string }>(
      databaseUrl,
      "SELECT id FROM agent_discovery_submissions WHERE email = $1",
      [unknown.email],
    );
    expect(rows.map((r) => r.id)).toEqual([acknowledged!.id]);
    console.log(
      `resent with its key after an unknown outcome: acknowledged ${Date.now() - thawedAt} ms after the database answered, ${acknowledged!.replayed ? "the first write had committed" : "the first write had not committed"}`,
    );
  }, 60_000);

  it("an upload whose row's outcome was unknown: once the database answers, its file is there if and only if its row is (decision 505)", async () => {
    let name = "hang-upload-4c1e-1.pdf";
    const filesNamed = () =>
      readdirSync(path.join(dir, "uploads"), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith(`-${name}`))
        .map((f) => `agent-survey-uploads/${f.split("agent-survey-uploads/").pop()}`);
    const rowsNamed = () =>
      pg.query<{ object_key: string }>(
        databaseUrl,
        "SELECT object_key FROM agent_uploads WHERE original_file_name = $1",
        [name],
      );
    // The table exists and the pool holds connections before they are frozen.
    const form = () => {
      const body = new FormData();
      body.append("docType", "intake_form");
      body.append("blankConfirmed", "true");
      body.append("file", new File([new Uint8Array(pdf())], name, { type: "application/pdf" }));
      return body;
    };
    const send = () =>
      fetch(`${server!.url}/api/agents/discovery/upload`, {
        method: "POST",
        body: form(),
        headers: { "x-forwarded-for": "10.41.1.1" },
        signal: AbortSignal.timeout(30_000),
      });
    pg.freezeConnections();
    let res = await send();
    // Only the connections open at the freeze hang. When none was idle at that instant (the
    // outbox's poll held the one there was), the upload got a new connection and was stored:
    // that one must be whole, and the case is tried again under another name.
    for (let attempt = 2; res.status === 200 && attempt <= 4; attempt++) {
      expect((await rowsNamed()).map((r) => r.object_key)).toEqual(filesNamed());
      pg.thaw();
      await sleep(500);
      name = `hang-upload-4c1e-${attempt}.pdf`;
      pg.freezeConnections();
      res = await send();
    }
    const answer = (await res.json()) as { error?: { code: string; message: string } };
    expect(res.status).toBe(503);
    expect(answer.error?.message).toContain("may or may not have been saved");
    // The file was stored before the row was tried, and is kept while the row may still commit.
    expect(filesNamed()).toHaveLength(1);
    pg.thaw();
    // The late write ends one way or the other; then files and rows agree.
    let files: string[] = [];
    let rows: string[] = [];
    for (const started = Date.now(); Date.now() - started < 20_000; await sleep(250)) {
      files = filesNamed().sort();
      rows = (await rowsNamed()).map((r) => r.object_key).sort();
      if (files.length === rows.length) break;
    }
    expect(files).toEqual(rows);
    console.log(
      `upload with an unknown outcome: ${rows.length ? "its row committed late; its file is kept" : "its row never committed; its file was removed"}`,
    );
  }, 60_000);

  it("SIGTERM while it hangs still ends the process, leaving the pool behind (decision 521)", async () => {
    // A server of its own, whose pool has a connection waiting on the frozen database.
    const own = await startServer({
      timeoutMs: 40_000,
      env: { DATABASE_URL: databaseUrl, UPLOAD_LOCAL_DIR: path.join(dir, "uploads-sigterm") },
    });
    try {
      const first = await fetch(`${own.url}/api/waitlist`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "sigterm-hang-q7x@example.com", zip: "10001", interest: "consumer" }),
      });
      expect(first.status).toBe(200);
      pg.freeze();
      const stuck = await fetch(`${own.url}/api/waitlist`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "sigterm-hang-2-q7x@example.com", zip: "10001", interest: "consumer" }),
        signal: AbortSignal.timeout(30_000),
      });
      expect(stuck.status).toBe(503);
      // On the parent the process was still running 30 s after SIGTERM: the pool's end waited for
      // a connection the frozen database never answers. Now each resource gets 5 s at most.
      const started = Date.now();
      const ended = await Promise.race([own.stop(), sleep(25_000).then(() => "still running 25 s after SIGTERM")]);
      expect(ended).toBe(0);
      expect(own.output()).toMatch(/did not close within 5000 ms, left behind: write store postgres:/);
      expect(Date.now() - started).toBeLessThan(25_000);
    } finally {
      pg.thaw();
      await own.kill("SIGKILL");
    }
  }, 90_000);
});
