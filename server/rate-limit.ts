import type { NextFunction, Request, Response } from "express";
import { isIP } from "node:net";
import { RateLimiterRes, type RateLimiterAbstract } from "../app/server/platform/rate-limiter-classes.server";
import { logger } from "../app/server/platform/logger.server";
import { sharedLimiter, trackedKeys } from "../app/server/platform/shared-state.server";

/**
 * The edge rate rule (spec "Limits": 2,000 requests per 5 minutes per client
 * IP), enforced by server.ts itself in front of every route, on
 * rate-limiter-flexible (decision 191): counted in Redis across every process
 * when REDIS_URL is set (atomic), in this process otherwise or while Redis is
 * down.
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
 * - Memory: the in-process counts track at most `maxClients` clients (default
 *   100,000); past the cap the oldest windows are forgotten (those clients
 *   start afresh: a flood of distinct addresses can make the rule forget,
 *   never refuse, an ordinary client).
 * - A fault of the limiter itself never refuses or fails a request: it is let
 *   through (fail open) and logged.
 */

export interface RateLimitOptions {
  /** Requests allowed per client per window (RATE_LIMIT_MAX, default 2000). */
  max: number;
  /** Window length in ms (RATE_LIMIT_WINDOW_MS, default 300,000). */
  windowMs: number;
  /** Paths never counted or limited (exact match, trailing slash ignored). */
  exemptPaths?: string[];
  /** Cap on clients tracked in process (default 100,000). */
  maxClients?: number;
  /** Where "client limited" lines go; default the service logger. */
  log?: { warn: (obj: object, msg: string) => void };
  /** The limiter (tests); default sharedLimiter() with the rule above. */
  limiter?: RateLimiterAbstract;
}

export interface Hit {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until this client's window ends. */
  resetInMs: number;
  /** True for the first refused request of a window (across all processes when shared). */
  firstRefusal: boolean;
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

export type RateLimiter = ((req: Request, res: Response, next: NextFunction) => void) & {
  /** Count one request for a client key. Never rejects: a limiter fault resolves as allowed. */
  hit(key: string): Promise<Hit>;
  /** Clients tracked in this process. */
  readonly trackedClients: number;
  readonly limiter: RateLimiterAbstract;
};

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  if (!(options.max > 0) || !(options.windowMs > 0)) throw new RangeError("max and windowMs must be positive");
  const limiter =
    options.limiter ??
    sharedLimiter({
      keyPrefix: "rate-rule",
      points: options.max,
      durationSeconds: options.windowMs / 1000,
      maxKeys: options.maxClients ?? 100_000,
    });
  const exempt = new Set((options.exemptPaths ?? []).map(stripSlash));
  const windowSeconds = Math.ceil(options.windowMs / 1000);
  const policy = `${options.max};w=${windowSeconds}`;
  const log = () => options.log ?? logger();

  const toHit = (res: RateLimiterRes): Hit => {
    const allowed = res.consumedPoints <= options.max;
    return {
      allowed,
      limit: options.max,
      remaining: Math.max(0, options.max - res.consumedPoints),
      resetInMs: Math.max(0, res.msBeforeNext),
      firstRefusal: res.consumedPoints === options.max + 1,
    };
  };

  const hit = async (key: string): Promise<Hit> => {
    try {
      return toHit(await limiter.consume(key));
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return toHit(refusal);
      // Not a refusal: the limiter itself failed. Let the request through.
      log().warn(
        { client: key, err: refusal instanceof Error ? refusal.message : String(refusal) },
        "rate rule could not count a request; allowed it",
      );
      return {
        allowed: true,
        limit: options.max,
        remaining: options.max,
        resetInMs: options.windowMs,
        firstRefusal: false,
      };
    }
  };

  const middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (exempt.has(stripSlash(req.path))) {
      next();
      return;
    }
    const key = clientKey(req.ip ?? req.socket?.remoteAddress);
    void hit(key).then((result) => {
      const resetSeconds = Math.max(1, Math.ceil(result.resetInMs / 1000));
      res.setHeader("RateLimit-Policy", policy);
      res.setHeader("RateLimit-Limit", String(result.limit));
      res.setHeader("RateLimit-Remaining", String(result.remaining));
      res.setHeader("RateLimit-Reset", String(resetSeconds));
      if (result.allowed) {
        next();
        return;
      }
      if (result.firstRefusal) {
        // Once per client per window, so a flood does not flood the log too.
        log().warn(
          { requestId: res.locals?.requestId, client: key, limit: result.limit, windowSeconds },
          "client rate limited",
        );
      }
      res.setHeader("Retry-After", String(resetSeconds));
      res.setHeader("cache-control", "no-store");
      res.status(429).json({
        error: {
          code: "rate_limited",
          message: `Too many requests from your address: the limit is ${result.limit} every ${formatWindow(windowSeconds)}. Try again in ${resetSeconds} seconds.`,
        },
      });
    }, next);
  };
  Object.defineProperty(middleware, "trackedClients", { get: () => trackedKeys(limiter) ?? 0 });
  return Object.assign(middleware, { hit, limiter }) as RateLimiter;
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
