import type { TFunction } from "i18next";
import { COMPARE_MAX } from "../../lib/shopping-url";
import type { CompareError } from "../../lib/page-views";

export { compareErrorOf, type CompareChoice, type CompareError } from "../../lib/page-views";

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
