// Children's Medicaid/CHIP income limits by state and coverage year (NY's Child Health Plus
// included), from the childMedicaidChipLimits block of the parameter file (validated at load,
// each year with its source). Children's limits are far above the adult 138% line: a family with a
// premium tax credit usually has its children on Medicaid or CHIP (docs/decisions/211-per-person-programmes.md).

import { MissingParameterError, parameter, parameterEntry } from "./parameter-file";
import { normaliseStateCode } from "./parameters";

/** The children's (under 19) Medicaid/CHIP income limit as a fraction of the current guideline (2.06 = 206%). */
export function childMedicaidChipLimitFpl(stateCode: string, coverageYear: number): number {
  const state = normaliseStateCode(stateCode);
  const value = parameter("childMedicaidChipLimits", coverageYear).limits[state];
  if (value === undefined)
    throw new MissingParameterError("children's Medicaid/CHIP limit", `${state} ${coverageYear}`);
  return value;
}

/** What a state calls its children's programme, for plain-language notes ("Medicaid or CHIP" by default). */
export function childProgrammeName(stateCode: string, coverageYear: number): string {
  const state = normaliseStateCode(stateCode);
  return parameter("childMedicaidChipLimits", coverageYear).programmeNames?.[state] ?? "Medicaid or CHIP";
}

/** Where the year's children's limits come from (a carried-forward year: its own note, then its base's source). */
export function childLimitsSource(coverageYear: number): string {
  return parameterEntry("childMedicaidChipLimits", coverageYear).reference;
}

/** States the table holds for a year. */
export function statesWithChildLimits(coverageYear: number): string[] {
  return Object.keys(parameter("childMedicaidChipLimits", coverageYear).limits).sort();
}
