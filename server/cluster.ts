import cluster from "node:cluster";
import os from "node:os";
import { openWriteStoreFile, resolveWriteStoreLocation } from "../db/write-store-client";

/**
 * Several server processes on one port (WORKERS, decision 192). With
 * WORKERS=1 (the default) nothing here runs: `npm start` is one process, as
 * always. With more, this process becomes the node:cluster primary: it
 * applies the write-store migrations once, forks the workers (each runs
 * server.ts in full: its own read-only plan-store connection, which follows
 * a reseed by itself; its own write-store connection; its own outbox sweep),
 * replaces a worker that dies, and passes SIGTERM/SIGINT on for a graceful
 * stop. The primary serves nothing itself.
 */

const RESTART_DELAY_MS = 1_000;
const STOP_GRACE_MS = 12_000;

interface Log {
  info(obj: object, msg: string): void;
  info(msg: string): void;
  warn(obj: object, msg: string): void;
  warn(msg: string): void;
  error(obj: object, msg: string): void;
}

/** WORKERS as a count: "auto" is the number of cores. */
export function workerCount(setting: string | undefined): number {
  if (setting === undefined || setting === "") return 1;
  if (setting === "auto") return Math.max(1, os.availableParallelism());
  return Math.max(1, Number.parseInt(setting, 10) || 1);
}

/**
 * In the primary with WORKERS > 1: fork the workers and return true (the
 * caller must not start a server). Otherwise return false.
 */
export function startCluster(
  config: { WORKERS: string; REDIS_URL?: string; DATABASE_URL?: string },
  log: Log,
): boolean {
  const count = workerCount(config.WORKERS);
  if (count <= 1 || !cluster.isPrimary) return false;

  if (!config.REDIS_URL) {
    log.warn(
      { workers: count },
      "WORKERS > 1 without REDIS_URL: the rate rule, upstream budgets and caches are per process (each worker allows the full rate)",
    );
  }
  // SQLite migrations once, here, so the workers do not race to apply them
  // (PostgreSQL's are serialised by an advisory lock in each worker).
  const location = resolveWriteStoreLocation(config.DATABASE_URL);
  if (location.ok && location.dialect === "sqlite") {
    try {
      void openWriteStoreFile(location.file).close();
    } catch (error) {
      log.error({ err: error instanceof Error ? error.message : String(error) }, "write store could not be migrated");
    }
  }

  let stopping = false;
  const fork = () => {
    const worker = cluster.fork();
    worker.on("exit", (code, signal) => {
      if (stopping) return;
      log.error({ worker: worker.process.pid, code, signal }, "worker died; starting another");
      setTimeout(fork, RESTART_DELAY_MS).unref();
    });
  };
  log.info({ workers: count }, `starting ${count} workers`);
  for (let i = 0; i < count; i++) fork();

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping workers");
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    const force = setTimeout(() => process.exit(1), STOP_GRACE_MS);
    force.unref();
    const check = () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    };
    cluster.on("exit", check);
    check();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return true;
}
