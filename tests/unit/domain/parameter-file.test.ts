import { describe, expect, it } from "vitest";
import raw from "../../../app/domain/parameters/aca-parameters.json";
import { ACA_PARAMETERS, ParameterFileError, parseAcaParameterFile } from "../../../app/domain/parameter-file";

/** A JSON copy, edited freely by the tests below. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Editable = Record<string, any>;

/** A deep copy of the repository's file with one change made. */
function changed(edit: (file: Editable) => void): unknown {
  const copy = structuredClone(raw) as Editable;
  edit(copy);
  return copy;
}

describe("the ACA parameter file, validated at load", () => {
  it("keeps every figure, note and source of the file as it is", () => {
    expect(ACA_PARAMETERS).toEqual(raw);
  });

  it("holds no test vectors (they are test fixtures: tests/fixtures/parameters/aca-test-vectors.json)", () => {
    expect(Object.keys(raw)).not.toContain("testVectors");
  });

  it("names the path of a figure of the wrong kind", () => {
    const bad = changed((f) => (f.povertyGuidelines["2026"].contiguous.base = "15,960"));
    expect(() => parseAcaParameterFile(bad)).toThrow(ParameterFileError);
    expect(() => parseAcaParameterFile(bad)).toThrow(/povertyGuidelines\.2026\.contiguous\.base/);
  });

  it("refuses a key that is neither a year nor a known field", () => {
    const bad = changed((f) => (f.otherParameters.maxOutOfPocket["PY2028"] = [13000, 26000]));
    expect(() => parseAcaParameterFile(bad)).toThrow(/otherParameters\.maxOutOfPocket\.PY2028: .*neither a year/);
  });

  it("refuses a year's figures without their source", () => {
    const bad = changed((f) => delete f.applicablePercentage["2027"].source);
    expect(() => parseAcaParameterFile(bad)).toThrow(/applicablePercentage\.2027\.source/);
  });

  it("refuses an effective date that is not a calendar date", () => {
    const bad = changed((f) => (f.nyEssentialPlan.periods[2].from = "2026-13-01"));
    expect(() => parseAcaParameterFile(bad)).toThrow(/nyEssentialPlan\.periods\.2\.from/);
  });
});
