// Children's Medicaid/CHIP income limits by state and coverage year (NY's Child Health Plus
// included), from ./parameters/child-medicaid-chip-limits.json, where each year carries its source.
// Children's limits are far above the adult 138% line: a family with a premium tax credit usually
// has its children on Medicaid or CHIP (docs/decisions/211-per-person-programmes.md).

import limits from "./parameters/child-medicaid-chip-limits.json";
import { MissingParameterError, normaliseStateCode } from "./parameters";

interface LimitYear {
  limits?: Record<string, number>;
  programmeNames?: Record<string, string>;
  sameAs?: string;
  source: string;
}

const FILE = limits as unknown as { years: Record<string, LimitYear> };

function yearEntry(coverageYear: number): LimitYear {
  if (!Number.isInteger(coverageYear)) throw new RangeError(`year must be an integer, got ${coverageYear}`);
  const entry = FILE.years[String(coverageYear)];
  if (!entry) throw new MissingParameterError("children's Medicaid/CHIP limits", coverageYear);
  if (entry.limits) return entry;
  const base = entry.sameAs ? FILE.years[entry.sameAs] : undefined;
  if (!base?.limits) throw new MissingParameterError("children's Medicaid/CHIP limits", coverageYear, "sameAs");
  return { ...base, source: `${entry.source} ${base.source}` };
}

/** The children's (under 19) Medicaid/CHIP income limit as a fraction of the current guideline (2.06 = 206%). */
export function childMedicaidChipLimitFpl(stateCode: string, coverageYear: number): number {
  const state = normaliseStateCode(stateCode);
  const value = yearEntry(coverageYear).limits![state];
  if (value === undefined)
    throw new MissingParameterError("children's Medicaid/CHIP limit", `${state} ${coverageYear}`);
  return value;
}

/** What a state calls its children's programme, for plain-language notes ("Medicaid or CHIP" by default). */
export function childProgrammeName(stateCode: string, coverageYear: number): string {
  const state = normaliseStateCode(stateCode);
  return yearEntry(coverageYear).programmeNames?.[state] ?? "Medicaid or CHIP";
}

/** Where the year's children's limits come from. */
export function childLimitsSource(coverageYear: number): string {
  return yearEntry(coverageYear).source;
}

/** States the table holds for a year. */
export function statesWithChildLimits(coverageYear: number): string[] {
  return Object.keys(yearEntry(coverageYear).limits!).sort();
}
