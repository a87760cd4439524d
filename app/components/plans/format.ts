import type { TFunction } from "i18next";
import { DEFAULT_LANGUAGE, INTL_LOCALES, tFor, type Language } from "../../i18n/i18n";
import { usePageLanguage } from "../../i18n/use-t";

/**
 * How the consumer pages write numbers and plan facts in the page's language: dollars with
 * cents ($1,234.56, by Intl for the language), plain words for metal levels, usage levels and
 * sorts from the message catalogue. Pure and small: it runs in the browser too.
 */

/** The page's language and its translate function: what the pure word helpers need. */
export interface Words {
  lang: Language;
  t: TFunction;
}

const words = new Map<Language, Words>();

/** One Words per language, made once: the same object for every request and component. */
export function wordsFor(lang: Language): Words {
  let w = words.get(lang);
  if (!w) {
    w = { lang, t: tFor(lang) };
    words.set(lang, w);
  }
  return w;
}

export const ENGLISH: Words = wordsFor(DEFAULT_LANGUAGE);

/**
 * The page's Words, in a component: the language app/root.tsx's Layout provides, English where
 * none is provided (a component rendered on its own).
 */
export function useWords(): Words {
  return wordsFor(usePageLanguage());
}

const usd = new Map<Language, Intl.NumberFormat>();

/** $1,234.56 — every amount on the pages goes through here. */
export function money(amount: number, lang: Language = DEFAULT_LANGUAGE): string {
  let format = usd.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(INTL_LOCALES[lang], {
      style: "currency",
      currency: "USD",
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    usd.set(lang, format);
  }
  return format.format(amount);
}

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
