import type { z } from "zod";
import { filterPredicate, type PlanPredicate } from "../../domain/plan-filters";
import { pageOf, sortedIndexes, SORT_KEYS, type SortableList } from "../../domain/plan-order";
import type { PlansRequest, PlansResponse } from "../../schemas/shopping";
import type { PricedPlan } from "../../lib/page-views";
import { catastrophicReason, type CatastrophicReason } from "../../domain/eligibility/catastrophic";
import type { EligibilityAnswer } from "./eligibility.server";
import type { RankFacts } from "../../domain/yearly-cost/ranking";
import type { Language } from "../../i18n/i18n";
import { rankFactsOf, rankingsFor } from "./my-year.server";
import { householdSizeOf, incomeLinesAnswer, type HouseholdDecisions } from "./household.server";

/** One plan of a plan list, priced for the household (app/lib/page-views.ts: the one name for it). */
export type { PricedPlan } from "../../lib/page-views";
/** POST /api/plans' answer. */
export type PlansAnswer = z.infer<typeof PlansResponse>;

/**
 * Plans priced for one household, before they become answer objects: the
 * sort and the filters read numbers by index, and only the plans on the page
 * asked for are made into PricedPlan objects (a county lists up to ~500
 * plans; a page shows 50; docs/decisions/122).
 */
export interface PricedList extends SortableList {
  /** Whether plan i is kept by the request's filters (filterPredicate, made once per list). */
  passes(keep: PlanPredicate, i: number): boolean;
  answerAt(i: number): PricedPlan;
  /** What the ranking reads of plan i (its yearly cost, metal, CSR variant, coverage). */
  rankFactsAt(i: number): RankFacts;
}

/** A list already made of answer objects (the upstream branch). */
export function listOfAnswers(plans: readonly PricedPlan[]): PricedList {
  return {
    length: plans.length,
    premiumWithCredit: plans.map((p) => p.premium_w_credit),
    keyOf: (sort, i) => SORT_KEYS[sort](plans[i]),
    tieKeyOf: (sort, i) => (sort === "my_yearly_cost" ? plans[i].my_yearly_cost.bad_year : 0),
    rankFactsAt: (i) => rankFactsOf(plans[i], plans[i].my_yearly_cost),
    idOf: (i) => plans[i].id,
    passes: (keep, i) => keep(plans[i]),
    answerAt: (i) => plans[i],
  };
}

/** The list answer both branches give: filtered, sorted, then one page of it. */
export function plansAnswer(
  request: PlansRequest,
  priced: {
    year: number;
    source: "own" | "upstream";
    ratingArea: string | null;
    eligibility: EligibilityAnswer | null;
    unavailable: string | null;
    plans: PricedList;
    /** Our own per-person decisions: who the prices are for, the FPL percent, the income lines. */
    household: HouseholdDecisions;
    /** The language of the ranking's words (English unless asked). */
    lang?: Language;
  },
): PlansAnswer {
  const list = priced.plans;
  // Catastrophic plans are listed only for a household the law lets buy one (decision 313).
  const catastrophic = catastrophicReasonOf(request, priced.household, priced.year);
  const offered: number[] = [];
  for (let i = 0; i < list.length; i++) if (catastrophic !== null || list.passes(notCatastrophic, i)) offered.push(i);
  const chosen: number[] = [];
  const keep = filterPredicate(request.filters);
  for (const i of offered) if (!keep || list.passes(keep, i)) chosen.push(i);
  // Only the places up to the end of the page are put in order (firstInOrder, docs/decisions/130).
  const sorted = sortedIndexes(list, chosen, request.sort, request.order, request.offset + request.limit);
  const page = pageOf(sorted, request);
  const { state, county_fips, zip } = request.place;
  return {
    year: priced.year,
    source: priced.source,
    place: { state, county_fips, zip, rating_area: priced.ratingArea },
    household_size: householdSizeOf(request),
    eligibility: priced.eligibility,
    eligibility_unavailable: priced.unavailable,
    aptc_applied: priced.eligibility?.aptc_applied ?? null,
    repayment_risk: priced.eligibility?.repayment_risk ?? [],
    fpl_percent: priced.household.estimate.fplPercent,
    coverage_family_members: priced.household.pricedMembers,
    income_lines: incomeLinesAnswer(priced.household.lines),
    usage: request.usage,
    sort: request.sort,
    order: request.order,
    total_plan_count: offered.length,
    catastrophic_reason: catastrophic,
    plan_count: chosen.length,
    ...page,
    plans: rankedPage(list, chosen, page.plans, page.offset, priced.lang),
  };
}

const notCatastrophic: PlanPredicate = (plan) => plan.metal_level !== "Catastrophic";

/** Why catastrophic plans are listed for this request's household, or null (45 CFR 156.155). */
export function catastrophicReasonOf(
  request: Pick<PlansRequest, "household" | "place" | "hardship_exemption">,
  household: HouseholdDecisions,
  year: number,
): CatastrophicReason | null {
  const e = household.estimate;
  return catastrophicReason({
    planYear: year,
    state: request.place.state,
    coveredAges: household.pricedMembers.map((i) => request.household.people[i].age),
    hardshipExemption: request.hardship_exemption === true,
    creditRuledOutByIncome: e.coverageFamily.length > 0 && !e.ptcEligible,
  });
}

/**
 * The page's plans, each with its `ranking`: its place in the sorted list and the reasons, read
 * against every plan the filters keep (decision 333).
 */
function rankedPage(
  list: PricedList,
  chosen: readonly number[],
  page: readonly number[],
  offset: number,
  lang?: Language,
): PricedPlan[] {
  const answers = page.map((i) => list.answerAt(i));
  if (answers.length === 0) return answers;
  // The page's plans are among those the filters keep: their facts are read from the same array.
  const factsAt: RankFacts[] = new Array(list.length);
  const all = chosen.map((i) => (factsAt[i] = list.rankFactsAt(i)));
  const rankings = rankingsFor(
    all,
    page.map((i, n) => ({ facts: factsAt[i], position: offset + n + 1 })),
    lang,
  );
  answers.forEach((answer, n) => {
    answer.ranking = rankings[n];
  });
  return answers;
}
