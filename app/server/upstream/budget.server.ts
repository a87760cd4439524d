import { createHash } from "node:crypto";
import { RateLimiterRes, type RateLimiterAbstract } from "../platform/rate-limiter-classes.server";
import { sharedLimiter } from "../platform/shared-state.server";

/**
 * The upstream call budget of one API key (docs/decisions/201-upstream-call-budget.md).
 *
 * The real API allows a key about 1,000 calls a minute and 200 a second
 * (Kong's fixed windows, `X-RateLimit-Limit-Minute` / `-Second`). The budget
 * keeps under both with head-room, as a token bucket refilled in steps:
 * - a 2-second bucket of floor(perMinute x 0.9 / 31) calls: any 60 seconds
 *   overlap at most 31 such windows, so no minute, however aligned, sees more
 *   than 90 % of the limit, and a call short of budget waits at most 2 s
 *   (inside its 5 s deadline) for the next refill;
 * - a 1-second bucket of floor(perSecond x 0.9 / 2) calls (any second
 *   overlaps two).
 * Priorities share the 2-second bucket: autocomplete may use 60 % of it,
 * coverage and autocomplete together 85 %, so eligibility always has 15 %
 * (and what the others leave). After a 429 every call waits out `Retry-After`.
 *
 * The limiters are rate-limiter-flexible's, from `sharedLimiter`
 * (platform/shared-state.server.ts): on Redis when REDIS_URL is set, so that
 * every process spends one budget, in this process otherwise; a limiter
 * fault (Redis down beyond its insurance) fails open. `setBudgetLimiterFactory`
 * lets tests pass their own. The key is the API key's hash, never the key.
 */

export type BudgetPriority = "eligibility" | "coverage" | "autocomplete";

export interface BudgetLimits {
  /** The key's calls a minute upstream (1,000 for the real API). */
  perMinute: number;
  /** The key's calls a second upstream (200 for the real API). */
  perSecond: number;
}

export interface LimiterSpec {
  keyPrefix: string;
  points: number;
  /** Seconds. */
  duration: number;
}
export type LimiterFactory = (spec: LimiterSpec) => RateLimiterAbstract;

const sharedFactory: LimiterFactory = (spec) =>
  sharedLimiter({ keyPrefix: spec.keyPrefix, points: spec.points, durationSeconds: spec.duration, maxKeys: 1_000 });
let factory: LimiterFactory = sharedFactory;

/** Back the budget with other limiters (tests); undefined restores the shared ones. */
export function setBudgetLimiterFactory(next: LimiterFactory | undefined): void {
  factory = next ?? sharedFactory;
  budgets.clear();
}

const HEADROOM = 0.9;
const STEP_SECONDS = 2;
/** Windows of STEP_SECONDS any 60 seconds can overlap. */
const STEPS_PER_MINUTE_SPAN = 60 / STEP_SECONDS + 1;
const SHARES: Record<BudgetPriority, BudgetPriority[]> = {
  // Which shares a call of each priority spends from (every call spends the whole bucket too).
  eligibility: [],
  coverage: ["coverage"],
  autocomplete: ["coverage", "autocomplete"],
};
const SHARE_OF_STEP: Record<Exclude<BudgetPriority, "eligibility">, number> = { coverage: 0.85, autocomplete: 0.6 };

export interface BudgetSnapshot {
  stepPoints: number;
  secondPoints: number;
  /** Calls refused (busy) since start, by priority. */
  refused: Record<BudgetPriority, number>;
  /** Epoch ms until which upstream asked us to wait (after a 429), or null. */
  pausedUntil: number | null;
}

export class BudgetSpentError extends Error {
  override name = "BudgetSpentError";
}

export class UpstreamBudget {
  private readonly step: RateLimiterAbstract;
  private readonly second: RateLimiterAbstract;
  private readonly shares: Record<"coverage" | "autocomplete", RateLimiterAbstract>;
  private readonly pause: RateLimiterAbstract;
  readonly stepPoints: number;
  readonly secondPoints: number;
  private readonly refused: Record<BudgetPriority, number> = { eligibility: 0, coverage: 0, autocomplete: 0 };
  private pausedUntil: number | null = null;

  constructor(
    private readonly key: string,
    limits: BudgetLimits,
  ) {
    this.stepPoints = Math.max(1, Math.floor((limits.perMinute * HEADROOM) / STEPS_PER_MINUTE_SPAN));
    this.secondPoints = Math.max(1, Math.floor((limits.perSecond * HEADROOM) / 2));
    const make = (name: string, points: number, duration: number) =>
      factory({ keyPrefix: `upstream-budget:${name}`, points: Math.max(1, points), duration });
    this.step = make("step", this.stepPoints, STEP_SECONDS);
    this.second = make("second", this.secondPoints, 1);
    this.shares = {
      coverage: make("coverage", Math.floor(this.stepPoints * SHARE_OF_STEP.coverage), STEP_SECONDS),
      autocomplete: make("autocomplete", Math.floor(this.stepPoints * SHARE_OF_STEP.autocomplete), STEP_SECONDS),
    };
    this.pause = make("pause", 1, 1);
  }

  /**
   * Take one call from the budget, waiting for the next refill while it fits
   * before `deadline`; otherwise BudgetSpentError (the caller answers "busy").
   */
  async take(priority: BudgetPriority, deadline: number): Promise<void> {
    for (;;) {
      const waitMs = await this.tryTake(priority);
      if (waitMs === 0) return;
      // A call needs some time of its own after the wait: give up when the wait would eat it.
      if (Date.now() + waitMs + 50 >= deadline) {
        this.refused[priority]++;
        throw new BudgetSpentError(`upstream budget spent (${priority})`);
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  /** 0 when a call was taken; else the ms until one may be. */
  private async tryTake(priority: BudgetPriority): Promise<number> {
    const paused = await this.pause.get(this.key).catch(() => null); // a limiter fault: not paused
    if (paused && paused.consumedPoints > 1) return Math.max(1, paused.msBeforeNext);
    const limiters = [
      ...SHARES[priority].map((s) => this.shares[s as "coverage" | "autocomplete"]),
      this.second,
      this.step,
    ];
    const taken: RateLimiterAbstract[] = [];
    for (const limiter of limiters) {
      try {
        await limiter.consume(this.key, 1);
        taken.push(limiter);
      } catch (rejection) {
        // Give back what this attempt took: a refused call spends nothing.
        await Promise.all(taken.map((t) => t.reward(this.key, 1)));
        if (rejection instanceof RateLimiterRes) return Math.max(1, rejection.msBeforeNext);
        // A fault of the limiter itself (not "over the limit"): fail open, as the rate rule does.
        return 0;
      }
    }
    return 0;
  }

  /** Upstream answered 429: nobody calls for `retryAfterMs` (its Retry-After, or a second). */
  async pauseFor(retryAfterMs: number): Promise<void> {
    const seconds = Math.min(120, Math.max(1, Math.ceil(retryAfterMs / 1000)));
    this.pausedUntil = Date.now() + seconds * 1000;
    await this.pause.block(this.key, seconds).catch(() => undefined);
  }

  snapshot(): BudgetSnapshot {
    return {
      stepPoints: this.stepPoints,
      secondPoints: this.secondPoints,
      refused: { ...this.refused },
      pausedUntil: this.pausedUntil !== null && this.pausedUntil > Date.now() ? this.pausedUntil : null,
    };
  }
}

const budgets = new Map<string, UpstreamBudget>();

/** The budget of one API key (one per key and limits; a rotated key starts its own). */
// The key's digest, worked out once per key: /api/health and every upstream call ask for the
// budget, and hashing the key each time was ~2 % of a health check's server time (decision 284).
let digested: { apiKey: string; digest: string } | undefined;

function keyDigest(apiKey: string): string {
  if (digested?.apiKey !== apiKey)
    digested = { apiKey, digest: createHash("sha256").update(apiKey).digest("hex").slice(0, 16) };
  return digested.digest;
}

export function budgetFor(apiKey: string, limits: BudgetLimits): UpstreamBudget {
  const id = `${keyDigest(apiKey)}:${limits.perMinute}:${limits.perSecond}`;
  let budget = budgets.get(id);
  if (!budget) {
    budget = new UpstreamBudget(id, limits);
    budgets.set(id, budget);
  }
  return budget;
}

/** Tests only: every budget starts afresh. */
export function forgetBudgets(): void {
  budgets.clear();
}

/** Retry-After (seconds or an HTTP date) or RateLimit-Reset (seconds), in ms; 1 s when neither is usable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number {
  const value = headers.get("retry-after") ?? headers.get("ratelimit-reset");
  if (value) {
    const seconds = Number(value);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.max(1000, seconds * 1000);
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.max(1000, date - now);
  }
  return 1000;
}
