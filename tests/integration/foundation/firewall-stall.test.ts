import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathologicalRequests } from "../../fixtures/firewall/pathological-requests";
import { loopCpuMs } from "../../helpers/loop-cpu";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Issue 18 item 2: no request can stall the server. The pathological requests
 * (tests/fixtures/firewall/pathological-requests.ts) go to the built server one
 * after another while a second client polls /api/health.
 *
 * What is proved is that no single request holds the server's event loop,
 * measured by the server's own clock rather than by wall time alone
 * (docs/decisions/283): the CPU time the server's main thread spends while
 * each request is answered must stay under 250 ms, where the 99,000-dot field
 * once took 19.7 s. That is a bound on stalls, not the speed target: issue 30's
 * 20 ms per request is measured by `npm run bench:edge` on a quiet machine and
 * recorded in docs/benchmarks.md (docs/decisions/500), because a test run
 * beside nine other suites on two shared cores measures its neighbours too.
 * Every health answer comes back in under 100 ms, or the main thread spent
 * under 250 ms on the CPU while that answer was waited for.
 */
const STALL_MS = 250;

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe("no request can stall the server", () => {
  it("keeps the event loop free: no pathological request stalls it, /api/health answers meanwhile", async () => {
    // The first answers of a fresh process include its lazy start-up (not what is measured here).
    for (let i = 0; i < 3; i++) await (await fetch(`${server.url}/api/health`)).arrayBuffer();
    for (const request of pathologicalRequests().slice(0, 3))
      await (await fetch(`${server.url}${request.path}`, { ...request.init, body: undefined })).arrayBuffer();
    await (await fetch(`${server.url}/plans/x?q=1`)).arrayBuffer();
    const pid = server.process.pid!;
    const health: Array<{ ms: number; loopMs: number }> = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const started = performance.now();
        const cpu = loopCpuMs(pid);
        const res = await fetch(`${server.url}/api/health`);
        await res.arrayBuffer();
        health.push({ ms: performance.now() - started, loopMs: loopCpuMs(pid) - cpu });
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const answers: Array<{ what: string; status: number; ms: number; loopMs: number }> = [];
    try {
      for (const request of pathologicalRequests()) {
        const started = performance.now();
        const cpu = loopCpuMs(pid);
        const res = await fetch(`${server.url}${request.path}`, {
          ...request.init,
          headers: { ...(request.init.headers as Record<string, string>), "x-forwarded-for": "203.0.113.9" },
        });
        await res.arrayBuffer();
        answers.push({
          what: request.what,
          status: res.status,
          ms: performance.now() - started,
          loopMs: loopCpuMs(pid) - cpu,
        });
      }
    } finally {
      polling = false;
      await poller;
    }
    const report = `requests (wall / loop CPU ms): ${answers.map((a) => `${a.what} ${a.ms.toFixed(0)}/${a.loopMs.toFixed(0)}`).join(", ")}; health: ${health.map((h) => `${h.ms.toFixed(0)}/${h.loopMs.toFixed(0)}`).join(", ")}`;
    if (process.env.STALL_REPORT) console.log(report);
    expect(answers.length).toBeGreaterThan(60);
    for (const answer of answers) {
      expect(answer.status, answer.what).toBeLessThan(500);
      // Every request is answered, and none holds the event loop.
      expect(answer.ms, `${answer.what}: ${report}`).toBeLessThan(5_000);
      expect(answer.loopMs, `${answer.what}: ${report}`).toBeLessThan(STALL_MS);
    }
    // Health was polled throughout (every ~10 ms plus its own answer time). The window is as long as
    // the pathological requests take, shorter since heavy forms are refused before parsing (decision
    // 375), so the count is bounded loosely: what matters is that health answered meanwhile.
    expect(health.length).toBeGreaterThanOrEqual(10);
    for (const h of health) if (h.ms >= 100) expect(h.loopMs, report).toBeLessThan(STALL_MS);
  }, 120_000);
});
