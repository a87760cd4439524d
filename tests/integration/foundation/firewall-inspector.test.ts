import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FIREWALL_BUDGET_MICROS,
  FirewallEngine,
  OFF_LOOP_BUDGET_MICROS,
  type PendingInspection,
} from "../../../server/firewall/engine";
import { isLarge, OFF_LOOP_CHARS, OFF_LOOP_VALUES, OffLoopInspector } from "../../../server/firewall/inspector";
import type { RequestData } from "../../../server/firewall/request-data";
import { REPO_ROOT, startServer, type RunningServer } from "../../helpers/server";

/**
 * Decision 500: a request that hands the engine much to read is judged by a worker thread
 * (<BUILD_DIR>/firewall-inspector.js, built by `npm run build`), with the same rules and the same
 * verdicts as in place; a worker that fails or hangs makes its requests incomplete (503 as busy),
 * never clean, and is replaced.
 */
const WORKER = path.join(REPO_ROOT, "build", "firewall-inspector.js");
const headers = { host: "localhost", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0", accept: "*/*" };
const lines: Array<{ obj: object; msg: string }> = [];
const log = () => ({
  info: (obj: object, msg: string) => lines.push({ obj, msg }),
  error: (obj: object, msg: string) => lines.push({ obj, msg }),
});

let engine: FirewallEngine;
beforeAll(() => {
  engine = new FirewallEngine(undefined, 1_000_000, false);
});

function prepared(data: RequestData): PendingInspection {
  const p = engine.prepare(data);
  if ("verdict" in p) throw new Error("expected something to read");
  return p;
}

/** 100 distinct contact notes, one of them carrying `payload`. */
function notes(payload?: string): RequestData {
  const values = Array.from({ length: 100 }, (_, i) => `Call me after ${i} pm about the Silver plan`);
  if (payload) values[57] = payload;
  return { url: "/api/agents/discovery", headers, body: { json: { current_tools: values } } };
}

describe("the off-loop inspector", () => {
  it("only takes what hands the engine more than its thresholds", () => {
    expect(isLarge(prepared(notes()))).toBe(true);
    expect(OFF_LOOP_VALUES).toBe(64);
    expect(isLarge(prepared({ url: "/api/x", headers, body: { json: { zip: "75201", note: "a b" } } }))).toBe(false);
    expect(
      isLarge(prepared({ url: "/api/x", headers, body: { json: { note: "a b ".repeat(OFF_LOOP_CHARS / 4 + 1) } } })),
    ).toBe(true);
  });

  it("gives the verdicts the engine gives in place, the field included", async () => {
    const inspector = new OffLoopInspector(WORKER, log);
    try {
      for (const payload of [
        undefined,
        "x' UNION SELECT password FROM users --",
        "; cat /etc/passwd",
        "<script>alert(1)</script>",
      ]) {
        const p = prepared(notes(payload));
        const there = await inspector.run(p);
        const here = engine.runPending(p);
        // (Either run may overrun its 20 ms budget on a loaded machine; the firewall then answers 503.)
        expect({ blocked: there.blocked, rule: there.rule, where: there.where }, String(payload)).toEqual({
          blocked: here.blocked,
          rule: here.rule,
          where: here.where,
        });
        expect(there.blocked).toBe(payload !== undefined);
      }
      expect(lines.some((l) => l.msg.startsWith("firewall inspector started"))).toBe(true);
    } finally {
      await inspector.stop();
    }
  });

  it("finishes off the loop a run that costs more than the in-place budget (decision 533)", async () => {
    expect(OFF_LOOP_BUDGET_MICROS).toBeGreaterThan(FIREWALL_BUDGET_MICROS);
    // Plan-id-shaped tokens in chunks of 200 (as request-data.ts hands them), enough of them that
    // a run here costs 30-60 ms of the engine's clock: past the 20 ms an in-place run may take.
    const costOf = (p: PendingInspection) => engine.runPending(p).micros;
    const base = prepared(notes());
    const withChunks = (chunks: number): PendingInspection => {
      const body: Record<string, string[]> = {};
      for (let c = 0; c < chunks; c++)
        body[String(c)] = Array.from({ length: 200 }, (_, i) => `H${c}${String(i * 7919).padStart(6, "0")}AK0010001`);
      return { ...base, input: { ...base.input, "server.request.body": body } };
    };
    let chunks = 2;
    let p = withChunks(chunks);
    while (costOf(p) < 30_000 && chunks < 200) p = withChunks((chunks += 1));
    const inPlace = costOf(p);
    expect(inPlace, "the run must cost more than the in-place budget").toBeGreaterThan(FIREWALL_BUDGET_MICROS);

    const inspector = new OffLoopInspector(WORKER, log);
    try {
      const there = await inspector.run(p);
      expect(there, `a run of ${inPlace} µs here`).toMatchObject({ blocked: false, overrun: false });
    } finally {
      await inspector.stop();
    }
  });

  it("makes a failed or silent worker's requests incomplete, never clean, and goes back in place after three failures", async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "inspector-"));
    const crashing = path.join(scratch, "crash.mjs");
    writeFileSync(
      crashing,
      'import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => process.exit(3));\n',
    );
    const silent = path.join(scratch, "silent.mjs");
    writeFileSync(silent, 'import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => {});\n');
    const attack = prepared(notes("x' UNION SELECT password FROM users --"));

    const hanging = new OffLoopInspector(silent, log, 200);
    const verdict = await hanging.run(attack);
    expect(verdict).toMatchObject({ blocked: false, overrun: true });
    expect(
      lines.some((l) => l.msg.startsWith("firewall inspector failed") && JSON.stringify(l.obj).includes("200 ms")),
    ).toBe(true);
    await hanging.stop();

    const inspector = new OffLoopInspector(crashing, log);
    for (let i = 0; i < 3; i++) {
      expect(inspector.available).toBe(true);
      // Each failure answers its requests as busy; the next request starts a new worker.
      const answers = await Promise.all([inspector.run(attack), inspector.run(attack)]);
      for (const answer of answers) expect(answer).toMatchObject({ blocked: false, overrun: true });
    }
    expect(inspector.available).toBe(false);
    expect(lines.some((l) => l.msg.includes("judged on the event loop for a while"))).toBe(true);
  });
});

describe("the compiled server's firewall", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const post = (body: unknown) =>
    fetch(`${server.url}/api/agents/discovery`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("judges large requests off the event loop: attacks refused, clean ones reach their route", async () => {
    const clean = Array.from({ length: 100 }, (_, i) => `Call me after ${i} pm about the Silver plan`);
    const attack = [...clean];
    attack[57] = "x' UNION SELECT password FROM users --";
    const blocked = await post({ current_tools: attack });
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    // The clean one reaches the route, which answers for its fields (no 403, no 503).
    const passed = await post({ current_tools: clean });
    expect(passed.status).toBe(400);
    expect(((await passed.json()) as { error: { code: string } }).error.code).toBe("validation_failed");
    expect(server.output()).toContain("firewall inspector started");
  });

  it("refuses JSON nested past 64 levels unparsed, with the route's 400", async () => {
    for (const body of ["[".repeat(50_000) + "]".repeat(50_000), '{"a":'.repeat(16_000) + "1" + "}".repeat(16_000)]) {
      const res = await fetch(`${server.url}/api/agents/discovery`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          code: "malformed_json",
          message: "The request body nests arrays and objects more than 64 levels deep.",
        },
      });
    }
  });
});
