import { describe, expect, it } from "vitest";
import { parameterEntry } from "../../../../app/domain/parameters/parameter-file";
import {
  MissingParameterError,
  ageCurveFactor,
  ageCurveKind,
  applicablePercentageTable,
  csrBands,
  currentGuidelineYear,
  essentialPlanAgeRange,
  essentialPlanPeriodOn,
  essentialPlanPremiumMonthly,
  familyTierFactors,
  federalOutOfPocketLimits,
  isMedicaidExpansionState,
  medicaidExpansionThresholdFpl,
  medicaidToCreditFloorStates,
  nonExpansionStateNotes,
  nonExpansionStates,
  povertyGuideline,
  ptcGuidelineYear,
  usesFamilyTiers,
} from "../../../../app/domain/parameters";

describe("povertyGuideline", () => {
  it("uses base + perAdditional × (size − 1) in the 48-state column", () => {
    // 2026 guidelines: 15,960 + 5,680 × (4 − 1) = 33,000 (the published four-person figure).
    expect(povertyGuideline(2026, "TX", 4)).toBe(33_000);
    // 2025, one person: 15,650.
    expect(povertyGuideline(2025, "NY", 1)).toBe(15_650);
    // DC uses the 48-state column too: 2024, two people = 15,060 + 5,380 = 20,440.
    expect(povertyGuideline(2024, "DC", 2)).toBe(20_440);
  });

  it("uses the Alaska and Hawaii columns", () => {
    // AK 2026, three people: 19,950 + 7,100 × 2 = 34,150.
    expect(povertyGuideline(2026, "AK", 3)).toBe(34_150);
    // HI 2025, two people: 17,990 + 6,330 = 24,320 (6,330 adopted over the conflicting 6,320).
    expect(povertyGuideline(2025, "hi", 2)).toBe(24_320);
  });

  it("throws MissingParameterError naming the year when the year is absent", () => {
    expect(() => povertyGuideline(2022, "TX", 1)).toThrow(MissingParameterError);
    expect(() => povertyGuideline(2022, "TX", 1)).toThrow(/2022/);
  });

  it("rejects impossible household sizes and state codes", () => {
    expect(() => povertyGuideline(2026, "TX", 0)).toThrow(RangeError);
    expect(() => povertyGuideline(2026, "TX", 1.5)).toThrow(RangeError);
    expect(() => povertyGuideline(2026, "Texas", 1)).toThrow(RangeError);
  });
});

describe("guideline years", () => {
  it("prices PTC/CSR on the prior year's guidelines", () => {
    expect(ptcGuidelineYear(2026)).toBe(2025);
    expect(ptcGuidelineYear(2027)).toBe(2026);
    expect(() => ptcGuidelineYear(2028)).toThrow(MissingParameterError);
  });

  it("uses the coverage date's own year for Medicaid/EP, or the prior year until the new one is loaded", () => {
    expect(currentGuidelineYear("2026-03-01")).toBe(2026);
    // 2027 guidelines are not published yet (file compiled 2026-11-21): the 2026 ones are current.
    expect(currentGuidelineYear("2027-01-01")).toBe(2026);
    // Two years ahead is not "not yet published", it is missing.
    expect(() => currentGuidelineYear("2028-01-01")).toThrow(MissingParameterError);
    expect(() => currentGuidelineYear("2026-02-30")).toThrow(RangeError);
  });
});

describe("applicablePercentageTable", () => {
  it("carries the 400% cliff for 2026 and 2027 and none for 2024/2025", () => {
    expect(applicablePercentageTable(2026).cliffAbove400).toBe(true);
    expect(applicablePercentageTable(2026).maxFplForCredit).toBe(4);
    expect(applicablePercentageTable(2027).cliffAbove400).toBe(true);
    expect(applicablePercentageTable(2024).cliffAbove400).toBe(false);
    expect(applicablePercentageTable(2024).maxFplForCredit).toBeNull();
  });

  it("resolves 2025 through sameAs 2024", () => {
    const t = applicablePercentageTable(2025);
    expect(t.bands).toEqual(applicablePercentageTable(2024).bands);
    expect(t.maxFplForCredit).toBeNull();
    expect(t.minFplForCredit).toBe(1);
  });

  it("has the 2027 Rev. Proc. 2026-26 values", () => {
    const bands = applicablePercentageTable(2027).bands;
    expect(bands[0]).toEqual({ fromFpl: 0, toFpl: 1.33, initial: 0.0215, final: 0.0215 });
    expect(bands[5]).toEqual({ fromFpl: 3, toFpl: 4, initial: 0.1022, final: 0.1022 });
  });

  it("throws MissingParameterError for a year not in the file", () => {
    expect(() => applicablePercentageTable(2023)).toThrow(MissingParameterError);
    expect(() => applicablePercentageTable(2028)).toThrow(/2028/);
  });
});

describe("CSR, Medicaid, Essential Plan, curves and tiers", () => {
  it("reads the three CSR bands with their edges", () => {
    expect(csrBands()).toEqual([
      { variant: "94", actuarialValue: 0.94, lowerFpl: 1, lowerInclusive: true, upperFpl: 1.5 },
      { variant: "87", actuarialValue: 0.87, lowerFpl: 1.5, lowerInclusive: false, upperFpl: 2 },
      { variant: "73", actuarialValue: 0.73, lowerFpl: 2, lowerInclusive: false, upperFpl: 2.5 },
    ]);
  });

  it("reads the Medicaid line and the effective-dated non-expansion list", () => {
    expect(medicaidExpansionThresholdFpl()).toBe(1.38);
    expect(nonExpansionStates(2026)).toContain("TX");
    // The 2026 status stays in force for 2027 until a later entry replaces it.
    expect(nonExpansionStates(2027)).toEqual(nonExpansionStates(2026));
    expect(() => nonExpansionStates(2025)).toThrow(MissingParameterError);
    expect(isMedicaidExpansionState("NY", 2027)).toBe(true);
    expect(isMedicaidExpansionState("WI", 2027)).toBe(false);
  });

  it("lists only states whose file note says they have no coverage gap as Medicaid-to-the-floor states", () => {
    const notes = nonExpansionStateNotes(2026);
    for (const state of medicaidToCreditFloorStates()) {
      expect(nonExpansionStates(2026)).toContain(state);
      expect(notes[state]).toMatch(/no coverage gap/i);
    }
    expect(medicaidToCreditFloorStates()).toEqual(["WI"]);
  });

  it("finds the Essential Plan limit in force on a date", () => {
    expect(essentialPlanPeriodOn("2026-06-30").upperFpl).toBe(2.5);
    expect(essentialPlanPeriodOn("2026-07-01").upperFpl).toBe(2);
    expect(essentialPlanPeriodOn("2024-03-31").upperFpl).toBe(2);
    expect(essentialPlanPeriodOn("2024-04-01").upperFpl).toBe(2.5);
    expect(essentialPlanPeriodOn("2027-01-01").upperFpl).toBe(2);
    expect(() => essentialPlanPeriodOn("2015-12-31")).toThrow(MissingParameterError);
    expect(essentialPlanAgeRange()).toEqual([19, 64]);
    expect(essentialPlanPremiumMonthly()).toBe(0);
  });

  it("chooses the age curve per state", () => {
    expect(ageCurveKind("TX")).toBe("federalDefault");
    expect(ageCurveKind("AL")).toBe("state");
    expect(ageCurveKind("UT")).toBe("state");
    expect(ageCurveKind("NY")).toBe("none");
    // Federal default: 40 → 1.278, 0–14 → 0.765, 64+ → 3.000 (age 21 = 1.000).
    expect(ageCurveFactor("TX", 40)).toBe(1.278);
    expect(ageCurveFactor("TX", 3)).toBe(0.765);
    expect(ageCurveFactor("TX", 70)).toBe(3);
    // AL children 0.635 through age 20; UT flat 1.39 for 27–36.
    expect(ageCurveFactor("AL", 20)).toBe(0.635);
    expect(ageCurveFactor("UT", 30)).toBe(1.39);
    // DC is used as ratios to its own age-21 factor: 61+ = 3.0 / 1.0.
    expect(ageCurveFactor("DC", 70)).toBe(3);
    // Community rated: every age 1.0.
    expect(ageCurveFactor("NY", 64)).toBe(1);
  });

  it("reads NY tier factors, the extra-adult convention and the young-adult rider", () => {
    expect(usesFamilyTiers("NY")).toBe(true);
    expect(usesFamilyTiers("TX")).toBe(false);
    const ny = familyTierFactors("NY");
    expect(ny.factors).toEqual({
      ONE_ADULT: 1,
      TWO_ADULTS: 2,
      ONE_ADULT_AND_CHILDREN: 1.7,
      TWO_ADULTS_AND_CHILDREN: 2.85,
      CHILD_ONLY: 0.412,
    });
    expect(ny.extraAdultFactor).toBe(1);
    expect(ny.youngAdultRider).toEqual({ multiplier: 1.05, fromYear: 2023 });
    expect(familyTierFactors("VT").factors.CHILD_ONLY).toBeUndefined();
    expect(() => familyTierFactors("TX")).toThrow(MissingParameterError);
  });

  it("reads the federal out-of-pocket limits", () => {
    expect(federalOutOfPocketLimits(2027)).toEqual({ selfOnly: 12_000, family: 24_000 });
    expect(() => federalOutOfPocketLimits(2024)).toThrow(MissingParameterError);
  });
});

describe("look-ups kept once made (issue 29)", () => {
  it("answers a year's applicable-percentage table as one frozen object, the same values every time", () => {
    const first = applicablePercentageTable(2027);
    expect(applicablePercentageTable(2027)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.bands) && Object.isFrozen(first.bands[0])).toBe(true);
    expect(first.coverageYear).toBe(2027);
    expect(applicablePercentageTable(2025).coverageYear).toBe(2025);
    expect(applicablePercentageTable(2025).bands).toEqual(applicablePercentageTable(2024).bands);
  });

  it("keeps a year asked as a number apart from the same year asked as text, and a failed look-up throws every time", () => {
    expect(parameterEntry("povertyGuidelines", 2026)).toBe(parameterEntry("povertyGuidelines", 2026));
    expect(parameterEntry("povertyGuidelines", "2026")).toEqual(parameterEntry("povertyGuidelines", 2026));
    expect(() => applicablePercentageTable(2023)).toThrow(MissingParameterError);
    expect(() => applicablePercentageTable(2023)).toThrow(MissingParameterError);
  });
});
