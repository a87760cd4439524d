import path from "node:path";
import { describe, expect, it } from "vitest";
import { money, readTable } from "./files";

// The SBC coverage examples' fixed total costs (SBC template, 2025+): what a
// member pays in an example can never be more than the example costs.
const EXAMPLES = [
  { prefix: "SBCHavingaBaby", total: 12700 },
  { prefix: "SBCHavingDiabetes", total: 5600 },
  { prefix: "SBCHavingSimplefracture", total: 2800 },
];

describe("sample SBC coverage examples", () => {
  const table = readTable(
    path.join(import.meta.dirname, "..", "..", "..", "seed", "sample", "plan-attributes-puf.csv"),
  );
  const medical = table.rows.filter((r) => r.DentalOnlyPlan !== "Yes" && r.MarketCoverage === "Individual");

  it("never have the member paying more than the example's total cost", () => {
    expect(medical.length).toBeGreaterThan(50);
    for (const row of medical) {
      for (const { prefix, total } of EXAMPLES) {
        const paid = ["Deductible", "Copayment", "Coinsurance", "Limit"].map(
          (part) => money(row[`${prefix}${part}`]) ?? 0,
        );
        const sum = paid.reduce((a, b) => a + b, 0);
        expect(sum, `${row.PlanId} ${prefix}`).toBeLessThanOrEqual(total);
      }
    }
  });
});
