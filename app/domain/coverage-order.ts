// "Plans that cover my drugs and doctors first" (issue 16 item 2; docs/decisions/251): the results
// page's own sort, made from the coverage of every plan in the list.

import type { CoverageValue } from "./coverage";

/** The results page's sort value for this order (not a sort of the plans API). */
export const COVERAGE_SORT = "coverage";

/** How a plan covers the chosen drugs and doctors, counted over the pairs (code × plan). */
export interface CoverageScore {
  /** Covered outright (a drug as itself or as its generic; a doctor in network). */
  full: number;
  /** Covered with restrictions (prior authorization, step therapy, quantity limit; some locations). */
  partial: number;
  notCovered: number;
  /** Not known (no data, or the check failed): never counted as "not covered". */
  unknown: number;
}

export function coverageScore(values: readonly CoverageValue[]): CoverageScore {
  const score: CoverageScore = { full: 0, partial: 0, notCovered: 0, unknown: 0 };
  for (const value of values) {
    if (value === "Covered" || value === "GenericCovered") score.full++;
    else if (value === "PartialCovered") score.partial++;
    else if (value === "NotCovered") score.notCovered++;
    else score.unknown++;
  }
  return score;
}

/**
 * Better coverage first: more drugs and doctors covered (with or without
 * restrictions), then more of them without restrictions, then fewer known
 * not to be covered (an unknown is better than a known "not covered"). Equal
 * scores: 0, so a stable sort keeps the list's own order (premium, then id).
 */
export function compareCoverage(a: CoverageScore, b: CoverageScore): number {
  return b.full + b.partial - (a.full + a.partial) || b.full - a.full || a.notCovered - b.notCovered;
}

/**
 * Plan ids in coverage order; ids with the same score keep their order in
 * `ids` (the premium order the list had). A plan with no answer at all scores
 * as all unknown.
 */
export function orderByCoverage(
  ids: readonly string[],
  valuesByPlan: ReadonlyMap<string, readonly CoverageValue[]>,
): string[] {
  const scored = ids.map((id, index) => ({ id, index, score: coverageScore(valuesByPlan.get(id) ?? []) }));
  scored.sort((a, b) => compareCoverage(a.score, b.score) || a.index - b.index);
  return scored.map((s) => s.id);
}
