import { LRUCache } from "lru-cache";

/**
 * The one bounded cache of the service: least recently used entries go first,
 * bounded by entry count or by weight (`weigh`), with an optional time to live.
 * Backed by lru-cache; this wrapper only adds room for `null` answers (a plan
 * that does not exist is an answer worth keeping) and a small, stable API so
 * that callers do not depend on the library's option names.
 */
export interface BoundedCacheOptions<V> {
  /** Most entries kept (each weighs 1), or most total weight when `weigh` is given. */
  limit: number;
  /** The weight of one entry (for example a place's plan count); 1 when absent. */
  weigh?: (value: V) => number;
  /** Entries older than this are gone; no expiry when absent. */
  ttlMs?: number;
  /** The clock for `ttlMs` (tests pass their own); performance.now() when absent. */
  clock?: { now(): number };
}

const NULL = Symbol("null");
type Stored<V> = NonNullable<V> | typeof NULL;

export class BoundedCache<K extends NonNullable<unknown>, V> {
  private readonly lru: LRUCache<K, Stored<V>>;

  constructor(options: BoundedCacheOptions<V>) {
    const { limit, weigh, ttlMs, clock } = options;
    this.lru = new LRUCache<K, Stored<V>>({
      ...(weigh
        ? {
            maxSize: limit,
            sizeCalculation: (stored: Stored<V>) => Math.max(1, weigh(stored === NULL ? (null as V) : (stored as V))),
          }
        : { max: limit }),
      ...(ttlMs ? { ttl: ttlMs, ttlAutopurge: false, ttlResolution: 0 } : {}),
      ...(clock ? { perf: clock } : {}),
    });
  }

  get(key: K): V | undefined {
    const stored = this.lru.get(key);
    if (stored === undefined) return undefined;
    return stored === NULL ? (null as V) : (stored as V);
  }

  has(key: K): boolean {
    return this.lru.has(key);
  }

  /** `ttlMs` overrides the cache's time to live for this entry (an answer copied from elsewhere with less left). */
  set(key: K, value: V, options?: { ttlMs?: number }): void {
    if (value === undefined) {
      this.lru.delete(key);
      return;
    }
    const stored = value === null ? NULL : (value as Stored<V>);
    if (options?.ttlMs !== undefined) this.lru.set(key, stored, { ttl: Math.max(1, Math.round(options.ttlMs)) });
    else this.lru.set(key, stored);
  }

  delete(key: K): void {
    this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }

  get size(): number {
    return this.lru.size;
  }
}

/**
 * One BoundedCache per owner object, made on first use: a new owner (a plan-store version, when a
 * reseed swaps a file in) starts empty, and an old owner's cache goes when nothing holds the owner.
 */
export function cachesPerOwner<K extends NonNullable<unknown>, V>(
  options: BoundedCacheOptions<V>,
): (owner: object) => BoundedCache<K, V> {
  const byOwner = new WeakMap<object, BoundedCache<K, V>>();
  return (owner) => {
    let cache = byOwner.get(owner);
    if (!cache) byOwner.set(owner, (cache = new BoundedCache<K, V>(options)));
    return cache;
  };
}
