import { CARE_GROUPS, type CareGroup } from "../../domain/care-groups";
import { EVERY_PLAN } from "../../domain/plan-order";
import { compareIdsOf, readShoppingState, type ShoppingState } from "../../lib/shopping-url";
import { planStore } from "../plan-store/plan-store.server";
import { apiMessage } from "../../i18n/api-messages";
import { DEFAULT_LANGUAGE, tFor, type Language } from "../../i18n/i18n";
import { ApiError } from "../platform/api.server";
import type { EligibilityAnswer } from "../shopping/eligibility.server";
import type { PlansAnswer, PricedPlan } from "../shopping/plan-list.server";
import { pricePlans } from "../shopping/priced-plans.server";
import { checkHousehold } from "../shopping/shopping-url.server";
import { listWithinCredit } from "./credit-choice.server";
import {
  doctorCoverageFor,
  drugCoverageFor,
  eligibilityUnavailableIn,
  placeOf,
  type DoctorCoverageCheck,
  type DrugCoverageCheck,
  type PlaceSummary,
} from "./page-parts.server";
import { planExtrasOf, type PlanExtras } from "./plan-extras.server";
import { hasScenarios, scenarioViews, type ScenarioView } from "./scenarios.server";
import { benefitRows } from "./benefit-table.server";

/** The compare page (/plans/compare): two or three plans side by side, priced for the URL's household. */

/** One benefit across the compared plans: what each pays in network (the PUF's words; "" when a plan does not list it). */
export interface ComparedBenefit {
  group: CareGroup;
  name: string;
  cells: Array<{ text: string; covered: boolean | null }>;
}

/**
 * Every benefit of the compared plans, grouped by kind of care in the fixed order (issue 28 item
 * 4): the union of their benefits, each group's rows in the order the plans list them.
 */
export function comparedBenefits(perPlan: ReadonlyArray<ReturnType<typeof benefitRows>>): ComparedBenefit[] {
  const rows = new Map<string, ComparedBenefit>();
  perPlan.forEach((benefits, i) => {
    for (const b of benefits) {
      let row = rows.get(b.name);
      if (!row) {
        row = { group: b.group ?? "other", name: b.name, cells: perPlan.map(() => ({ text: "", covered: null })) };
        rows.set(b.name, row);
      }
      row.cells[i] = { text: b.inNetwork, covered: b.covered };
    }
  });
  const order = (g: CareGroup) => CARE_GROUPS.indexOf(g);
  return [...rows.values()].sort((a, b) => order(a.group) - order(b.group));
}

export interface ComparedPlan {
  plan: PricedPlan;
  scenarios: ScenarioView[];
  extras: PlanExtras;
}

export type ComparePage =
  | {
      ok: true;
      state: ShoppingState;
      place: PlaceSummary;
      plans: ComparedPlan[];
      usage: string;
      eligibility: EligibilityAnswer | null;
      eligibilityUnavailable: string | null;
      drugCoverage: DrugCoverageCheck | null;
      doctorCoverage: DoctorCoverageCheck | null;
      benefits: ComparedBenefit[];
    }
  | { ok: false; status: number; state: ShoppingState; message: string; compareIds: string[] };

export async function comparePage(url: URL, lang: Language = DEFAULT_LANGUAGE): Promise<ComparePage> {
  const t = tFor(lang);
  const found = readShoppingState(url.searchParams);
  const ids = compareIdsOf(url.searchParams);
  const place = placeOf(found);
  const state: ShoppingState = place ? { ...found, state: place.state } : found;
  const fail = (status: number, message: string): ComparePage => ({
    ok: false,
    status,
    state,
    message,
    compareIds: ids,
  });
  if (ids.length < 2 || ids.length > 3) {
    return fail(
      400,
      ids.length < 2 ? t("compare.tooFew", { count: ids.length }) : t("compare.tooMany", { count: ids.length }),
    );
  }
  if (!place) return fail(400, t("compare.noPlace"));
  const check = checkHousehold(state);
  if (!check.ok) return fail(400, t("compare.incomplete"));
  let answer: PlansAnswer;
  try {
    answer = await listWithinCredit(
      (request) => pricePlans({ ...request, ...EVERY_PLAN, filters: undefined }, undefined, { onlyPlanIds: ids }),
      check,
      lang,
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return fail(error.status === 503 ? 503 : 400, apiMessage(error, lang));
  }
  const missing = ids.filter((id) => !answer.plans.some((p) => p.id === id));
  if (missing.length > 0) {
    return fail(
      404,
      t("compare.missing", { count: missing.length, ids: missing.join(", "), county: place.countyName }),
    );
  }
  const perPlanBenefits: Array<ReturnType<typeof benefitRows>> = [];
  const plans: ComparedPlan[] = ids.map((id) => {
    const plan = answer.plans.find((p) => p.id === id)!;
    const detail = planStore().planById(id, answer.year);
    const variant = plan.csr_variant && detail ? detail.puf.csrVariants[plan.csr_variant] : undefined;
    const scenarios =
      variant && hasScenarios(variant.sbcScenarios) ? variant.sbcScenarios : (detail?.puf.sbcScenarios ?? {});
    const details =
      variant && variant.benefitDetails.length > 0 ? variant.benefitDetails : (detail?.puf.benefitDetails ?? []);
    perPlanBenefits.push(benefitRows(details, lang));
    const extras = planExtrasOf(
      detail,
      { id, name: plan.name, issuerName: plan.issuer.name, state: place.state },
      answer.year,
    );
    return { plan, scenarios: scenarioViews(scenarios), extras };
  });
  const [drugCoverage, doctorCoverage] = await Promise.all([
    drugCoverageFor(state.drugs, ids, answer.year),
    doctorCoverageFor(state.doctors, ids, answer.year),
  ]);
  return {
    ok: true,
    state,
    place,
    plans,
    usage: answer.usage,
    eligibility: answer.eligibility,
    eligibilityUnavailable: eligibilityUnavailableIn(answer.eligibility_unavailable, lang),
    drugCoverage,
    doctorCoverage,
    benefits: comparedBenefits(perPlanBenefits),
  };
}
