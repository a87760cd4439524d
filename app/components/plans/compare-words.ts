import type { TFunction } from "i18next";
import { COMPARE_MAX, compareProblem, type CompareProblem } from "../../lib/shopping-url";

/** A ticked plan as the compare tray names it. */
export interface CompareChoice {
  id: string;
  name: string;
}

/**
 * Why the ticks cannot be compared (issue 17 item 4): the facts, worded by the tray in the page's
 * language (compareErrorWords), so the server need not know the language.
 */
export interface CompareError {
  problem: CompareProblem;
  /** Plans ticked. */
  count: number;
  /** The plan ticked, when only one is. */
  name: string | null;
}

/** The error for ticks that cannot be compared (0, 1, or 4 and more); null for 2 or 3. */
export function compareErrorOf(choices: readonly CompareChoice[]): CompareError | null {
  const problem = compareProblem(choices.length);
  if (!problem) return null;
  return { problem, count: choices.length, name: choices.length === 1 ? choices[0].name : null };
}

/** The tray's running count: "2 plans chosen". */
export function compareCountWords(t: TFunction, count: number): string {
  return count === 0 ? t("compareTray.countNone") : t("compareTray.count", { count });
}

/** What the tray says to do next for a number of ticks (a hint, not an error). */
export function compareHintWords(t: TFunction, count: number): string {
  if (count === 0) return t("compareTray.hintNone");
  if (count === 1) return t("compareTray.hintMore");
  if (count <= COMPARE_MAX) return t("compareTray.hintReady");
  return t("compareTray.hintUntick", { count: count - COMPARE_MAX });
}

/** The inline error's words: they name the field ("Compare"), the plan ticked, and what to do. */
export function compareErrorWords(t: TFunction, error: CompareError): string {
  if (error.problem === "too_many")
    return t("compareTray.errorMany", { ticked: error.count, count: error.count - COMPARE_MAX });
  if (error.count === 1 && error.name) return t("compareTray.errorOne", { name: error.name });
  return t("compareTray.errorNone");
}
