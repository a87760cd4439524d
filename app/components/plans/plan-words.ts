import plansWords from "virtual:english/plans";
import { addEnglish, type Catalogue } from "../../i18n/i18n";
import { ENGLISH, money, type Words } from "./format";

/*
 * The words of plan facts (metal levels, tiers, usage levels, sorts, limits) from the catalogue's
 * `plans` namespace: apart from format.ts so that a page showing none of them (the results page at
 * first paint, decision 440) does not carry them. The namespace's words come with this module.
 */
addEnglish({ plans: plansWords } as Partial<Catalogue>);

/** A money amount the data may not give ("Not stated", or `missing`). */
export function moneyOr(amount: number | null | undefined, w: Words = ENGLISH, missing?: string): string {
  return amount === null || amount === undefined ? (missing ?? w.t("plans.notStated")) : money(amount, w.lang);
}

export const USAGE_LEVELS = ["low", "medium", "high"] as const;

/** "Low: one sick visit, a short prescription": the usage choice's label. */
export function usageLabel(usage: string, w: Words = ENGLISH): string {
  return (USAGE_LEVELS as readonly string[]).includes(usage) ? w.t(`plans.usage.${usage}`) : usage;
}

/** "low" / "baja": the usage level in a sentence. */
export function usageShort(usage: string, w: Words = ENGLISH): string {
  return (USAGE_LEVELS as readonly string[]).includes(usage) ? w.t(`plans.usageShort.${usage}`) : usage;
}

/** The sorts the results page offers; each is the plans API's `sort` (and the order it implies). */
/** The plans API's sorts, then the results page's own "covers my drugs and doctors first" (decision 251). */
export const SORTS = [
  "my_yearly_cost",
  "premium",
  "yearly_cost",
  "deductible",
  "moop",
  "quality_rating",
  "coverage",
] as const;

export function sortLabels(w: Words = ENGLISH): Array<{ value: string; label: string }> {
  return SORTS.map((value) => ({ value, label: w.t(`plans.sort.${value}`) }));
}

export function peopleWords(count: number, w: Words = ENGLISH): string {
  return w.t("plans.people", { count });
}

const METALS = ["Bronze", "Expanded Bronze", "Silver", "Gold", "Platinum", "Catastrophic"];

/** A metal level in the page's language ("Silver" → "Plata"); an unknown one as the data gives it. */
export function metalWords(metal: string, w: Words = ENGLISH): string {
  return METALS.includes(metal) ? w.t(`plans.metal.${metal.replace(/\s+/g, "")}`) : metal;
}

const TIERS: Record<string, string> = {
  generic: "generic",
  "preferred generic": "preferredGeneric",
  "non-preferred generic": "nonPreferredGeneric",
  "preferred brand": "preferredBrand",
  "non-preferred brand": "nonPreferredBrand",
  specialty: "specialty",
  "preferred specialty": "preferredSpecialty",
  "non-preferred specialty": "nonPreferredSpecialty",
  "zero cost share preventive": "zeroCostSharePreventive",
  "medical service": "medicalService",
  preferred: "preferred",
  "non-preferred": "nonPreferred",
};

/** "NON-PREFERRED-BRAND" → "non-preferred brand" (Spanish: "marca no preferida"); an unknown tier in plain letters. */
export function tierWords(tier: string | null | undefined, w: Words = ENGLISH): string | null {
  if (!tier) return null;
  const plain = tier
    .toLowerCase()
    .replace(/_/g, " ")
    .replace(/-(?=(brand|generic|specialty|tier|drugs?|preventive)\b)/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const key = TIERS[plain];
  return key ? w.t(`plans.tier.${key}`) : plain;
}

/** What a cost-sharing reduction level means for a person: "lower deductibles and copays for you (73% level)". */
export function csrWords(csr: string | null | undefined, w: Words = ENGLISH): string | null {
  if (csr === "94" || csr === "87") return w.t("plans.csr.muchLower", { level: csr });
  if (csr === "73") return w.t("plans.csr.lower", { level: csr });
  return null;
}

/** The key benefits a plan card and the compare table show, by the plans API's `key_benefits` name. */
export const KEY_BENEFITS = ["primary_care", "specialist", "generic_drugs", "emergency_room", "urgent_care"] as const;

export function keyBenefitLabel(key: string, w: Words = ENGLISH): string {
  return w.t(`plans.keyBenefit.${key}`);
}

/** "$1,500.00 per person, $3,000.00 per family": a deductible or out-of-pocket maximum. */
export function limitWords(
  limit: { individual: number | null; family: number | null },
  manyPeople: boolean,
  w: Words = ENGLISH,
): string {
  if (limit.individual === null && limit.family === null) return w.t("plans.notStated");
  const person = w.t("plans.perPerson", { amount: moneyOr(limit.individual, w) });
  return manyPeople && limit.family !== null
    ? w.t("plans.perPersonAndFamily", { person, family: money(limit.family, w.lang) })
    : person;
}
