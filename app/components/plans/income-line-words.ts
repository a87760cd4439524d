import { money } from "./format";

/**
 * Where a household stands against the income lines, in plain words with the dollar amounts
 * (issue 15 item 5). Pure: the results page renders these, tests read them without a browser.
 */

export interface IncomeLineFact {
  kind: string;
  percent: number;
  amount: number;
  side: "at_or_below" | "below";
}

// What a line gives on its lower side, in words: "adults 19–64 qualify for Medicaid".
const GIVES: Record<string, (percent: number) => string> = {
  medicaid_adults: () => "adults 19–64 qualify for Medicaid",
  coverage_gap: () => "adults get no tax credit and no Medicaid (the coverage gap)",
  medicaid_children: () => "children under 19 qualify for Medicaid or CHIP",
  essential_plan: () => "adults 19–64 qualify for the Essential Plan ($0 a month)",
  csr_94: () => "silver plans have the 94% savings level",
  csr_87: () => "silver plans have the 87% savings level",
  csr_73: () => "silver plans have the 73% savings level",
  premium_tax_credit: () => "you can get a premium tax credit",
};

function gives(line: IncomeLineFact): string {
  return (GIVES[line.kind] ?? (() => "your savings change"))(line.percent);
}

const at = (line: IncomeLineFact) => `${money(line.amount)} a year (${line.percent}% of the poverty level)`;

/** The sentence for the nearest line above the income and the nearest below it. */
export function incomeLineSentences(
  lines: readonly IncomeLineFact[],
  income: number,
): { above: string | null; below: string | null } {
  let above: IncomeLineFact | null = null;
  let below: IncomeLineFact | null = null;
  for (const line of lines) {
    const under = line.side === "at_or_below" ? income <= line.amount : income < line.amount;
    if (under) {
      if (above === null || line.amount < above.amount) above = line;
    } else if (below === null || line.amount >= below.amount) below = line;
  }
  const cents = (x: number) => Math.round(x * 100) / 100;
  let aboveText: string | null = null;
  if (above) {
    // The smallest raise that crosses the line: one cent past an "at or below" line, onto a "below" one.
    const raise = cents(above.amount - income + (above.side === "at_or_below" ? 0.01 : 0));
    aboveText =
      above.side === "at_or_below"
        ? `Up to ${at(above)}, ${gives(above)}. ${money(raise)} more income would take you past that line.`
        : `Below ${at(above)}, ${gives(above)}. ${money(raise)} more income would take you to that line, where it no longer applies.`;
  }
  let belowText: string | null = null;
  if (below) {
    const cut = cents(income - below.amount + (below.side === "below" ? 0.01 : 0));
    belowText =
      below.side === "at_or_below"
        ? `At or below ${at(below)}, ${gives(below)}: ${money(cut)} less income would take you there.`
        : `Below ${at(below)}, ${gives(below)}: ${money(cut)} less income would take you there.`;
  }
  return { above: aboveText, below: belowText };
}

/** "person 3 (10) and person 4 (7)" from member indexes and the ages typed. */
export function membersWords(indexes: readonly number[], ages: readonly string[]): string {
  const names = indexes.map((i) => (i === 0 ? `you (${ages[0]})` : `person ${i + 1} (${ages[i] ?? "?"})`));
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
