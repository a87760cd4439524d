import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { IncomeWhatIf } from "../../../app/components/plans/income-what-if";
import { incomeLineSentences } from "../../../app/components/plans/income-line-words";

// A TX couple, 2027: the coverage-gap floor at $21,640 (100% of 21,640) and the 400% line at $86,560.
const TX_COUPLE = [
  { kind: "coverage_gap", percent: 100, amount: 21_640, side: "below" as const },
  { kind: "csr_94", percent: 150, amount: 32_460, side: "at_or_below" as const },
  { kind: "premium_tax_credit", percent: 400, amount: 86_560, side: "at_or_below" as const },
];

describe("where the income stands, in dollars", () => {
  it("in the gap at $21,639: one dollar more reaches the credit", () => {
    const words = incomeLineSentences(TX_COUPLE, 21_639);
    expect(words.above).toBe(
      "Below $21,640.00 a year (100% of the poverty level), adults get no tax credit and no Medicaid (the coverage gap). $1.00 more income would take you to that line, where it no longer applies.",
    );
    expect(words.below).toBeNull();
  });

  it("on the 400% line: a cent more loses the credit, and the line below is named", () => {
    const words = incomeLineSentences(TX_COUPLE, 86_560);
    expect(words.above).toBe(
      "Up to $86,560.00 a year (400% of the poverty level), you can get a premium tax credit. $0.01 more income would take you past that line.",
    );
    expect(words.below).toBe(
      "At or below $32,460.00 a year (150% of the poverty level), silver plans have the 94% savings level: $54,100.00 less income would take you there.",
    );
  });
});

describe("the what-if chart", () => {
  it("draws an SVG with a title and the same figures in a table, the household's row marked", () => {
    const html = renderToStaticMarkup(
      <IncomeWhatIf
        whatIf={{
          ourEstimate: true,
          lines: [{ kind: "premium_tax_credit", percent: 400, amount: 86_560 }],
          points: [
            {
              income: 10_820,
              fplPercent: 50,
              aptcMonthly: 0,
              netBenchmarkMonthly: 1200,
              medicaidChip: 0,
              essentialPlan: 0,
              medicare: 0,
              coverageFamily: 2,
              own: false,
            },
            {
              income: 60_000,
              fplPercent: 277.2,
              aptcMonthly: 725,
              netBenchmarkMonthly: 475,
              medicaidChip: 0,
              essentialPlan: 0,
              medicare: 0,
              coverageFamily: 2,
              own: true,
            },
            {
              income: 108_200,
              fplPercent: 500,
              aptcMonthly: 0,
              netBenchmarkMonthly: 1200,
              medicaidChip: 0,
              essentialPlan: 0,
              medicare: 0,
              coverageFamily: 2,
              own: false,
            },
          ],
        }}
      />,
    );
    expect(html).toContain('role="img"');
    expect(html).toContain("<title");
    expect(html).toContain("At your income of $60,000.00 the credit is $725.00 a month");
    expect(html).toContain("$60,000.00 (you)");
    expect(html).toContain("our own estimate");
    expect((html.match(/<tr/g) ?? []).length).toBe(4);
  });
});
