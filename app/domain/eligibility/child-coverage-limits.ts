// Medicaid/CHIP income lines by state and coverage year (NY's Child Health Plus included), from the
// medicaidChipLines block of the parameter file (validated at load; each state's line with the date
// it is in force from and its source): children under 19, and pregnant people. Both are far above
// the adult 138% line: a family with a premium tax credit usually has its children on Medicaid or
// CHIP (docs/decisions/211-per-person-programmes.md, 310-medicaid-chip-lines-by-state.md).

import { MissingParameterError, parameter, parameterEntry } from "../parameters/parameter-file";
import { normaliseStateCode } from "../parameters";

/** Which line: children under 19, or a pregnant person. */
export type MedicaidChipLineKind = "children" | "pregnancy";

/** One state's line with where it comes from. */
export interface MedicaidChipLine {
  /** Fraction of the current guideline (2.05 = 205%), disregard included. */
  limit: number;
  /** YYYY-MM-DD: the date the line is known to be in force from. */
  since: string;
  /** The source, in words. */
  source: string;
}

/** A state's line of a kind for a coverage year; MissingParameterError for a state or year the table does not hold. */
export function medicaidChipLine(
  stateCode: string,
  coverageYear: number,
  kind: MedicaidChipLineKind,
): MedicaidChipLine {
  const state = normaliseStateCode(stateCode);
  const table = parameter("medicaidChipLines", coverageYear);
  const lines = table.states[state];
  if (lines === undefined) {
    const label = kind === "children" ? "children's Medicaid/CHIP line" : "pregnancy Medicaid/CHIP line";
    throw new MissingParameterError(label, `${state} ${coverageYear}`);
  }
  const line = lines[kind];
  return { limit: line.limit, since: line.since, source: table.sources[line.source] };
}

/** The children's (under 19) Medicaid/CHIP income limit as a fraction of the current guideline (2.06 = 206%). */
export function childMedicaidChipLimitFpl(stateCode: string, coverageYear: number): number {
  return medicaidChipLine(stateCode, coverageYear, "children").limit;
}

/** The pregnancy Medicaid/CHIP income limit as a fraction of the current guideline (2.03 = 203%). */
export function pregnancyMedicaidChipLimitFpl(stateCode: string, coverageYear: number): number {
  return medicaidChipLine(stateCode, coverageYear, "pregnancy").limit;
}

/** What a state calls its children's programme, for plain-language notes ("Medicaid or CHIP" by default). */
export function childProgrammeName(stateCode: string, coverageYear: number): string {
  const state = normaliseStateCode(stateCode);
  return parameter("medicaidChipLines", coverageYear).programmeNames?.[state] ?? "Medicaid or CHIP";
}

/** Where the year's lines come from (a carried-forward year: its own note, then its base's). */
export function childLimitsSource(coverageYear: number): string {
  return parameterEntry("medicaidChipLines", coverageYear).reference;
}

/** States the table holds for a year. */
export function statesWithChildLimits(coverageYear: number): string[] {
  return Object.keys(parameter("medicaidChipLines", coverageYear).states).sort();
}
