// The cap on paying back excess advance credit at tax time (26 USC 36B(f)(2)(B); Form 8962 line 28,
// Table 5) and its removal from tax year 2026 (P.L. 119-21 s.71305; IRS FS-2025-10). The dollar
// figures are the `repaymentCap` parameter block; this module knows only what the block's band
// keys mean (docs/decisions/320-repayment-risk.md).

import { parameter } from "../parameters/parameter-file";

type CapBands = NonNullable<ReturnType<typeof repaymentCapTable>>;
type BandKey = keyof CapBands;

/**
 * The block's bands, by household income as a whole percent of the credit's guideline, truncated as
 * Form 8962 line 5 does: each applies below `belowPercent` (the last one has no upper edge).
 */
export const REPAYMENT_CAP_BANDS: ReadonlyArray<{ key: BandKey; belowPercent: number | null }> = [
  { key: "under200", belowPercent: 200 },
  { key: "200to300", belowPercent: 300 },
  { key: "300to400", belowPercent: 400 },
  { key: "atOrAbove400", belowPercent: null },
];

/** The whole percent of the guideline from which nothing caps the repayment in any year (the last band's start). */
export const UNCAPPED_FROM_PERCENT = REPAYMENT_CAP_BANDS[REPAYMENT_CAP_BANDS.length - 2].belowPercent as number;

/** The year's table, or null when the year has no cap at all (2026 on). A year before the block is a MissingParameterError. */
export function repaymentCapTable(taxYear: number) {
  return parameter("repaymentCap", taxYear);
}

/** Which filing-status column of Table 5 applies: single for a household of one, the other column otherwise. */
export type FilingColumn = "single" | "other";

export function filingColumnFor(householdSize: number): FilingColumn {
  return householdSize === 1 ? "single" : "other";
}

/**
 * The most a household repays of an excess advance credit, in dollars, or null when nothing caps it
 * (income at or above 400% of the guideline, or a tax year from 2026).
 * `fplPercentWhole` is the year-end income as a whole percent of the credit's guideline, truncated.
 */
export function repaymentCap(taxYear: number, fplPercentWhole: number, householdSize: number): number | null {
  if (!Number.isInteger(fplPercentWhole) || fplPercentWhole < 0) {
    throw new RangeError(`FPL percent must be a whole number ≥ 0, got ${fplPercentWhole}`);
  }
  const table = repaymentCapTable(taxYear);
  if (table === null) return null;
  const band = REPAYMENT_CAP_BANDS.find((b) => b.belowPercent === null || fplPercentWhole < b.belowPercent)!;
  const pair = table[band.key];
  if (pair === null) return null;
  return filingColumnFor(householdSize) === "single" ? pair[0] : pair[1];
}
