import { describe, expect, it } from "vitest";
import { defaultPlanYear } from "../../../app/domain/plan-year";

describe("defaultPlanYear", () => {
  it("2026-10-31 shops 2026; 2026-11-01 shops 2027 when 2027 data is loaded", () => {
    expect(defaultPlanYear("2026-10-31", [2026, 2027])).toBe(2026);
    expect(defaultPlanYear("2026-11-01", [2026, 2027])).toBe(2027);
    expect(defaultPlanYear("2026-12-31", [2026, 2027])).toBe(2027);
  });

  it("stays on the current year in November when next year's data is not loaded", () => {
    expect(defaultPlanYear("2026-11-01", [2026])).toBe(2026);
  });

  it("moves to the new calendar year on 1 January", () => {
    expect(defaultPlanYear("2027-01-01", [2026, 2027])).toBe(2027);
    expect(defaultPlanYear("2027-01-01", [2026, 2027, 2028])).toBe(2027);
  });

  it("reads a Date on the US Eastern calendar", () => {
    // 2026-11-01T03:30Z is still 31 October, 23:30 in New York (EDT, UTC−4).
    expect(defaultPlanYear(new Date("2026-11-01T03:30:00Z"), [2026, 2027])).toBe(2026);
    // 2026-11-01T04:00Z is midnight on 1 November in New York.
    expect(defaultPlanYear(new Date("2026-11-01T04:00:00Z"), [2026, 2027])).toBe(2027);
    // The same instant read in UTC is already 1 November.
    expect(defaultPlanYear(new Date("2026-11-01T03:30:00Z"), [2026, 2027], "UTC")).toBe(2027);
  });

  it("rejects bad dates", () => {
    expect(() => defaultPlanYear("11/01/2026", [2027])).toThrow(RangeError);
    expect(() => defaultPlanYear(new Date("nope"), [2027])).toThrow(RangeError);
  });
});
