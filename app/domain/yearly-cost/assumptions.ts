// What the shopper's own yearly cost assumes where the plan data is silent: the price of a fill by
// formulary tier, the benefit row each tier's cost sharing is read from, visits a year to a chosen
// doctor, and which year of care is a "bad year". Every figure and its source: docs/yearly-cost.md
// ("Your year"); decisions 330-333.

import { isPrimaryCare } from "./doctor-kind";
import { SERVICE_ALLOWED_COST, type UsageLevel } from "./usage-level";

/** A formulary tier as the cost model prices it (issuers' drugs.json `drug_tier` values map onto these). */
export type DrugTierKind = "generic" | "preferredBrand" | "nonPreferredBrand" | "specialty" | "preventive";

/**
 * The formulary `drug_tier` values of the CMS machine-readable files (QHP MR PUF schema: GENERIC,
 * PREFERRED-GENERIC, NON-PREFERRED-GENERIC, PREFERRED-BRAND, NON-PREFERRED-BRAND, SPECIALTY,
 * ZERO-COST-SHARE-PREVENTIVE, …) mapped to the tier whose benefit row prices them; null when unknown.
 */
export function drugTierKind(tier: string | null | undefined): DrugTierKind | null {
  const t = (tier ?? "")
    .trim()
    .toUpperCase()
    .replace(/[\s_]+/g, "-");
  if (!t) return null;
  if (t.includes("ZERO-COST") || t.includes("PREVENTIVE")) return "preventive";
  if (t.includes("SPECIALTY")) return "specialty";
  if (t.includes("NON-PREFERRED-BRAND")) return "nonPreferredBrand";
  if (t.includes("BRAND")) return "preferredBrand";
  if (t.includes("GENERIC")) return "generic";
  return null;
}

/** The Benefits and Cost Sharing PUF benefit each tier's copay/coinsurance is read from (preventive: $0 by law). */
export const DRUG_TIER_BENEFIT: Readonly<Record<Exclude<DrugTierKind, "preventive">, string>> = {
  generic: "Generic Drugs",
  preferredBrand: "Preferred Brand Drugs",
  nonPreferredBrand: "Non-Preferred Brand Drugs",
  specialty: "Specialty Drugs",
};

/**
 * Assumed price of one 30-day fill by tier: what coinsurance is a share of, and what the shopper pays
 * for a drug the plan does not cover. A small price table (docs/yearly-cost.md "Price of a fill"):
 * generic $15 and preferred brand $300 are the usage estimate's own figures (SERVICE_ALLOWED_COST),
 * checked against Medicare Part D's mean cost per 30-day supply (J Am Board Fam Med 2009;22(2):187,
 * table 3: generic statins $20.70, generic oral diabetes drugs $13.60; brand $100.60 and $156.20 in
 * 2007, and brand prices have since more than doubled for 44% of top sellers, JAMA Netw Open
 * 2019;2(5):e194791); a non-preferred brand costs what a preferred one does (the tier is the plan's
 * preference, not the price); specialty $950 is the Medicare Part D specialty-tier cost threshold
 * (CMS, CY 2024 and 2025 rate announcements: a drug below $950 a month cannot be put on that tier),
 * so it is the least a specialty drug costs.
 */
export const PRICE_PER_FILL: Readonly<Record<DrugTierKind, number>> = {
  generic: SERVICE_ALLOWED_COST.genericDrug,
  preferredBrand: SERVICE_ALLOWED_COST.preferredBrandDrug,
  nonPreferredBrand: SERVICE_ALLOWED_COST.preferredBrandDrug,
  specialty: 950,
  preventive: SERVICE_ALLOWED_COST.genericDrug,
};

/** The tier a drug is priced at when nothing says which (no plan's formulary lists it): a brand. */
export const UNLISTED_DRUG_TIER: DrugTierKind = "preferredBrand";

/** Fills a year when the shopper does not say: one 30-day fill a month. */
export const DEFAULT_FILLS_PER_YEAR = 12;

/** A chosen doctor is paid as a primary care visit or a specialist visit (the BenCS benefit rows). */
export type DoctorKind = "primary" | "specialist";

/**
 * Visits a year to a chosen doctor when the shopper does not say. NCHS's National Ambulatory Medical
 * Care Survey counts about 3.4 office visits per person a year (2007: 994.3 million visits, 335.6 per
 * 100 persons); a doctor someone names to keep is one they see regularly: 3 visits to a primary care
 * doctor, 4 to a specialist (a check-up each quarter for an ongoing condition). Our assumption,
 * editable per doctor (`visits_per_year`).
 */
export const DEFAULT_VISITS: Readonly<Record<DoctorKind, number>> = { primary: 3, specialist: 4 };

/** Allowed cost of one visit, as the usage estimate prices it (SERVICE_ALLOWED_COST). */
export const VISIT_COST: Readonly<Record<DoctorKind, number>> = {
  primary: SERVICE_ALLOWED_COST.primaryCare,
  specialist: SERVICE_ALLOWED_COST.specialist,
};

/** Primary care or specialist, from the doctor's specialties; a specialist when none is known (the dearer visit). */
export function doctorKindOf(specialties: readonly string[] | null | undefined): DoctorKind {
  return isPrimaryCare(specialties) ? "primary" : "specialist";
}

/**
 * The year of care a "bad year" adds to the chosen drugs and doctors: the usage estimate's `high`
 * level ($24,460 of allowed cost per person: a hospital stay, an ER visit, monthly specialist care and
 * a brand drug). By MEPS (AHRQ Statistical Brief #448, 2012: $1.35 trillion for the community
 * population, the top 1% averaging $97,956 and the top 5% holding about half of all spending, so
 * averaging about $43,000) such a year lies among the top 5 to 10 percent of spenders: roughly the
 * 90th-95th percentile. Decision 331.
 */
export const BAD_YEAR_USAGE: UsageLevel = "high";

/** Drugs, and doctors, one plans request may name (each is a coverage look-up per 10 plans). */
export const MAX_CHOSEN = 20;
