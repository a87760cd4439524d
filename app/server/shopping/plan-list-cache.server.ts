import type { PlansRequest } from "../../schemas/shopping";
import type { Language } from "../../i18n/i18n";
import { cachesPerOwner } from "../platform/cache.server";
import { planStore, type PlanStore } from "../plan-store/plan-store.server";
import { marketplaceDate } from "./plan-year.server";
import type { PlansAnswer } from "./plan-list.server";

/**
 * POST /api/plans answers kept a minute for the same request (docs/decisions/402).
 *
 * A shopper's list is asked for again and again with the same household: the results page's
 * sort and filter forms, its pages, the back button, the API client that re-asks on every change.
 * Pricing, ranking and writing a 50-plan page is ~1 ms; reading the kept text is ~0.01 ms. What an
 * answer depends on is all in the key or kept out of the cache:
 * - the request as validated (defaults filled in, so `{}` and the spelled-out defaults are one key),
 *   the language of the ranking's words, and the marketplace date (the plan year shopped by default);
 * - the store version: one cache per open store file, so a reseed answers from the new file at once;
 * - upstream answers: a list priced during an upstream outage (our own estimate instead, or none),
 *   or with drugs or doctors chosen (coverage looked up upstream), is not kept, so an outage's
 *   answer never outlives it;
 * - a minute at most: a tenth of the time the eligibility estimate it was priced with is kept
 *   (eligibility.server.ts), which during an outage answers a household asked before it anyway.
 */
export const PLAN_LIST_CACHE_TTL_MS = 60_000;
/** Total bytes of the kept answers: a 50-plan page is ~65 KB. */
const PLAN_LIST_CACHE_BYTES = 16 * 1024 * 1024;
/** A list larger than this (a 500-plan page is ~650 KB) is not kept: one would push out dozens. */
const LARGEST_KEPT_BYTES = 256 * 1024;

/** Kept as UTF-8 bytes, the same Buffer every time: written as it is, and compressed once (server/compression.ts). */
const cacheOf = cachesPerOwner<string, Buffer>({
  limit: PLAN_LIST_CACHE_BYTES,
  weigh: (bytes) => bytes.length,
  ttlMs: PLAN_LIST_CACHE_TTL_MS,
});
/** Bumped when the eligibility answers the kept lists were priced with are forgotten. */
let generation = 0;

/** Forgets every kept list (with the eligibility answers they were priced with: forgetEligibilityAnswers). */
export function forgetPlanListAnswers(): void {
  generation++;
}

/**
 * Upstream reasons for our own estimate that last (a key it refuses, a year it has not published):
 * a list priced with our own estimate for one of these is kept; for an outage or a busy upstream it
 * is not, so the federal estimate is back in the first answer after it.
 */
const LASTING_REASONS: ReadonlySet<string> = new Set(["key_rejected", "year_not_served"]);

/**
 * Whether what was priced may be kept: plans from our own store, with an estimate that did not
 * come from an outage. Drugs and doctors chosen (coverage looked up upstream) are the caller's to check.
 */
export function pricedWhole(answer: Pick<PlansAnswer, "source" | "eligibility" | "eligibility_unavailable">): boolean {
  if (answer.source !== "own" || answer.eligibility_unavailable) return false;
  const reason = answer.eligibility?.upstream;
  return reason === undefined || LASTING_REASONS.has(reason);
}

/** Whether an answer may be kept: nothing in it came from an outage or from an upstream coverage look-up. */
export function keepable(request: PlansRequest, answer: PlansAnswer): boolean {
  return pricedWhole(answer) && (request.drugs?.length ?? 0) === 0 && (request.doctors?.length ?? 0) === 0;
}

/**
 * The plan list for `request` as UTF-8 JSON: the kept answer, or `answer()`'s, kept when it may be.
 * `hit` says which (for Server-Timing, and so that only a kept Buffer's compression is kept).
 */
export async function plansAnswerText(
  request: PlansRequest,
  lang: Language | undefined,
  answer: () => Promise<{ answer: PlansAnswer; text: string }>,
  now: Date = new Date(),
  store: PlanStore = planStore(),
): Promise<{ bytes: Buffer; hit: boolean }> {
  const cache = cacheOf(store.version());
  const key = `${generation}|${marketplaceDate(now)}|${lang ?? ""}|${JSON.stringify(request)}`;
  const kept = cache.get(key);
  if (kept !== undefined) return { bytes: kept, hit: true };
  const fresh = await answer();
  const bytes = Buffer.from(fresh.text, "utf8");
  if (bytes.length <= LARGEST_KEPT_BYTES && keepable(request, fresh.answer)) cache.set(key, bytes);
  return { bytes, hit: false };
}
