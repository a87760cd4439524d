import { describe, expect, it } from "vitest";
import { MissingParameterError } from "../../../../app/domain/parameters/parameter-file";
import { filingColumnFor, repaymentCap } from "../../../../app/domain/repayment/repayment-cap";

// Form 8962 Table 5 (26 USC 36B(f)(2)(B)), by line 5 (whole percent of the guideline, truncated):
// 2024 (Rev. Proc. 2023-34): $375/$750, $950/$1,900, $1,575/$3,150; 2025 (Rev. Proc. 2024-40):
// $375/$750, $975/$1,950, $1,625/$3,250; none at 400 or more. From 2026: none at all (P.L. 119-21
// s.71305; IRS FS-2025-10 Topic E Q4).

describe("the repayment cap", () => {
  it("follows the 2025 table by band and filing column", () => {
    expect(repaymentCap(2025, 199, 1)).toBe(375);
    expect(repaymentCap(2025, 199, 2)).toBe(750);
    expect(repaymentCap(2025, 200, 1)).toBe(975);
    expect(repaymentCap(2025, 299, 3)).toBe(1950);
    expect(repaymentCap(2025, 300, 1)).toBe(1625);
    expect(repaymentCap(2025, 399, 4)).toBe(3250);
    expect(repaymentCap(2025, 400, 1)).toBeNull();
    expect(repaymentCap(2025, 401, 2)).toBeNull();
  });

  it("has the 2024 table", () => {
    expect([repaymentCap(2024, 150, 1), repaymentCap(2024, 250, 1), repaymentCap(2024, 350, 2)]).toEqual([
      375, 950, 3150,
    ]);
  });

  it("is gone from tax year 2026 on, whatever the income", () => {
    for (const year of [2026, 2027, 2030]) {
      for (const pct of [100, 199, 250, 399, 400]) expect(repaymentCap(year, pct, 1)).toBeNull();
    }
  });

  it("answers missing for a year before the table, and refuses a fractional percent", () => {
    expect(() => repaymentCap(2023, 150, 1)).toThrow(MissingParameterError);
    expect(() => repaymentCap(2025, 150.5, 1)).toThrow(RangeError);
  });

  it("uses the single column for a household of one only", () => {
    expect(filingColumnFor(1)).toBe("single");
    expect(filingColumnFor(2)).toBe("other");
  });
});
