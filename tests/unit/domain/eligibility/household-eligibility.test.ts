import { describe, expect, it } from "vitest";
import {
  childMedicaidChipLimitFpl,
  statesWithChildLimits,
} from "../../../../app/domain/eligibility/child-coverage-limits";
import {
  estimateHousehold,
  incomeLines,
  nearestLines,
  programmesOf,
  type HouseholdInput,
} from "../../../../app/domain/eligibility/household-eligibility";
import { whatIfSeries } from "../../../../app/domain/what-if";

// 2027 coverage: the credit and CSR use the 2026 guideline ($15,960 + $5,680 a person);
// Medicaid, CHIP and the Essential Plan use the current one, still 2026's at enrollment.
const flatBenchmark = (perPerson: number) => (family: readonly number[]) => perPerson * family.length;

describe("children's Medicaid/CHIP limits table", () => {
  it("holds every owned-data state for 2025-2027, NY Child Health Plus at 405%, ND at 205%", () => {
    for (const year of [2025, 2026, 2027]) expect(statesWithChildLimits(year)).toHaveLength(31);
    expect(childMedicaidChipLimitFpl("NY", 2027)).toBe(4.05);
    expect(childMedicaidChipLimitFpl("TX", 2027)).toBe(2.06);
    expect(childMedicaidChipLimitFpl("ND", 2025)).toBe(2.05);
    expect(() => childMedicaidChipLimitFpl("TX", 2024)).toThrow(
      /Medicaid\/CHIP lines for children and pregnancy for 2024/,
    );
  });
});

describe("programmes person by person", () => {
  it("NY 2027, child 10 and adult 40 at $32,460: the adult to the Essential Plan, the child to CHP, in either order", () => {
    // 32,460 / 21,640 = 150%: above Medicaid (138% = 29,863.20), at or below the EP's 200% (43,280);
    // the child is under NY's 405% (87,642).
    const base = { coverageYear: 2027, state: "NY", income: 32_460 };
    const a = estimateHousehold({ ...base, people: [{ age: 10 }, { age: 40 }] }, flatBenchmark(500));
    const b = estimateHousehold({ ...base, people: [{ age: 40 }, { age: 10 }] }, flatBenchmark(500));
    expect(a.essentialPlanMembers).toEqual([1]);
    expect(a.medicaidChipMembers).toEqual([0]);
    expect(b.essentialPlanMembers).toEqual([0]);
    expect(b.medicaidChipMembers).toEqual([1]);
    for (const e of [a, b]) {
      expect(e.essentialPlan).toBe(true);
      expect(e.aptc).toBe(0);
      expect(e.csr).toBeNull();
      expect(e.coverageFamily).toEqual([]);
      expect(e.fplPercent).toBe(150);
    }
  });

  it("mixed household: parents credited, children on CHIP (TX 2027, family of four at $60,000)", () => {
    // 60,000 / 33,000 = 181.8%: under TX's children's 206% (67,980), adults above 100%, so the
    // parents are the coverage family. Whole percent 181 → 4.30 + (181-150)/50 × 2.48 = 5.8376 → 5.84%.
    const e = estimateHousehold(
      { coverageYear: 2027, state: "TX", income: 60_000, people: [{ age: 40 }, { age: 38 }, { age: 10 }, { age: 7 }] },
      (family) => (family.length === 2 ? 1_200 : 9_999),
    );
    expect(e.medicaidChipMembers).toEqual([2, 3]);
    expect(e.coverageFamily).toEqual([0, 1]);
    expect(e.fplPercent).toBe(181.8);
    expect(e.applicablePercentage).toBe(0.0584);
    expect(e.aptc).toBeCloseTo(1_200 - (0.0584 * 60_000) / 12, 10); // 1,200 − 292 = 908
    expect(e.csr).toBe("87");
    expect(e.isMedicaidChip).toBe(true);
  });

  it("Medicare: a couple aged 64 and 66 in TX at $60,000 gets the credit for the 64-year-old only", () => {
    const e = estimateHousehold(
      { coverageYear: 2027, state: "TX", income: 60_000, people: [{ age: 64 }, { age: 66 }] },
      (family) => (family.length === 1 ? 1_500 : 3_000),
    );
    expect(e.medicareMembers).toEqual([1]);
    expect(e.coverageFamily).toEqual([0]);
    // 60,000 / 21,640 = 277% → 8.66 + 27/50 × 1.56 = 9.5024 → 9.50%; 1,500 − 475 = 1,025.
    expect(e.aptc).toBeCloseTo(1_025, 10);
    const notMedicare = estimateHousehold(
      { coverageYear: 2027, state: "TX", income: 60_000, people: [{ age: 64 }, { age: 66, medicareEligible: false }] },
      (family) => (family.length === 1 ? 1_500 : 3_000),
    );
    expect(notMedicare.medicareMembers).toEqual([]);
    expect(notMedicare.aptc).toBeCloseTo(3_000 - 475, 10);
  });

  it("an income a fraction of a cent over 400% is over it (nothing rounded first)", () => {
    const single = (income: number) =>
      estimateHousehold({ coverageYear: 2027, state: "NY", income, people: [{ age: 40 }] }, () => 1_000);
    expect(single(63_840).ptcEligible).toBe(true);
    expect(single(63_840.004).ptcEligible).toBe(false);
    expect(single(63_840.01).ptcEligible).toBe(false);
  });

  it("the coverage gap in TX ends at exactly 100% of the prior-year guideline", () => {
    const couple = (income: number) =>
      estimateHousehold({ coverageYear: 2027, state: "TX", income, people: [{ age: 40 }, { age: 38 }] }, () => 2_000);
    expect(couple(21_639.99).inCoverageGap).toBe(true);
    expect(couple(21_639.99).aptc).toBe(0);
    expect(couple(21_640).inCoverageGap).toBe(false);
    // 100% → 2.15%: 2,000 − 0.0215 × 21,640 / 12 = 1,961.2283…
    expect(couple(21_640).aptc).toBeCloseTo(2_000 - (0.0215 * 21_640) / 12, 10);
  });
});

describe("income lines in dollars", () => {
  const ny: HouseholdInput = {
    coverageYear: 2027,
    state: "NY",
    income: 82_500,
    people: [{ age: 40 }, { age: 38 }, { age: 10 }, { age: 7 }],
  };

  it("lists NY's lines for a family of four, 2027", () => {
    const lines = incomeLines(ny);
    // The CSR 94 and 87 tops (49,500 and 66,000) fall inside the Essential Plan: they change nothing here.
    expect(lines.map((l) => [l.kind, l.percent, l.amount])).toEqual([
      ["medicaid_adults", 138, 45_540], // 1.38 × 33,000
      ["essential_plan", 200, 66_000],
      ["csr_73", 250, 82_500],
      ["premium_tax_credit", 400, 132_000],
      ["medicaid_children", 405, 133_650], // 4.05 × 33,000
    ]);
    // At $82,500 the household is on the 250% line: the next line up is that one, the one below 200%.
    const near = nearestLines(lines, 82_500);
    expect(near.above?.kind).toBe("csr_73");
    expect(near.below?.kind).toBe("essential_plan");
  });

  it("a TX couple's first line is the coverage-gap floor", () => {
    const lines = incomeLines({ coverageYear: 2027, state: "TX", income: 21_639, people: [{ age: 40 }, { age: 38 }] });
    expect(lines[0]).toMatchObject({ kind: "coverage_gap", amount: 21_640, side: "below" });
    expect(lines.find((l) => l.kind === "premium_tax_credit")?.amount).toBe(86_560);
  });

  it("every line changes what the household gets exactly there (±$0.01)", () => {
    const households: HouseholdInput[] = [
      ny,
      { coverageYear: 2027, state: "TX", income: 0, people: [{ age: 40 }, { age: 38 }, { age: 15 }] },
      { coverageYear: 2027, state: "WI", income: 0, people: [{ age: 30 }, { age: 3 }] },
      { coverageYear: 2027, state: "AK", income: 0, people: [{ age: 50 }] },
    ];
    for (const h of households) {
      for (const line of incomeLines(h)) {
        const inside = line.side === "at_or_below" ? line.amount : Math.round((line.amount - 0.01) * 100) / 100;
        const outside = Math.round((inside + 0.01) * 100) / 100;
        const at = (income: number) => {
          const e = estimateHousehold({ ...h, income }, flatBenchmark(2_000));
          return JSON.stringify([programmesOf({ ...h, income }), e.csr, e.ptcEligible]);
        };
        expect(at(inside), `${h.state} ${line.kind} at ${inside}`).not.toBe(at(outside));
      }
    }
  });
});

describe("what-if series", () => {
  it("runs 50%-500% with both sides of each line and the household's own income", () => {
    const calls: string[] = [];
    const w = whatIfSeries(
      { coverageYear: 2027, state: "TX", income: 60_000, people: [{ age: 40 }, { age: 38 }, { age: 10 }] },
      (family) => {
        calls.push(family.join(","));
        return 600 * family.length;
      },
    );
    const incomes = w.points.map((p) => p.income);
    expect(incomes[0]).toBe(13_660); // 50% of 27,320 (15,960 + 2 × 5,680)
    expect(incomes.at(-1)).toBe(136_600); // 500%
    expect(incomes).toContain(109_280); // 400%
    expect(incomes).toContain(109_280.01);
    expect(w.points.filter((p) => p.own)).toHaveLength(1);
    // Above 400%: no credit, the full benchmark for the family of three.
    const over = w.points.find((p) => p.income === 109_280.01)!;
    expect(over).toMatchObject({ aptcMonthly: 0, benchmarkMonthly: 1_800, netBenchmarkMonthly: 1_800 });
    // Each distinct coverage family is priced once.
    expect(new Set(calls).size).toBe(calls.length);
  });
});

describe("pregnancy, person by person (docs/decisions/311)", () => {
  // 2026 coverage: Medicaid/CHIP use the 2026 guideline (15,960 + 5,680 a person); the credit the
  // 2025 guideline (15,650 + 5,500 a person).
  const dallas = (people: HouseholdInput["people"], income: number) =>
    estimateHousehold({ coverageYear: 2026, state: "TX", income, people }, () => 600);

  it("a pregnant 28-year-old in Dallas at $28,000 is on Medicaid with no credit", () => {
    // Her Medicaid household: herself + 1 baby = 2; TX pregnancy line 203% × 21,640 = 43,929.20 ≥ 28,000.
    const e = dallas([{ age: 28, pregnant: true }], 28_000);
    expect(e.medicaidChipMembers).toEqual([0]);
    expect(e.coverageFamily).toEqual([]);
    expect(e.aptc).toBe(0);
    expect(e.ptcEligible).toBe(false);
    expect(e.csr).toBeNull();
    // Not pregnant, the same woman is credited: 28,000 / 15,650 = 178.9% (TX has no adult Medicaid).
    const notPregnant = dallas([{ age: 28 }], 28_000);
    expect(notPregnant.medicaidChipMembers).toEqual([]);
    expect(notPregnant.aptc).toBeGreaterThan(0);
  });

  it("the expected babies move her line: twins at $45,000 qualify, one baby does not", () => {
    // One baby: 203% × (15,960 + 5,680 = 21,640) = 43,929.20 < 45,000 → not on the pregnancy line.
    // Twins: 203% × (15,960 + 2 × 5,680 = 27,320) = 55,459.60 ≥ 45,000 → Medicaid.
    expect(dallas([{ age: 30, pregnant: true }], 45_000).medicaidChipMembers).toEqual([]);
    expect(dallas([{ age: 30, pregnant: true, expectedBabies: 2 }], 45_000).medicaidChipMembers).toEqual([0]);
    // Exactly on the one-baby line is inside; a cent over is outside.
    expect(dallas([{ age: 30, pregnant: true }], 43_929.2).medicaidChipMembers).toEqual([0]);
    expect(dallas([{ age: 30, pregnant: true }], 43_929.21).medicaidChipMembers).toEqual([]);
  });

  it("only she is counted larger: her partner keeps the tax household's size and is credited", () => {
    // Couple at $40,000: she is under 203% × 27,320 (2 + 1 baby) = 55,459.60; he is an adult in a
    // non-expansion state above 100% (40,000 / 21,150 = 189.1%), so he is the coverage family.
    const e = dallas(
      [
        { age: 30, pregnant: true },
        { age: 32, relationship: "spouse" },
      ],
      40_000,
    );
    expect(e.medicaidChipMembers).toEqual([0]);
    expect(e.coverageFamily).toEqual([1]);
    expect(e.householdSize).toBe(2);
    // The credit's FPL is on the tax household of 2, never 3: floor(4,000,000 / 21,150) = 189%.
    expect(e.fplPercentWhole).toBe(189);
  });

  it("NY: a pregnant 30-year-old at 220% goes to Medicaid (223%), not the Essential Plan or the credit", () => {
    // 2027 coverage, current guideline 2026 for 2 (herself + baby): 21,640 × 2.23 = 48,257.20.
    // 220% of 15,960 (size 1) = 35,112: above the EP's 200% (31,920) had she not been pregnant.
    const e = estimateHousehold(
      { coverageYear: 2027, state: "NY", income: 35_112, people: [{ age: 30, pregnant: true }] },
      () => 700,
    );
    expect(e.medicaidChipMembers).toEqual([0]);
    expect(e.essentialPlan).toBe(false);
    expect(e.aptc).toBe(0);
  });

  it("refuses a pregnancy with no babies", () => {
    expect(() => dallas([{ age: 30, pregnant: true, expectedBabies: 0 }], 30_000)).toThrow(RangeError);
  });
});

describe("the pregnancy line in income_lines", () => {
  it("Dallas 2026, a pregnant 28-year-old: 203% of her household of 2 (21,640) = $43,929.20", () => {
    // 2.03 × 21,640 = 43,929.20 (15,960 + 5,680 for herself and one baby).
    const lines = incomeLines({
      coverageYear: 2026,
      state: "TX",
      income: 28_000,
      people: [{ age: 28, pregnant: true }],
    });
    expect(lines.find((l) => l.kind === "medicaid_pregnancy")).toEqual({
      kind: "medicaid_pregnancy",
      percent: 203,
      amount: 43_929.2,
      side: "at_or_below",
      guidelineYear: 2026,
    });
    // Twins: 2.03 × (15,960 + 2 × 5,680 = 27,320) = 55,459.60.
    const twins = incomeLines({
      coverageYear: 2026,
      state: "TX",
      income: 28_000,
      people: [{ age: 28, pregnant: true, expectedBabies: 2 }],
    });
    expect(twins.find((l) => l.kind === "medicaid_pregnancy")?.amount).toBe(55_459.6);
    // Nobody pregnant: no such line.
    const none = incomeLines({ coverageYear: 2026, state: "TX", income: 28_000, people: [{ age: 28 }] });
    expect(none.some((l) => l.kind === "medicaid_pregnancy")).toBe(false);
  });
});
