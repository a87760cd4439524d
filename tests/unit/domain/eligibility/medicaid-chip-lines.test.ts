// The Medicaid/CHIP children's and pregnancy lines of every owned-data state, compared with a
// second, independent table: PolicyEngine-us's parameters (tests/fixtures/parameters/
// medicaid-chip-lines.policyengine.json, read 2026-11-27). Every difference is listed in the fixture
// with its reason; a new difference, or a listed one that went away, fails.
import { describe, expect, it } from "vitest";
import policyengine from "../../../fixtures/parameters/medicaid-chip-lines.policyengine.json";
import {
  childMedicaidChipLimitFpl,
  medicaidChipLine,
  pregnancyMedicaidChipLimitFpl,
  statesWithChildLimits,
} from "../../../../app/domain/eligibility/child-coverage-limits";
import { estimateHousehold, incomeLines } from "../../../../app/domain/eligibility/household-eligibility";
import { parameter } from "../../../../app/domain/parameters/parameter-file";

const KINDS = ["children", "pregnancy"] as const;
const ownedDataStates = () => {
  const types = parameter("marketplaceType", 2026);
  return ["NY", ...types.healthcareGov].sort();
};

describe("every owned-data state's lines, 2026 and 2027", () => {
  it.each([2026, 2027])("%i: both lines for each state, with the date in force and a cited source", (year) => {
    expect(statesWithChildLimits(year)).toEqual(ownedDataStates());
    for (const state of ownedDataStates()) {
      for (const kind of KINDS) {
        const line = medicaidChipLine(state, year, kind);
        // Never under the federal floor of 138% (133% + the 5-point disregard), never above 405%.
        expect(line.limit).toBeGreaterThanOrEqual(1.38);
        expect(line.limit).toBeLessThanOrEqual(4.05);
        expect(line.since <= `${year}-01-01`).toBe(true);
        expect(line.source).toMatch(/https?:\/\//);
      }
    }
  });

  it("North Dakota's children's line is 205% from 2024-04-01 (200% + the 5-point disregard)", () => {
    expect(childMedicaidChipLimitFpl("ND", 2026)).toBe(2.05);
    expect(childMedicaidChipLimitFpl("ND", 2027)).toBe(2.05);
    expect(medicaidChipLine("ND", 2027, "children").since).toBe("2024-04-01");
    expect(medicaidChipLine("ND", 2027, "children").source).toMatch(/North Dakota HHS/);
  });

  it("Texas: children 206%, pregnancy 203%", () => {
    expect(childMedicaidChipLimitFpl("TX", 2026)).toBe(2.06);
    expect(pregnancyMedicaidChipLimitFpl("TX", 2026)).toBe(2.03);
  });
});

describe("compared with PolicyEngine's table (the second source)", () => {
  const listed = new Map(policyengine.differences.map((d) => [`${d.state} ${d.line}`, d]));

  it("the fixture says where and when it was read", () => {
    expect(policyengine.retrieved).toBe("2026-11-27");
    expect(policyengine.source).toMatch(/policyengine-us/);
    expect(Object.keys(policyengine.states).sort()).toEqual(ownedDataStates());
  });

  it.each(ownedDataStates())("%s agrees, or the difference is listed with its reason", (state) => {
    const theirs = policyengine.states[state as keyof typeof policyengine.states];
    for (const kind of KINDS) {
      const ours = medicaidChipLine(state, 2026, kind).limit;
      const difference = listed.get(`${state} ${kind}`);
      if (difference === undefined) {
        expect(ours, `${state} ${kind}`).toBe(theirs[kind]);
        continue;
      }
      expect(ours).not.toBe(theirs[kind]);
      expect(difference.ours).toBe(ours);
      expect(difference.policyengine).toBe(theirs[kind]);
      expect(difference.reason.length).toBeGreaterThan(40);
    }
  });

  it("three differences, each ours on the state's or KFF's current figure", () => {
    expect([...listed.keys()].sort()).toEqual(["AZ children", "MO pregnancy", "WV pregnancy"]);
  });
});

describe("North Dakota at the new line", () => {
  // 2027 coverage: Medicaid/CHIP use the current (2026) guideline: 15,960 + 2 × 5,680 = 27,320 for 3.
  // 205% × 27,320 = 56,006.00 (175% was 47,810.00). At exactly $56,006 the child is on the line: Medicaid.
  const household = { coverageYear: 2027, state: "ND", income: 56_006, people: [{ age: 40 }, { age: 38 }, { age: 7 }] };

  it("3 people at $56,006: the child goes to Medicaid/CHIP, the parents are credited", () => {
    const e = estimateHousehold(household, (family) => (family.length === 2 ? 1_300 : 1_700));
    expect(e.medicaidChipMembers).toEqual([2]);
    expect(e.coverageFamily).toEqual([0, 1]);
    // Credit: 56,006 / 27,320 (2026 guideline, the credit's prior year for 2027) = 205.0% → whole 205;
    // applicable % for 205 in 2027: 6.78 + (205 − 200)/50 × (8.66 − 6.78) = 6.968 → 6.97%.
    // 0.0697 × 56,006 = 3,903.6182 a year, 325.3015167 a month; 1,300 − 325.3015167 = 974.6984833 → $974.70.
    expect(e.applicablePercentage).toBe(0.0697);
    expect(e.aptc).toBeCloseTo(974.6984833, 6);
    expect(Math.round(e.aptc * 100) / 100).toBe(974.7);
  });

  it("$56,006.01 is a cent over: the child joins the coverage family", () => {
    const e = estimateHousehold({ ...household, income: 56_006.01 }, () => 1_700);
    expect(e.medicaidChipMembers).toEqual([]);
  });

  it("income_lines carries the children's line at 205%, $56,006", () => {
    const line = incomeLines(household).find((l) => l.kind === "medicaid_children");
    expect(line).toMatchObject({ percent: 205, amount: 56_006, side: "at_or_below", guidelineYear: 2026 });
  });
});
