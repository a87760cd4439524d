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

/** Close everything, newest first; errors are reported, never thrown. */
export async function closeAll(log: (msg: string) => void = () => undefined): Promise<void> {
  const list = closers().splice(0).reverse();
  for (const c of list) {
    try {
      await c.close();
      log(`closed ${c.name}`);
    } catch (error) {
      log(`failed to close ${c.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** A value created once per process, shared between server.ts and the bundle. */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(`marketplace.singleton.${name}`);
  const g = globalThis as typeof globalThis & Record<symbol, unknown>;
  if (!(key in g)) g[key] = create();
  return g[key] as T;
}

export function forgetSingleton(name: string): void {
  const g = globalThis as typeof globalThis & Record<symbol, unknown>;
  delete g[Symbol.for(`marketplace.singleton.${name}`)];
}
