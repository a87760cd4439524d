// The plan year a shopper sees by default (spec decision 3): from 1 November, next year's plans
// if their data is loaded (open enrollment starts 1 November, 45 CFR 155.410(e)); otherwise the
// current year. The calendar date is read in US Eastern time by default, the marketplace's
// clock (docs/decisions/017-default-plan-year.md).

import { isoDateYear } from "./parameters";

/** Time zone whose calendar decides the plan year of a request. */
export const DEFAULT_PLAN_YEAR_TIME_ZONE = "America/New_York";

// Month and day (1-based) from which next year's plans are shown.
const OPEN_ENROLLMENT_MONTH = 11;
const OPEN_ENROLLMENT_DAY = 1;

function calendarDate(requestDate: Date | string, timeZone: string): { year: number; month: number; day: number } {
  if (typeof requestDate === "string") {
    const year = isoDateYear(requestDate); // validates YYYY-MM-DD and the calendar
    const [, month, day] = requestDate.split("-").map(Number);
    return { year, month, day };
  }
  if (Number.isNaN(requestDate.getTime())) throw new RangeError("invalid request date");
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
  }).formatToParts(requestDate);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  return { year: get("year"), month: get("month"), day: get("day") };
}

/**
 * Plan year shopped on a date: the next year from 1 November if `yearsWithData` holds it, else the
 * current calendar year. A Date is read in `timeZone`; a "YYYY-MM-DD" string is taken as the calendar date.
 */
export function defaultPlanYear(
  requestDate: Date | string,
  yearsWithData: readonly number[],
  timeZone: string = DEFAULT_PLAN_YEAR_TIME_ZONE,
): number {
  const { year, month, day } = calendarDate(requestDate, timeZone);
  const inOpenEnrollment =
    month > OPEN_ENROLLMENT_MONTH || (month === OPEN_ENROLLMENT_MONTH && day >= OPEN_ENROLLMENT_DAY);
  if (inOpenEnrollment && yearsWithData.includes(year + 1)) return year + 1;
  return year;
}
