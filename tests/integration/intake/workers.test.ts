import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, TEST_PLAN_STORE, type RunningServer } from "../../helpers/server";
import { workerPids } from "../../helpers/cluster";

/**
 * WORKERS=2 (decision 192): two server processes on one port under a
 * node:cluster primary, on the embedded engines. Every worker answers, a
 * reseed is picked up by every worker, a dead worker is replaced, and SIGTERM
 * to the primary stops them all.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), "intake-workers-"));
const storeFile = path.join(dir, "plan-store.sqlite");
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A county's name as served, each request on a new connection (so the primary spreads them over the workers). */
function countyNames(url: string, times: number): Promise<string[]> {
  const one = () =>
    new Promise<string>((resolve, reject) => {
      const req = http.get(`${url}/api/counties?zip=10001`, { agent: false, timeout: 10_000 }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => {
          if (res.statusCode !== 200) return reject(new Error(`answered ${res.statusCode}: ${body.slice(0, 200)}`));
          const parsed = JSON.parse(body) as { counties: Array<{ fips: string; name: string }> };
          resolve(parsed.counties.find((c) => c.fips === "36061")?.name ?? "none");
        });
      });
      req.on("timeout", () => req.destroy(new Error("no answer within 10 s")));
      req.on("error", reject);
    });
  return Promise.all(Array.from({ length: times }, one));
}

/** The times (ms since the epoch) of the log lines that say `message`, in order. */
function logTimes(output: string, message: string): number[] {
  const times: number[] = [];
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const entry = JSON.parse(line) as { time?: number; msg?: string };
      if (entry.msg?.includes(message) && entry.time) times.push(entry.time);
    } catch {
      // not a log line
    }
  }
  return times;
}

/** When process `pid` started (ms since the epoch): its start in clock ticks since boot, put on the wall clock through /proc/uptime (centiseconds; /proc/stat's boot time is whole seconds). */
function processStartMs(pid: number): number {
  const bootedAt = Date.now() - Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]) * 1000;
  // The fields after the command name (which is in parentheses and may hold spaces); starttime is field 22.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  return bootedAt + (ticks / ticksPerSecond) * 1000;
}

describe("WORKERS=2 on one port", () => {
  it("serves from both workers, follows a reseed in each, replaces a dead worker and stops on SIGTERM", async () => {
    copyFileSync(TEST_PLAN_STORE, storeFile);
    server = await startServer({ env: { WORKERS: "2", PLAN_STORE_PATH: storeFile }, timeoutMs: 40_000 });
    // Both workers listen (the first "listening" line resolves startServer).
    const listening = () => (server!.output().match(/listening on http/g) ?? []).length;
    for (let i = 0; i < 200 && listening() < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(listening()).toBe(2);
    expect(server.output()).toContain("starting 2 workers");
    expect(server.output()).toContain("WORKERS > 1 without REDIS_URL");
    // Two serving workers and a standby that has started up but listens only when one dies (decision 371).
    for (let i = 0; i < 300 && !server.output().includes("standby worker ready"); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(workerPids(server.process.pid!)).toHaveLength(3);
    const pids = workerPids(server.process.pid!, "serving");
    expect(pids).toHaveLength(2);
    // The standby starts only once both serving workers listen: started beside them it competed
    // for the two cores and slowed the moment the service answered (server/cluster.ts). Its
    // process start (10 ms clock ticks) is after both "listening" lines (the log lines carry no pid).
    const [standbyPid] = workerPids(server.process.pid!, "standby");
    const listenedAt = logTimes(server.output(), "listening on http");
    expect(listenedAt).toHaveLength(2);
    expect(processStartMs(standbyPid!)).toBeGreaterThanOrEqual(Math.max(...listenedAt) - 20);

    const before = await countyNames(server.url, 20);
    expect(new Set(before)).toEqual(new Set(["New York County"]));

    // A reseed: a new file renamed over the old one, as the seed pipeline does.
    const next = path.join(dir, "next.sqlite");
    copyFileSync(storeFile, next);
    const db = new Database(next);
    db.prepare("UPDATE counties SET name = 'New York County (reseeded)' WHERE fips = '36061'").run();
    db.close();
    renameSync(next, storeFile);
    await new Promise((r) => setTimeout(r, 1_500));
    const after = await countyNames(server.url, 20);
    expect(new Set(after)).toEqual(new Set(["New York County (reseeded)"]));

    // A worker killed outright: once the primary has seen it go, the port keeps answering from the
    // other, and a replacement starts.
    process.kill(pids[0]!, "SIGKILL");
    for (let i = 0; i < 100 && !server.output().includes("worker died; starting another"); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(server.output()).toContain("worker died; starting another");
    expect(new Set(await countyNames(server.url, 6))).toEqual(new Set(["New York County (reseeded)"]));
    for (let i = 0; i < 200 && listening() < 3; i++) await new Promise((r) => setTimeout(r, 100));
    expect(listening()).toBe(3);
    // The standby took its place; a new standby follows.
    for (let i = 0; i < 300 && workerPids(server.process.pid!).length < 3; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(workerPids(server.process.pid!)).toHaveLength(3);

    // SIGTERM to the primary: every worker shuts down gracefully and the primary exits 0.
    const survivors = workerPids(server.process.pid!);
    expect(await server.stop()).toBe(0);
    server = undefined;
    for (const pid of survivors) expect(() => process.kill(pid, 0)).toThrow();
  }, 90_000);
});
