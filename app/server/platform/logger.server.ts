import { writeSync } from "node:fs";
import pino from "pino";
import { env } from "./env.server";
import { processSingleton } from "./lifecycle.server";

/** Log lines kept in memory while standard output refuses them (a full disk), then dropped. */
const LOG_BACKLOG_BYTES = 8 * 1024 * 1024;
const NOTICE_EVERY_MS = 60_000;
/** How long the exit may wait for a full pipe to take the last lines. */
const EXIT_FLUSH_MS = 2_000;

/**
 * The one logger. Never log personal data: no email addresses, incomes, ages
 * or names. Log operation names, statuses, durations and ids.
 *
 * Lines go to standard output, as pino's default does. A write that fails (standard output
 * redirected to a file on a full disk: ENOSPC, EFBIG) no longer ends the process (pino re-emits
 * it as an unhandled 'error'): the lines wait, up to 8 MB, and are written once the file takes
 * them again; past that, new lines are dropped and counted (docs/decisions/520). A notice goes to
 * standard error at most once a minute.
 *
 * At exit pino writes what is left synchronously (sonic-boom's flushSync), and sonic-boom 4 retries
 * that forever: a write error other than EAGAIN is never thrown, and EAGAIN (a pipe nobody reads)
 * is retried for as long as `retryEAGAIN` says. A process asked to stop then never exited. So the
 * exit's flush is skipped while writes are failing, and a full pipe is waited for 2 s at most.
 */
export function logger(): pino.Logger {
  return processSingleton("logger", () => {
    let exitFlushUntil = Infinity;
    const destination = pino.destination({
      dest: 1,
      sync: false,
      maxLength: LOG_BACKLOG_BYTES,
      // A full pipe is waited for while the process runs; at exit, for EXIT_FLUSH_MS.
      retryEAGAIN: () => Date.now() < exitFlushUntil,
    });
    const trouble = { failing: false, failedWrites: 0, droppedLines: 0, lastNotice: 0, lastError: "" };
    const flushSync = destination.flushSync.bind(destination);
    destination.flushSync = () => {
      if (trouble.failing) return;
      exitFlushUntil = Date.now() + EXIT_FLUSH_MS;
      try {
        flushSync();
      } catch {
        // The pipe stayed full: the last lines are lost, the process still ends.
      } finally {
        exitFlushUntil = Infinity;
      }
    };
    destination.on("write", () => {
      trouble.failing = false;
    });
    const notice = () => {
      const now = Date.now();
      if (now - trouble.lastNotice < NOTICE_EVERY_MS) return;
      trouble.lastNotice = now;
      try {
        writeSync(
          2,
          `log output failing (${trouble.lastError}): ${trouble.failedWrites} failed writes, ${trouble.droppedLines} lines dropped; the service goes on\n`,
        );
      } catch {
        // Standard error refuses it too: nothing left to tell.
      }
    };
    destination.on("error", (error: NodeJS.ErrnoException) => {
      trouble.failing = true;
      trouble.failedWrites++;
      trouble.lastError = error.code ?? error.message;
      notice();
    });
    destination.on("drop", () => {
      trouble.droppedLines++;
      notice();
    });
    return pino(
      {
        level: env().LOG_LEVEL,
        base: { service: "health-plan-marketplace" },
        redact: { paths: ["email", "income", "age", "*.email", "*.income", "*.age"], censor: "[redacted]" },
      },
      destination,
    );
  });
}
