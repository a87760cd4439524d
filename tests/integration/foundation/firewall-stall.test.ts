import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Issue 18 item 2: no request can stall the server. Pathological bodies (the
 * 99,000-dot field that took 19.7 s before, long runs of every punctuation
 * character, deep nesting, 10,000-element arrays, the same in a form, a
 * multipart form, a query and a path) go to the built server one after
 * another while a second client polls /api/health.
 *
 * What is proved is that no single request holds the server's event loop
 * for long, measured by the server's own clock rather than by wall time
 * alone (docs/decisions/283): the CPU time the server's main thread (the
 * event loop) spends on each pathological request is read from
 * /proc/<pid>/task/<pid>/stat, and must stay under 50 ms; every health answer
 * comes back in under 100 ms, or, when the machine is so loaded that one does
 * not (nine suites at once on two shared cores), the server's main thread
 * spent under 100 ms on the CPU while that answer was waited for: the wait
 * was the machine's, not a request blocking the loop.
 */
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

/** CPU time of the process's main thread (its event loop), in ms. */
function loopCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  // Fields after "(comm)": state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1_000) / CLOCK_TICKS;
}
let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const PUNCTUATION = [..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"];

interface Pathological {
  what: string;
  path: string;
  init: RequestInit;
}

function json(what: string, body: string, path = "/api/agents/discovery"): Pathological {
  return { what, path, init: { method: "POST", headers: { "content-type": "application/json" }, body } };
}

function pathologicalRequests(): Pathological[] {
  const out: Pathological[] = [json("99,000 dots in a JSON field", JSON.stringify({ needs: ".".repeat(99_000) }))];
  out.push({
    what: "90,000 dots in a form field",
    path: "/agent-discovery",
    init: {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `needs=${".".repeat(90_000)}`,
    },
  });
  for (const c of PUNCTUATION) {
    out.push(json(`99,000 × ${c} in a JSON field`, JSON.stringify({ needs: c.repeat(99_000) })));
    out.push(json(`49,000 × ${c} in a structured JSON field`, JSON.stringify({ zip: c.repeat(49_000) })));
  }
  out.push(json("50,000 nested arrays", "[".repeat(50_000) + "]".repeat(50_000)));
  out.push(json("20,000 nested objects", '{"a":'.repeat(16_000) + "1" + "}".repeat(16_000)));
  out.push(
    json(
      "10,000-element array of quotes",
      JSON.stringify({ current_tools: Array.from({ length: 10_000 }, () => "'") }),
    ),
  );
  out.push(json("10,000-element array of numbers", JSON.stringify(Array.from({ length: 10_000 }, (_, i) => i))));
  const form = new FormData();
  form.set("needs", ".".repeat(99_000));
  form.set("zip", "'".repeat(49_000));
  out.push({ what: "multipart with 99,000 dots", path: "/agent-discovery", init: { method: "POST", body: form } });
  out.push(
    json(
      "10,000 distinct plain tokens",
      JSON.stringify({ plan_ids: Array.from({ length: 10_000 }, (_, i) => `P${i}`) }),
    ),
  );
  out.push(
    json(
      "10,000 distinct prose values",
      JSON.stringify({ notes: Array.from({ length: 10_000 }, (_, i) => `a ${i};`) }),
    ),
  );
  out.push(json('49,500 × ". " in a structured field', JSON.stringify({ zip: ". ".repeat(49_500) })));
  out.push(json('49,500 × "<a" in a structured field', JSON.stringify({ zip: "<a".repeat(49_500) })));
  const big = new FormData();
  big.set("needs", "call me after 5; ask about Union Select & Oscar | 'deductible' ".repeat(16_000));
  out.push({ what: "multipart with 1 MB of prose", path: "/agent-discovery", init: { method: "POST", body: big } });
  out.push({ what: "8,000 quotes in the query", path: `/plans?q=${"%27".repeat(2_500)}`, init: {} });
  out.push({ what: "8,000 dots in the path", path: `/plans/${".".repeat(8_000)}`, init: {} });
  return out;
}

describe("no request can stall the server", () => {
  it("keeps the event loop free: no pathological request costs it 50 ms of CPU, /api/health answers meanwhile", async () => {
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
      // Every request is answered, and none costs the event loop more than 50 ms of CPU.
      expect(answer.ms, `${answer.what}: ${report}`).toBeLessThan(5_000);
      expect(answer.loopMs, `${answer.what}: ${report}`).toBeLessThan(50);
    }
    // Health was polled throughout (every ~10 ms plus its own answer time). The window is as long as
    // the pathological requests take, shorter since heavy forms are refused before parsing (decision
    // 375), so the count is bounded loosely: what matters is that health answered meanwhile.
    expect(health.length).toBeGreaterThanOrEqual(10);
    for (const h of health) if (h.ms >= 100) expect(h.loopMs, report).toBeLessThan(100);
  }, 120_000);
});
