import { describe, expect, it } from "vitest";
import { appliedCredit, netPremium, roundCents } from "../../../app/domain/pricing";

describe("roundCents", () => {
  it("rounds half away from zero despite binary fractions", () => {
    // 1.005 is stored as 1.00499999999999989…; the cent rounding must still give 1.01.
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(2.675)).toBe(2.68);
    expect(roundCents(-1.005)).toBe(-1.01);
    expect(roundCents(231.6)).toBe(231.6);
    expect(roundCents(458.0331)).toBe(458.03);
    expect(roundCents(1143.333333)).toBe(1143.33);
    expect(roundCents(-0.004)).toBe(0);
    expect(Object.is(roundCents(-0.004), -0)).toBe(false);
  });

  it("refuses non-finite amounts", () => {
    expect(() => roundCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe("netPremium", () => {
  it("subtracts the credit from the premium", () => {
    // 488.80 − 281.64 = 207.16.
    expect(netPremium(488.8, 281.64)).toBeCloseTo(207.16, 10);
  });

  it("never goes below zero: the credit is capped at the premium", () => {
    // Credit 400 on a 350 bronze plan: applied 350, net 0.
    expect(netPremium(350, 400)).toBe(0);
    expect(appliedCredit(350, 400)).toBe(350);
  });

  it("caps the credit at the EHB share of the premium", () => {
    // Premium 500, EHB share 0.95 → credit cap 475; credit 490 → applied 475; net 500 − 475 = 25.
    expect(appliedCredit(500, 490, 0.95)).toBeCloseTo(475, 10);
    expect(netPremium(500, 490, 0.95)).toBeCloseTo(25, 10);
    // A credit below the cap is applied in full: 500 − 300 = 200.
    expect(netPremium(500, 300, 0.95)).toBeCloseTo(200, 10);
  });

  it("never lets the credit pay a tobacco surcharge", () => {
    // Premium 639 including a 127.80 surcharge (511.20 base); credit 600 → applied 511.20;
    // the smoker pays 639 − 511.20 = 127.80, the surcharge itself.
    expect(netPremium(639, 600, 1, 127.8)).toBeCloseTo(127.8, 10);
  });

  it("matches PolicyEngine's capped case (plan at 0.8 × benchmark)", () => {
    // Annual: PTC 4,323.56 against a 3,929.25 plan → used 3,929.25, unused 394.31, net 0.
    expect(appliedCredit(3929.25, 4323.56)).toBe(3929.25);
    expect(roundCents(4323.56 - appliedCredit(3929.25, 4323.56))).toBe(394.31);
    expect(netPremium(3929.25, 4323.56)).toBe(0);
  });

  it("rejects impossible inputs", () => {
    expect(() => netPremium(-1, 0)).toThrow(RangeError);
    expect(() => netPremium(100, -5)).toThrow(RangeError);
    expect(() => netPremium(100, 5, 1.2)).toThrow(RangeError);
    expect(() => netPremium(100, 5, 1, 150)).toThrow(RangeError);
  });
});
