import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { PendingInspection, Verdict } from "./engine";

/**
 * Large inspections off the event loop (issue 30 item 6, docs/decisions/500). The rules cost
 * about 20 µs per value and 0.45 µs per character on a slow core, so a request near the engine's
 * limits (512 values, 32,768 characters) held the event loop for 20–30 ms. A request that hands
 * the engine more than OFF_LOOP_VALUES values or OFF_LOOP_CHARS characters is judged by a worker
 * thread instead, while the event loop answers others; smaller ones, nearly all, are judged in
 * place, where a message each way would cost more than their run.
 *
 * The worker starts with the first large request, which waits for it (its engine is built and
 * warmed before it reads a message): a server that never sees one spends no memory on it, and a
 * starting server's first requests do not share the cores with it (decision 500).
 *
 * Only the compiled server has the worker (<BUILD_DIR>/firewall-inspector.js): run from the
 * sources (tsx, unit tests) every inspection is in place. A worker that fails or does not answer
 * within ANSWER_TIMEOUT_MS makes its inspections incomplete (503 with Retry-After, never a pass)
 * and is replaced by a new one; after CRASH_LIMIT failures within CRASH_WINDOW_MS the inspections
 * go back in place, loudly, rather than refusing every large request.
 */
export const OFF_LOOP_VALUES = 64;
export const OFF_LOOP_CHARS = 8_192;
const ANSWER_TIMEOUT_MS = 10_000;
const CRASH_LIMIT = 3;
const CRASH_WINDOW_MS = 60_000;

export interface InspectionRequest {
  id: number;
  input: PendingInspection["input"];
  unread: number;
  paths: PendingInspection["paths"];
  handed: PendingInspection["handed"];
}
export type InspectionAnswer = { id: number; verdict: Verdict } | { id: number; error: string };

/** Whether a prepared inspection is worth a worker's time. */
export function isLarge(p: PendingInspection): boolean {
  return p.handed.values > OFF_LOOP_VALUES || p.handed.chars > OFF_LOOP_CHARS;
}

type Log = { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/** A verdict for an inspection the worker could not finish: refused as busy, as an overrun is. */
const INCOMPLETE: Verdict = Object.freeze({
  blocked: false,
  overrun: true,
  overLimit: false,
  unread: 0,
  remembered: false,
  micros: 0,
});

export class OffLoopInspector {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: Verdict) => void; timer: NodeJS.Timeout }>();
  private readonly failures: number[] = [];

  constructor(
    private readonly script: string,
    private readonly log: () => Log,
    private readonly answerTimeoutMs = ANSWER_TIMEOUT_MS,
  ) {}

  /** Whether inspections still go to a worker (false after too many failures in a row). */
  get available(): boolean {
    const now = Date.now();
    while (this.failures.length > 0 && now - this.failures[0]! > CRASH_WINDOW_MS) this.failures.shift();
    return this.failures.length < CRASH_LIMIT;
  }

  run(p: PendingInspection): Promise<Verdict> {
    const worker = this.worker ?? this.spawn();
    const id = this.nextId++;
    return new Promise<Verdict>((resolve) => {
      const timer = setTimeout(
        () => this.fail(worker, `no answer within ${this.answerTimeoutMs} ms`),
        this.answerTimeoutMs,
      );
      this.waiting.set(id, { resolve, timer });
      const request: InspectionRequest = { id, input: p.input, unread: p.unread, paths: p.paths, handed: p.handed };
      worker.postMessage(request);
    });
  }

  /** Stop the worker (tests; the process's exit stops it anyway). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(this.script);
    // The worker never keeps the process alive: a draining server exits when its requests are done.
    worker.unref();
    worker.on("message", (answer: InspectionAnswer) => {
      const waiting = this.waiting.get(answer.id);
      if (!waiting) return;
      this.waiting.delete(answer.id);
      clearTimeout(waiting.timer);
      if ("verdict" in answer) waiting.resolve(answer.verdict);
      else {
        this.log().error({ error: answer.error }, "firewall inspector could not judge a request");
        waiting.resolve(INCOMPLETE);
      }
    });
    worker.on("error", (error) => this.fail(worker, error.message));
    this.log().info(
      { script: this.script },
      "firewall inspector started: large requests are judged off the event loop",
    );
    worker.on("exit", (code) => this.fail(worker, `exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  /** The worker failed: everything it was asked is incomplete, and the next request starts another. */
  private fail(worker: Worker, reason: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failures.push(Date.now());
    const fallback = !this.available;
    this.log().error(
      { reason, pending: this.waiting.size, failures: this.failures.length, inPlaceFromNow: fallback },
      fallback
        ? "firewall inspector failed repeatedly: large requests are judged on the event loop for a while"
        : "firewall inspector failed: its requests are refused as busy, a new one is started",
    );
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.resolve(INCOMPLETE);
      this.waiting.delete(id);
    }
    void worker.terminate().catch(() => undefined);
  }
}

/**
 * The inspector of the compiled server: <BUILD_DIR>/firewall-inspector.js beside server.js.
 * Undefined when run from the sources, where there is no compiled worker.
 */
export function offLoopInspector(log: () => Log): OffLoopInspector | undefined {
  const here = fileURLToPath(import.meta.url);
  const script = path.join(path.dirname(here), "firewall-inspector.js");
  if (here.endsWith(".ts") || !existsSync(script)) return undefined;
  return new OffLoopInspector(script, log);
}
