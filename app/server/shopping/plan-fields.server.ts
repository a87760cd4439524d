import type { z } from "zod";
import type { CostLimitAnswer as CostLimitAnswerSchema } from "../../schemas/shopping";
import { keyBenefitWords, planCostShareOf, type KeyBenefitsText } from "../../domain/cost-share";
import { expectedOutOfPocket, type PlanCostShare, type UsageLevel } from "../../domain/yearly-cost";
import { deepFreeze } from "../../lib/deep-freeze";

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
  };
  if (Object.isFrozen(source)) {
    const { outOfPocket, ...rest } = fields;
    deepFreeze(rest);
    listFieldsMemo.set(source, Object.freeze({ ...rest, outOfPocket }));
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
