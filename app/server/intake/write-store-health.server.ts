import { describeStoreError } from "../../../db/write-store-errors";
import { processSingleton } from "../platform/lifecycle.server";
import { logger } from "../platform/logger.server";

/**
 * Is the write store reachable (issue 30, docs/decisions/370)? When an
 * operation fails because the engine cannot be reached (PostgreSQL stopped
 * or restarting, the network gone), the store is marked unreachable: write
 * routes answer 503 `write_store_unavailable` with Retry-After at once,
 * without queueing on a dead pool, /api/health says "degraded", and a probe
 * on a connection of its own runs every PROBE_EVERY_MS. Its first success
 * marks the store reachable again: writes resume within a second of the
 * database coming back, without a restart. One log line when the outage
 * starts, one every REPEAT_LOG_MS while it lasts, one when it ends.
 */

export const PROBE_EVERY_MS = 500;
/** What a 503 tells the client to wait, in seconds. */
export const RETRY_AFTER_SECONDS = 2;
const REPEAT_LOG_MS = 30_000;

/**
 * Why writes are refused: the engine cannot be reached, it answers but will not write (read-only),
 * or the SQLite file was removed or replaced while open (decision 517).
 */
export type OutageKind = "unreachable" | "cannot_write" | "file_moved" | "cannot_open";

interface Outage {
  kind: OutageKind;
  since: number;
  reason: { err: string; code?: string };
  probe: () => Promise<unknown>;
  timer: NodeJS.Timeout;
  probing: boolean;
  lastLog: number;
  failedProbes: number;
}

interface State {
  outage: Outage | null;
  /** Outages seen by this process, for /api/health. */
  outages: number;
}

function state(): State {
  return processSingleton("write-store-health", () => ({ outage: null, outages: 0 }));
}

/** True while the store is marked unreachable. */
export function writeStoreDown(): boolean {
  return state().outage !== null;
}

/** What the current outage is (null when there is none). */
export function writeStoreOutageKind(): OutageKind | null {
  return state().outage?.kind ?? null;
}

/** For /api/health: "ok", or "unavailable" with since when (ISO time). */
export function writeStoreStatus(): { state: "ok" | "unavailable"; since?: string; outages: number } {
  const { outage, outages } = state();
  return outage
    ? { state: "unavailable", since: new Date(outage.since).toISOString(), outages }
    : { state: "ok", outages };
}

/**
 * The engine could not be reached: mark the store unreachable (if it is not
 * already) and probe with `probe` until it answers. Never throws.
 */
export function markWriteStoreUnreachable(
  error: unknown,
  probe: () => Promise<unknown>,
  kind: OutageKind = "unreachable",
): void {
  const s = state();
  if (s.outage) return;
  const reason = describeStoreError(error);
  const now = Date.now();
  const outage: Outage = {
    kind,
    since: now,
    reason,
    probe,
    probing: false,
    lastLog: now,
    failedProbes: 0,
    timer: setInterval(() => void tick(outage), PROBE_EVERY_MS),
  };
  // The probe must not keep a stopping process alive.
  outage.timer.unref();
  s.outage = outage;
  s.outages++;
  logger().error(
    { ...reason, retryAfterSeconds: RETRY_AFTER_SECONDS },
    kind === "cannot_write"
      ? "write store cannot write (read-only, no room or failing storage): writes answer 503 until it writes again (probing every 0.5 s)"
      : kind === "file_moved"
        ? "write store file removed or replaced while open: writes answer 503 until a restart opens the file at its path"
        : kind === "cannot_open"
          ? "write store cannot be opened: writes fail until it opens (trying every 0.5 s)"
          : "write store unreachable: writes answer 503 until it is back (probing every 0.5 s)",
  );
}

async function tick(outage: Outage): Promise<void> {
  if (outage.probing || state().outage !== outage) return;
  outage.probing = true;
  try {
    await outage.probe();
    markWriteStoreReachable();
  } catch (error) {
    outage.failedProbes++;
    const now = Date.now();
    if (now - outage.lastLog >= REPEAT_LOG_MS) {
      outage.lastLog = now;
      logger().error(
        { ...describeStoreError(error), downForSeconds: Math.round((now - outage.since) / 1000) },
        "write store still unreachable",
      );
    }
  } finally {
    outage.probing = false;
  }
}

/** The store answered: writes go through again. */
export function markWriteStoreReachable(): void {
  const s = state();
  const outage = s.outage;
  if (!outage) return;
  clearInterval(outage.timer);
  s.outage = null;
  logger().info(
    { downForMs: Date.now() - outage.since, failedProbes: outage.failedProbes },
    "write store reachable again: writes resume",
  );
}

/** Tests only: forget any outage. */
export function resetWriteStoreHealthForTests(): void {
  const s = state();
  if (s.outage) clearInterval(s.outage.timer);
  s.outage = null;
  s.outages = 0;
}
