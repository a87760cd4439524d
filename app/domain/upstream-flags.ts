import type { PersonProgramme } from "./eligibility/household-eligibility";

/**
 * The household's Medicaid/CHIP and coverage-gap flags when upstream estimated the coverage family
 * (decision 381). Upstream answers one estimate per person; its flags count person by person, with
 * ours, and never contradict each other for one person:
 * - a person upstream finds Medicaid/CHIP-eligible is not in the coverage gap, whatever our rule said
 *   (upstream knows the state's own adult lines, below our uniform ones);
 * - a person either side puts in the gap is in it, unless upstream finds them Medicaid/CHIP-eligible.
 * `isMedicaidChip` also counts the people our rules put on Medicaid/CHIP (not sent to upstream as
 * applicants). Both flags are true only for two different people (a child on CHIP, a parent in the gap).
 */
export function upstreamProgrammeFlags(
  own: { programmes: readonly PersonProgramme[]; coverageFamily: readonly number[]; isMedicaidChip: boolean },
  theirs: ReadonlyArray<{ is_medicaid_chip?: boolean | null; in_coverage_gap?: boolean | null } | undefined>,
): { is_medicaid_chip: boolean; in_coverage_gap: boolean } {
  let medicaid = own.isMedicaidChip;
  let gap = false;
  for (const i of own.coverageFamily) {
    const estimate = theirs[i];
    const theirMedicaid = Boolean(estimate?.is_medicaid_chip);
    medicaid ||= theirMedicaid;
    gap ||= !theirMedicaid && (own.programmes[i] === "coverage_gap" || Boolean(estimate?.in_coverage_gap));
  }
  return { is_medicaid_chip: medicaid, in_coverage_gap: gap };
}
