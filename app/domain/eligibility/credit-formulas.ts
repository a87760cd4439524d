// The credit's formulas: exact income-to-line comparisons, the FPL percent, the applicable
// percentage, the premium tax credit (APTC) and the CSR level. Who gets what, person by person, is
// decided by the one engine, estimateHousehold in ./household-eligibility.
//
// Rules: docs/reference/eligibility-rules.md; numbers: the parameter tree (./parameters/, read through its index.ts).
// Money is computed in full precision; callers round at the edge (roundCents in ./pricing).
// Eligibility lines (100%, 138%, CSR bands, Essential Plan limits, 400%) are compared in dollars;
// the truncated whole FPL percent is used only to look up the applicable percentage
// (docs/decisions/012-eligibility-lines-in-dollars.md).

import type { CsrLevel } from "./csr";
import { applicablePercentageTable, csrBands, fractionToPercent, povertyGuideline } from "../parameters";

// ---------------------------------------------------------------------------
// Exact income-to-guideline comparisons.

function assertIncome(income: number): void {
  if (!Number.isFinite(income)) throw new RangeError(`income must be a finite number of dollars, got ${income}`);
}

/**
 * Income in cents, exactly: a whole number of cents when the income is one (0.29 × 100 is
 * 28.999999999999996 in binary, so it is snapped), otherwise the fraction of a cent is kept. Nothing
 * is rounded before a line is tested: $63,840.004 is above a $63,840 line (docs/decisions/212).
 */
export function incomeCents(income: number): number {
  assertIncome(income);
  const cents = income * 100;
  const whole = Math.round(cents);
  return Math.abs(cents - whole) < 1e-6 ? whole : cents;
}

// income ⋛ fraction × guideline, compared exactly: cents × 100 against basis points × dollars
// (integers whenever the income is whole cents).
function compareToLine(income: number, fraction: number, guideline: number): number {
  const lhs = incomeCents(income) * 100;
  const rhs = Math.round(fraction * 10_000) * guideline;
  return lhs === rhs ? 0 : lhs < rhs ? -1 : 1;
}

/** −1, 0 or 1 as income is below, on or above fraction × guideline, compared exactly. */
export function compareIncomeToLine(income: number, fraction: number, guideline: number): number {
  return compareToLine(income, fraction, guideline);
}

/** True when income ≥ fraction × guideline, compared exactly in cents. */
export function incomeAtOrAbove(income: number, fraction: number, guideline: number): boolean {
  return compareToLine(income, fraction, guideline) >= 0;
}

/** True when income ≤ fraction × guideline, compared exactly in cents. */
export function incomeAtOrBelow(income: number, fraction: number, guideline: number): boolean {
  return compareToLine(income, fraction, guideline) <= 0;
}

// ---------------------------------------------------------------------------
// FPL percent and applicable percentage.

/** Income as a whole percent of a guideline, truncated: floor(100 × income / guideline) (Form 8962). */
export function fplPercentOf(income: number, guideline: number): number {
  // Integer cents over integer dollars: exact floor, no binary-fraction surprises at the edges.
  return Math.floor(incomeCents(income) / guideline + 1e-12);
}

/** Income as a whole percent of the year's poverty guideline for the state and household size, truncated. */
export function fplPercent(income: number, householdSize: number, stateCode: string, guidelineYear: number): number {
  return fplPercentOf(income, povertyGuideline(guidelineYear, stateCode, householdSize));
}

/**
 * Applicable percentage (decimal, e.g. 0.0772) for a whole FPL percent: linear within the band,
 * rounded to the nearest 0.01% (26 CFR 1.36B-3(g)(1)). Null where the year's table defines none
 * (above 400% in a cliff year).
 */
export function applicablePercentage(coverageYear: number, fplPct: number): number | null {
  if (!Number.isInteger(fplPct)) throw new RangeError(`FPL percent must be a whole number, got ${fplPct}`);
  const table = applicablePercentageTable(coverageYear);
  const maxPct = table.maxFplForCredit === null ? null : fractionToPercent(table.maxFplForCredit);
  for (const band of table.bands) {
    const from = fractionToPercent(band.fromFpl);
    const to = band.toFpl === null ? Infinity : fractionToPercent(band.toFpl);
    // Lower edge inclusive, upper exclusive, except the top edge of a capped table (400% inclusive).
    const inBand = fplPct >= from && (fplPct < to || (table.maxInclusive && to === maxPct && fplPct === to));
    if (!inBand) continue;
    // Work in basis points (hundredths of a percent) so the rounding step is exact.
    const initial = Math.round(band.initial * 10_000);
    const final = Math.round(band.final * 10_000);
    const basisPoints =
      to === Infinity || initial === final ? initial : initial + ((fplPct - from) / (to - from)) * (final - initial);
    return Math.round(basisPoints) / 10_000;
  }
  return null;
}

/** Monthly premium tax credit: max(0, benchmark − applicable% × annual income / 12) (26 USC 36B(b)(2)). */
export function premiumTaxCreditMonthly(benchmarkMonthly: number, income: number, applicablePct: number): number {
  assertIncome(income);
  return Math.max(0, benchmarkMonthly - (applicablePct * income) / 12);
}

// ---------------------------------------------------------------------------
// CSR.

/**
 * CSR level from income against the PTC guideline (45 CFR 155.305(g)): 94 for 100–150%, 87 for
 * >150–200%, 73 for >200–250%; null above 250% or when the household is not APTC-eligible.
 */
export function csrLevel(income: number, guideline: number, aptcEligible: boolean): CsrLevel | null {
  if (!aptcEligible) return null;
  for (const band of csrBands()) {
    const cmpLower = compareToLine(income, band.lowerFpl, guideline);
    const aboveLower = band.lowerInclusive ? cmpLower >= 0 : cmpLower > 0;
    if (aboveLower && incomeAtOrBelow(income, band.upperFpl, guideline)) return band.variant;
  }
  return null;
}
