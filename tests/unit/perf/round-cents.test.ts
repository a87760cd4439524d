import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roundCents } from "../../../app/domain/pricing";

/** The implementation before docs/decisions/117, kept as the oracle: every answer must be the same number. */
function roundCentsByString(x: number): number {
  if (!Number.isFinite(x)) throw new RangeError(`cannot round ${x} to cents`);
  const cents = Math.round(Number((Math.abs(x) * 100).toPrecision(15)));
  if (cents === 0) return 0;
  return (Math.sign(x) * cents) / 100;
}

function same(x: number): void {
  const got = roundCents(x);
  const want = roundCentsByString(x);
  // Object.is: -0 and 0 are different answers too.
  if (!Object.is(got, want)) throw new Error(`roundCents(${x}) = ${got}, the string route gives ${want}`);
}

describe("roundCents without string work", () => {
  it("gives the old answers on the half-cent cases binary fractions get wrong", () => {
    const halves = [
      1.005,
      2.675,
      1234.565,
      0.005,
      0.015,
      0.125,
      10.235,
      1.045,
      8.345,
      99999.995,
      4503599627.375,
      1e12 + 0.005,
    ];
    for (const x of halves) {
      same(x);
      same(-x);
    }
    // Hand check of the semantics, independent of the oracle: half away from zero.
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(-1.005)).toBe(-1.01);
    expect(roundCents(2.675)).toBe(2.68);
    expect(roundCents(1234.565)).toBe(1234.57);
    expect(Object.is(roundCents(-0.004), 0)).toBe(true);
  });

  it("matches the string route on half cents x.xx5: every one up to $2,000, then spread to $10 billion", () => {
    // The values where the two routes could disagree, reached by two float paths (division, addition).
    for (let mills = 5; mills < 2_000_000; mills += 10) {
      same(mills / 1000);
      same(-mills / 1000);
    }
    for (let cents = 0; cents < 1e12; cents = cents * 1.37 + 1) {
      const c = Math.floor(cents);
      same((c * 10 + 5) / 1000);
      same(c / 100 + 0.005);
      same(-(c / 100 + 0.005));
    }
  });

  it("matches the string route on arbitrary doubles, sums and products of money-like numbers", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => same(x)),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 999 }), (whole, mills) =>
        same(whole / 100 + mills / 100000),
      ),
      { numRuns: 20_000 },
    );
    // What pricing feeds it: premiums × ratios, credits subtracted, × 12.
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 50_000, noNaN: true }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 20_000, noNaN: true }),
        (premium, factor, credit) => {
          same(premium * factor);
          same(Math.max(0, premium * factor - credit));
          same((premium * factor - credit) * 12);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it("still refuses what is not a finite amount", () => {
    expect(() => roundCents(Number.NaN)).toThrow(RangeError);
    expect(() => roundCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
