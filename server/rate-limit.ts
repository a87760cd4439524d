import type { NextFunction, Request, Response } from "express";
import { isIP } from "node:net";
import { logger } from "../app/server/platform/logger.server";

/**
 * The edge rate rule (spec "Limits": 2,000 requests per 5 minutes per client
 * IP), enforced by server.ts itself in front of every route.
 *
 * - Window: fixed, anchored at each client's first request (not at the clock),
 *   so Retry-After and RateLimit-Reset are exact. A client gets at most `max`
 *   requests in any one of its windows (2 × max across a window boundary in
 *   the worst case); see docs/decisions/052-rate-limit-window-and-headers.md.
 * - Client: `req.ip`. Express derives it from the socket, or from
 *   X-Forwarded-For only when `trust proxy` (the TRUST_PROXY setting) is on,
 *   so a client cannot pick its own address by sending the header. IPv4-mapped
 *   IPv6 addresses count as their IPv4 address; other IPv6 addresses count by
 *   their /64 network (one subscriber's usual allocation), so rotating through
 *   a /64 does not buy a fresh budget.
 * - Answer: 429 JSON {"error":{"code":"rate_limited",...}} with Retry-After.
 *   Every counted response carries RateLimit-Limit, RateLimit-Remaining,
 *   RateLimit-Reset (seconds) and RateLimit-Policy ("2000;w=300"), the IETF
 *   draft-ietf-httpapi-ratelimit-headers fields.
 * - Memory: at most `maxClients` tracked clients (default 100,000, about
 *   10 MB). Expired windows are dropped first; past the cap the client whose
 *   window started longest ago is forgotten (it simply starts a fresh window
 *   on its next request: a flood of distinct addresses can make the rule
 *   forget, never refuse, an ordinary client).
 */

export interface RateLimitOptions {
  /** Requests allowed per client per window (RATE_LIMIT_MAX, default 2000). */
  max: number;
  /** Window length in ms (RATE_LIMIT_WINDOW_MS, default 300,000). */
  windowMs: number;
  /** Paths never counted or limited (exact match, trailing slash ignored). */
  exemptPaths?: string[];
  /** Cap on tracked clients (default 100,000). */
  maxClients?: number;
  /** Clock, for tests. */
  now?: () => number;
  /** Where "client limited" lines go; default the service logger. */
  log?: { warn: (obj: object, msg: string) => void };
}

interface Window {
  count: number;
  resetAt: number;
  /** Whether the "limited" line was logged in this window (once per window). */
  logged: boolean;
}

export interface Hit {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until this client's window ends. */
  resetInMs: number;
  /** True for the first refused request of a window. */
  firstRefusal: boolean;
}

/**
 * Per-client fixed windows in one Map. Map iteration order is insertion
 * order, and an entry is (re)inserted exactly when its window starts, so the
 * Map is ordered by window end: expired entries are always at the front and
 * eviction is O(1) per request.
 */
export class RateLimitStore {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    readonly maxClients = 100_000,
  ) {
    if (!(max > 0) || !(windowMs > 0) || !(maxClients > 0))
      throw new RangeError("max, windowMs and maxClients must be positive");
  }

  get size(): number {
    return this.windows.size;
  }

  hit(key: string, now: number): Hit {
    let w = this.windows.get(key);
    if (w && w.resetAt <= now) {
      this.windows.delete(key);
      w = undefined;
    }
    if (!w) {
      this.evict(now);
      w = { count: 0, resetAt: now + this.windowMs, logged: false };
      this.windows.set(key, w);
    }
    // Count refused requests too, but stop at max + 1: the number only needs
    // to say "over".
    if (w.count <= this.max) w.count++;
    const allowed = w.count <= this.max;
    const firstRefusal = !allowed && !w.logged;
    if (firstRefusal) w.logged = true;
    return {
      allowed,
      limit: this.max,
      remaining: Math.max(0, this.max - w.count),
      resetInMs: w.resetAt - now,
      firstRefusal,
    };
  }

  private evict(now: number): void {
    // Front to back: drop every expired window, then (only if still full)
    // the oldest live ones until there is room for one more.
    for (const [key, w] of this.windows) {
      if (w.resetAt > now && this.windows.size < this.maxClients) break;
      this.windows.delete(key);
    }
  }

  clear(): void {
    this.windows.clear();
  }
}

/** The rate-limit key for a client address. */
export function clientKey(ip: string | undefined): string {
  if (!ip) return "unknown";
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIP(ip) !== 6) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(":")}::/64`;
}

function expandIPv6(ip: string): string[] {
  const address = ip.split("%")[0]; // drop a zone id (fe80::1%eth0)
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::1.2.3.4) occupies two groups; only the first
  // four groups matter here, so it can stand as one placeholder pair.
  const expandTail = right.flatMap((g) => (g.includes(".") ? ["0", "0"] : [g]));
  const expandLeft = left.flatMap((g) => (g.includes(".") ? ["0", "0"] : [g]));
  const missing = address.includes("::") ? 8 - expandLeft.length - expandTail.length : 0;
  return [...expandLeft, ...Array(Math.max(0, missing)).fill("0"), ...expandTail].map((g) =>
    g.toLowerCase().replace(/^0+(?=.)/, ""),
  );
}

export type RateLimiter = ((req: Request, res: Response, next: NextFunction) => void) & { store: RateLimitStore };

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const store = new RateLimitStore(options.max, options.windowMs, options.maxClients);
  const now = options.now ?? Date.now;
  const exempt = new Set((options.exemptPaths ?? []).map(stripSlash));
  const windowSeconds = Math.ceil(options.windowMs / 1000);
  const policy = `${options.max};w=${windowSeconds}`;

  const limiter = (req: Request, res: Response, next: NextFunction): void => {
    if (exempt.has(stripSlash(req.path))) {
      next();
      return;
    }
    const key = clientKey(req.ip ?? req.socket?.remoteAddress);
    const hit = store.hit(key, now());
    const resetSeconds = Math.max(1, Math.ceil(hit.resetInMs / 1000));
    res.setHeader("RateLimit-Policy", policy);
    res.setHeader("RateLimit-Limit", String(hit.limit));
    res.setHeader("RateLimit-Remaining", String(hit.remaining));
    res.setHeader("RateLimit-Reset", String(resetSeconds));
    if (hit.allowed) {
      next();
      return;
    }
    if (hit.firstRefusal) {
      // Once per client per window, so a flood does not flood the log too.
      (options.log ?? logger()).warn(
        { requestId: res.locals?.requestId, client: key, limit: hit.limit, windowSeconds },
        "client rate limited",
      );
    }
    res.setHeader("Retry-After", String(resetSeconds));
    res.setHeader("cache-control", "no-store");
    res.status(429).json({
      error: {
        code: "rate_limited",
        message: `Too many requests from your address: the limit is ${hit.limit} every ${formatWindow(windowSeconds)}. Try again in ${resetSeconds} seconds.`,
      },
    });
  };
  return Object.assign(limiter, { store });
}

function stripSlash(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

function formatWindow(seconds: number): string {
  if (seconds % 60 === 0) {
    const minutes = seconds / 60;
    return minutes === 1 ? "minute" : `${minutes} minutes`;
  }
  return `${seconds} seconds`;
}
