import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { logger } from "../platform/logger.server";
import { processSingleton } from "../platform/lifecycle.server";
import {
  makeUploadSafe,
  PDF,
  RefusedUpload,
  sniffFileType,
  type RefusalKind,
  type SafeFile,
} from "./upload-content.server";

/**
 * PDFs are disarmed in a worker thread (decision 507). pdf-lib is plain JavaScript: reading,
 * cleaning and writing a 2 MB manual held the event loop for up to 177 ms at a time, and every other
 * request of the process waited. Images stay here: sharp already works on libuv's threads.
 *
 * One worker per process, started on the first PDF and unref'd (it never keeps a draining process
 * alive); PDFs queue on it. When it fails or exits, what it held is done in place (never lost), and
 * the next PDF starts another. Run from the sources (tsx, the unit tests) there is no compiled
 * worker, and the work is done in place.
 */

export interface UploadSafeRequest {
  id: number;
  bytes: Uint8Array;
}
export type UploadSafeAnswer =
  | { id: number; safe: SafeFile }
  | { id: number; refused: { reason: string; kind: RefusalKind } }
  | { id: number; error: string };

/** Longer than any readable upload takes (a 10 MB PDF in about 5 s on this machine). */
export const ANSWER_TIMEOUT_MS = 60_000;

interface Job {
  bytes: Buffer;
  resolve: (safe: SafeFile) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

export class OffLoopUploadSafe {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly jobs = new Map<number, Job>();

  constructor(
    private readonly script: string,
    private readonly answerTimeoutMs = ANSWER_TIMEOUT_MS,
  ) {}

  run(bytes: Buffer): Promise<SafeFile> {
    const worker = this.worker ?? this.spawn();
    const id = this.nextId++;
    return new Promise<SafeFile>((resolve, reject) => {
      const timer = setTimeout(() => this.timedOut(worker, id), this.answerTimeoutMs);
      this.jobs.set(id, { bytes, resolve, reject, timer });
      worker.postMessage({ id, bytes } satisfies UploadSafeRequest);
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
    worker.unref();
    worker.on("message", (answer: UploadSafeAnswer) => {
      const job = this.jobs.get(answer.id);
      if (!job) return;
      this.jobs.delete(answer.id);
      clearTimeout(job.timer);
      if ("safe" in answer) {
        const { bytes } = answer.safe;
        job.resolve({ ...answer.safe, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
      } else if ("refused" in answer) job.reject(new RefusedUpload(answer.refused.reason, answer.refused.kind));
      else job.reject(new Error(answer.error));
    });
    worker.on("error", (error) => this.failed(worker, error.message));
    worker.on("exit", (code) => this.failed(worker, `exited with code ${code}`));
    this.worker = worker;
    logger().info({ script: this.script }, "upload worker started: PDFs are read off the event loop");
    return worker;
  }

  /** The worker failed: what it held is done in place, and the next PDF starts another worker. */
  private failed(worker: Worker, reason: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const held = [...this.jobs.values()];
    this.jobs.clear();
    if (held.length) logger().error({ reason, held: held.length }, "upload worker failed: its PDFs are read in place");
    for (const job of held) {
      clearTimeout(job.timer);
      makeUploadSafe(job.bytes).then(job.resolve, job.reject);
    }
  }

  /** A PDF that takes this long is not one a person can open: refused as unreadable, the worker replaced. */
  private timedOut(worker: Worker, id: number): void {
    const job = this.jobs.get(id);
    if (!job) return;
    this.jobs.delete(id);
    job.reject(new RefusedUpload(`not read within ${this.answerTimeoutMs} ms`, "unreadable_pdf"));
    logger().error({ timeoutMs: this.answerTimeoutMs }, "upload worker did not answer in time: replaced");
    // The other PDFs it held are read again, in place, by failed() once it has stopped.
    if (this.worker === worker) void worker.terminate();
  }
}

/** The compiled worker next to the compiled server (<BUILD_DIR>/upload-safe.js), or undefined. */
function compiledWorker(): string | undefined {
  if (fileURLToPath(import.meta.url).endsWith(".ts")) return undefined;
  const script = path.resolve(process.env.BUILD_DIR ?? "build", "upload-safe.js");
  return existsSync(script) ? script : undefined;
}

/** makeUploadSafe, with PDFs read off the event loop when the compiled worker is there. */
export function makeUploadSafeOffTheLoop(bytes: Buffer): Promise<SafeFile> {
  if (sniffFileType(bytes) !== PDF) return makeUploadSafe(bytes);
  const script = compiledWorker();
  if (!script) return makeUploadSafe(bytes);
  return processSingleton(`upload-safe:${script}`, () => new OffLoopUploadSafe(script)).run(bytes);
}
