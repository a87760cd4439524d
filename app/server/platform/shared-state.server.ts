import { createRequire } from "node:module";
import type * as IoRedis from "ioredis";
import type { Redis } from "ioredis";
import { RateLimiterMemory, rateLimiterRedisClass, type RateLimiterAbstract } from "./rate-limiter-classes.server";
import { env } from "./env.server";
import { onShutdown, processSingleton } from "./lifecycle.server";
import { logger } from "./logger.server";

/**
 * State shared by every process of the service (decision 191): on Redis when
 * REDIS_URL is set, otherwise in this process. Limiters (the per-IP rate
 * rule, the upstream call budget) come from `sharedLimiter`: a
 * rate-limiter-flexible RateLimiterRedis, counted atomically across all
 * processes, insured by an in-process RateLimiterMemory with the same rule,
 * or that RateLimiterMemory alone without Redis.
 *
 * Redis down never fails a request: commands are not queued while the
 * connection is down (they fail at once and the in-process limiter answers),
 * each command gives up after REDIS_COMMAND_TIMEOUT_MS, and the client keeps
 * reconnecting in the background. A warning is logged at most once a minute
 * while the fallback is in use.
 *
 * A Redis that hangs with its connection open (a frozen host, a partition)
 * fails no connection: each command would wait the full timeout, and every
 * request with it. After one command gives up the client counts as stalled:
 * nothing waits on it, and a PING every STALL_PROBE_MS (within the same
 * timeout) ends the stall when Redis answers (docs/decisions/492).
 */

const COMMAND_TIMEOUT_MS = 500;
const WARN_EVERY_MS = 60_000;
const STALL_PROBE_MS = 1_000;

interface SharedState {
  redis: Redis | null;
  lastWarning: number;
  /** Limiter decisions made from this process's counts because Redis could not answer. */
  fallbacks: number;
  /** The probe while Redis is connected but did not answer a command in time; null otherwise. */
  stall: NodeJS.Timeout | null;
}

function state(): SharedState {
  return processSingleton("shared-state", () => {
    const url = env().REDIS_URL;
    const shared: SharedState = { redis: null, lastWarning: 0, fallbacks: 0, stall: null };
    if (!url) return shared;
    // ioredis is loaded only when REDIS_URL is set (~45 ms of start-up otherwise, issue 29).
    const { Redis: RedisClient } = createRequire(import.meta.url)("ioredis") as typeof IoRedis;
    const redis: Redis = new RedisClient(url, {
      // Fail fast instead of queueing while disconnected: the caller falls back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
      // Keep trying, at most every 2 s, for as long as the process runs.
      retryStrategy: (times) => Math.min(times * 200, 2_000),
      lazyConnect: false,
    });
    redis.on("error", (error: Error) => sharedStateDegraded(`Redis error: ${error.message}`));
    redis.on("ready", () => {
      if (shared.lastWarning) logger().info("Redis is reachable again: shared limits and caches are back in use.");
      shared.lastWarning = 0;
    });
    shared.redis = redis;
    onShutdown("redis", async () => {
      shared.redis = null;
      if (shared.stall) clearInterval(shared.stall);
      shared.stall = null;
      redis.disconnect();
    });
    return shared;
  });
}

/**
 * One warning line a minute at most while Redis cannot be used (the rate
 * rule and budgets fall back to this process's counts, caches miss).
 */
export function sharedStateDegraded(reason: string): void {
  const s = state();
  const now = Date.now();
  if (now - s.lastWarning < WARN_EVERY_MS) return;
  s.lastWarning = now;
  logger().warn(
    { reason },
    "Redis unavailable: rate rule and upstream budgets use per-process limits, shared caches miss, until it is back",
  );
}

/** The Redis client when REDIS_URL is set (connected or reconnecting), else null. */
export function sharedRedis(): Redis | null {
  return state().redis;
}

/** The Redis client when it can be used now: connected, and not stalled. Otherwise null. */
export function usableRedis(): Redis | null {
  const s = state();
  return s.redis && s.redis.status === "ready" && !s.stall ? s.redis : null;
}

/**
 * A command on a connected Redis did not answer (timed out or failed): stop sending it commands
 * until a PING answers. Logged like any other fallback. Never throws.
 */
export function redisStalled(reason: string): void {
  sharedStateDegraded(reason);
  const s = state();
  const redis = s.redis;
  if (!redis || s.stall || redis.status !== "ready") return;
  let probing = false;
  s.stall = setInterval(() => {
    if (probing) return;
    probing = true;
    redis
      .ping()
      .then(
        () => {
          if (s.stall) clearInterval(s.stall);
          s.stall = null;
          if (s.lastWarning) logger().info("Redis answers again: shared limits and caches are back in use.");
          s.lastWarning = 0;
        },
        () => undefined,
      )
      .finally(() => (probing = false));
  }, STALL_PROBE_MS);
  // The probe must not keep a stopping process alive.
  s.stall.unref();
}

/**
 * For /api/health: whether limits are shared, and how many limiter decisions
 * this process has made from its own counts because Redis could not answer
 * (down, or slower than the command timeout). Each such decision may let a
 * request through that the shared count would have refused (fail open), so
 * operators and the cluster test can see how far the shared rule was bent.
 */
export function sharedStateStatus(): { shared: boolean; fallbacks: number; redis: "ok" | "unavailable" | "off" } {
  const s = state();
  return {
    shared: isStateShared(),
    fallbacks: s.fallbacks,
    redis: !s.redis ? "off" : usableRedis() ? "ok" : "unavailable",
  };
}

/** Whether limits and caches are shared across processes (REDIS_URL is set). */
export function isStateShared(): boolean {
  return Boolean(env().REDIS_URL);
}

export interface SharedLimiterOptions {
  /** Distinguishes this limiter's keys from every other's, e.g. "rate-rule" or "upstream-budget". */
  keyPrefix: string;
  /** Points (usually requests) allowed per window. */
  points: number;
  /** Window length in seconds (whole seconds on Redis; rounded up). The window starts at a key's first point. */
  durationSeconds: number;
  /** Cap on keys the in-process limiter tracks (default 100,000); past it the oldest windows are forgotten. */
  maxKeys?: number;
}

/** The in-process limiter, logging (once a minute) when it stands in for Redis. */
class InsuranceLimiter extends RateLimiterMemory {
  override consume(...args: Parameters<RateLimiterMemory["consume"]>) {
    state().fallbacks += 1;
    // Called by the Redis limiter when Redis is not connected, or (connected) its command failed
    // or timed out: then Redis counts as stalled.
    redisStalled("a limiter fell back to this process's counts");
    return super.consume(...args);
  }
}

/**
 * A limiter for a rule that should hold across all processes: Redis-backed
 * (atomic increments in one Lua script) when REDIS_URL is set, with an
 * in-process insurance limiter answering while Redis is down; in-process
 * only otherwise. `consume(key)` resolves with a RateLimiterRes when allowed
 * and rejects with one when over the limit; it rejects with an Error only for
 * a fault of the limiter itself (treat that as allowed: fail open).
 */
export function sharedLimiter(options: SharedLimiterOptions): RateLimiterAbstract {
  const redis = sharedRedis();
  const maxKeys = options.maxKeys ?? 100_000;
  if (!redis) {
    return boundKeys(
      new RateLimiterMemory({
        keyPrefix: options.keyPrefix,
        points: options.points,
        duration: options.durationSeconds,
      }),
      maxKeys,
    );
  }
  const insurance = boundKeys(
    new InsuranceLimiter({ keyPrefix: options.keyPrefix, points: options.points, duration: options.durationSeconds }),
    maxKeys,
  );
  const RateLimiterRedis = rateLimiterRedisClass();
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `marketplace:${options.keyPrefix}`,
    points: options.points,
    duration: Math.max(1, Math.ceil(options.durationSeconds)),
    insuranceLimiter: insurance,
    // Not connected: answer from the insurance limiter at once rather than wait for a timeout.
    rejectIfRedisNotReady: true,
  });
  // Stalled (connected, not answering): the same, without waiting for a command's timeout.
  const consume = limiter.consume.bind(limiter);
  limiter.consume = (key, points, consumeOptions) =>
    state().stall ? insurance.consume(key, points, consumeOptions) : consume(key, points, consumeOptions);
  return limiter;
}

interface MemoryInternals {
  _memoryStorage?: { _storage?: Map<string, { _timeoutId?: NodeJS.Timeout; timeoutId?: NodeJS.Timeout }> };
}

/**
 * Bound a RateLimiterMemory's keys (decision 052: a flood of distinct
 * addresses must not exhaust the heap). Its storage is a Map in insertion
 * order; past the cap the oldest windows are dropped: those clients start
 * afresh (fail open), nobody is refused because of other addresses.
 */
function boundKeys<T extends RateLimiterMemory>(limiter: T, maxKeys: number): T {
  const storage = (limiter as unknown as MemoryInternals)._memoryStorage?._storage;
  if (!(storage instanceof Map)) return limiter; // another version's internals: unbounded, as the library is
  const consume = limiter.consume.bind(limiter);
  limiter.consume = (key, points, options) => {
    if (storage.size >= maxKeys) {
      for (const [oldest, record] of storage) {
        if (storage.size < maxKeys) break;
        const timer = record._timeoutId ?? record.timeoutId;
        if (timer) clearTimeout(timer);
        storage.delete(oldest);
      }
    }
    return consume(key, points, options);
  };
  return limiter;
}

/** How many keys the in-process limiter (or a Redis-backed one's insurance) tracks; undefined if unknown. */
export function trackedKeys(limiter: RateLimiterAbstract): number | undefined {
  const target = ((limiter as { insuranceLimiter?: RateLimiterAbstract }).insuranceLimiter ??
    limiter) as MemoryInternals;
  return target._memoryStorage?._storage?.size;
}
