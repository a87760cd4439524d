import {
  openWriteStoreDatabase,
  openWriteStoreFile,
  resolveWriteStoreLocation,
  type WriteStore,
  type WriteStoreHandle,
} from "../../../db/write-store-client";
import { ApiError } from "../platform/api.server";
import { env } from "../platform/env.server";
import { forgetSingleton, onShutdown, processSingleton } from "../platform/lifecycle.server";
import { logger } from "../platform/logger.server";
import { outboxDispatcher } from "./outbox.server";

/**
 * The process-wide handle on the write store DATABASE_URL names: a SQLite
 * file by default, PostgreSQL for a postgres:// URL (decision 190). Opening,
 * migrating, turning engine failures into the 500 that says nothing was
 * saved, and the start-up work. The operations on it are in
 * write-store.server.ts, enrollment.server.ts and unsubscribe.server.ts.
 */

// ------------------------------------------------------------------ the store

/** 500 naming the setting: the write routes never claim success without a store. */
export class WriteStoreUnavailableError extends ApiError {
  constructor(message: string) {
    super(500, "write_store_unavailable", message);
  }
}

const NOT_SAVED =
  "The write store named by DATABASE_URL could not be reached; nothing was saved. Please try again later.";

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
  onShutdown(`write store ${store.location}`, async () => {
    stores.delete(key);
    await store.close();
  });
  // The first open also starts the background email delivery.
  outboxDispatcher(openWriteStore);
  return store;
}

function locate() {
  const location = resolveWriteStoreLocation(env().DATABASE_URL);
  if (!location.ok) throw new WriteStoreUnavailableError(`The write store is unavailable: ${location.problem}`);
  return location;
}

/**
 * The SQLite write store named by DATABASE_URL (default file:./data/app.db),
 * opened and migrated on first use, synchronously. Throws
 * WriteStoreUnavailableError (500, naming DATABASE_URL) when the setting is
 * empty or invalid, names PostgreSQL (use openWriteStore), or the file cannot
 * be opened; the next call tries again.
 */
export function writeStore(): WriteStoreHandle {
  const location = locate();
  if (location.dialect !== "sqlite")
    throw new WriteStoreUnavailableError("DATABASE_URL names PostgreSQL: open the store with openWriteStore().");
  const existing = registry().stores.get(location.file);
  if (existing) return existing as WriteStoreHandle;
  let store: WriteStoreHandle;
  try {
    store = openWriteStoreFile(location.file);
  } catch (error) {
    logger().error({ err: error instanceof Error ? error.message : String(error) }, "write store could not be opened");
    throw new WriteStoreUnavailableError(
      "The write store named by DATABASE_URL could not be opened; nothing was saved. Please try again later.",
    );
  }
  return adopt(location.file, store) as WriteStoreHandle;
}

/**
 * The write store DATABASE_URL names, on either engine, opened (and migrated)
 * on first use; concurrent first calls share one opening. Throws
 * WriteStoreUnavailableError when it cannot be opened; the next call tries again.
 */
export async function openWriteStore(): Promise<WriteStore> {
  const location = locate();
  if (location.dialect === "sqlite") return writeStore();
  const { stores, opening } = registry();
  const existing = stores.get(location.url);
  if (existing) return existing;
  let pending = opening.get(location.url);
  if (!pending) {
    pending = openWriteStoreDatabase(location.url, {
      max: env().PG_POOL_MAX,
      onIdleError: (error) =>
        logger().warn({ err: error.message }, "write store: an idle PostgreSQL connection failed"),
    })
      .then((store) => adopt(location.url, store))
      .finally(() => opening.delete(location.url));
    opening.set(location.url, pending);
  }
  try {
    return await pending;
  } catch (error) {
    logger().error(
      { err: error instanceof Error ? error.message : String(error), store: location.display },
      "write store could not be opened",
    );
    throw new WriteStoreUnavailableError(NOT_SAVED);
  }
}

/**
 * Run one store operation; an engine failure (connection lost, database
 * restarting) becomes the 500 that says nothing was saved.
 */
export async function withWriteStore<T>(operation: (store: WriteStore) => Promise<T>): Promise<T> {
  const store = await openWriteStore();
  try {
    return await operation(store);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    logger().error(
      { err: error instanceof Error ? error.message : String(error), store: store.location },
      "write store operation failed",
    );
    throw new WriteStoreUnavailableError(NOT_SAVED);
  }
}

/** Send what the last commit queued, without waiting. Never throws. */
export function kickOutbox(): void {
  try {
    outboxDispatcher(openWriteStore).kick();
  } catch (error) {
    logger().error({ err: error instanceof Error ? error.message : String(error) }, "could not start email delivery");
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
  const { stores, opening } = registry();
  await Promise.allSettled([...opening.values()]);
  for (const store of stores.values()) await store.close();
  stores.clear();
}
