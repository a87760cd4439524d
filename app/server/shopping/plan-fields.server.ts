import type { z } from "zod";
import type { CostLimitAnswer as CostLimitAnswerSchema } from "../../schemas/shopping";
import { keyBenefitWords, planCostShareOf, type KeyBenefitsText } from "../../domain/cost-share";
import { expectedOutOfPocket, type PlanCostShare, type UsageLevel } from "../../domain/yearly-cost";
import { deepFreeze } from "../../lib/deep-freeze";
import { roundCents } from "../../domain/pricing";
import { myPlanCostShareOf } from "../../domain/yearly-cost/from-benefits";
import { myYearlyCost, withPremiums, type MyPlanCostShare, type MyYearlyCost } from "../../domain/yearly-cost/my-year";

/** A deductible or out-of-pocket maximum as the plan list answers it (the shape is the schema's). */
export type CostLimitAnswer = z.infer<typeof CostLimitAnswerSchema>;

/** A plan's (or CSR variant's) list fields that do not depend on the household. */
export interface ListFields {
  deductible: CostLimitAnswer;
  moop: CostLimitAnswer;
  keyBenefits: Record<string, string | null>;
  costShare: PlanCostShare;
  complete: boolean;
  /** `${usage}|${coveredMembers}|${planYear}` → expected out-of-pocket dollars a year. */
  outOfPocket: Map<string, number>;
  /** The cost sharing "your year" reads (drug tiers, out-of-network visits too). */
  myCostShare: MyPlanCostShare;
  /** `${usage}|${coveredMembers}|${planYear}` → "your year" at a $0 premium with no drugs or doctors chosen. */
  myYear: Map<string, MyYearlyCost>;
}

// The plan store hands out frozen summaries that live as long as their store
// version: what is derived from them alone is derived once, not per request
// (docs/decisions/112-pricing-derived-once.md). The derived objects are frozen
// too, as every answer shares them.
const listFieldsMemo = new WeakMap<object, ListFields>();

export function listFieldsOf(source: {
  deductible: CostLimitAnswer;
  moop: CostLimitAnswer;
  keyBenefits: KeyBenefitsText;
}): ListFields {
  const known = listFieldsMemo.get(source);
  if (known) return known;
  const { costShare, complete } = planCostShareOf(source.deductible, source.moop, source.keyBenefits);
  const fields: ListFields = {
    deductible: { individual: source.deductible.individual, family: source.deductible.family },
    moop: { individual: source.moop.individual, family: source.moop.family },
    keyBenefits: keyBenefitWords(source.keyBenefits),
    costShare,
    complete,
    outOfPocket: new Map(),
    myCostShare: myPlanCostShareOf(source.deductible, source.moop, source.keyBenefits),
    myYear: new Map(),
  };
  if (Object.isFrozen(source)) {
    const { outOfPocket, myYear, ...rest } = fields;
    deepFreeze(rest);
    listFieldsMemo.set(source, Object.freeze({ ...rest, outOfPocket, myYear }));
    return listFieldsMemo.get(source)!;
  }
  return fields;
}

/** Expected yearly out-of-pocket costs of a plan's cost sharing (the household-independent part of the yearly estimate). */
export function outOfPocketOf(
  fields: ListFields,
  key: string,
  usage: UsageLevel,
  coveredMembers: number,
  planYear: number,
): number {
  const known = fields.outOfPocket.get(key);
  if (known !== undefined) return known;
  const amount = expectedOutOfPocket(fields.costShare, usage, coveredMembers, planYear).outOfPocket;
  if (fields.outOfPocket.size < 64) fields.outOfPocket.set(key, amount);
  return amount;
}

/** What "your year" is worked out for, besides the plan's cost sharing. */
export interface MyYearCare {
  usage: UsageLevel;
  coveredMembers: number;
  planYear: number;
  drugs: Parameters<typeof myYearlyCost>[0]["drugs"];
  doctors: Parameters<typeof myYearlyCost>[0]["doctors"];
}

/** The key of `ListFields.myYear` (and `outOfPocket`): `${usage}|${coveredMembers}|${planYear}`. */
export function myYearKey(care: Pick<MyYearCare, "usage" | "coveredMembers" | "planYear">): string {
  return `${care.usage}|${care.coveredMembers}|${care.planYear}`;
}

/**
 * "Your year" of a plan variant at a $0 premium with no drugs or doctors chosen: it depends on the
 * cost sharing alone and is worked out once per variant and `key` (myYearKey), then shared by every
 * household of that usage, size and year (premiums are added per household: withPremiums).
 */
export function myYearAtNoPremium(
  fields: ListFields,
  key: string,
  care: Pick<MyYearCare, "usage" | "coveredMembers" | "planYear">,
): MyYearlyCost {
  let known = fields.myYear.get(key);
  if (!known) {
    known = myYearlyCost({
      usage: care.usage,
      coveredMembers: care.coveredMembers,
      planYear: care.planYear,
      drugs: [],
      doctors: [],
      costShare: fields.myCostShare,
      monthlyPremiumAfterCredit: 0,
    });
    if (fields.myYear.size < 64) fields.myYear.set(key, known);
  }
  return known;
}

/**
 * `withPremiums(outOfPocket, monthly).typical` and `.bad_year` without making the object (a list
 * ranks every plan of the county by them; only the page's plans become answers). The same
 * arithmetic as withPremiums (tests/unit/shopping/plan-fields.test.ts checks they agree).
 */
export function withPremiumsTotals(
  outOfPocket: MyYearlyCost,
  monthlyPremiumAfterCredit: number,
): { typical: number; badYear: number } {
  const year = roundCents(monthlyPremiumAfterCredit * 12);
  return { typical: roundCents(year + outOfPocket.typical), badYear: roundCents(year + outOfPocket.bad_year) };
}

/**
 * "Your year" of a plan variant for the household: with no drugs or doctors chosen it depends on the
 * cost sharing alone and is worked out once per variant (premiums added after); with some, per request.
 */
export function myYearOf(fields: ListFields, input: MyYearCare & { monthlyPremiumAfterCredit: number }): MyYearlyCost {
  if (input.drugs.length > 0 || input.doctors.length > 0)
    return myYearlyCost({
      usage: input.usage,
      coveredMembers: input.coveredMembers,
      planYear: input.planYear,
      drugs: input.drugs,
      doctors: input.doctors,
      costShare: fields.myCostShare,
      monthlyPremiumAfterCredit: input.monthlyPremiumAfterCredit,
    });
  return withPremiums(myYearAtNoPremium(fields, myYearKey(input), input), input.monthlyPremiumAfterCredit);
}
