import { isStandardizedDesign } from "../../domain/plan-design";
import type { CsrLevel } from "../../domain/eligibility/csr";
import type { PlanSummary } from "../plan-store/plan-store.server";
import type { PlansAnswer, PricedPlan } from "./plan-list.server";
import type { MyYearlyCost } from "../../domain/yearly-cost/my-year";

/**
 * The plan list as JSON text, byte for byte JSON.stringify(answer), written
 * from parts (docs/decisions/118; docs/performance.md).
 *
 * RULE: a field added to PricedPlan must be added to the head part
 * (planHeadJson), the household numbers (plansAnswerJson) or the tail part
 * (variantTailJson), in the schema's order; tests/integration/perf/plans-json.test.ts
 * fails until it is.
 */

/**
 * The household-independent parts of a priced plan, as JSON text made once per
 * frozen plan summary (so once per store version): a request writes only its
 * numbers between them (docs/decisions/118). Keyed on the PricedPlan objects
 * pricePlans made; a plan without parts (upstream) is stringified whole.
 */
const JSON_PARTS = Symbol("plan JSON parts");
type WithParts = { [JSON_PARTS]?: { head: string; tail: string } };
const headJsonMemo = new WeakMap<object, string>();
const tailJsonMemo = new WeakMap<object, { csr: CsrLevel | null; text: string }>();

/** Keeps the parts of a plan answer made from a frozen summary (and its CSR variant), for plansAnswerJson. */
export function rememberJsonParts(
  answer: PricedPlan,
  plan: PlanSummary,
  variantSource: object,
  csr: CsrLevel | null,
): void {
  const head = planHeadJson(plan);
  const tail = variantTailJson(plan, variantSource, csr, answer);
  // On the answer object itself, not in a WeakMap keyed by it: a WeakMap entry per plan per request
  // cost ~1 µs to set and more for the collector to clear (docs/decisions/453). Not enumerable: a
  // copy of the answer (spread, structuredClone) does not carry it and is stringified whole.
  if (head !== null && tail !== null)
    Object.defineProperty(answer, JSON_PARTS, { value: { head, tail }, enumerable: false, writable: false });
}

/** `{"id":…,"name":…,"issuer":…,"metal_level":…,"type":…,"hsa_eligible":…,"standardized":…,"premium":` — or null for a summary that is not frozen (it could change). */
function planHeadJson(plan: PlanSummary): string | null {
  if (!Object.isFrozen(plan)) return null;
  const known = headJsonMemo.get(plan);
  if (known !== undefined) return known;
  const whole = JSON.stringify({
    id: plan.id,
    name: plan.name,
    issuer: plan.issuer,
    metal_level: plan.metalLevel,
    type: plan.type,
    hsa_eligible: plan.hsaEligible,
    standardized: isStandardizedDesign(plan.designType),
  });
  const text = `${whole.slice(0, -1)},"premium":`;
  headJsonMemo.set(plan, text);
  return text;
}

/** `,"csr_variant":…,"variant_id":…,"deductible":…,"moop":…,"key_benefits":…,"quality_rating":…,"estimated_yearly_cost":` */
function variantTailJson(plan: PlanSummary, source: object, csr: CsrLevel | null, priced: PricedPlan): string | null {
  if (!Object.isFrozen(plan) || !Object.isFrozen(source)) return null;
  const known = tailJsonMemo.get(source);
  if (known !== undefined && known.csr === csr) return known.text;
  const whole = JSON.stringify({
    csr_variant: priced.csr_variant,
    variant_id: priced.variant_id,
    deductible: priced.deductible,
    moop: priced.moop,
    key_benefits: priced.key_benefits,
    quality_rating: priced.quality_rating,
  });
  const text = `,${whole.slice(1, -1)},"estimated_yearly_cost":`;
  tailJsonMemo.set(source, { csr, text });
  return text;
}

/**
 * "Your year" made by withPremiums from a $0-premium result shared per plan variant: its JSON
 * after the premiums (`,"drugs":…,"outside_max":…},"unknowns":…}`) is written once per shared
 * result; a request writes its four premium-dependent numbers before it. Keyed on the answer's
 * `my_yearly_cost` object as the list made it; anything else is stringified whole.
 */
const MY_YEAR_BASE = Symbol("shared $0-premium result");
const myYearTailMemo = new WeakMap<MyYearlyCost, string>();
/** "Your year" as a list plan carries it (the answer schema's shape of MyYearlyCost). */
type ListYear = PricedPlan["my_yearly_cost"];

/** Remembers that `mine` is withPremiums(`base`, …) (the list's plans without drugs or doctors chosen). */
export function rememberMyYearBase(mine: MyYearlyCost, base: MyYearlyCost): void {
  // Not enumerable, as JSON_PARTS (docs/decisions/453).
  Object.defineProperty(mine, MY_YEAR_BASE, { value: base, enumerable: false, writable: false });
}

export function myYearJson(mine: ListYear): string {
  const base = (mine as { [MY_YEAR_BASE]?: MyYearlyCost })[MY_YEAR_BASE];
  if (base === undefined || !sameAfterPremiums(mine, base)) return JSON.stringify(mine);
  let tail = myYearTailMemo.get(base);
  if (tail === undefined) {
    const { premiums: _premiums, ...parts } = base.parts;
    tail = `,${JSON.stringify(parts).slice(1, -1)}},"unknowns":${JSON.stringify(base.unknowns)}}`;
    // The layout is checked once per shared result: a shape this does not know is stringified whole.
    if (withNumbers(mine, tail) !== JSON.stringify(mine)) tail = "";
    myYearTailMemo.set(base, tail);
  }
  return tail === "" ? JSON.stringify(mine) : withNumbers(mine, tail);
}

function withNumbers(mine: ListYear, tail: string): string {
  return `{"typical":${mine.typical},"bad_year":${mine.bad_year},"worst_case":${mine.worst_case},"parts":{"premiums":${mine.parts.premiums}${tail}`;
}

/** The fields withPremiums copies are still the base's own (nothing changed them since), in its key order. */
function sameAfterPremiums(mine: ListYear, base: MyYearlyCost): boolean {
  const a = mine.parts;
  const b = base.parts;
  return (
    mine.unknowns === base.unknowns &&
    a.drugs === b.drugs &&
    a.doctors === b.doctors &&
    a.other_care === b.other_care &&
    a.out_of_pocket_max === b.out_of_pocket_max &&
    a.outside_max === b.outside_max
  );
}

/**
 * JSON.stringify(answer), the same text, with each plan's household-independent
 * parts taken from the per-summary memo above instead of serialised again.
 */
export function plansAnswerJson(answer: PlansAnswer): string {
  const { plans, ...rest } = answer;
  const outer = JSON.stringify({ ...rest, plans: [] });
  let body = `${outer.slice(0, -3)}[`;
  for (let i = 0; i < plans.length; i++) {
    const p = plans[i];
    const parts = (p as WithParts)[JSON_PARTS];
    if (i > 0) body += ",";
    body += parts
      ? `${parts.head}${p.premium},"premium_w_credit":${p.premium_w_credit},"credit_applied":${p.credit_applied},"ehb_premium":${p.ehb_premium},"tobacco_surcharge":${p.tobacco_surcharge}${parts.tail}${p.estimated_yearly_cost},"estimated_yearly_cost_complete":${p.estimated_yearly_cost_complete},"my_yearly_cost":${myYearJson(p.my_yearly_cost)},"ranking":${JSON.stringify(p.ranking)}}`
      : JSON.stringify(p);
  }
  return `${body}]}`;
}
