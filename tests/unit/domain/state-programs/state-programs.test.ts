import { afterEach, describe, expect, it } from "vitest";
import { estimateHousehold } from "../../../../app/domain/eligibility/household-eligibility";
import { premiumAfterCredit, premiumWithCreditOf } from "../../../../app/domain/pricing";
import { registerStateProgram, stateProgramsFor } from "../../../../app/domain/state-programs";
import { STATES_AND_DC } from "../../../../app/domain/us-states";
import { flatFifty } from "../../../fixtures/state-programs/flat-fifty";

// TX 2027, one person aged 64 at $60,000. The credit uses the 2026 guideline for one, $15,960:
// 60,000 / 15,960 = 375.9% → whole 375, in Rev. Proc. 2026-26's flat 300–400% band of 10.22%;
// contribution 0.1022 × 60,000 / 12 = $511 a month; benchmark $1,500 → federal credit 1,500 − 511 = $989.
const household = { coverageYear: 2027, state: "TX", income: 60_000, people: [{ age: 64 }] };
const benchmark = () => 1_500;

let unregister: (() => void) | null = null;
afterEach(() => {
  unregister?.();
  unregister = null;
});

describe("state programmes: a state's own subsidy after the federal credit", () => {
  it("none is registered in production, so every estimate carries 0", () => {
    for (const state of STATES_AND_DC) {
      for (const year of [2025, 2026, 2027]) expect(stateProgramsFor(state, year)).toEqual([]);
    }
    const e = estimateHousehold(household, benchmark);
    expect(e.aptc).toBeCloseTo(989, 10);
    expect(e.stateSubsidyMonthly).toBe(0);
    expect(e.stateSubsidies).toEqual([]);
  });

  it("one registration line: the engine adds the made-up $50 after the unchanged $989 federal credit", () => {
    unregister = registerStateProgram(flatFifty);
    const e = estimateHousehold(household, benchmark);
    expect(e.aptc).toBeCloseTo(989, 10); // the federal credit is not changed by the state's help
    expect(e.stateSubsidyMonthly).toBe(50);
    expect(e.stateSubsidies).toEqual([
      { program: "test-tx-flat-fifty", amount: 50, reason: expect.stringContaining("$50 a month") },
    ]);
    // Other years and states are untouched.
    expect(estimateHousehold({ ...household, coverageYear: 2026 }, benchmark).stateSubsidyMonthly).toBe(0);
    expect(estimateHousehold({ ...household, state: "FL" }, benchmark).stateSubsidyMonthly).toBe(0);
  });

  it("nobody on the marketplace, no state help: a TX child at $20,000 is on CHIP", () => {
    unregister = registerStateProgram(flatFifty);
    // One person: 20,000 / 15,960 (2026 guideline, current at enrollment) = 125.3%, under TX's children's 206%.
    const e = estimateHousehold({ ...household, income: 20_000, people: [{ age: 10 }] }, benchmark);
    expect(e.coverageFamily).toEqual([]);
    expect(e.stateSubsidyMonthly).toBe(0);
  });

  it("the plan list's price: max(0, premium − federal applied − state), to the cent", () => {
    unregister = registerStateProgram(flatFifty);
    const e = estimateHousehold(household, benchmark);
    // Premium $1,200.00, EHB share 1, no tobacco: 1,200 − 989 = 211.00 after the federal credit;
    // − 50 state = $161.00. The amount off the premium shown is 1,200 − 161 = $1,039.00.
    const price = { premium: 1_200, tobaccoSurcharge: 0 };
    expect(premiumWithCreditOf(price, e.aptc, 1)).toBe(211);
    expect(premiumWithCreditOf(price, e.aptc, 1, e.stateSubsidyMonthly)).toBe(161);
    expect(premiumAfterCredit(price, e.aptc, 1, e.stateSubsidyMonthly)).toEqual({
      premiumWithCredit: 161,
      creditApplied: 1_039,
    });
    // Premium $1,020.37: 1,020.37 − 989 = 31.37 after the federal credit; 31.37 − 50 < 0 → $0.00.
    expect(premiumWithCreditOf({ premium: 1_020.37, tobaccoSurcharge: 0 }, e.aptc, 1, 50)).toBe(0);
    // EHB share 0.9 and a $40 tobacco surcharge on $1,240: federal applied min(989, (1,240 − 40) × 0.9 = 1,080)
    // = 989 → 251.00; − 50 → $201.00.
    expect(premiumWithCreditOf({ premium: 1_240, tobaccoSurcharge: 40 }, e.aptc, 0.9, 50)).toBe(201);
  });

  it("refuses a programme giving a negative amount, and a second registration of the same one", () => {
    unregister = registerStateProgram({ ...flatFifty, monthlySubsidy: () => ({ amount: -1, reason: "bad" }) });
    expect(() => estimateHousehold(household, benchmark)).toThrow(/test-tx-flat-fifty gave -1/);
    expect(() => registerStateProgram(flatFifty)).toThrow(/registered twice/);
  });
});
