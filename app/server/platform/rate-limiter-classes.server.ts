import { createRequire } from "node:module";
import type * as RateLimiterFlexible from "rate-limiter-flexible";

/**
 * rate-limiter-flexible's classes, each from its own file. The package's index loads the limiter
 * of every store it supports (MongoDB, MySQL, PostgreSQL, DynamoDB, Memcached, Prisma, Drizzle,
 * etcd, Valkey …), ~10 ms of a start for the two this service uses (docs/decisions/460); the
 * Redis one is loaded only when REDIS_URL is set. The files are the ones the index itself loads,
 * so `instanceof RateLimiterRes` holds for what either gives.
 */
const load = createRequire(import.meta.url);

export type RateLimiterAbstract = RateLimiterFlexible.RateLimiterAbstract;
export type RateLimiterRes = RateLimiterFlexible.RateLimiterRes;

export const RateLimiterMemory = load(
  "rate-limiter-flexible/lib/RateLimiterMemory.js",
) as typeof RateLimiterFlexible.RateLimiterMemory;
export type RateLimiterMemory = RateLimiterFlexible.RateLimiterMemory;

export const RateLimiterRes = load(
  "rate-limiter-flexible/lib/RateLimiterRes.js",
) as typeof RateLimiterFlexible.RateLimiterRes;

/** The Redis limiter's class, loaded on first use (only with REDIS_URL). */
export function rateLimiterRedisClass(): typeof RateLimiterFlexible.RateLimiterRedis {
  return load("rate-limiter-flexible/lib/RateLimiterRedis.js") as typeof RateLimiterFlexible.RateLimiterRedis;
}
