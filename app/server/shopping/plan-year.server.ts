import { isoDateYear } from "../../domain/parameters";
import { DEFAULT_PLAN_YEAR_TIME_ZONE, defaultPlanYear } from "../../domain/plan-year";
import type { ShoppingRequest } from "../../schemas/shopping";
import { planStore, type PlanStore } from "../plan-store/plan-store.server";
import { ApiError } from "../platform/api.server";

/** The plan year a request is answered for, and the coverage date that must lie in it. */

// One formatter for every request: building an Intl.DateTimeFormat costs about 0.1 ms,
// a tenth of a whole /api/counties answer (docs/benchmarks.md).
const marketplaceCalendar = new Intl.DateTimeFormat("en-CA", {
  timeZone: DEFAULT_PLAN_YEAR_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The calendar date ("YYYY-MM-DD") on the marketplace's clock, which decides the plan year shopped. */
export function marketplaceDate(now: Date): string {
  // US time zones are whole hours from UTC, so a date never changes within a clock minute: the last
  // minute's answer is reused (formatToParts was ~2 % of an /api/counties answer under load).
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute === lastMarketplaceDate.minute) return lastMarketplaceDate.date;
  const parts = marketplaceCalendar.formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const date = `${part("year")}-${part("month")}-${part("day")}`;
  lastMarketplaceDate = { minute, date };
  return date;
}
let lastMarketplaceDate = { minute: Number.NaN, date: "" };

/** The plan year to answer for: the one asked for, or the year being shopped today. */
export function resolvePlanYear(
  requested: number | undefined,
  store: PlanStore = planStore(),
  now = new Date(),
): number {
  const years = store.yearsWithData();
  if (requested !== undefined) {
    if (!years.includes(requested)) {
      throw new ApiError(404, "year_not_available", `No plan data for plan year ${requested}.`, {
        year: `No plan data for ${requested}; available: ${years.join(", ") || "none"}`,
      });
    }
    return requested;
  }
  if (years.length === 0) throw new ApiError(503, "plan_data_unavailable", "No plan data is loaded yet.");
  const shopped = defaultPlanYear(marketplaceDate(now), years);
  // The year shopped today may have no data (e.g. before 1 November with only next year's files
  // loaded): say so rather than answer empty lists (docs/decisions/090-default-year-without-data.md).
  if (!years.includes(shopped)) {
    throw new ApiError(
      404,
      "year_not_available",
      `No plan data for plan year ${shopped}, the year being shopped today.`,
      {
        year: `No plan data for ${shopped}; available: ${years.join(", ")}`,
      },
    );
  }
  return shopped;
}

/**
 * The coverage start date must be a real date inside the plan year: a date in
 * another year is bad input (400), not a failure of the calculation (500).
 */
export function checkCoverageDate(request: Pick<ShoppingRequest, "coverage_date">, year: number): void {
  const date = request.coverage_date;
  if (date === undefined) return;
  let dateYear: number | null;
  try {
    dateYear = isoDateYear(date);
  } catch {
    dateYear = null;
  }
  if (dateYear === null) {
    throw new ApiError(400, "validation_failed", `Invalid request body: check coverage_date.`, {
      coverage_date: `${date} is not a calendar date`,
    });
  }
  if (dateYear !== year) {
    throw new ApiError(400, "validation_failed", `The coverage date ${date} is not in plan year ${year}.`, {
      coverage_date: `Must be a date in plan year ${year}`,
    });
  }
}
