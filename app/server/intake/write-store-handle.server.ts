import { statSync } from "node:fs";
import {
  openWriteStoreDatabase,
  openWriteStoreFile,
  resolveWriteStoreLocation,
  type WriteStore,
  type WriteStoreHandle,
} from "../../../db/write-store-client";
import {
  describeStoreError,
  isConnectionFailure,
  isReadOnlyFailure,
  isResourceFailure,
  isTransientFailure,
} from "../../../db/write-store-errors";
import { ApiError } from "../platform/api.server";
import { DeadlineExceeded, withinDeadline } from "../platform/deadline.server";
import { env } from "../platform/env.server";
import { forgetSingleton, onShutdown, processSingleton } from "../platform/lifecycle.server";
import { logger } from "../platform/logger.server";
import { outboxDispatcher } from "./outbox.server";
import {
  markWriteStoreReachable,
  markWriteStoreUnreachable,
  resetWriteStoreHealthForTests,
  RETRY_AFTER_SECONDS,
  writeStoreDown,
  writeStoreOutageKind,
} from "./write-store-health.server";

/**
 * The process-wide handle on the write store DATABASE_URL names: a SQLite
 * file by default, PostgreSQL for a postgres:// URL (decision 190). Opening,
 * migrating, turning engine failures into the 500 that says nothing was
 * saved, and the start-up work. The operations on it are in
 * write-store.server.ts, enrollment.server.ts and unsubscribe.server.ts.
 */

// ------------------------------------------------------------------ the store

/**
 * The write routes never claim success without a store: 500 naming the setting when it is
 * wrong (empty, invalid, a file that cannot be opened), 503 with Retry-After when the engine
 * cannot be reached for now (docs/decisions/370).
 */
export class WriteStoreUnavailableError extends ApiError {
  /**
   * True when the store did not answer in time: the write may yet commit, so a page must not say
   * it was not saved (docs/decisions/491).
   */
  readonly outcomeUnknown: boolean;
  /**
   * True when the connection was lost during the operation: PostgreSQL may have received COMMIT
   * before it went, so whether a row was saved is known only once the store answers again.
   */
  connectionLost = false;
  constructor(message: string, status: 500 | 503 = 500, outcomeUnknown = false) {
    super(
      status,
      "write_store_unavailable",
      message,
      undefined,
      status === 503 ? { "retry-after": String(RETRY_AFTER_SECONDS) } : undefined,
    );
    this.outcomeUnknown = outcomeUnknown;
  }
}

/**
 * Is it certain that the failed operation saved nothing? The engine answered with an error (it
 * rolled the transaction back: a refused row, a full disk, a deadlock) or nothing was tried. Not
 * when the connection was lost mid-way or the store did not answer in time.
 */
export function writeRolledBack(error: unknown): boolean {
  return error instanceof WriteStoreUnavailableError && !error.outcomeUnknown && !error.connectionLost;
}

/** Did this failure leave a write's outcome unknown (the store did not answer in time)? */
export function writeOutcomeUnknown(error: unknown): boolean {
  return error instanceof WriteStoreUnavailableError && error.outcomeUnknown;
}

const NOT_SAVED =
  "The write store named by DATABASE_URL could not be reached; nothing was saved. Please try again in a few seconds.";
const FAILED = "The write store named by DATABASE_URL could not save this; nothing was saved. Please try again later.";
/** Another writer held the store's lock past the wait, or a deadlock or conflict (decision 512). */
const BUSY =
  "The write store named by DATABASE_URL was busy with other writes; nothing was saved. Please try again in a few seconds.";
/** Disk full, a read-only volume, an I/O error: reachable, but writing nothing for now (decision 509). */
const CANNOT_WRITE =
  "The write store named by DATABASE_URL cannot write for now (no room or no write access); nothing was saved. Please try again later.";
/** The SQLite file or its directory cannot be opened or created for now (decision 519). */
const CANNOT_OPEN =
  "The write store named by DATABASE_URL cannot be opened for now (no write access or no room); nothing was saved. Please try again later.";
/** The SQLite file was removed or replaced under the running process (decision 517). */
const FILE_MOVED =
  "The write store named by DATABASE_URL was removed or replaced while the service was running; nothing was saved. Please try again later.";
/** A write committed to a SQLite file that had been removed: it is in the recovery copy only (decision 517). */
const SAVED_TO_COPY =
  "The write store named by DATABASE_URL was removed while the service was running, so this could not be confirmed: it may or may not have been saved. Please try again later.";
const UNCONFIRMED =
  "The write store named by DATABASE_URL did not answer in time, so this could not be confirmed: it may or may not have been saved. Please try again in a few seconds.";

/**
 * The longest one store operation may take before the request is answered 503 (docs/decisions/491).
 * A PostgreSQL that stops answering without closing its connections (a hung host, a network
 * partition) fails no query: without this, a write waited on its pooled connection until the
 * client gave up. Normal writes take milliseconds; a queue for a pooled connection counts too.
 */
export const WRITE_DEADLINE_MS = 5_000;

/**
 * Forget a store whose operation overran the deadline: the next write, once the probe answers,
 * opens a new pool. Its connections may never answer again (after a failover the old host is
 * gone without a word, and a new connection looks the name up afresh), and a pooled connection
 * that hangs would hang the next write that takes it. The old pool ends in the background once
 * its operations finish.
 */
function retire(store: WriteStore): void {
  const { stores } = registry();
  for (const [key, open] of stores) if (open === store) stores.delete(key);
  store
    .close()
    .catch((error: unknown) => logger().warn(describeStoreError(error), "retired write store: close failed"));
}

/** The 503 of a store marked down: its words say which outage it is. */
function unreachable(): WriteStoreUnavailableError {
  const kind = writeStoreOutageKind();
  return new WriteStoreUnavailableError(
    kind === "cannot_write"
      ? CANNOT_WRITE
      : kind === "file_moved"
        ? FILE_MOVED
        : kind === "cannot_open"
          ? CANNOT_OPEN
          : NOT_SAVED,
    503,
  );
}
interface StoreRegistry {
  stores: Map<string, WriteStore>;
  opening: Map<string, Promise<WriteStore>>;
}

function registry(): StoreRegistry {
  return processSingleton("write-store", () => ({
    stores: new Map<string, WriteStore>(),
    opening: new Map<string, Promise<WriteStore>>(),
  }));
}

function adopt(key: string, store: WriteStore): WriteStore {
  const stores = registry().stores;
  stores.set(key, store);
  // A SQLite file removed or replaced under us is noticed within a second, writes or not (decision 517).
  const watch =
    store.dialect === "sqlite"
      ? setInterval(() => {
          // Only while it is the store in use: one closed, retired or forgotten (tests) is not watched.
          if (!(store as WriteStoreHandle).sqlite.open || registry().stores.get(key) !== store) clearInterval(watch);
          else checkStoreFile(store as WriteStoreHandle);
        }, FILE_CHECK_EVERY_MS).unref()
      : undefined;
  onShutdown(`write store ${store.location}`, async () => {
    clearInterval(watch);
    stores.delete(key);
    await store.close();
  });
  // The first open also starts the background email delivery.
  outboxDispatcher(openWriteStore, storeFailed);
  return store;
}

function locate() {
  const location = resolveWriteStoreLocation(env().DATABASE_URL);
  if (!location.ok) throw new WriteStoreUnavailableError(`The write store is unavailable: ${location.problem}`);
  return location;
}

/** The SQLite store at `file`, opened (and migrated) and adopted if it is not yet; throws what opening threw. */
function openSqlite(file: string): WriteStoreHandle {
  const existing = registry().stores.get(file);
  if (existing) return existing as WriteStoreHandle;
  return adopt(file, openWriteStoreFile(file)) as WriteStoreHandle;
}

/**
 * The SQLite write store named by DATABASE_URL (default file:./data/app.db),
 * opened and migrated on first use, synchronously. Throws
 * WriteStoreUnavailableError naming DATABASE_URL when the setting is empty or
 * invalid or names PostgreSQL (use openWriteStore) (500), or the file cannot
 * be opened: 503 with Retry-After when its directory or file cannot be written
 * or created for now (permissions, a read-only volume, a full disk), 500
 * otherwise (a directory at its path, not a database, a migration that fails). Either way the store is
 * marked down, so /api/health says degraded, and opening is tried again every
 * 0.5 s and by every write (decision 519).
 */
export function writeStore(): WriteStoreHandle {
  const location = locate();
  if (location.dialect !== "sqlite")
    throw new WriteStoreUnavailableError("DATABASE_URL names PostgreSQL: open the store with openWriteStore().");
  const existing = registry().stores.get(location.file);
  if (existing) return existing as WriteStoreHandle;
  try {
    const store = openSqlite(location.file);
    if (writeStoreOutageKind() === "cannot_open") markWriteStoreReachable();
    return store;
  } catch (error) {
    if (writeStoreOutageKind() !== "cannot_open")
      logger().error({ ...describeStoreError(error), store: location.file }, "write store could not be opened");
    markWriteStoreUnreachable(error, () => Promise.resolve().then(() => writeStore()), "cannot_open");
    // A directory where the file should be is a setting to fix, not a disk to wait for.
    const misnamed = statSync(location.file, { throwIfNoEntry: false })?.isDirectory() ?? false;
    if (isResourceFailure(error) && !misnamed) throw new WriteStoreUnavailableError(CANNOT_OPEN, 503);
    throw new WriteStoreUnavailableError(
      "The write store named by DATABASE_URL could not be opened; nothing was saved. Please try again later.",
    );
  }
}

/**
 * The write store DATABASE_URL names, on either engine, opened (and migrated)
 * on first use; concurrent first calls share one opening. Throws
 * WriteStoreUnavailableError when it cannot be opened (503 when the engine
 * cannot be reached, and at once while it is marked unreachable); the next
 * call after it is back tries again.
 */
export async function openWriteStore(): Promise<WriteStore> {
  const location = locate();
  if (location.dialect === "sqlite") return writeStore();
  if (writeStoreDown()) throw unreachable();
  try {
    return await openDatabase(location.url);
  } catch (error) {
    const reason = describeStoreError(error);
    logger().error({ ...reason, store: location.display }, "write store could not be opened");
    if (isConnectionFailure(error)) {
      // Keep trying to open it in the background; /api/health says degraded meanwhile.
      markWriteStoreUnreachable(error, () => openDatabase(location.url));
      throw unreachable();
    }
    if (isReadOnlyFailure(error) || isResourceFailure(error)) {
      // Reached, but it cannot run the migrations' writes (a standby, a full disk): the same 503 as
      // for a write, and opening is tried again in the background (decision 515).
      markWriteStoreUnreachable(error, () => openDatabase(location.url), "cannot_write");
      throw unreachable();
    }
    throw new WriteStoreUnavailableError(NOT_SAVED);
  }
}

function openDatabase(url: string): Promise<WriteStore> {
  const { stores, opening } = registry();
  const existing = stores.get(url);
  if (existing) return Promise.resolve(existing);
  let pending = opening.get(url);
  if (!pending) {
    pending = openWriteStoreDatabase(url, {
      max: env().PG_POOL_MAX,
      // Connections that fail, idle or in use: never a crash; the failing operation reports the outage.
      onIdleError: (error) => logger().warn(describeStoreError(error), "write store: a PostgreSQL connection failed"),
    })
      .then((store) => adopt(url, store))
      .finally(() => opening.delete(url));
    opening.set(url, pending);
  }
  return pending;
}

/**
 * Run one store operation. An engine that cannot be reached marks the store
 * unreachable and answers 503 with Retry-After (nothing was saved); another
 * failure that may pass on a retry (deadlock, busy, a full disk, a volume that
 * cannot be written: decision 509) is a 503 too; anything else the 500 that
 * says nothing was saved. An operation still running after
 * WRITE_DEADLINE_MS answers 503 too, saying its outcome is unknown (it may yet
 * commit), and marks the store unreachable until a probe on a connection of
 * its own answers. Logs never carry the query's parameters (describeStoreError).
 */
export async function withWriteStore<T>(
  operation: (store: WriteStore) => Promise<T>,
  deadlineMs = WRITE_DEADLINE_MS,
  /** Told how an operation that overran the deadline ended, when it ends (an upload's file waits on it). */
  onLate?: (settled: { value: T } | { error: unknown }) => void,
): Promise<T> {
  const store = await openWithin(deadlineMs);
  // A SQLite store is opened without looking at the outage mark (it has no probe to wait for), except this one.
  if (store.dialect === "sqlite" && writeStoreOutageKind() === "file_moved") throw unreachable();
  const started = Date.now();
  let running: Promise<T> | undefined;
  try {
    running = operation(store);
    const value = await withinDeadline(running, deadlineMs, "write store");
    if (store.dialect === "sqlite" && checkStoreFile(store as WriteStoreHandle))
      throw new WriteStoreUnavailableError(SAVED_TO_COPY, 503, true);
    // A SQLite write went through: a store marked as not writing writes again (decision 519).
    if (store.dialect === "sqlite" && writeStoreOutageKind() === "cannot_write") markWriteStoreReachable();
    return value;
  } catch (error) {
    if (error instanceof DeadlineExceeded && running) {
      // The operation goes on: it may still commit when the engine answers. Its end is logged.
      running.then(
        (value) => {
          logger().warn(
            { store: store.location, tookMs: Date.now() - started },
            "a late write store operation completed",
          );
          onLate?.({ value });
        },
        (late: unknown) => {
          logger().warn({ ...describeStoreError(late), store: store.location }, "a late write store operation failed");
          onLate?.({ error: late });
        },
      );
      storeDidNotAnswer(store, error);
      throw new WriteStoreUnavailableError(UNCONFIRMED, 503, true);
    }
    if (error instanceof ApiError) throw error;
    logger().error({ ...describeStoreError(error), store: store.location }, "write store operation failed");
    if (isConnectionFailure(error)) {
      markWriteStoreUnreachable(error, () => probe(store));
      const lost = unreachable();
      lost.connectionLost = true;
      throw lost;
    }
    if (isReadOnlyFailure(error)) {
      storeWillNotWrite(store, error);
      throw new WriteStoreUnavailableError(CANNOT_WRITE, 503);
    }
    if (isResourceFailure(error)) {
      if (store.dialect === "sqlite") sqliteCannotWrite(store as WriteStoreHandle, error);
      throw new WriteStoreUnavailableError(CANNOT_WRITE, 503);
    }
    // What is left of the failures a retry may pass: a lock held too long, a deadlock, a conflict.
    if (isTransientFailure(error)) throw new WriteStoreUnavailableError(BUSY, 503);
    throw new WriteStoreUnavailableError(FAILED);
  }
}

/**
 * openWriteStore within the deadline. Opening connects and checks migrations: after the pool was
 * retired, a database that hangs again at that moment must not hold the request either. The open
 * goes on in the background and is kept when it finishes; nothing was tried, so nothing was saved.
 */
async function openWithin(deadlineMs: number): Promise<WriteStore> {
  try {
    return await withinDeadline(openWriteStore(), deadlineMs, "write store (opening)");
  } catch (error) {
    if (!(error instanceof DeadlineExceeded)) throw error;
    const location = locate();
    if (location.dialect === "postgres") {
      logger().error({ store: location.display, deadlineMs }, "write store could not be opened in time");
      markWriteStoreUnreachable(error, () => openDatabase(location.url));
    }
    throw unreachable();
  }
}

function probe(store: WriteStore): Promise<unknown> {
  return store.ping ? store.ping() : Promise.resolve();
}

/**
 * A store operation overran its deadline (a request's or the outbox's): mark the store
 * unreachable until a probe on a connection of its own answers, and retire its pool.
 */
export function storeDidNotAnswer(store: WriteStore, error: DeadlineExceeded): void {
  logger().error({ store: store.location, deadlineMs: error.ms }, "write store operation did not finish in time");
  markWriteStoreUnreachable(error, () => probe(store));
  retire(store);
}

/**
 * The server will not write (25006): after a failover the old primary goes on as a standby, and
 * this pool's connections still reach it. The pool is retired, so new connections look the name
 * up again; until a probe finds a server that writes, writes answer 503 at once (decision 515).
 */
function storeWillNotWrite(store: WriteStore, error: unknown): void {
  markWriteStoreUnreachable(error, () => probe(store), "cannot_write");
  retire(store);
}

/**
 * A SQLite write failed for want of room or write access (a full disk, a volume remounted
 * read-only, an I/O error): /api/health says degraded until a write goes through, a visitor's or
 * the probe's every 0.5 s (a real write: the header's user_version set to itself). Writes are not
 * refused meanwhile: a smaller one may still fit (decisions 509, 519).
 */
function sqliteCannotWrite(store: WriteStoreHandle, error: unknown): void {
  markWriteStoreUnreachable(error, () => Promise.resolve().then(() => store.probeWrite()), "cannot_write");
}

/** How often a SQLite store's file is checked to be the one open (a stat: microseconds). */
const FILE_CHECK_EVERY_MS = 1_000;

/**
 * Is the SQLite store's file still the one its connection writes? When it was removed or replaced
 * (an operator's `rm`, a restore copied over it, a volume swapped), the connection goes on writing
 * to a file the next start will not see: every row acknowledged from then on would be lost. So,
 * once: everything the connection holds is copied to `<file>.recovered-<time>-<pid>` (VACUUM INTO,
 * a new file: the path and its WAL are not touched), the store is marked down until a restart, and
 * writes answer 503 (decision 517). Returns true when the file has moved.
 */
function checkStoreFile(store: WriteStoreHandle): boolean {
  if (!store.fileMoved()) return false;
  if (writeStoreOutageKind() === "file_moved") return true;
  const copy = `${store.file}.recovered-${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}`;
  let copied = false;
  try {
    store.copyTo(copy);
    copied = true;
  } catch (error) {
    logger().error({ ...describeStoreError(error), copy }, "write store: the recovery copy could not be written");
  }
  logger().error(
    { store: store.file, recoveryCopy: copied ? copy : null },
    "write store file removed or replaced while open: every row the process holds is in the recovery copy; restore it before restarting",
  );
  markWriteStoreUnreachable(
    new Error("the write store file was removed or replaced while open"),
    () =>
      store.fileMoved()
        ? Promise.reject(new Error("the write store file is still not the one open"))
        : Promise.resolve(),
    "file_moved",
  );
  return true;
}

/** A failure of the outbox's store operation: handled as a request's would be. */
function storeFailed(store: WriteStore, error: unknown): void {
  if (error instanceof DeadlineExceeded) storeDidNotAnswer(store, error);
  else if (isReadOnlyFailure(error)) storeWillNotWrite(store, error);
  else if (store.dialect === "sqlite" && isResourceFailure(error)) sqliteCannotWrite(store as WriteStoreHandle, error);
}

/** Send what the last commit queued, without waiting. Never throws. */
export function kickOutbox(): void {
  try {
    outboxDispatcher(openWriteStore, storeFailed).kick();
  } catch (error) {
    logger().error(describeStoreError(error), "could not start email delivery");
  }
}

/**
 * Start-up work for server.ts: open and migrate the write store, start the
 * outbox sweep (which resends anything left unsent by an earlier process) and
 * report configuration problems (the missing unsubscribe secret is already
 * reported by env.server.ts). Safe to call more than once; never throws.
 */
export async function startIntakeBackgroundWork(): Promise<{ ok: boolean; problem?: string }> {
  const log = logger();
  const config = env();
  if (!config.PUBLIC_BASE_URL) log.warn("PUBLIC_BASE_URL is not set: links in emails point at http://localhost.");
  if (config.EMAIL_PROVIDER === "resend" && !config.RESEND_API_KEY) {
    log.warn("EMAIL_PROVIDER is resend but RESEND_API_KEY is not set: emails stay in the outbox until it is.");
  }
  try {
    await openWriteStore();
    return { ok: true };
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    log.error({ setting: "DATABASE_URL" }, problem);
    return { ok: false, problem };
  }
}

/** Tests only: close every open store and stop the dispatcher. */
export async function resetWriteStoreForTests(): Promise<void> {
  const dispatcherKey = Symbol.for("marketplace.singleton.outbox-dispatcher");
  const dispatcher = (globalThis as Record<symbol, unknown>)[dispatcherKey] as
    { stop(graceMs?: number): Promise<void> } | undefined;
  if (dispatcher) await dispatcher.stop(10_000);
  forgetSingleton("outbox-dispatcher");
  resetWriteStoreHealthForTests();
  const { stores, opening } = registry();
  await Promise.allSettled([...opening.values()]);
  for (const store of stores.values()) await store.close();
  stores.clear();
}
