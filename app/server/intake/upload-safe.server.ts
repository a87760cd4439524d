import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type ResourceLimits } from "node:worker_threads";
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
 * alive). It reads one PDF at a time; the others wait here, in order (decision 513). Run from the
 * sources (tsx, the unit tests) there is no compiled worker, and the work is done in place.
 *
 * A worker that fails is replaced, and the PDFs waiting go to the new one. The PDF it was reading is
 * never read in place: a PDF that exhausts the worker's memory would exhaust the server's next, and
 * the process would die with every request it held (decision 513). It is refused as unreadable when
 * the worker ran out of memory, or when it was being read by two workers that failed; after any
 * other failure it is read once more by the next worker. Only a worker that never came up (its
 * script missing or broken) hands its PDFs back to be read in place.
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

/**
 * The worker's old generation, in MB: the readable 10 MB PDFs of the corpora take well under it
 * (docs/benchmarks.md), and `npm start` gives the server's own heap the same.
 */
export const WORKER_HEAP_MB = 256;

/** What a visitor is told when their PDF took the reader down. */
export const TOO_LARGE_TO_READ = "the reader ran out of memory on this PDF";

interface Job {
  id: number;
  bytes: Buffer;
  resolve: (safe: SafeFile) => void;
  reject: (error: unknown) => void;
  /** Workers that failed while reading it. */
  failures: number;
}

export class OffLoopUploadSafe {
  private worker: Worker | undefined;
  /** The worker has come up (its script loaded): a later failure is the work's, not the script's. */
  private online = false;
  private nextId = 1;
  /** PDFs waiting for the worker, oldest first. */
  private readonly waiting: Job[] = [];
  /** The PDF the worker is reading, with its time limit. */
  private current: { job: Job; timer: NodeJS.Timeout } | undefined;

  constructor(
    private readonly script: string,
    private readonly answerTimeoutMs = ANSWER_TIMEOUT_MS,
    /** The worker's heap, stated rather than left to the process's flags: what one PDF may take. */
    private readonly limits: ResourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  ) {}

  run(bytes: Buffer): Promise<SafeFile> {
    return new Promise<SafeFile>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, bytes, resolve, reject, failures: 0 });
      this.next();
    });
  }

  /** Stop the worker (tests; the process's exit stops it anyway). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  /** Hand the oldest waiting PDF to the worker, when it is free. */
  private next(): void {
    if (this.current) return;
    const job = this.waiting.shift();
    if (!job) return;
    const worker = this.worker ?? this.spawn();
    const timer = setTimeout(() => this.timedOut(worker, job), this.answerTimeoutMs);
    this.current = { job, timer };
    worker.postMessage({ id: job.id, bytes: job.bytes } satisfies UploadSafeRequest);
  }

  private spawn(): Worker {
    const worker = new Worker(this.script, { resourceLimits: this.limits });
    this.online = false;
    worker.unref();
    worker.on("online", () => {
      if (this.worker === worker) this.online = true;
    });
    worker.on("message", (answer: UploadSafeAnswer) => {
      const current = this.current;
      if (this.worker !== worker || !current || current.job.id !== answer.id) return;
      this.current = undefined;
      clearTimeout(current.timer);
      const { job } = current;
      if ("safe" in answer) {
        const { bytes } = answer.safe;
        job.resolve({ ...answer.safe, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
      } else if ("refused" in answer) job.reject(new RefusedUpload(answer.refused.reason, answer.refused.kind));
      else job.reject(new Error(answer.error));
      this.next();
    });
    worker.on("error", (error) => this.failed(worker, error));
    worker.on("exit", (code) => this.failed(worker, new Error(`exited with code ${code}`)));
    this.worker = worker;
    logger().info({ script: this.script }, "upload worker started: PDFs are read off the event loop");
    return worker;
  }

  /** The worker failed: replaced, and what it was reading refused or read again (see above). */
  private failed(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const current = this.current;
    this.current = undefined;
    if (current) clearTimeout(current.timer);
    const outOfMemory = (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY";
    logger().error(
      { reason: error.message, outOfMemory, reading: current !== undefined, waiting: this.waiting.length },
      "upload worker failed: replaced",
    );
    if (!this.online) {
      // The script never came up: nothing was read yet, so reading in place costs no more than it
      // would have without a worker.
      const held = [...(current ? [current.job] : []), ...this.waiting.splice(0)];
      for (const job of held) makeUploadSafe(job.bytes).then(job.resolve, job.reject);
      return;
    }
    if (current) {
      const job = current.job;
      job.failures++;
      if (outOfMemory || job.failures >= 2)
        job.reject(
          new RefusedUpload(outOfMemory ? TOO_LARGE_TO_READ : "the reader failed on this PDF twice", "unreadable_pdf"),
        );
      else this.waiting.unshift(job);
    }
    this.next();
  }

  /** A PDF that takes this long is not one a person can open: refused as unreadable, the worker replaced. */
  private timedOut(worker: Worker, job: Job): void {
    if (this.current?.job !== job) return;
    this.current = undefined;
    job.reject(new RefusedUpload(`not read within ${this.answerTimeoutMs} ms`, "unreadable_pdf"));
    logger().error({ timeoutMs: this.answerTimeoutMs }, "upload worker did not answer in time: replaced");
    if (this.worker === worker) {
      this.worker = undefined;
      void worker.terminate();
    }
    this.next();
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
