import { describe, expect, it } from "vitest";
import { compareCoverage, coverageScore, orderByCoverage } from "../../../app/domain/coverage-order";
import type { CoverageValue } from "../../../app/domain/coverage";

describe("plans that cover my drugs and doctors first", () => {
  it("counts each chosen drug or doctor once: covered, with restrictions, not covered, unknown", () => {
    expect(
      coverageScore(["Covered", "GenericCovered", "PartialCovered", "NotCovered", "DataNotProvided", "Covered"]),
    ).toEqual({ full: 3, partial: 1, notCovered: 1, unknown: 1 });
  });

  it("orders more covered first, then fewer restrictions, then fewer known 'not covered'; ties keep premium order", () => {
    // The list's own order (premium, lowest first): A, B, C, D, E, F.
    const coverage = new Map<string, CoverageValue[]>([
      ["A", ["NotCovered", "NotCovered", "DataNotProvided"]], // 0 covered, 2 not covered
      ["B", ["Covered", "PartialCovered", "NotCovered"]], // 2 covered, 1 with restrictions
      ["C", ["Covered", "Covered", "NotCovered"]], // 2 covered outright
      ["D", ["DataNotProvided", "DataNotProvided", "DataNotProvided"]], // nothing known: 0 not covered
      ["E", ["Covered", "GenericCovered", "Covered"]], // all 3
      ["F", ["Covered", "Covered", "NotCovered"]], // same as C, dearer
    ]);
    expect(orderByCoverage(["A", "B", "C", "D", "E", "F"], coverage)).toEqual(["E", "C", "F", "B", "D", "A"]);
  });

  it("a plan without any answer counts as unknown, ahead of one known not to cover", () => {
    const coverage = new Map<string, CoverageValue[]>([["A", ["NotCovered"]]]);
    expect(orderByCoverage(["A", "B"], coverage)).toEqual(["B", "A"]);
  });

  it("equal scores compare as 0 (the sort is stable on the list's order)", () => {
    expect(compareCoverage(coverageScore(["Covered"]), coverageScore(["GenericCovered"]))).toBe(0);
  });
});
