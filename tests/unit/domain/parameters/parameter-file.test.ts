import { describe, expect, it } from "vitest";
import { BLOCK_PATHS, PARAMETER_SET as raw } from "../../../../app/domain/parameters/registry";
import {
  blockNames,
  MissingParameterError,
  parameter,
  parameterEntry,
  parameterKeys,
  ParameterFileError,
  parseAcaParameterFile,
  UNITS,
} from "../../../../app/domain/parameters/parameter-file";
import { BLOCKS } from "../../../../app/domain/parameters/parameter-blocks";

/** A JSON copy, edited freely by the tests below. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Editable = Record<string, any>;

/** A deep copy of the repository's file with one change made. */
function changed(edit: (file: Editable) => void): unknown {
  const copy = structuredClone(raw) as Editable;
  edit(copy);
  return copy;
}

const YEAR = /^\d{4}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

describe("the ACA parameter file: every block in one shape", () => {
  const blocks = Object.entries(raw.blocks as Record<string, Editable>);

  it("holds every block the code knows, and no other", () => {
    expect(Object.keys(raw.blocks).sort()).toEqual(Object.keys(BLOCKS).sort());
    expect(blockNames().sort()).toEqual(Object.keys(BLOCKS).sort());
  });

  it.each(blocks)("%s has description, unit, values keyed by year or date, and its reference", (name, block) => {
    expect(Object.keys(block).filter((k) => k !== "notes")).toEqual(["description", "unit", "values", "reference"]);
    expect(typeof block.description).toBe("string");
    expect(block.description.length).toBeGreaterThan(20);
    expect(UNITS).toContain(block.unit);
    const keys = Object.keys(block.values);
    expect(keys.length).toBeGreaterThan(0);
    // All years or all dates, never a mix.
    expect(keys.every((k) => YEAR.test(k)) || keys.every((k) => DATE.test(k)), `${name} keys ${keys}`).toBe(true);
    if (typeof block.reference === "string") expect(block.reference.length).toBeGreaterThan(10);
    else expect(Object.keys(block.reference).sort()).toEqual(keys.sort());
    if (block.notes !== undefined) expect(Array.isArray(block.notes)).toBe(true);
  });

  it("keeps every figure as it is in the file (the parsed file equals the JSON)", () => {
    expect(parseAcaParameterFile()).toEqual(raw);
  });

  it("lays every block out in its own file, in a tree that mirrors the law", () => {
    const paths = Object.values(BLOCK_PATHS);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of paths)
      expect(path).toMatch(/^(federal|medicaid-chip|states\/[a-z]{2}|marketplaces)\/[a-z0-9/-]+\.json$/);
    expect(BLOCK_PATHS.medicaidChipLines).toBe("medicaid-chip/lines-by-state.json");
    expect(BLOCK_PATHS.nyEssentialPlanIncomeLimit).toBe("states/ny/essential-plan/income-limit.json");
    expect(BLOCK_PATHS.applicablePercentage).toBe("federal/premium-tax-credit/applicable-percentage.json");
  });

  it("names the bad block's file when a value is refused", () => {
    const bad = changed((f) => (f.blocks.povertyGuidelines.values["2026"].contiguous.base = -1));
    expect(() => parseAcaParameterFile(bad)).toThrow(/\(parameters\/federal\/hhs\/poverty-guidelines\.json\)/);
  });

  it("holds no test vectors (they are test fixtures: tests/fixtures/parameters/aca-test-vectors.json)", () => {
    expect(JSON.stringify(raw)).not.toContain("testVectors");
  });
});

describe("a malformed block is refused at load, naming the block", () => {
  it("a block without its unit", () => {
    const bad = changed((f) => delete f.blocks.povertyGuidelines.unit);
    expect(() => parseAcaParameterFile(bad)).toThrow(ParameterFileError);
    expect(() => parseAcaParameterFile(bad)).toThrow(/block "povertyGuidelines" at unit/);
  });

  it("a unit that is not one of the known units", () => {
    const bad = changed((f) => (f.blocks.maxOutOfPocket.unit = "dollars"));
    expect(() => parseAcaParameterFile(bad)).toThrow(/block "maxOutOfPocket" at unit/);
  });

  it("a figure of the wrong kind, with its path", () => {
    const bad = changed((f) => (f.blocks.povertyGuidelines.values["2026"].contiguous.base = "15,960"));
    expect(() => parseAcaParameterFile(bad)).toThrow(/block "povertyGuidelines" at values\.2026\.contiguous\.base/);
  });

  it("a block still in an old layout (its own fields beside the values)", () => {
    const bad = changed((f) => (f.blocks.csrBands.source = "45 CFR 155.305(g)"));
    expect(() => parseAcaParameterFile(bad)).toThrow(/block "csrBands"/);
  });

  it("a key that is neither a year nor a date", () => {
    const bad = changed(
      (f) => (f.blocks.maxOutOfPocket.values["PY2028"] = { selfOnly: 13000, otherThanSelfOnly: 26000 }),
    );
    expect(() => parseAcaParameterFile(bad)).toThrow(/block "maxOutOfPocket" at values\.PY2028/);
  });

  it("an effective date that is not a calendar date", () => {
    const bad = changed((f) => {
      const values = f.blocks.nyEssentialPlanIncomeLimit.values;
      values["2026-13-01"] = values["2026-07-01"];
      delete values["2026-07-01"];
    });
    expect(() => parseAcaParameterFile(bad)).toThrow(/block "nyEssentialPlanIncomeLimit" at values\.2026-13-01/);
  });

  it("a year's figures without their source, where the block gives one per year", () => {
    const bad = changed((f) => delete f.blocks.applicablePercentage.reference["2027"]);
    expect(() => parseAcaParameterFile(bad)).toThrow(/block "applicablePercentage" at reference\.2027/);
  });

  it("a sameAs that names a year with no value", () => {
    const bad = changed((f) => (f.blocks.medicaidChipLines.values["2027"] = { sameAs: "2024" }));
    expect(() => parseAcaParameterFile(bad)).toThrow(/block "medicaidChipLines" at values\.2027\.sameAs/);
  });

  it("a state's Medicaid/CHIP line whose source names nothing, or without its date", () => {
    const noSource = changed((f) => (f.blocks.medicaidChipLines.values["2026"].states.ND.children.source = "nowhere"));
    expect(() => parseAcaParameterFile(noSource)).toThrow(
      /block "medicaidChipLines" at values\.2026\.states\.ND\.children\.source: names no entry of sources/,
    );
    const noDate = changed((f) => delete f.blocks.medicaidChipLines.values["2026"].states.TX.pregnancy.since);
    expect(() => parseAcaParameterFile(noDate)).toThrow(/values\.2026\.states\.TX\.pregnancy\.since/);
  });

  it("a block that is missing, and a block the code does not know", () => {
    expect(() => parseAcaParameterFile(changed((f) => delete f.blocks.csrBands))).toThrow(/block "csrBands"/);
    const extra = changed((f) => (f.blocks.newFigure = structuredClone(f.blocks.maxOutOfPocket)));
    expect(() => parseAcaParameterFile(extra)).toThrow(/newFigure/);
  });
});

describe("parameter(): the one accessor", () => {
  it("answers exact-year blocks only for a year they hold", () => {
    expect(parameter("ptcGuidelineYear", 2027)).toBe(2026);
    expect(() => parameter("ptcGuidelineYear", 2028)).toThrow(MissingParameterError);
    expect(() => parameter("ptcGuidelineYear", 2028)).toThrow(
      /PTC\/CSR guideline year mapping for 2028 \(block ptcGuidelineYear\)/,
    );
  });

  it("answers in-force blocks with the latest value at or before the year or date", () => {
    expect(parameter("repaymentCap", 2027)).toBeNull();
    expect(parameter("repaymentCap", 2025)?.under200).toEqual([375, 750]);
    expect(() => parameter("repaymentCap", 2023)).toThrow(MissingParameterError);
    expect(parameterEntry("nyEssentialPlanIncomeLimit", "2026-06-30").key).toBe("2024-04-01");
    expect(parameterEntry("nyEssentialPlanIncomeLimit", "2026-07-01").key).toBe("2026-07-01");
    // A year asks a date-keyed block about 1 January.
    expect(parameterEntry("nyEssentialPlanIncomeLimit", 2026).key).toBe("2024-04-01");
  });

  it("follows sameAs, with the asked year's reference before its base's", () => {
    expect(parameter("applicablePercentage", 2025)).toEqual(parameter("applicablePercentage", 2024));
    const entry = parameterEntry("medicaidChipLines", 2027);
    expect(entry.key).toBe("2027");
    expect(entry.value.states.TX.children.limit).toBe(2.06);
    expect(entry.value.states.ND.children).toEqual({ limit: 2.05, since: "2024-04-01", source: "ndhhs2024" });
    expect(entry.reference).toMatch(/^Open enrollment for 2027.*Per state and line/);
  });

  it("reads a block without a year only while it holds one value", () => {
    expect(parameterKeys("csrBands")).toEqual(["2014"]);
    expect(parameter("csrBands")).toHaveLength(3);
    expect(() => parameter("povertyGuidelines")).toThrow(/name a year or date/);
  });

  it("refuses a year that is not a whole number and a date that is not ISO", () => {
    expect(() => parameter("povertyGuidelines", 2026.5)).toThrow(RangeError);
    expect(() => parameter("nyEssentialPlanIncomeLimit", "1 July 2026")).toThrow(RangeError);
  });

  it("hands out values that cannot be changed by a reader", () => {
    const table = parameter("povertyGuidelines", 2026);
    expect(Object.isFrozen(table.contiguous)).toBe(true);
    expect(() => {
      (table.contiguous as { base: number }).base = 1;
    }).toThrow(TypeError);
    expect(parameter("povertyGuidelines", 2026).contiguous.base).toBe(15_960);
  });
});
