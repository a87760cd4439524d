/**
 * Resources that must be closed on shutdown (databases, background timers,
 * fake servers) register here. The registry lives on globalThis so server.ts
 * and the Remix server bundle share it.
 */
type Closer = { name: string; close: () => void | Promise<void> };

const KEY = Symbol.for("marketplace.closers");
type G = typeof globalThis & { [KEY]?: Closer[] };

function closers(): Closer[] {
  const g = globalThis as G;
  return (g[KEY] ??= []);
}

export function onShutdown(name: string, close: () => void | Promise<void>): void {
  closers().push({ name, close });
}

/** The longest shutdown waits for one resource to close (docs/decisions/521). */
export const CLOSE_EACH_MS = 5_000;

/**
 * Close everything, newest first; errors are reported, never thrown. A resource that has not
 * closed within `eachMs` is reported and left behind (the process is about to exit): a pool whose
 * connection waits on a database that stopped answering never ends, and shutdown waited for it
 * for good (docs/decisions/521).
 */
export async function closeAll(
  /** Told each outcome; `trouble` when a resource failed or was left behind. */
  log: (msg: string, trouble: boolean) => void = () => undefined,
  eachMs: number = CLOSE_EACH_MS,
): Promise<void> {
  const list = closers().splice(0).reverse();
  for (const c of list) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), eachMs);
    });
    try {
      const outcome = await Promise.race([Promise.resolve().then(() => c.close()), late]);
      if (outcome === "late") log(`did not close within ${eachMs} ms, left behind: ${c.name}`, true);
      else log(`closed ${c.name}`, false);
    } catch (error) {
      log(`failed to close ${c.name}: ${error instanceof Error ? error.message : String(error)}`, true);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Each singleton's global symbol, looked up in the registry once (health checks read several per answer). */
const singletonKeys = new Map<string, symbol>();

function singletonKey(name: string): symbol {
  let key = singletonKeys.get(name);
  if (key === undefined) {
    key = Symbol.for(`marketplace.singleton.${name}`);
    singletonKeys.set(name, key);
  }
  return key;
}

/** A value created once per process, shared between server.ts and the bundle. */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = singletonKey(name);
  const g = globalThis as typeof globalThis & Record<symbol, unknown>;
  if (!(key in g)) g[key] = create();
  return g[key] as T;
}

export function forgetSingleton(name: string): void {
  const g = globalThis as typeof globalThis & Record<symbol, unknown>;
  delete g[singletonKey(name)];
}

type Settle = () => Promise<void>;
const SETTLE_KEY = Symbol.for("marketplace.settlers");
type GS = typeof globalThis & { [SETTLE_KEY]?: Map<string, Settle> };

function settlers(): Map<string, Settle> {
  const g = globalThis as GS;
  return (g[SETTLE_KEY] ??= new Map());
}

/**
 * Register how to wait for a kind of background work (the email outbox's round, analytics
 * deliveries). A later registration under the same name replaces the earlier one (a recreated
 * singleton).
 */
export function onSettle(name: string, settle: Settle): void {
  settlers().set(name, settle);
}

/**
 * Resolves once the background work started so far has finished: an outbox round in progress
 * (and any it asked for) has recorded its results, captured analytics events have been
 * delivered (or failed). Tests await it instead of sleeping before they assert that nothing
 * (more) was sent. Two passes: work one kind finishes may start another's.
 */
export async function backgroundWorkSettled(): Promise<void> {
  for (let pass = 0; pass < 2; pass++) {
    for (const settle of [...settlers().values()]) await settle();
  }
}
