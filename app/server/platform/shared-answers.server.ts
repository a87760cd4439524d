import { createHash } from "node:crypto";
import { redisStalled, sharedRedis, sharedStateDegraded, usableRedis } from "./shared-state.server";

/**
 * Upstream answers kept on Redis for every process (decision 291): drug and
 * doctor autocomplete, counties by ZIP, eligibility estimates and coverage
 * pairs, each with the time to live its in-process cache has. Each process
 * keeps its own BoundedCache in front (the embedded default, without
 * REDIS_URL, is that cache alone, unchanged); on a local miss it asks Redis
 * before upstream, and writes what upstream answered to both.
 *
 * A value is stored with its expiry (`{e, v}`), so that a process copying a
 * shared answer keeps it only for the time it has left: an answer is never
 * older than its TTL, whichever process asked upstream for it.
 *
 * Redis down never fails a request: reads miss (the caller asks upstream),
 * writes are dropped, and the shared fallback warning is logged at most once
 * a minute (shared-state.server.ts).
 */

const PREFIX = "marketplace:answers:v1:";
/** Longer keys (an eligibility question is a whole household) are stored as their digest. */
const MAX_PLAIN_KEY = 120;

interface Envelope {
  /** Expires at (epoch ms). */
  e: number;
  v: unknown;
}

export interface SharedAnswer<V> {
  value: V;
  /** Time it has left (ms). */
  ttlMs: number;
}

/** Whether answers are shared (REDIS_URL is set); without it callers skip the shared path entirely. */
export function sharedAnswersEnabled(): boolean {
  return sharedRedis() !== null;
}

function redisKey(namespace: string, key: string): string {
  const k = key.length > MAX_PLAIN_KEY ? `#${createHash("sha256").update(key).digest("base64url")}` : key;
  return `${PREFIX}${namespace}:${k}`;
}

/** The answers Redis holds for `keys` (absent = not kept, expired, or Redis not usable). Never rejects. */
export async function readSharedAnswers<V>(namespace: string, keys: string[]): Promise<Map<string, SharedAnswer<V>>> {
  const found = new Map<string, SharedAnswer<V>>();
  const redis = sharedRedis();
  if (!redis || keys.length === 0) return found;
  if (!usableRedis()) {
    sharedStateDegraded("Redis not usable: shared answer caches miss");
    return found;
  }
  try {
    const raw = await redis.mget(keys.map((k) => redisKey(namespace, k)));
    const now = Date.now();
    raw.forEach((text, i) => {
      if (text === null) return;
      try {
        const stored = JSON.parse(text) as Envelope;
        const ttlMs = stored.e - now;
        if (typeof stored.e === "number" && ttlMs > 0 && "v" in stored)
          found.set(keys[i], { value: stored.v as V, ttlMs });
      } catch {
        // Not ours or damaged: a miss.
      }
    });
  } catch (error) {
    redisStalled(`shared answer cache read failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return found;
}

/** Keep answers on Redis for `ttlMs` (in the background; a failure is only logged). */
export function writeSharedAnswers(namespace: string, entries: Array<[string, unknown]>, ttlMs: number): void {
  const redis = sharedRedis();
  if (!redis || entries.length === 0 || ttlMs <= 0) return;
  if (!usableRedis()) {
    sharedStateDegraded("Redis not usable: shared answers not kept");
    return;
  }
  const e = Date.now() + ttlMs;
  const batch = redis.pipeline();
  for (const [key, v] of entries) batch.set(redisKey(namespace, key), JSON.stringify({ e, v }), "PX", ttlMs);
  batch.exec().then(
    (results) => {
      const failed = results?.find(([error]) => error);
      if (failed) sharedStateDegraded(`shared answer cache write failed: ${failed[0]!.message}`);
    },
    (error: unknown) =>
      redisStalled(`shared answer cache write failed: ${error instanceof Error ? error.message : String(error)}`),
  );
}
