import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Decision 520: the server's standard output appended to a file (`npm start >> app.log`) on a
 * disk that is full. The built server runs with a file-size limit of 8 MiB and its log file
 * already 8 MiB long, so every log line fails with EFBIG, as on a full disk with ENOSPC, while its
 * write store (new, small files) can still grow. On the parent the first log line ended the
 * process (pino's unhandled 'error' event): it never served.
 */

const LIMIT_KIB = 8 * 1024;
let server: RunningServer;
let dir: string;
let logFile: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "log-output-full-"));
  logFile = path.join(dir, "app.log");
  writeFileSync(logFile, Buffer.alloc(LIMIT_KIB * 1024, "#"));
  server = await startServer({
    env: { DATABASE_URL: `file:${path.join(dir, "app.db")}`, UPLOAD_LOCAL_DIR: path.join(dir, "uploads") },
    fileSizeLimitKiB: LIMIT_KIB,
    outputFile: logFile,
  });
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("log output that cannot be written", () => {
  it("does not stop the service: pages, sign-ups and health keep answering, and SIGTERM still ends it", async () => {
    // Every request writes a log line; a 404 and a refused body write warnings too.
    for (let i = 0; i < 20; i++) {
      expect((await fetch(`${server.url}/no-such-page-${i}`)).status).toBe(404);
    }
    const signUp = await fetch(`${server.url}/api/waitlist`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "log.full@example.com", zip: "99501", interest: "consumer" }),
    });
    expect(signUp.status).toBe(200);
    const { waitlist_submission_id: id } = (await signUp.json()) as { waitlist_submission_id: string };
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(server.process.exitCode).toBeNull();

    // Nothing reached the log (it is at the limit), and the row is stored.
    expect(statSync(logFile).size).toBe(LIMIT_KIB * 1024);
    expect(readFileSync(logFile).subarray(-16).toString()).toBe("#".repeat(16));
    const db = new Database(path.join(dir, "app.db"), { readonly: true });
    try {
      expect(db.prepare("SELECT id FROM waitlist_submissions").all()).toEqual([{ id }]);
    } finally {
      db.close();
    }
    // And it still ends when asked: its last lines are given up, not retried forever.
    const ended = await Promise.race([
      server.stop(),
      new Promise<string>((resolve) => setTimeout(() => resolve("still running after 15 s"), 15_000)),
    ]);
    expect(ended).toBe(0);
  }, 30_000);
});

describe("log output nobody reads", () => {
  it("keeps answering while the pipe is full, and still ends within seconds on SIGTERM", async () => {
    // Decision 520: on the parent the server answered, but SIGTERM never ended it: at exit pino
    // wrote its backlog synchronously and sonic-boom retried the full pipe (EAGAIN) forever.
    const quiet = await startServer();
    try {
      quiet.stopReadingOutput();
      // Each answer writes a request log line of a few hundred bytes: far more than a pipe holds.
      for (let i = 0; i < 600; i++) {
        const res = await fetch(`${quiet.url}/no-such-page-${"x".repeat(200)}-${i}`);
        expect(res.status).toBe(404);
        await res.text();
      }
      const started = Date.now();
      const ended = await Promise.race([
        quiet.stop(),
        new Promise<string>((resolve) => setTimeout(() => resolve("still running after 15 s"), 15_000)),
      ]);
      expect(ended).toBe(0);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await quiet.kill("SIGKILL");
    }
  }, 60_000);
});
