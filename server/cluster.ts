import cluster, { type Worker } from "node:cluster";
import net from "node:net";
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
 *
 * Worker deaths (issue 30, docs/decisions/371): the primary never exits
 * while it is meant to serve, even with no worker left (its restart timers
 * keep it alive). A death is answered with a new worker after
 * restartDelayMs(): at once (RESTART_FAST_MS) while deaths are rare, so two
 * workers killed together serve again within seconds; when workers keep
 * dying (more than 2 per configured worker within CRASH_WINDOW_MS) it is a
 * crash loop: the delay doubles up to RESTART_MAX_MS and every restart is
 * logged as an error saying so. It never stops trying.
 *
 * A standby worker (one more process) has started up in full but does not
 * listen: when a serving worker dies it is told to listen at once (start-up
 * takes seconds on a busy machine; the promotion milliseconds), and a new
 * standby is started in its place.
 */

const RESTART_FAST_MS = 100;
const RESTART_SLOW_BASE_MS = 1_000;
const RESTART_MAX_MS = 30_000;
const CRASH_WINDOW_MS = 60_000;
const STOP_GRACE_MS = 12_000;
/** Set in a standby worker's environment: start up fully, listen only when promoted. */
const STANDBY_ENV = "MARKETPLACE_WORKER_STANDBY";
const PROMOTE_MESSAGE = "marketplace:serve";
/** From a worker to the primary: its server's own listen callback has run (it can answer now). */
const SERVING_MESSAGE = "marketplace:serving";

type Role = "serving" | "standby";

/**
 * In a worker: call `listen` now, or, in the standby, once the primary promotes it (a serving
 * worker died). Elsewhere (one process, WORKERS=1) at once.
 */
export function whenServing(listen: () => void, log?: Pick<Log, "info">): void {
  if (!cluster.isWorker || process.env[STANDBY_ENV] !== "1") return listen();
  log?.info("standby worker ready: it listens as soon as a serving worker dies");
  let listening = false;
  process.on("message", (message: unknown) => {
    if (listening || (message as { type?: unknown } | null)?.type !== PROMOTE_MESSAGE) return;
    listening = true;
    listen();
  });
}

/**
 * In a worker: tell the primary this worker answers requests now (call from the server's listen
 * callback). The primary's own 'listening' event comes earlier, as soon as the port's handle is
 * shared, while the worker may still be busy starting up for 100 ms or more; the standby waits
 * for this message instead. Elsewhere nothing.
 */
export function reportServing(): void {
  if (cluster.isWorker && process.send) process.send({ type: SERVING_MESSAGE });
}

/**
 * How long to wait before replacing a dead worker, given how many died within the last
 * CRASH_WINDOW_MS (this one included) and how many workers there should be.
 */
export function restartDelayMs(recentDeaths: number, workers: number): number {
  const allowance = 2 * workers;
  if (recentDeaths <= allowance) return RESTART_FAST_MS;
  return Math.min(RESTART_MAX_MS, RESTART_SLOW_BASE_MS * 2 ** (recentDeaths - allowance - 1));
}

interface Log {
  info(obj: object, msg: string): void;
  info(msg: string): void;
  warn(obj: object, msg: string): void;
  warn(msg: string): void;
  error(obj: object, msg: string): void;
}

/** PORT=0: a free port on HOST, for every worker to share; otherwise undefined (use PORT as it is). */
function fixedPort(port: number | undefined, host: string | undefined): Promise<number | undefined> {
  if (port !== 0) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on("error", reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : undefined));
    });
  });
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
  config: { WORKERS: string; REDIS_URL?: string; DATABASE_URL?: string; PORT?: number; HOST?: string },
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
  const deaths: number[] = [];
  // Restart timers are NOT unref'd: with every worker dead, they are what keeps this process alive.
  const pending = new Set<NodeJS.Timeout>();
  const roles = new Map<number, Role>();
  let standby: Worker | null = null;
  const later = (fn: () => void, delay: number) => {
    const timer = setTimeout(() => {
      pending.delete(timer);
      fn();
    }, delay);
    pending.add(timer);
  };
  const fork = (role: Role) => {
    if (stopping) return;
    const worker = cluster.fork(role === "standby" ? { [STANDBY_ENV]: "1" } : {});
    // A worker's 'error' (an IPC send to a process that just died) with no listener would throw
    // in this process and stop it.
    worker.on("error", (error: Error) =>
      log.warn({ worker: worker.process.pid, err: error.message }, "worker channel error"),
    );
    roles.set(worker.id, role);
    if (role === "standby") standby = worker;
    worker.on("exit", (code, signal) => {
      const was = roles.get(worker.id) ?? "serving";
      roles.delete(worker.id);
      if (standby === worker) standby = null;
      if (stopping) return;
      const now = Date.now();
      deaths.push(now);
      while (deaths.length && deaths[0]! < now - CRASH_WINDOW_MS) deaths.shift();
      const delay = restartDelayMs(deaths.length, count);
      // A serving worker's place goes to the standby at once (it has already started up); a new
      // standby follows after the delay.
      const promoted = was === "serving" && standby ? promote(standby) : undefined;
      const fields = {
        worker: worker.process.pid,
        role: was,
        code,
        signal,
        promoted,
        deathsLastMinute: deaths.length,
        restartInMs: delay,
      };
      if (delay > RESTART_FAST_MS)
        log.error(
          fields,
          `CRASH LOOP: ${deaths.length} workers died in the last minute; worker died; starting another in ${Math.round(delay / 1000)} s (retries slow down, never stop)`,
        );
      else log.error(fields, "worker died; starting another");
      later(() => fork(promoted ? "standby" : was), delay);
    });
  };
  const promote = (worker: Worker): number | undefined => {
    // A standby killed in the same instant (every worker SIGKILLed) cannot be promoted; its own
    // exit starts its replacement, and the dead serving worker's slot is forked as usual.
    if (worker.isDead() || !worker.isConnected()) return undefined;
    roles.set(worker.id, "serving");
    standby = null;
    // A send that fails (the standby died meanwhile) is reported to the callback, never thrown:
    // then its exit, as a serving worker now, starts a serving replacement.
    worker.send({ type: PROMOTE_MESSAGE }, undefined, (error) => {
      if (error) log.warn({ worker: worker.process.pid, err: error.message }, "standby could not be promoted");
    });
    return worker.process.pid;
  };
  log.info({ workers: count }, `starting ${count} workers`);
  const forkAll = () => {
    // The standby once every serving worker answers: started beside them, it would compete for
    // the same cores with their start-up and delay the moment the service answers in full.
    let serving = 0;
    const startStandby = (worker: Worker, message: unknown) => {
      if ((message as { type?: unknown } | null)?.type !== SERVING_MESSAGE || roles.get(worker.id) !== "serving")
        return;
      if (++serving < count) return;
      cluster.off("message", startStandby);
      fork("standby");
    };
    cluster.on("message", startStandby);
    for (let i = 0; i < count; i++) fork("serving");
  };
  // PORT=0 (any free port): choose it once, here. Workers listening on port 0 share the primary's
  // handle only while one of them holds it; with every worker dead, replacements would each get
  // a new port, and nothing would answer on the one clients know.
  void fixedPort(config.PORT, config.HOST).then(
    (port) => {
      if (port !== undefined) process.env.PORT = String(port);
      forkAll();
    },
    (error: unknown) => {
      log.error({ err: error instanceof Error ? error.message : String(error) }, "no free port; starting on PORT=0");
      forkAll();
    },
  );

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const timer of pending) clearTimeout(timer);
    pending.clear();
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
  // The primary only forks and watches: nothing it does may stop it while it should serve. An
  // error that escapes is logged loudly and the primary carries on (docs/decisions/371).
  process.on("uncaughtException", (error) => {
    log.error(
      { err: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      "PRIMARY ERROR (kept running)",
    );
  });
  process.on("unhandledRejection", (reason) => {
    log.error(
      { err: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason) },
      "PRIMARY ERROR (kept running)",
    );
  });
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return true;
}
