import { BoundedCache } from "../platform/cache.server";
import { forgetSingleton, processSingleton } from "../platform/lifecycle.server";
import { INVALID_MARKET_YEAR, isUpstreamFailure, type UpstreamOperation, UpstreamRejectedError } from "./errors.server";
import { MarketYearsResponse } from "./schemas.server";
import { callUpstream } from "./transport.server";

/**
 * The plan years upstream serves (`GET /market-years`: `{current, supported}`),
 * asked once a day (docs/decisions/203-market-years.md). A year it does not
 * serve is refused here, without a call, with the real API's own words
 * ("Invalid market year"), so the consumer is told about the year and not
 * the place. When /market-years cannot be asked, calls go ahead (upstream
 * itself still says 400 for a year it does not serve) and it is asked again
 * a minute later.
 */

export interface MarketYears {
  current: number;
  supported: number[];
}

const DAY_MS = 24 * 60 * 60_000;
const RETRY_AFTER_FAILURE_MS = 60_000;

interface YearsState {
  answer: BoundedCache<"years", Promise<MarketYears | null>>;
  failedAt: number | null;
}
const STATE = "upstream-market-years";
function state(): YearsState {
  return processSingleton<YearsState>(STATE, () => ({
    answer: new BoundedCache<"years", Promise<MarketYears | null>>({ limit: 1, ttlMs: DAY_MS }),
    failedAt: null,
  }));
}

/** Tests only. */
export function forgetMarketYears(): void {
  forgetSingleton(STATE);
}

/** The years upstream serves, or null when it could not say (then nothing is refused for the year). */
export function marketYears(): Promise<MarketYears | null> {
  const s = state();
  const kept = s.answer.get("years");
  if (kept) return kept;
  if (s.failedAt !== null && Date.now() - s.failedAt < RETRY_AFTER_FAILURE_MS) return Promise.resolve(null);
  const asked = callUpstream({ operation: "market_years", method: "GET", path: "/market-years" }, MarketYearsResponse)
    .then((answer): MarketYears => ({ current: answer.current, supported: [...answer.supported] }))
    .catch((error: unknown) => {
      if (!isUpstreamFailure(error)) throw error;
      s.answer.delete("years");
      s.failedAt = Date.now();
      return null;
    });
  s.answer.set("years", asked);
  return asked;
}

/** The longest a call waits for /market-years: a quarter of its time, so a slow answer still leaves the call its own. */
const YEARS_WAIT_SHARE = 0.25;

/**
 * Refuses, without an upstream call, a year upstream does not serve. No year:
 * upstream's default, always served. Waits for /market-years at most a
 * quarter of the time to `deadline`; without an answer by then the call goes
 * ahead (the years are still kept when they arrive).
 */
export async function ensureYearServed(
  operation: UpstreamOperation,
  year: number | undefined,
  deadline: number,
): Promise<void> {
  if (year === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  const waitMs = Math.max(0, (deadline - Date.now()) * YEARS_WAIT_SHARE);
  const years = await Promise.race([
    marketYears(),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
    }),
  ]).finally(() => clearTimeout(timer));
  if (years && !years.supported.includes(year) && years.current !== year) {
    throw new UpstreamRejectedError(operation, 400, null, INVALID_MARKET_YEAR, year);
  }
}
