import { COMPARE_MAX, COMPARE_MIN, compareProblem, type CompareProblem } from "../../lib/shopping-url";

/** A ticked plan as the compare tray names it. */
export interface CompareChoice {
  id: string;
  name: string;
}

/** Why the ticks cannot be compared, in words that name the field ("Compare") and say what to do. */
export interface CompareError {
  problem: CompareProblem;
  message: string;
}

/** The tray's running count: "2 plans chosen". */
export function compareCountWords(count: number): string {
  return count === 1 ? "1 plan chosen" : `${count === 0 ? "No" : count} plans chosen`;
}

/** What the tray says to do next for a number of ticks (a hint, not an error). */
export function compareHintWords(count: number): string {
  if (count === 0) return `Tick “Compare” on ${COMPARE_MIN} or ${COMPARE_MAX} plans to see them side by side.`;
  if (count < COMPARE_MIN) return `Tick “Compare” on 1 or 2 more plans.`;
  if (count <= COMPARE_MAX) return "Ready to compare.";
  return `Untick ${count - COMPARE_MAX === 1 ? "1 plan" : `${count - COMPARE_MAX} plans`} to compare.`;
}

/** The inline error for ticks that cannot be compared (1, or 4 and more); null for 2 or 3. */
export function compareErrorOf(choices: readonly CompareChoice[]): CompareError | null {
  const problem = compareProblem(choices.length);
  if (!problem) return null;
  const count = choices.length;
  const message =
    problem === "too_many"
      ? `Compare: you ticked ${count} plans. Compare at most ${COMPARE_MAX} at a time: untick ${count - COMPARE_MAX === 1 ? "one" : count - COMPARE_MAX}.`
      : count === 0
        ? `Compare: tick “Compare” on ${COMPARE_MIN} or ${COMPARE_MAX} plans, then compare them.`
        : `Compare: you ticked 1 plan (${choices[0].name}). Tick “Compare” on 1 or 2 more to compare them side by side.`;
  return { problem, message };
}
