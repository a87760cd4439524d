/**
 * The Plan ID Crosswalk's codes in words (decision 340). Sources: the CMS
 * "Plan ID Crosswalk PUF" data dictionary (CCIIO, Exchange PUFs; PY2026:
 * cms.gov/files/document/plan-id-crosswalk-datadictionary-py26.pdf) as read
 * through the public material the `search` tool holds: CrosswalkLevel 0 =
 * same plan ID, 1 = plan-level, 2 = plan and county, 3 = ZIP-code level,
 * 4 = no re-enrolment option, 5 = issuer withdrew / no enrolment option;
 * ReasonForCrosswalk 0 = no change and 8 = a crosswalk to a different issuer
 * decided by CMS. The dictionary's words for reasons 1–7, 9 and 10 could not
 * be read here, so what a consumer is told comes from the row itself (same
 * plan id, same issuer and product, another issuer, or no plan), which is
 * certain, and the reason code is reported as the file gives it.
 */

export type CrosswalkLevelCode = 0 | 1 | 2 | 3 | 4 | 5;

export const CROSSWALK_LEVEL_WORDS: Readonly<Record<CrosswalkLevelCode, string>> = {
  0: "Same plan ID: the plan continues unchanged in its identifier",
  1: "Plan-level crosswalk: every enrollee of the plan goes to the same new plan",
  2: "County-level crosswalk: the new plan depends on the enrollee's county",
  3: "ZIP-code-level crosswalk: the new plan depends on the enrollee's ZIP code",
  4: "No re-enrollment option: the plan ends and no plan is named for its enrollees",
  5: "The insurer withdrew: no plan is named for its enrollees",
};

/** Reason codes whose dictionary words were read (decision 340); others are reported by number. */
export const CROSSWALK_REASON_WORDS: Readonly<Partial<Record<number, string>>> = {
  0: "No change: the plan is renewed as it is",
  8: "Crosswalk to a different insurer, decided by CMS (the plan's insurer no longer offers a plan to map to)",
};

export function levelWords(level: number): string {
  return CROSSWALK_LEVEL_WORDS[level as CrosswalkLevelCode] ?? `Crosswalk level ${level}`;
}

export function reasonWords(reason: number | null): string {
  if (reason === null) return "No reason given in the crosswalk file";
  return CROSSWALK_REASON_WORDS[reason] ?? `Reason code ${reason} of the Plan ID Crosswalk`;
}

/**
 * What happens to the plan, from the row's facts:
 * - same_plan: the same plan id next year;
 * - renewed: another plan of the same insurer (same product when the
 *   10-character product id matches);
 * - other_issuer: a plan of another insurer;
 * - no_successor: the row names no plan;
 * - not_in_crosswalk: no row for the plan in the household's county.
 */
export type RenewalOutcome = "same_plan" | "renewed" | "other_issuer" | "no_successor" | "not_in_crosswalk";

export function outcomeOf(fromPlanId: string, toPlanId: string | null | undefined): RenewalOutcome {
  if (toPlanId === undefined) return "not_in_crosswalk";
  if (toPlanId === null) return "no_successor";
  if (toPlanId === fromPlanId) return "same_plan";
  return toPlanId.slice(0, 5) === fromPlanId.slice(0, 5) ? "renewed" : "other_issuer";
}

/** One sentence for the API answer (English; the page words it in the visitor's language). */
export function outcomeWords(outcome: RenewalOutcome, fromPlanId: string, toPlanId: string | null | undefined): string {
  switch (outcome) {
    case "same_plan":
      return "Your insurer renews this plan: it keeps its plan ID next year.";
    case "renewed":
      return toPlanId && toPlanId.slice(0, 10) === fromPlanId.slice(0, 10)
        ? `Your insurer replaces this plan with plan ${toPlanId} in the same product.`
        : `Your insurer moves you to plan ${toPlanId}, in another of its products.`;
    case "other_issuer":
      return `Your plan's insurer leaves; the Marketplace maps you to plan ${toPlanId} of another insurer.`;
    case "no_successor":
      return "Your plan ends and the crosswalk names no plan for you: choose a plan, or you will have none.";
    case "not_in_crosswalk":
      return "The Plan ID Crosswalk has no row for this plan in your county.";
  }
}
