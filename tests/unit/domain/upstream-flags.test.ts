import { describe, expect, it } from "vitest";
import type { PersonProgramme } from "../../../app/domain/eligibility/household-eligibility";
import { upstreamProgrammeFlags } from "../../../app/domain/upstream-flags";

/** Issue 31 item 9: upstream's Medicaid flag and our coverage-gap flag are never both true for one person. */

const own = (programmes: PersonProgramme[]) => ({
  programmes,
  coverageFamily: programmes.flatMap((p, i) => (p === "marketplace" || p === "coverage_gap" ? [i] : [])),
  isMedicaidChip: programmes.includes("medicaid_chip"),
});

describe("upstreamProgrammeFlags", () => {
  it("a person we put in the gap whom upstream finds Medicaid-eligible is on Medicaid, not in the gap", () => {
    expect(upstreamProgrammeFlags(own(["coverage_gap"]), [{ is_medicaid_chip: true, in_coverage_gap: false }])).toEqual(
      {
        is_medicaid_chip: true,
        in_coverage_gap: false,
      },
    );
  });

  it("upstream saying both for one person is read as Medicaid", () => {
    expect(upstreamProgrammeFlags(own(["marketplace"]), [{ is_medicaid_chip: true, in_coverage_gap: true }])).toEqual({
      is_medicaid_chip: true,
      in_coverage_gap: false,
    });
  });

  it("either side's gap counts when upstream does not find Medicaid", () => {
    expect(upstreamProgrammeFlags(own(["coverage_gap"]), [{ is_medicaid_chip: false }])).toEqual({
      is_medicaid_chip: false,
      in_coverage_gap: true,
    });
    expect(upstreamProgrammeFlags(own(["marketplace"]), [{ in_coverage_gap: true }])).toEqual({
      is_medicaid_chip: false,
      in_coverage_gap: true,
    });
    expect(upstreamProgrammeFlags(own(["coverage_gap"]), [undefined])).toEqual({
      is_medicaid_chip: false,
      in_coverage_gap: true,
    });
  });

  it("both only for two different people: a child our rules put on CHIP, a parent in the gap", () => {
    expect(
      upstreamProgrammeFlags(own(["coverage_gap", "medicaid_chip"]), [{ is_medicaid_chip: false }, undefined]),
    ).toEqual({ is_medicaid_chip: true, in_coverage_gap: true });
  });

  it("for any answers, no single-person household is both", () => {
    const programmes: PersonProgramme[] = ["marketplace", "coverage_gap"];
    for (const p of programmes)
      for (const m of [true, false, null, undefined])
        for (const g of [true, false, null, undefined]) {
          const flags = upstreamProgrammeFlags(own([p]), [{ is_medicaid_chip: m, in_coverage_gap: g }]);
          expect(flags.is_medicaid_chip && flags.in_coverage_gap).toBe(false);
        }
  });
});
