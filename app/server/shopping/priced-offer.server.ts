import { isStandardizedDesign } from "../../domain/plan-design";
import { csrVariantFor, type CsrLevel } from "../../domain/eligibility/csr";
import { coveredMemberCount, householdPricer, ratingTable, type HouseholdPrice } from "../../domain/household-price";
import { creditShown, creditUsableOn, ehbPremium, premiumWithCreditOf, roundCents } from "../../domain/pricing";
import type { Member } from "../../domain/rating";
import type { UsageLevel } from "../../domain/yearly-cost";
import type { CsrVariantSummary, PlaceOffer, PlanSummary } from "../plan-store/plan-store.server";
import type { EligibilityAnswer } from "./eligibility.server";
import { withPremiums, type MyYearlyCost } from "../../domain/yearly-cost/my-year";
import { rankFactsOf, rankFactsOfTotals, type CareCoverage } from "./my-year.server";
import {
  listFieldsOf,
  myYearAtNoPremium,
  myYearOf,
  outOfPocketOf,
  withPremiumsTotals,
  type ListFields,
} from "./plan-fields.server";
import { rememberJsonParts, rememberMyYearBase } from "./plan-list-json.server";
import type { PricedList, PricedPlan } from "./plan-list.server";

/** Every plan of a place's offer that has rates there, priced for the household (the own-data branch). */

const planIndexesByOffer = new WeakMap<PlaceOffer, ReadonlyMap<string, number>>();

/** Where `ids` are in the offer, in the offer's order (each once); ids not offered there are left out. */
function offeredIndexes(offer: PlaceOffer, ids: readonly string[]): number[] {
  let indexOf = planIndexesByOffer.get(offer);
  if (!indexOf) {
    indexOf = new Map(offer.plans.map((plan, i) => [plan.id, i]));
    planIndexesByOffer.set(offer, indexOf);
  }
  const found = new Set<number>();
  for (const id of ids) {
    const i = indexOf.get(id);
    if (i !== undefined) found.add(i);
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * The household premiums of a whole offer for the last few sets of people priced there
 * (docs/decisions/454): three numbers a plan (premium, without tobacco, surcharge; NaN where the
 * plan has no rates there). A premium depends on the people, the state and the year, never on the
 * income, usage, sort or filters, so the same shopper changing any of those, or another household
 * of the same people, reads them instead of rating every plan again. Per offer, so per store
 * version; at most PREMIUM_SETS_PER_OFFER sets (24 bytes a plan each).
 */
const PREMIUM_SETS_PER_OFFER = 8;
const premiumSets = new WeakMap<PlaceOffer, Map<string, Float64Array>>();

function premiumSetOf(offer: PlaceOffer, key: string): { set: Float64Array; known: boolean } {
  const sets = premiumSets.get(offer);
  const known = sets?.get(key);
  if (sets && known) {
    // Most recently used last: the first is the one to drop.
    sets.delete(key);
    sets.set(key, known);
    return { set: known, known: true };
  }
  return { set: new Float64Array(offer.plans.length * 3), known: false };
}

/** Keeps a set of premiums worked out whole (never one a failed rating left half filled). */
function keepPremiumSet(offer: PlaceOffer, key: string, set: Float64Array): void {
  let sets = premiumSets.get(offer);
  if (!sets) premiumSets.set(offer, (sets = new Map()));
  sets.set(key, set);
  if (sets.size > PREMIUM_SETS_PER_OFFER) sets.delete(sets.keys().next().value!);
}

export function priceOffer(
  offer: PlaceOffer,
  household: {
    members: Member[];
    state: string;
    year: number;
    usage: UsageLevel;
    eligibility: EligibilityAnswer | null;
    onlyPlanIds?: readonly string[];
    /** The chosen drugs and doctors with their coverage on each plan ("your year"). */
    care?: CareCoverage;
  },
): PricedList {
  const { members, state, year, usage, eligibility, onlyPlanIds, care } = household;
  const price = householdPricer(members, state, year);
  const coveredMembers = coveredMemberCount(members);
  // The household-independent part of each yearly estimate is memoised per plan under this key.
  const outOfPocketKey = `${usage}|${coveredMembers}|${year}`;
  // A plan page prices one plan and a compare page two or three: those are found by id, not by
  // walking the county's whole offer.
  const only = onlyPlanIds ? offeredIndexes(offer, onlyPlanIds) : null;
  const size = only ? only.length : offer.plans.length;
  const planAt: PlanSummary[] = [];
  const variantAt: Array<CsrVariantSummary | undefined> = [];
  // Eight numbers a plan, in one buffer.
  const numbers = new Float64Array(size * 8);
  const premium = numbers.subarray(0, size);
  const premiumWithoutTobacco = numbers.subarray(size, 2 * size);
  const tobaccoSurcharge = numbers.subarray(2 * size, 3 * size);
  const premiumWithCredit = numbers.subarray(3 * size, 4 * size);
  const creditApplied = numbers.subarray(4 * size, 5 * size);
  const yearlyCost = numbers.subarray(5 * size, 6 * size);
  // "Your year"'s typical and bad-year totals: the ranking and its sort read these of every plan.
  const myTypical = numbers.subarray(6 * size, 7 * size);
  const myBadYear = numbers.subarray(7 * size, 8 * size);
  const householdPrice: HouseholdPrice = { premium: 0, premiumWithoutTobacco: 0, tobaccoSurcharge: 0 };
  // The whole offer's premiums for these people, when worked out before (a plan page's or compare
  // page's few plans are rated as they are).
  const premiumsKey = `${state}|${year}|${JSON.stringify(members)}`;
  const premiums = only ? null : premiumSetOf(offer, premiumsKey);
  const plans = offer.plans.length;
  for (let n = 0; n < size; n++) {
    const i = only ? only[n] : n;
    const plan = offer.plans[i];
    const table = offer.rateTables[i];
    if (!table) continue; // offered but not priced in this rating area: cannot be sold here
    const k = planAt.length;
    if (premiums?.known) {
      householdPrice.premium = premiums.set[i];
      householdPrice.premiumWithoutTobacco = premiums.set[plans + i];
      householdPrice.tobaccoSurcharge = premiums.set[2 * plans + i];
    } else {
      price(ratingTable(table), householdPrice);
      if (premiums) {
        premiums.set[i] = householdPrice.premium;
        premiums.set[plans + i] = householdPrice.premiumWithoutTobacco;
        premiums.set[2 * plans + i] = householdPrice.tobaccoSurcharge;
      }
    }
    const aptc = creditUsableOn(plan.metalLevel, eligibility?.aptc_applied ?? 0);
    // A state's own help, after the federal credit, on the plans the credit can buy (docs/decisions/315).
    const state = plan.metalLevel === "Catastrophic" ? 0 : (eligibility?.state_subsidy ?? 0);
    const withCredit = premiumWithCreditOf(householdPrice, aptc, plan.ehbShare ?? 1, state);
    const csr = csrVariantFor(plan.metalLevel, eligibility?.csr ?? null);
    planAt.push(plan);
    variantAt.push(csr ? plan.csrVariants[csr] : undefined);
    premium[k] = householdPrice.premium;
    premiumWithoutTobacco[k] = householdPrice.premiumWithoutTobacco;
    tobaccoSurcharge[k] = householdPrice.tobaccoSurcharge;
    premiumWithCredit[k] = withCredit;
    creditApplied[k] = creditShown(householdPrice, withCredit);
    yearlyCost[k] = Number.NaN; // worked out when asked for (yearlyCostAt)
    myTypical[k] = Number.NaN; // worked out when asked for (myTotalsAt)
  }
  if (premiums && !premiums.known) keepPremiumSet(offer, premiumsKey, premiums.set);
  // A plan's cost-sharing fields and yearly cost are needed only by the page's plans, a sort on
  // them and the deductible filter: worked out on first use, not for every plan of the county.
  const fieldsAt: ListFields[] = new Array(planAt.length);
  const fieldsOfPlan = (k: number): ListFields => (fieldsAt[k] ??= listFieldsOf(variantAt[k] ?? planAt[k]));
  const yearlyCostAt = (k: number): number => {
    if (Number.isNaN(yearlyCost[k])) {
      // estimateYearlyCost's total: premiums after credit for the year plus the expected out-of-pocket
      // costs, which depend on the plan's cost sharing alone (derived once, see outOfPocketOf).
      yearlyCost[k] = roundCents(
        premiumWithCredit[k] * 12 + outOfPocketOf(fieldsOfPlan(k), outOfPocketKey, usage, coveredMembers, year),
      );
    }
    return yearlyCost[k];
  };
  // "Your year" (issue 26): worked out on first use, like the yearly cost.
  const myYearAtIndex: MyYearlyCost[] = new Array(planAt.length);
  const myYearAt = (k: number): MyYearlyCost => {
    const known = myYearAtIndex[k];
    if (known !== undefined) return known;
    if (noCare(k)) {
      // The shared $0-premium result with this household's premiums; its JSON is written from parts.
      const base = myYearAtNoPremium(fieldsOfPlan(k), outOfPocketKey, { usage, coveredMembers, planYear: year });
      const mine = withPremiums(base, premiumWithCredit[k]);
      rememberMyYearBase(mine, base);
      return (myYearAtIndex[k] = mine);
    }
    return (myYearAtIndex[k] = myYearOf(fieldsOfPlan(k), {
      monthlyPremiumAfterCredit: premiumWithCredit[k],
      usage,
      coveredMembers,
      planYear: year,
      drugs: care?.drugsOf(planAt[k].id) ?? [],
      doctors: care?.doctorsOf(planAt[k].id) ?? [],
    }));
  };
  // The totals alone, without "your year"'s object, when no drugs or doctors are chosen for the plan:
  // the $0-premium part is shared per plan variant (myYearAtNoPremium), the premiums added here.
  const noCare = (k: number): boolean =>
    !care || (care.drugsOf(planAt[k].id).length === 0 && care.doctorsOf(planAt[k].id).length === 0);
  const myTotalsAt = (k: number): void => {
    if (!Number.isNaN(myTypical[k])) return;
    if (myYearAtIndex[k] === undefined && noCare(k)) {
      const totals = withPremiumsTotals(
        myYearAtNoPremium(fieldsOfPlan(k), outOfPocketKey, { usage, coveredMembers, planYear: year }),
        premiumWithCredit[k],
      );
      myTypical[k] = totals.typical;
      myBadYear[k] = totals.badYear;
    } else {
      const mine = myYearAt(k);
      myTypical[k] = mine.typical;
      myBadYear[k] = mine.bad_year;
    }
  };
  const csrAt = (k: number): CsrLevel | null => (variantAt[k] && eligibility?.csr ? eligibility.csr : null);
  const answerAt = (k: number): PricedPlan => {
    const plan = planAt[k];
    const variant = variantAt[k];
    const fields = fieldsOfPlan(k);
    const csr: CsrLevel | null = variant && eligibility?.csr ? eligibility.csr : null;
    const answer: PricedPlan = {
      id: plan.id,
      name: plan.name,
      issuer: plan.issuer,
      metal_level: plan.metalLevel,
      type: plan.type,
      hsa_eligible: plan.hsaEligible,
      standardized: isStandardizedDesign(plan.designType),
      premium: premium[k],
      premium_w_credit: premiumWithCredit[k],
      credit_applied: creditApplied[k],
      ehb_premium: ehbPremium(premiumWithoutTobacco[k], plan.ehbShare ?? 1),
      tobacco_surcharge: tobaccoSurcharge[k],
      csr_variant: csr,
      variant_id: variant?.variantId ?? plan.variantId,
      deductible: fields.deductible,
      moop: fields.moop,
      key_benefits: fields.keyBenefits,
      quality_rating: plan.qualityRating,
      estimated_yearly_cost: yearlyCostAt(k),
      estimated_yearly_cost_complete: fields.complete,
      my_yearly_cost: myYearAt(k),
      // Worked out over the whole list by plansAnswer.
      ranking: { position: 0, reasons: [], changes: [], warnings: [] },
    };
    rememberJsonParts(answer, plan, variant ?? plan, csr);
    return answer;
  };
  return {
    length: planAt.length,
    premiumWithCredit,
    keyOf(sort, k) {
      switch (sort) {
        case "premium":
          return premiumWithCredit[k];
        case "deductible":
          return fieldsOfPlan(k).deductible.individual;
        case "moop":
          return fieldsOfPlan(k).moop.individual;
        case "yearly_cost":
          return yearlyCostAt(k);
        case "my_yearly_cost":
          myTotalsAt(k);
          return myTypical[k];
        case "quality_rating":
          return planAt[k].qualityRating;
      }
    },
    tieKeyOf: (sort, k) => {
      if (sort !== "my_yearly_cost") return 0;
      myTotalsAt(k);
      return myBadYear[k];
    },
    rankFactsAt: (k) => {
      const plan = planAt[k];
      if (myYearAtIndex[k] !== undefined || !noCare(k))
        return rankFactsOf(
          { id: plan.id, name: plan.name, metal_level: plan.metalLevel, csr_variant: csrAt(k) },
          myYearAt(k),
        );
      myTotalsAt(k);
      return rankFactsOfTotals(plan.id, plan.name, plan.metalLevel, csrAt(k) !== null, myTypical[k], myBadYear[k]);
    },
    idOf: (k) => planAt[k].id,
    // Called only when a filter is set: then the fields the filters read are built.
    passes: (keep, k) =>
      keep({
        metal_level: planAt[k].metalLevel,
        type: planAt[k].type,
        issuer: planAt[k].issuer,
        hsa_eligible: planAt[k].hsaEligible,
        standardized: isStandardizedDesign(planAt[k].designType),
        premium_w_credit: premiumWithCredit[k],
        deductible: fieldsOfPlan(k).deductible,
        quality_rating: planAt[k].qualityRating,
      }),
    answerAt,
  };
}
