import { INCOME_LINE_KINDS } from "../../domain/income-line-kinds";
import { ENGLISH, money, type Words } from "./format";

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

const LINE_KINDS: readonly string[] = INCOME_LINE_KINDS;

// What a line gives on its lower side, in words: "adults 19–64 qualify for Medicaid".
function gives(line: IncomeLineFact, w: Words): string {
  return w.t(`incomeLines.gives.${LINE_KINDS.includes(line.kind) ? line.kind : "other"}`);
}

const at = (line: IncomeLineFact, w: Words) =>
  w.t("incomeLines.at", { amount: money(line.amount, w.lang), percent: line.percent });

/** The sentence for the nearest line above the income and the nearest below it. */
export function incomeLineSentences(
  lines: readonly IncomeLineFact[],
  income: number,
  w: Words = ENGLISH,
): { above: string | null; below: string | null } {
  const { t, lang } = w;
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
    const facts = { at: at(above, w), gives: gives(above, w), amount: money(raise, lang) };
    aboveText = t(above.side === "at_or_below" ? "incomeLines.upTo" : "incomeLines.belowAbove", facts);
  }
  let belowText: string | null = null;
  if (below) {
    const cut = cents(income - below.amount + (below.side === "below" ? 0.01 : 0));
    const facts = { at: at(below, w), gives: gives(below, w), amount: money(cut, lang) };
    belowText = t(below.side === "at_or_below" ? "incomeLines.atOrBelow" : "incomeLines.belowBelow", facts);
  }
  return { above: aboveText, below: belowText };
}

/** "person 3 (10) and person 4 (7)" from member indexes and the ages typed. */
export function membersWords(indexes: readonly number[], ages: readonly string[], w: Words = ENGLISH): string {
  const names = indexes.map((i) =>
    i === 0 ? w.t("members.you", { age: ages[0] }) : w.t("members.person", { number: i + 1, age: ages[i] ?? "?" }),
  );
  return names.length <= 1
    ? names.join("")
    : w.t("members.and", { list: names.slice(0, -1).join(", "), last: names.at(-1) });
}
