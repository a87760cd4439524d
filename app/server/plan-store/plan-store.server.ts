/**
 * Read access to the plan store (the SQLite file built by `npm run seed`).
 *
 * `planStore()` is a process-wide reader over the PLAN_STORE_PATH setting,
 * opened read-only. A reseed renames a new file over the old one; at most once
 * a second the reader compares the file's inode with the one it has open and,
 * when they differ, opens the new file and closes the old handle once no call
 * is using it. Every call therefore answers wholly from one store version.
 *
 * Everything returns plain data; nothing here knows about HTTP.
 * Plan shape: issue 3 part 2 and the specification's "Plan (own plan data)".
 */
import Database from "better-sqlite3";
import { statSync } from "node:fs";
import path from "node:path";
import { and, asc, eq, exists, or, sql } from "drizzle-orm";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import * as schema from "../../../db/plan-store";
import {
  benefits,
  costLimits,
  counties,
  dataVersions as dataVersionsTable,
  formulary,
  issuers,
  planDocuments,
  planVariants,
  plans,
  providerNetwork,
  qualityRatings,
  rates,
  ratingAreaCounties,
  ratingAreaZip3,
  sbcScenarios,
  serviceAreaZips,
  serviceAreas,
  states,
  storeMeta,
  zipCounties,
  PLAN_STORE_SCHEMA_VERSION,
  type ExchangeKind,
} from "../../../db/plan-store";
import {
  describeCostShare,
  parseRatingArea,
  ratingAreaLabel,
  STANDARD_COMPONENT_ID,
  VARIANT_ID,
} from "../../../db/plan-store-values";
import { env } from "../platform/env.server";
import { forgetSingleton, onShutdown, processSingleton } from "../platform/lifecycle.server";
import type { CsrLevel } from "../../domain/csr";
import { deepFreeze } from "../../lib/deep-freeze";

// ---------------------------------------------------------------- public types

export type { ExchangeKind };

export type StateInfo = {
  code: string;
  name: string;
  exchangeKind: ExchangeKind;
  marketplaceName?: string;
  marketplaceUrl?: string;
  ownedData: boolean;
  /** The plan year whose row answered (the requested year, or the nearest one on file). */
  planYear: number;
};

export type CountyMatch = { zip: string; countyFips: string; countyName: string; state: string; share: number };

export type Place = { year: number; state: string; countyFips: string; zip?: string };

export type DataVersion = {
  sourceFile: string;
  format: string;
  planYear: number | null;
  checksum: string;
  bytes: number;
  rowsRead: number;
  rowsLoaded: number;
  rowsSkipped: number;
  rowsRejected: number;
  skipReasons: Record<string, number>;
  rejectReasons: Record<string, { count: number; lines: number[] }>;
  loadedAt: string;
  isSample: boolean;
};

/** An individual and a family amount with the PUF's text ("$6,000", "Not Applicable"). */
export type CostLimit = {
  individual: number | null;
  family: number | null;
  individualDisplay: string | null;
  familyDisplay: string | null;
};

/** Deductible; `drug` is present when the plan's medical and drug deductibles are separate. */
export type Deductible = CostLimit & { drug?: CostLimit };

/** One filled deductible / MOOP cell of Plan Attributes. */
export type CostLimitDetail = {
  coverage: "medical" | "drug" | "total";
  networkTier: "in_network_tier1" | "in_network_tier2" | "out_of_network" | "combined";
  familyCost: "individual" | "family_per_person" | "family_per_group";
  amount: number | null;
  display: string;
};

export type PlanUrls = {
  summaryOfBenefits?: string;
  formulary?: string;
  providerDirectory?: string;
  brochure?: string;
  enrollment?: string;
};

/** A copay: dollars; a coinsurance: a fraction (0.3 = 30%). `display` is the PUF text. */
export type CostShareValue = {
  display: string | null;
  value: number | null;
  noCharge: boolean;
  afterDeductible: boolean;
  notApplicable: boolean;
};

export type TierCostShare = { copay: CostShareValue; coinsurance: CostShareValue };

export type BenefitDetail = {
  name: string;
  covered: boolean | null;
  isEhb: boolean | null;
  inNetwork: TierCostShare;
  /** Present only for plans with a second in-network tier. */
  inNetworkTier2?: TierCostShare;
  outOfNetwork: TierCostShare;
  limit: { quantity: number | null; unit: string | null } | null;
  exclusions: string | null;
  explanation: string | null;
  excludedFromInNetworkMoop: boolean | null;
  excludedFromOutOfNetworkMoop: boolean | null;
};

export type SbcScenario = {
  deductible: number | null;
  copayment: number | null;
  coinsurance: number | null;
  limit: number | null;
  /** What the member pays in the example: the sum of the four, when all are known. */
  total: number | null;
};

export type SbcScenarios = { havingABaby?: SbcScenario; managingDiabetes?: SbcScenario; simpleFracture?: SbcScenario };

export type QualityRating = {
  overall: number | null;
  medicalCare: number | null;
  memberExperience: number | null;
  planAdministration: number | null;
  /** The PUF's reason when the plan is not rated overall ("NR - New-Ineligible for Scoring"). */
  notRatedReason: string | null;
};

export type KeyBenefits = {
  primaryCare?: TierCostShare;
  specialist?: TierCostShare;
  emergencyRoom?: TierCostShare;
  urgentCare?: TierCostShare;
  genericDrugs?: TierCostShare;
  preferredBrandDrugs?: TierCostShare;
  imaging?: TierCostShare;
  inpatientStay?: TierCostShare;
};

/** A CSR variant in a plan list: its id, deductible, MOOP and common cost-shares. */
export type CsrVariantSummary = {
  variantId: string;
  deductible: Deductible;
  moop: CostLimit;
  keyBenefits: KeyBenefits;
};

export type PlanSummary = {
  id: string;
  year: number;
  name: string;
  state: string;
  issuer: { id: string; name: string };
  metalLevel: string;
  type: string | null;
  hsaEligible: boolean;
  designType: string | null;
  /** Share of the premium that covers essential health benefits (Plan Attributes EHBPercentTotalPremium, 0–1); null when not given. */
  ehbShare: number | null;
  /** The variant the list-level fields come from (-01, the on-exchange plan without CSR). */
  variantId: string;
  deductible: Deductible;
  moop: CostLimit;
  /** Overall star rating 1–5, null when not rated or not in the Quality PUF. */
  qualityRating: number | null;
  urls: PlanUrls;
  /** The plan's silver CSR variants present in the data, by level. */
  csrVariantIds: Partial<Record<CsrLevel, string>>;
  csrVariants: Partial<Record<CsrLevel, CsrVariantSummary>>;
  /** In-network tier-1 cost-shares of the common benefits (base variant). */
  keyBenefits: KeyBenefits;
};

export type VariantDetail = {
  variantId: string;
  csrLevel: CsrLevel | null;
  csrVariationType: string | null;
  actuarialValue: number | null;
  deductible: Deductible;
  moop: CostLimit;
  deductibles: CostLimitDetail[];
  moops: CostLimitDetail[];
  benefitDetails: BenefitDetail[];
  sbcScenarios: SbcScenarios;
};

export type AgeRate = {
  /** Monthly premium for a non-tobacco user (and for everyone when the plan does not rate tobacco). */
  individual: number;
  /** Monthly premium for a tobacco user; equal to `individual` when the plan does not rate tobacco; null when not given. */
  tobacco: number | null;
};

/** Family-tier premiums of a "Family Option" rate row (community-rated states such as NY). */
export type FamilyTiers = {
  individual: number;
  couple: number | null;
  primarySubscriberAndOneDependent: number | null;
  primarySubscriberAndTwoDependents: number | null;
  primarySubscriberAndThreeOrMoreDependents: number | null;
  coupleAndOneDependent: number | null;
  coupleAndTwoDependents: number | null;
  coupleAndThreeOrMoreDependents: number | null;
};

export type RateTable = {
  /** Keyed by the Rate PUF's age label: "0-14", "15" … "63", "64 and over". */
  ageRates: Record<string, AgeRate>;
  familyTiers?: FamilyTiers;
};

/** A place's plans with the rate table each has in the place's rating area (see PlanStore.placeOffer). */
export type PlaceOffer = Readonly<{
  /** "Rating Area N", or null when the place has none (then no plan can be priced). */
  ratingArea: string | null;
  plans: readonly PlanSummary[];
  /** rateTables[i] is plans[i]'s table in the rating area; null when it has no rates there. */
  rateTables: readonly (RateTable | null)[];
}>;

export type PlanDetail = PlanSummary & {
  /** Age-21 non-tobacco monthly premium in the requested rating area (else the plan's lowest). */
  premium: number | null;
  /** Age-21 non-tobacco monthly premium per rating area ("Rating Area 7": 412.5); family-tier single rate where there is no age rating. */
  premiumsByRatingArea: Record<string, number>;
  ageRatesByArea: Record<string, Record<string, AgeRate>>;
  familyTiersByArea: Record<string, FamilyTiers>;
  deductibles: CostLimitDetail[];
  moops: CostLimitDetail[];
  /** In-network tier-1 copay in dollars per covered benefit (base variant); null = no copay stated. */
  copays: Record<string, number | null>;
  /** In-network tier-1 coinsurance as a fraction per covered benefit (base variant). */
  coinsurance: Record<string, number | null>;
  details: {
    networkId: string | null;
    serviceAreaId: string | null;
    formularyId: string | null;
    isReferralRequiredForSpecialist: boolean | null;
    specialistRequiringReferral: string | null;
    nationalNetwork: boolean | null;
    outOfCountryCoverage: boolean | null;
    outOfServiceAreaCoverage: boolean | null;
    ehbPercentPremium: number | null;
    isNewPlan: boolean | null;
  };
  puf: {
    variantId: string;
    variantIds: string[];
    csrVariationType: string | null;
    actuarialValue: number | null;
    csrVariants: Partial<Record<CsrLevel, VariantDetail>>;
    sbcScenarios: SbcScenarios;
    qualityRating: QualityRating | null;
    urls: PlanUrls;
    benefitDetails: BenefitDetail[];
  };
};

export type FormularyRow = {
  rxcui: string;
  planId: string;
  drugTier: string | null;
  priorAuth: boolean | null;
  stepTherapy: boolean | null;
  quantityLimit: boolean | null;
};

export type NetworkRow = { npi: string; planId: string; networkTier: string | null };

/** The plan store file is missing or was built by an incompatible pipeline. */
export class PlanStoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlanStoreUnavailableError";
  }
}

// ---------------------------------------------------------------- helpers

type VariantRow = typeof planVariants.$inferSelect;
type BenefitRow = typeof benefits.$inferSelect;
type VariantLimits = Pick<
  VariantRow,
  | "variantId"
  | "planId"
  | "suffix"
  | "csrLevel"
  | "deductibleIndividualRaw"
  | "deductibleIndividual"
  | "deductibleFamilyRaw"
  | "deductibleFamily"
  | "drugDeductibleIndividualRaw"
  | "drugDeductibleIndividual"
  | "drugDeductibleFamilyRaw"
  | "drugDeductibleFamily"
  | "moopIndividualRaw"
  | "moopIndividual"
  | "moopFamilyRaw"
  | "moopFamily"
>;
type KeyBenefitRow = Pick<
  BenefitRow,
  "variantId" | "benefitName" | "copayInnTier1" | "copayInnTier1Amount" | "coinsInnTier1" | "coinsInnTier1Rate"
>;

const json = (list: readonly string[]) => JSON.stringify([...new Set(list)]);
const inList = (column: unknown, name: string) =>
  sql`${column} IN (SELECT value FROM json_each(${sql.placeholder(name)}))`;

function normalizeZip(zip: string | undefined): string | undefined {
  if (zip === undefined) return undefined;
  const m = /^\s*([0-9]{5})(?:-?[0-9]{4})?\s*$/.exec(zip);
  return m ? m[1] : undefined;
}

function planIdOf(id: string): string | undefined {
  const t = id.trim().toUpperCase();
  if (STANDARD_COMPONENT_ID.test(t)) return t;
  const m = VARIANT_ID.exec(t);
  return m ? m[1] : undefined;
}

function csrKey(level: number | null): CsrLevel | null {
  return level === 94 ? "94" : level === 87 ? "87" : level === 73 ? "73" : null;
}

function limitOf(
  individual: number | null,
  individualRaw: string | null,
  family: number | null,
  familyRaw: string | null,
): CostLimit {
  return { individual, family, individualDisplay: individualRaw, familyDisplay: familyRaw };
}

function deductibleOf(v: VariantLimits): Deductible {
  const d: Deductible = limitOf(
    v.deductibleIndividual,
    v.deductibleIndividualRaw,
    v.deductibleFamily,
    v.deductibleFamilyRaw,
  );
  if (v.drugDeductibleIndividualRaw !== null || v.drugDeductibleFamilyRaw !== null) {
    d.drug = limitOf(
      v.drugDeductibleIndividual,
      v.drugDeductibleIndividualRaw,
      v.drugDeductibleFamily,
      v.drugDeductibleFamilyRaw,
    );
  }
  return d;
}

function moopOf(v: VariantLimits): CostLimit {
  return limitOf(v.moopIndividual, v.moopIndividualRaw, v.moopFamily, v.moopFamilyRaw);
}

function costShareValue(raw: string | null, value: number | null): CostShareValue {
  const d = describeCostShare(raw);
  return {
    display: raw,
    value,
    noCharge: d.noCharge,
    afterDeductible: d.afterDeductible,
    notApplicable: d.notApplicable,
  };
}

function benefitDetail(b: BenefitRow): BenefitDetail {
  const detail: BenefitDetail = {
    name: b.benefitName,
    covered: b.isCovered,
    isEhb: b.isEhb,
    inNetwork: {
      copay: costShareValue(b.copayInnTier1, b.copayInnTier1Amount),
      coinsurance: costShareValue(b.coinsInnTier1, b.coinsInnTier1Rate),
    },
    outOfNetwork: {
      copay: costShareValue(b.copayOutOfNet, b.copayOutOfNetAmount),
      coinsurance: costShareValue(b.coinsOutOfNet, b.coinsOutOfNetRate),
    },
    limit: b.quantLimitOnSvc || b.limitQty !== null ? { quantity: b.limitQty, unit: b.limitUnit } : null,
    exclusions: b.exclusions,
    explanation: b.explanation,
    excludedFromInNetworkMoop: b.isExclFromInnMoop,
    excludedFromOutOfNetworkMoop: b.isExclFromOonMoop,
  };
  if (b.copayInnTier2 !== null || b.coinsInnTier2 !== null) {
    detail.inNetworkTier2 = {
      copay: costShareValue(b.copayInnTier2, b.copayInnTier2Amount),
      coinsurance: costShareValue(b.coinsInnTier2, b.coinsInnTier2Rate),
    };
  }
  return detail;
}

const KEY_BENEFITS: Array<[keyof KeyBenefits, string]> = [
  ["primaryCare", "primary care visit to treat an injury or illness"],
  ["specialist", "specialist visit"],
  ["emergencyRoom", "emergency room services"],
  ["urgentCare", "urgent care centers or facilities"],
  ["genericDrugs", "generic drugs"],
  ["preferredBrandDrugs", "preferred brand drugs"],
  ["imaging", "x-rays and diagnostic imaging"],
  ["inpatientStay", "inpatient hospital services (e.g., hospital stay)"],
];

const KEY_BENEFIT_NAMES = JSON.stringify(KEY_BENEFITS.map(([, name]) => name));

function keyBenefitsOf(rows: KeyBenefitRow[]): KeyBenefits {
  const out: KeyBenefits = {};
  for (const [key, name] of KEY_BENEFITS) {
    const b = rows.find((r) => r.benefitName.trim().toLowerCase() === name);
    if (b)
      out[key] = {
        copay: costShareValue(b.copayInnTier1, b.copayInnTier1Amount),
        coinsurance: costShareValue(b.coinsInnTier1, b.coinsInnTier1Rate),
      };
  }
  return out;
}

const SCENARIO_KEYS = {
  having_a_baby: "havingABaby",
  managing_diabetes: "managingDiabetes",
  simple_fracture: "simpleFracture",
} as const;

function sbcOf(rows: Array<typeof sbcScenarios.$inferSelect>): SbcScenarios {
  const out: SbcScenarios = {};
  for (const r of rows) {
    const parts = [r.deductible, r.copayment, r.coinsurance, r.limit];
    out[SCENARIO_KEYS[r.scenario]] = {
      deductible: r.deductible,
      copayment: r.copayment,
      coinsurance: r.coinsurance,
      limit: r.limit,
      total: parts.every((p) => p !== null) ? (parts as number[]).reduce((a, b) => a + b, 0) : null,
    };
  }
  return out;
}

const URL_KEYS = {
  summary_of_benefits: "summaryOfBenefits",
  formulary: "formulary",
  provider_directory: "providerDirectory",
  brochure: "brochure",
  enrollment: "enrollment",
} as const;

/** The variant the plan's list-level fields come from: -01, else the lowest on-exchange suffix, else any. */
function baseVariant<V extends { suffix: string }>(variants: V[]): V | undefined {
  const sorted = [...variants].sort((a, b) => a.suffix.localeCompare(b.suffix));
  return sorted.find((v) => v.suffix === "01") ?? sorted.find((v) => v.suffix !== "00") ?? sorted[0];
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}

// ---------------------------------------------------------------- one open store file

const RATE_COLUMNS = {
  planId: rates.planId,
  ratingArea: rates.ratingArea,
  ageBand: rates.ageBand,
  tobacco: rates.tobacco,
  individualRate: rates.individualRate,
  tobaccoRate: rates.tobaccoRate,
  couple: rates.couple,
  p1: rates.primarySubscriberAndOneDependent,
  p2: rates.primarySubscriberAndTwoDependents,
  p3: rates.primarySubscriberAndThreeOrMoreDependents,
  c1: rates.coupleAndOneDependent,
  c2: rates.coupleAndTwoDependents,
  c3: rates.coupleAndThreeOrMoreDependents,
};
const FORMULARY_COLUMNS = {
  rxcui: formulary.rxcui,
  planId: formulary.planId,
  drugTier: formulary.drugTier,
  priorAuth: formulary.priorAuth,
  stepTherapy: formulary.stepTherapy,
  quantityLimit: formulary.quantityLimit,
};
const NETWORK_COLUMNS = {
  npi: providerNetwork.npi,
  planId: providerNetwork.planId,
  networkTier: providerNetwork.networkTier,
};
/** A rate row as read by `.values()`, in RATE_COLUMNS order. */
type RateValues = [
  string,
  number,
  string,
  string,
  number,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
];

function prepareQueries(db: BetterSQLite3Database<typeof schema>) {
  const P = {
    year: sql.placeholder("year"),
    state: sql.placeholder("state"),
    county: sql.placeholder("county"),
    zip: sql.placeholder("zip"),
  };
  const zipListed = exists(
    db
      .select({ one: sql`1` })
      .from(serviceAreaZips)
      .where(
        and(
          eq(serviceAreaZips.planYear, serviceAreas.planYear),
          eq(serviceAreaZips.issuerId, serviceAreas.issuerId),
          eq(serviceAreaZips.serviceAreaId, serviceAreas.serviceAreaId),
          eq(serviceAreaZips.countyFips, serviceAreas.countyFips),
          eq(serviceAreaZips.zip, P.zip),
        ),
      ),
  );
  // A plan is offered in a place when its issuer's service area covers the
  // state, or the county (a partial county only for its listed ZIPs).
  const servesPlace = and(
    eq(serviceAreas.planYear, plans.planYear),
    eq(serviceAreas.issuerId, plans.issuerId),
    eq(serviceAreas.serviceAreaId, plans.serviceAreaId),
    eq(serviceAreas.state, P.state),
    or(
      eq(serviceAreas.coverEntireState, true),
      and(
        eq(serviceAreas.countyFips, P.county),
        or(eq(serviceAreas.partialCounty, false), sql`${P.zip} IS NULL`, zipListed),
      ),
    ),
  );

  return {
    meta: db.select().from(storeMeta).prepare(),
    dataVersions: db.select().from(dataVersionsTable).orderBy(asc(dataVersionsTable.id)).prepare(),
    years: db.selectDistinct({ year: plans.planYear }).from(plans).orderBy(asc(plans.planYear)).prepare(),
    stateRows: db.select().from(states).where(eq(states.code, P.state)).orderBy(asc(states.planYear)).prepare(),
    countiesForZip: db
      .select({
        zip: zipCounties.zip,
        countyFips: zipCounties.countyFips,
        countyName: counties.name,
        state: zipCounties.state,
        share: zipCounties.share,
      })
      .from(zipCounties)
      .leftJoin(counties, eq(counties.fips, zipCounties.countyFips))
      .where(eq(zipCounties.zip, P.zip))
      .orderBy(asc(zipCounties.rank))
      .prepare(),
    ratingAreaByCounty: db
      .select({ ratingArea: ratingAreaCounties.ratingArea })
      .from(ratingAreaCounties)
      .where(
        and(
          eq(ratingAreaCounties.planYear, P.year),
          eq(ratingAreaCounties.countyFips, P.county),
          eq(ratingAreaCounties.state, P.state),
        ),
      )
      .prepare(),
    ratingAreaByZip3: db
      .select({ ratingArea: ratingAreaZip3.ratingArea })
      .from(ratingAreaZip3)
      .where(
        and(
          eq(ratingAreaZip3.planYear, P.year),
          eq(ratingAreaZip3.state, P.state),
          eq(ratingAreaZip3.zip3, sql.placeholder("zip3")),
        ),
      )
      .prepare(),
    plansOffered: db
      .selectDistinct({ planId: plans.planId })
      .from(plans)
      .innerJoin(serviceAreas, servesPlace)
      .where(and(eq(plans.planYear, P.year), eq(plans.state, P.state), eq(plans.onExchange, true)))
      .orderBy(asc(plans.planId))
      .prepare(),
    planOffered: db
      .select({ planId: plans.planId })
      .from(plans)
      .innerJoin(serviceAreas, servesPlace)
      .where(
        and(
          eq(plans.planYear, P.year),
          eq(plans.planId, sql.placeholder("planId")),
          eq(plans.state, P.state),
          eq(plans.onExchange, true),
        ),
      )
      .limit(1)
      .prepare(),
    // List queries select only what a plan list shows: wide rows cost more to
    // turn into objects than to read (a county can offer hundreds of plans).
    planList: db
      .select({
        planId: plans.planId,
        planYear: plans.planYear,
        name: plans.name,
        state: plans.state,
        issuerId: plans.issuerId,
        issuerName: issuers.name,
        metalLevel: plans.metalLevel,
        planType: plans.planType,
        hsaEligible: plans.hsaEligible,
        designType: plans.designType,
        ehbShare: plans.ehbPercentPremium,
      })
      .from(plans)
      .leftJoin(issuers, and(eq(issuers.planYear, plans.planYear), eq(issuers.issuerId, plans.issuerId)))
      .where(and(eq(plans.planYear, P.year), inList(plans.planId, "ids")))
      .orderBy(asc(plans.planId))
      .prepare(),
    planRow: db
      .select()
      .from(plans)
      .where(and(eq(plans.planYear, P.year), eq(plans.planId, sql.placeholder("planId"))))
      .prepare(),
    variantLimits: db
      .select({
        variantId: planVariants.variantId,
        planId: planVariants.planId,
        suffix: planVariants.suffix,
        csrLevel: planVariants.csrLevel,
        deductibleIndividualRaw: planVariants.deductibleIndividualRaw,
        deductibleIndividual: planVariants.deductibleIndividual,
        deductibleFamilyRaw: planVariants.deductibleFamilyRaw,
        deductibleFamily: planVariants.deductibleFamily,
        drugDeductibleIndividualRaw: planVariants.drugDeductibleIndividualRaw,
        drugDeductibleIndividual: planVariants.drugDeductibleIndividual,
        drugDeductibleFamilyRaw: planVariants.drugDeductibleFamilyRaw,
        drugDeductibleFamily: planVariants.drugDeductibleFamily,
        moopIndividualRaw: planVariants.moopIndividualRaw,
        moopIndividual: planVariants.moopIndividual,
        moopFamilyRaw: planVariants.moopFamilyRaw,
        moopFamily: planVariants.moopFamily,
      })
      .from(planVariants)
      .where(and(eq(planVariants.planYear, P.year), inList(planVariants.planId, "ids")))
      .orderBy(asc(planVariants.variantId))
      .prepare(),
    variantsOfPlan: db
      .select()
      .from(planVariants)
      .where(and(eq(planVariants.planYear, P.year), eq(planVariants.planId, sql.placeholder("planId"))))
      .orderBy(asc(planVariants.variantId))
      .prepare(),
    overallRatings: db
      .select({ planId: qualityRatings.planId, overall: qualityRatings.overall })
      .from(qualityRatings)
      .where(and(eq(qualityRatings.planYear, P.year), inList(qualityRatings.planId, "ids")))
      .prepare(),
    qualityOfPlan: db
      .select()
      .from(qualityRatings)
      .where(and(eq(qualityRatings.planYear, P.year), eq(qualityRatings.planId, sql.placeholder("planId"))))
      .prepare(),
    keyBenefitsOfVariants: db
      .select({
        variantId: benefits.variantId,
        benefitName: benefits.benefitName,
        copayInnTier1: benefits.copayInnTier1,
        copayInnTier1Amount: benefits.copayInnTier1Amount,
        coinsInnTier1: benefits.coinsInnTier1,
        coinsInnTier1Rate: benefits.coinsInnTier1Rate,
      })
      .from(benefits)
      .where(
        and(
          eq(benefits.planYear, P.year),
          inList(benefits.variantId, "ids"),
          sql`lower(${benefits.benefitName}) IN (SELECT value FROM json_each(${sql.placeholder("names")}))`,
        ),
      )
      .prepare(),
    documents: db
      .select()
      .from(planDocuments)
      .where(and(eq(planDocuments.planYear, P.year), inList(planDocuments.planId, "ids")))
      .prepare(),
    benefitsOfVariants: db
      .select()
      .from(benefits)
      .where(and(eq(benefits.planYear, P.year), inList(benefits.variantId, "ids")))
      .orderBy(asc(benefits.variantId), asc(benefits.benefitName))
      .prepare(),
    limitsOfVariants: db
      .select()
      .from(costLimits)
      .where(and(eq(costLimits.planYear, P.year), inList(costLimits.variantId, "ids")))
      .prepare(),
    sbcOfVariants: db
      .select()
      .from(sbcScenarios)
      .where(and(eq(sbcScenarios.planYear, P.year), inList(sbcScenarios.variantId, "ids")))
      .orderBy(asc(sbcScenarios.variantId), asc(sbcScenarios.scenario))
      .prepare(),
    // Rates are read as arrays (.values()) in RATE_COLUMNS order: thousands of rows per answer.
    ratesOfPlan: db
      .select(RATE_COLUMNS)
      .from(rates)
      .where(and(eq(rates.planYear, P.year), eq(rates.planId, sql.placeholder("planId"))))
      .orderBy(asc(rates.ratingArea), asc(rates.effectiveDate))
      .prepare(),
    ratesInArea: db
      .select(RATE_COLUMNS)
      .from(rates)
      .where(
        and(eq(rates.planYear, P.year), inList(rates.planId, "ids"), eq(rates.ratingArea, sql.placeholder("area"))),
      )
      .orderBy(asc(rates.planId), asc(rates.effectiveDate))
      .prepare(),
    // With and without a plan filter: separate statements so that the
    // (year, rxcui, plan) index serves both lists.
    formularyRows: db
      .selectDistinct(FORMULARY_COLUMNS)
      .from(formulary)
      .where(and(eq(formulary.planYear, P.year), inList(formulary.rxcui, "rxcuis")))
      .orderBy(asc(formulary.rxcui), asc(formulary.planId), asc(formulary.drugTier))
      .prepare(),
    formularyRowsOfPlans: db
      .selectDistinct(FORMULARY_COLUMNS)
      .from(formulary)
      .where(
        and(eq(formulary.planYear, P.year), inList(formulary.rxcui, "rxcuis"), inList(formulary.planId, "planIds")),
      )
      .orderBy(asc(formulary.rxcui), asc(formulary.planId), asc(formulary.drugTier))
      .prepare(),
    networkRows: db
      .selectDistinct(NETWORK_COLUMNS)
      .from(providerNetwork)
      .where(and(eq(providerNetwork.planYear, P.year), inList(providerNetwork.npi, "npis")))
      .orderBy(asc(providerNetwork.npi), asc(providerNetwork.planId), asc(providerNetwork.networkTier))
      .prepare(),
    networkRowsOfPlans: db
      .selectDistinct(NETWORK_COLUMNS)
      .from(providerNetwork)
      .where(
        and(
          eq(providerNetwork.planYear, P.year),
          inList(providerNetwork.npi, "npis"),
          inList(providerNetwork.planId, "planIds"),
        ),
      )
      .orderBy(asc(providerNetwork.npi), asc(providerNetwork.planId), asc(providerNetwork.networkTier))
      .prepare(),
  };
}

type Queries = ReturnType<typeof prepareQueries>;

/** A Map that keeps at most `limit` entries, dropping the least recently used. */
/**
 * A least-recently-used map holding at most `limit` weight: each entry weighs
 * 1 unless `weigh` says otherwise (a place's offer weighs its plan count, so
 * the bound is on the rate tables it keeps alive, not on places).
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();
  private total = 0;
  constructor(
    private readonly limit: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: K, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) this.total -= this.weigh(old);
    this.map.delete(key);
    this.map.set(key, value);
    this.total += this.weigh(value);
    while (this.total > this.limit && this.map.size > 1) {
      const oldest = this.map.keys().next().value as K;
      this.total -= this.weigh(this.map.get(oldest) as V);
      this.map.delete(oldest);
    }
  }
}

// Bounds of the per-store-version caches (docs/decisions/111-plan-store-caches.md):
// a county's list (hundreds of plans) and its rate tables must fit, the whole
// nation's rate tables (54,000 at national scale, ~3.5 KB each) need not.
const SUMMARY_CACHE_ENTRIES = 50_000;
const OFFERED_CACHE_ENTRIES = 4_096;
const RATE_TABLE_CACHE_ENTRIES = 16_384;
const PLAN_DETAIL_CACHE_ENTRIES = 64;
// Place offers hold their rate tables: bounded by the plans they list, so the
// tables they keep alive beyond RATE_TABLE_CACHE_ENTRIES stay as many again at most.
const PLACE_OFFER_PLAN_SLOTS = 16_384;
const COUNTY_CACHE_ENTRIES = 16_384;

/**
 * What one store version answers the same way every time, kept with its
 * handle: a swapped-in store starts with empty caches, and the old ones go
 * with the old handle.
 */
class StoreCache {
  years: number[] | undefined;
  /** `${year}|${planId}` → the plan's list summary (null: not in the store). */
  readonly summaries = new BoundedMap<string, PlanSummary | null>(SUMMARY_CACHE_ENTRIES);
  /** `${year}|${state}|${county}|${zip}` → the plans offered there, by plan id. */
  readonly offered = new BoundedMap<string, readonly PlanSummary[]>(OFFERED_CACHE_ENTRIES);
  /** `${year}|${state}|${county}|${zip}` → the plans offered there with their rate tables (see placeOffer). */
  readonly placeOffers = new BoundedMap<string, PlaceOffer>(PLACE_OFFER_PLAN_SLOTS, (offer) =>
    Math.max(1, offer.plans.length),
  );
  /** `${year}|${ratingArea}|${planId}` → the plan's rate table there (null: no rates there). */
  readonly rateTables = new BoundedMap<string, RateTable | null>(RATE_TABLE_CACHE_ENTRIES);
  /** `${year}|${state}` → the state's marketplace (null: not in the store). */
  readonly states = new BoundedMap<string, StateInfo | null>(1_024);
  /** ZIP → its counties (an unknown ZIP too: [], so a scan for unknown ZIPs stays bounded). */
  readonly countiesForZip = new BoundedMap<string, CountyMatch[]>(COUNTY_CACHE_ENTRIES);
  /** `${year}|${planId}` → the full record without the area-dependent premium. */
  readonly details = new BoundedMap<string, PlanDetail | null>(PLAN_DETAIL_CACHE_ENTRIES);
}

class StoreHandle {
  readonly sqlite: Database.Database;
  readonly queries: Queries;
  readonly sample: boolean;
  readonly cache = new StoreCache();
  leases = 0;
  retired = false;

  constructor(
    readonly file: string,
    readonly ino: number,
    readonly dev: number,
  ) {
    this.sqlite = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const db = drizzle(this.sqlite, { schema });
      this.queries = prepareQueries(db);
      const meta = new Map(this.queries.meta.all().map((r) => [r.key, r.value]));
      const version = Number(meta.get("schema_version"));
      if (version !== PLAN_STORE_SCHEMA_VERSION) {
        throw new PlanStoreUnavailableError(
          `plan store ${file} has schema version ${meta.get("schema_version") ?? "none"}, expected ${PLAN_STORE_SCHEMA_VERSION}: run npm run seed`,
        );
      }
      this.sample = meta.get("sample") === "1";
    } catch (error) {
      this.sqlite.close();
      if (error instanceof PlanStoreUnavailableError) throw error;
      throw new PlanStoreUnavailableError(
        `plan store ${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  close(): void {
    if (this.sqlite.open) this.sqlite.close();
  }
}

/** Rate rows → per plan, per rating area: age rates and family tiers (the earliest effective date wins). */
function rateTablesFrom(rows: RateValues[]): Map<string, Map<number, RateTable>> {
  const out = new Map<string, Map<number, RateTable>>();
  for (const [planId, area, ageBand, tobacco, individual, tobaccoRate, couple, p1, p2, p3, c1, c2, c3] of rows) {
    let byArea = out.get(planId);
    if (!byArea) out.set(planId, (byArea = new Map()));
    let table = byArea.get(area);
    if (!table) byArea.set(area, (table = { ageRates: {} }));
    if (ageBand === "Family Option") {
      table.familyTiers ??= {
        individual,
        couple,
        primarySubscriberAndOneDependent: p1,
        primarySubscriberAndTwoDependents: p2,
        primarySubscriberAndThreeOrMoreDependents: p3,
        coupleAndOneDependent: c1,
        coupleAndTwoDependents: c2,
        coupleAndThreeOrMoreDependents: c3,
      };
    } else if (!(ageBand in table.ageRates)) {
      // Without tobacco rating everyone pays the one rate (puf-formats.md §4).
      table.ageRates[ageBand] = {
        individual,
        tobacco: tobacco === "no_preference" ? (tobaccoRate ?? individual) : tobaccoRate,
      };
    }
  }
  return out;
}

// ---------------------------------------------------------------- the reader

export type PlanStoreOptions = {
  /** How often, at most, to look for a swapped-in store file (ms). Default 1000. */
  checkIntervalMs?: number;
};

export class PlanStore {
  private current: StoreHandle | undefined;
  private lastCheck = 0;
  private closed = false;
  readonly path: string;
  private readonly checkIntervalMs: number;

  constructor(file: string, options: PlanStoreOptions = {}) {
    this.path = path.resolve(file);
    this.checkIntervalMs = options.checkIntervalMs ?? 1000;
  }

  /** The open handle, reopening when the file on disk was replaced (checked at most once per interval). */
  private handle(): StoreHandle {
    if (this.closed) throw new PlanStoreUnavailableError("plan store is closed");
    const now = Date.now();
    if (this.current && now - this.lastCheck < this.checkIntervalMs) return this.current;
    this.lastCheck = now;
    let stat: { ino: number; dev: number } | undefined;
    try {
      stat = statSync(this.path);
    } catch {
      stat = undefined;
    }
    if (!stat) {
      // Between unlink and rename nothing is missing (rename is atomic), so
      // a missing file means no store at all; keep serving an open one.
      if (this.current) return this.current;
      throw new PlanStoreUnavailableError(
        `plan store not found at ${this.path}: run npm run seed (or npm run seed:sample)`,
      );
    }
    if (!this.current || stat.ino !== this.current.ino || stat.dev !== this.current.dev) {
      let next: StoreHandle;
      try {
        next = new StoreHandle(this.path, stat.ino, stat.dev);
      } catch (error) {
        if (this.current) return this.current; // keep the working store
        throw error;
      }
      const old = this.current;
      this.current = next;
      if (old) this.retire(old);
    }
    return this.current;
  }

  private retire(h: StoreHandle): void {
    h.retired = true;
    if (h.leases === 0) h.close();
  }

  /** Runs `fn` on one store version; a swapped-out handle closes after its last user. */
  private use<T>(fn: (q: Queries, h: StoreHandle) => T): T {
    const h = this.handle();
    h.leases++;
    try {
      return fn(h.queries, h);
    } finally {
      h.leases--;
      if (h.retired && h.leases === 0) h.close();
    }
  }

  /** Whether a readable store is present. */
  available(): boolean {
    try {
      this.handle();
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.closed = true;
    if (this.current) this.retire(this.current);
    this.current = undefined;
  }

  /** True when the store was built from sample data (pages must say so). */
  isSample(): boolean {
    return this.use((_, h) => h.sample);
  }

  dataVersions(): DataVersion[] {
    return this.use((q) =>
      q.dataVersions.all().map((r) => ({
        sourceFile: r.sourceFile,
        format: r.format,
        planYear: r.planYear,
        checksum: r.checksum,
        bytes: r.bytes,
        rowsRead: r.rowsRead,
        rowsLoaded: r.rowsLoaded,
        rowsSkipped: r.rowsSkipped,
        rowsRejected: r.rowsRejected,
        skipReasons: JSON.parse(r.skipReasons) as DataVersion["skipReasons"],
        rejectReasons: JSON.parse(r.rejectReasons) as DataVersion["rejectReasons"],
        loadedAt: r.loadedAt,
        isSample: r.isSample,
      })),
    );
  }

  /** Plan years that have plans, ascending. */
  yearsWithData(): number[] {
    return this.use((q, h) => [...(h.cache.years ??= q.years.all().map((r) => r.year))]);
  }

  /**
   * A state's marketplace for a plan year. When the states file has no row
   * for that year, the nearest earlier year answers (else the nearest later):
   * marketplace types rarely change and a stale answer beats none.
   */
  state(code: string, year: number): StateInfo | undefined {
    return this.use((q, h) => {
      const key = `${year}|${code.trim().toUpperCase()}`;
      let info = h.cache.states.get(key);
      if (info === undefined) {
        const rows = q.stateRows.all({ state: code.trim().toUpperCase() });
        const row =
          rows.find((r) => r.planYear === year) ?? [...rows].reverse().find((r) => r.planYear < year) ?? rows[0];
        if (row) {
          info = {
            code: row.code,
            name: row.name,
            exchangeKind: row.exchangeKind,
            ownedData: row.ownedData,
            planYear: row.planYear,
          };
          if (row.marketplaceName) info.marketplaceName = row.marketplaceName;
          if (row.marketplaceUrl) info.marketplaceUrl = row.marketplaceUrl;
        } else info = null;
        h.cache.states.set(key, info);
      }
      return info ? { ...info } : undefined;
    });
  }

  /** Counties of a ZIP (HUD and Census merged), largest share first; [] for an unknown ZIP. */
  countiesForZip(zip: string): CountyMatch[] {
    const z = normalizeZip(zip);
    if (!z) return [];
    return this.use((q, h) => {
      let rows = h.cache.countiesForZip.get(z);
      if (!rows) {
        rows = q.countiesForZip.all({ zip: z }).map((r) => ({
          zip: r.zip,
          countyFips: r.countyFips,
          countyName: r.countyName ?? r.countyFips,
          state: r.state,
          share: r.share,
        }));
        h.cache.countiesForZip.set(z, rows);
      }
      return rows.map((r) => ({ ...r }));
    });
  }

  /**
   * "Rating Area N" for a place: the county's area, or for a county the state
   * defines by 3-digit ZIP instead (AK, NE, Los Angeles County …) the ZIP3's.
   * docs/decisions/024-rating-area-lookup.md.
   */
  ratingAreaFor(place: { year: number; state: string; countyFips?: string; zip?: string }): string | undefined {
    return this.use((q) => this.ratingAreaIn(q, place));
  }

  private ratingAreaIn(
    q: Queries,
    place: { year: number; state: string; countyFips?: string; zip?: string },
  ): string | undefined {
    const state = place.state.trim().toUpperCase();
    if (place.countyFips) {
      const byCounty = q.ratingAreaByCounty.get({ year: place.year, county: place.countyFips, state });
      if (byCounty) return ratingAreaLabel(byCounty.ratingArea);
    }
    const zip = normalizeZip(place.zip);
    if (zip) {
      const byZip3 = q.ratingAreaByZip3.get({ year: place.year, state, zip3: zip.slice(0, 3) });
      if (byZip3) return ratingAreaLabel(byZip3.ratingArea);
    }
    return undefined;
  }

  /** Individual-market medical plans sold on the exchange at a place (service areas, partial-county ZIP lists). */
  plansOffered(place: Place): PlanSummary[] {
    // A fresh array: callers filter and sort it; the summaries themselves are frozen.
    return this.use((q, h) => [...this.offeredIn(q, h, place)]);
  }

  private offeredIn(q: Queries, h: StoreHandle, place: Place): readonly PlanSummary[] {
    const args = this.placeArgs(place);
    const key = `${args.year}|${args.state}|${args.county}|${args.zip ?? ""}`;
    let list = h.cache.offered.get(key);
    if (!list) {
      const ids = q.plansOffered.all(args).map((r) => r.planId);
      list = Object.freeze(this.summaries(q, h, place.year, ids));
      h.cache.offered.set(key, list);
    }
    return list;
  }

  /**
   * What a place's plan list is priced from, put together once per store
   * version: the plans offered there, the place's rating area and each plan's
   * rate table in it (null where the plan has no rates there), in the same
   * order. A list request then does one look-up instead of one per plan.
   */
  placeOffer(place: Place): PlaceOffer {
    const args = this.placeArgs(place);
    const key = `${args.year}|${args.state}|${args.county}|${args.zip ?? ""}`;
    return this.use((q, h) => {
      const known = h.cache.placeOffers.get(key);
      if (known) return known;
      const plans = this.offeredIn(q, h, place);
      const ratingArea = this.ratingAreaIn(q, place) ?? null;
      const tables = ratingArea
        ? this.rateTablesIn(q, h, { year: place.year, planIds: plans.map((p) => p.id), ratingArea })
        : new Map<string, RateTable>();
      const offer: PlaceOffer = Object.freeze({
        ratingArea,
        plans,
        rateTables: Object.freeze(plans.map((p) => tables.get(p.id) ?? null)),
      });
      h.cache.placeOffers.set(key, offer);
      return offer;
    });
  }

  isPlanOfferedIn(args: Place & { planId: string }): boolean {
    const planId = planIdOf(args.planId);
    if (!planId) return false;
    return this.use((q) => q.planOffered.all({ ...this.placeArgs(args), planId }).length > 0);
  }

  private placeArgs(place: Place) {
    return {
      year: place.year,
      state: place.state.trim().toUpperCase(),
      county: place.countyFips,
      zip: normalizeZip(place.zip) ?? null,
    };
  }

  /** Summaries of `ids` in that order (plans not in the store left out), built once per store version. */
  private summaries(q: Queries, h: StoreHandle, year: number, ids: string[]): PlanSummary[] {
    const missing = ids.filter((id) => h.cache.summaries.get(`${year}|${id}`) === undefined);
    if (missing.length > 0) {
      const built = new Map(this.buildSummaries(q, year, missing).map((s) => [s.id, s]));
      for (const id of missing) h.cache.summaries.set(`${year}|${id}`, deepFreeze(built.get(id) ?? null));
      // More ids than the cache holds: answer from what was just built.
      if (missing.length > SUMMARY_CACHE_ENTRIES)
        return ids.flatMap((id) => built.get(id) ?? h.cache.summaries.get(`${year}|${id}`) ?? []);
    }
    return ids.flatMap((id) => h.cache.summaries.get(`${year}|${id}`) ?? []);
  }

  private buildSummaries(q: Queries, year: number, ids: string[]): PlanSummary[] {
    if (ids.length === 0) return [];
    const args = { year, ids: json(ids) };
    const planRows = q.planList.all(args);
    const variantsByPlan = groupBy(q.variantLimits.all(args), (v) => v.planId);
    const quality = new Map(q.overallRatings.all(args).map((r) => [r.planId, r.overall]));
    const docs = groupBy(q.documents.all(args), (d) => d.planId);
    const bases = new Map<string, VariantLimits>();
    for (const [planId, vs] of variantsByPlan) {
      const b = baseVariant(vs);
      if (b) bases.set(planId, b);
    }
    // Key cost-shares of the base variant and of every CSR variant (a CSR
    // household is priced on its own variant's cost sharing).
    const keyVariantIds = [...bases.values()].map((b) => b.variantId);
    for (const vs of variantsByPlan.values())
      for (const v of vs) if (csrKey(v.csrLevel)) keyVariantIds.push(v.variantId);
    const baseBenefits = groupBy(
      q.keyBenefitsOfVariants.all({ year, ids: json(keyVariantIds), names: KEY_BENEFIT_NAMES }),
      (b) => b.variantId,
    );
    return planRows.flatMap((plan) => {
      const variants = variantsByPlan.get(plan.planId) ?? [];
      const base = bases.get(plan.planId);
      if (!base) return [];
      const urls: PlanUrls = {};
      for (const d of docs.get(plan.planId) ?? []) urls[URL_KEYS[d.kind]] = d.url;
      const csrVariantIds: Partial<Record<CsrLevel, string>> = {};
      const csrVariants: Partial<Record<CsrLevel, CsrVariantSummary>> = {};
      for (const v of variants) {
        const key = csrKey(v.csrLevel);
        if (!key) continue;
        csrVariantIds[key] = v.variantId;
        csrVariants[key] = {
          variantId: v.variantId,
          deductible: deductibleOf(v),
          moop: moopOf(v),
          keyBenefits: keyBenefitsOf(baseBenefits.get(v.variantId) ?? []),
        };
      }
      const summary: PlanSummary = {
        id: plan.planId,
        year: plan.planYear,
        name: plan.name,
        state: plan.state,
        issuer: { id: plan.issuerId, name: plan.issuerName ?? plan.issuerId },
        metalLevel: plan.metalLevel,
        type: plan.planType,
        hsaEligible: plan.hsaEligible === true,
        designType: plan.designType,
        ehbShare: plan.ehbShare,
        variantId: base.variantId,
        deductible: deductibleOf(base),
        moop: moopOf(base),
        qualityRating: quality.get(plan.planId) ?? null,
        urls,
        csrVariantIds,
        csrVariants,
        keyBenefits: keyBenefitsOf(baseBenefits.get(base.variantId) ?? []),
      };
      return [summary];
    });
  }

  /**
   * The full plan record, or undefined when the plan is not in the store for
   * that year. `id` may be the 14-character plan id or a variant id.
   */
  planById(id: string, year: number, options: { ratingArea?: string | number } = {}): PlanDetail | undefined {
    const planId = planIdOf(id);
    if (!planId) return undefined;
    return this.use((q, h) => {
      // The record is read once per store version; only the premium depends on the area asked for.
      const key = `${year}|${planId}`;
      let detail = h.cache.details.get(key);
      if (detail === undefined) {
        detail = deepFreeze(this.buildPlanDetail(q, h, year, planId) ?? null);
        h.cache.details.set(key, detail);
      }
      if (!detail) return undefined;
      const wanted =
        options.ratingArea === undefined
          ? null
          : typeof options.ratingArea === "number"
            ? options.ratingArea
            : parseRatingArea(options.ratingArea);
      const premiums = Object.values(detail.premiumsByRatingArea);
      const premium =
        wanted !== null
          ? (detail.premiumsByRatingArea[ratingAreaLabel(wanted)] ?? null)
          : premiums.length > 0
            ? Math.min(...premiums)
            : null;
      return { ...detail, premium };
    });
  }

  private buildPlanDetail(q: Queries, h: StoreHandle, year: number, planId: string): PlanDetail | undefined {
    {
      const [summary] = this.summaries(q, h, year, [planId]);
      const plan = q.planRow.get({ year, planId });
      const variants = q.variantsOfPlan.all({ year, planId });
      const base = variants.find((v) => v.variantId === summary?.variantId);
      if (!summary || !plan || !base) return undefined;
      const quality = q.qualityOfPlan.get({ year, planId });
      const variantIds = variants.map((v) => v.variantId);
      const benefitRows = groupBy(q.benefitsOfVariants.all({ year, ids: json(variantIds) }), (b) => b.variantId);
      const limitRows = groupBy(q.limitsOfVariants.all({ year, ids: json(variantIds) }), (l) => l.variantId);
      const sbcRows = groupBy(q.sbcOfVariants.all({ year, ids: json(variantIds) }), (s) => s.variantId);

      const limitDetails = (variantId: string, kind: "deductible" | "moop"): CostLimitDetail[] =>
        (limitRows.get(variantId) ?? [])
          .filter((l) => l.kind === kind && l.familyCost !== null)
          .map((l) => ({
            coverage: l.coverage,
            networkTier: l.networkTier,
            familyCost: l.familyCost!,
            amount: l.amount,
            display: l.raw,
          }));
      const variantDetail = (v: VariantRow): VariantDetail => ({
        variantId: v.variantId,
        csrLevel: csrKey(v.csrLevel),
        csrVariationType: v.csrVariationType,
        actuarialValue: v.issuerActuarialValue,
        deductible: deductibleOf(v),
        moop: moopOf(v),
        deductibles: limitDetails(v.variantId, "deductible"),
        moops: limitDetails(v.variantId, "moop"),
        benefitDetails: (benefitRows.get(v.variantId) ?? []).map(benefitDetail),
        sbcScenarios: sbcOf(sbcRows.get(v.variantId) ?? []),
      });

      const baseDetail = variantDetail(base);
      const csrVariants: Partial<Record<CsrLevel, VariantDetail>> = {};
      for (const v of variants) {
        const key = csrKey(v.csrLevel);
        if (key) csrVariants[key] = variantDetail(v);
      }
      const copays: Record<string, number | null> = {};
      const coinsurance: Record<string, number | null> = {};
      for (const b of baseDetail.benefitDetails) {
        if (b.covered === false) continue;
        copays[b.name] = b.inNetwork.copay.value;
        coinsurance[b.name] = b.inNetwork.coinsurance.value;
      }

      const tables = rateTablesFrom(q.ratesOfPlan.values({ year, planId }) as RateValues[]);
      const ageRatesByArea: PlanDetail["ageRatesByArea"] = {};
      const familyTiersByArea: PlanDetail["familyTiersByArea"] = {};
      const premiumsByRatingArea: PlanDetail["premiumsByRatingArea"] = {};
      for (const [area, t] of tables.get(planId) ?? new Map<number, RateTable>()) {
        const label = ratingAreaLabel(area);
        if (Object.keys(t.ageRates).length > 0) ageRatesByArea[label] = t.ageRates;
        if (t.familyTiers) familyTiersByArea[label] = t.familyTiers;
        const age21 = t.ageRates["21"]?.individual ?? t.familyTiers?.individual;
        if (age21 !== undefined) premiumsByRatingArea[label] = age21;
      }
      const premiums = Object.values(premiumsByRatingArea);
      // The lowest; planById puts the asked-for area's premium in its place.
      const premium = premiums.length > 0 ? Math.min(...premiums) : null;

      const qualityRating: QualityRating | null = quality
        ? {
            overall: quality.overall,
            medicalCare: quality.medicalCare,
            memberExperience: quality.memberExperience,
            planAdministration: quality.planAdministration,
            notRatedReason: quality.overall === null ? quality.overallRaw : null,
          }
        : null;

      return {
        ...summary,
        premium,
        premiumsByRatingArea,
        ageRatesByArea,
        familyTiersByArea,
        deductibles: baseDetail.deductibles,
        moops: baseDetail.moops,
        copays,
        coinsurance,
        details: {
          networkId: plan.networkId,
          serviceAreaId: plan.serviceAreaId,
          formularyId: plan.formularyId,
          isReferralRequiredForSpecialist: plan.isReferralRequiredForSpecialist,
          specialistRequiringReferral: plan.specialistRequiringReferral,
          nationalNetwork: plan.nationalNetwork,
          outOfCountryCoverage: plan.outOfCountryCoverage,
          outOfServiceAreaCoverage: plan.outOfServiceAreaCoverage,
          ehbPercentPremium: plan.ehbPercentPremium,
          isNewPlan: plan.isNewPlan,
        },
        puf: {
          variantId: base.variantId,
          variantIds,
          csrVariationType: base.csrVariationType,
          actuarialValue: base.issuerActuarialValue,
          csrVariants,
          sbcScenarios: baseDetail.sbcScenarios,
          qualityRating,
          urls: summary.urls,
          benefitDetails: baseDetail.benefitDetails,
        },
      } satisfies PlanDetail;
    }
  }

  /** Rate tables of plans in one rating area ("Rating Area 7" or 7); plans without rates there are absent. */
  rateTables(args: { year: number; planIds: readonly string[]; ratingArea: string | number }): Map<string, RateTable> {
    return this.use((q, h) => this.rateTablesIn(q, h, args));
  }

  private rateTablesIn(
    q: Queries,
    h: StoreHandle,
    args: { year: number; planIds: readonly string[]; ratingArea: string | number },
  ): Map<string, RateTable> {
    const area = typeof args.ratingArea === "number" ? args.ratingArea : parseRatingArea(args.ratingArea);
    const ids = args.planIds.map(planIdOf).filter((p): p is string => p !== undefined);
    const result = new Map<string, RateTable>();
    if (area === null || ids.length === 0) return result;
    const key = (planId: string) => `${args.year}|${area}|${planId}`;
    const missing = [...new Set(ids)].filter((id) => h.cache.rateTables.get(key(id)) === undefined);
    const fresh = new Map<string, RateTable>();
    if (missing.length > 0) {
      const tables = rateTablesFrom(
        q.ratesInArea.values({ year: args.year, ids: json(missing), area }) as RateValues[],
      );
      for (const id of missing) {
        const t = tables.get(id)?.get(area);
        if (t) fresh.set(id, deepFreeze(t));
        h.cache.rateTables.set(key(id), t ?? null);
      }
    }
    for (const id of ids) {
      const t = fresh.get(id) ?? h.cache.rateTables.get(key(id));
      if (t) result.set(id, t);
    }
    return result;
  }

  /** Own formulary rows for drugs (RxCUIs), optionally only for some plans. */
  formularyRows(args: { year: number; rxcuis: readonly string[]; planIds?: readonly string[] }): FormularyRow[] {
    if (args.rxcuis.length === 0 || args.planIds?.length === 0) return [];
    const rxcuis = json(args.rxcuis.map(String));
    if (!args.planIds) return this.use((q) => q.formularyRows.all({ year: args.year, rxcuis }));
    const planIds = json(args.planIds.map((p) => planIdOf(p) ?? p));
    return this.use((q) => q.formularyRowsOfPlans.all({ year: args.year, rxcuis, planIds }));
  }

  /** Own provider-network rows for providers (NPIs), optionally only for some plans. */
  networkRows(args: { year: number; npis: readonly string[]; planIds?: readonly string[] }): NetworkRow[] {
    if (args.npis.length === 0 || args.planIds?.length === 0) return [];
    const npis = json(args.npis.map(String));
    if (!args.planIds) return this.use((q) => q.networkRows.all({ year: args.year, npis }));
    const planIds = json(args.planIds.map((p) => planIdOf(p) ?? p));
    return this.use((q) => q.networkRowsOfPlans.all({ year: args.year, npis, planIds }));
  }
}

/** A reader over any store file (tests, tools). The caller closes it. */
export function openPlanStore(file: string, options?: PlanStoreOptions): PlanStore {
  return new PlanStore(file, options);
}

/** The process-wide reader over PLAN_STORE_PATH; closed on shutdown. */
export function planStore(): PlanStore {
  return processSingleton("planStore", () => {
    const store = new PlanStore(env().PLAN_STORE_PATH);
    onShutdown("plan store", () => store.close());
    return store;
  });
}

/** Tests only: close and forget the process-wide reader (e.g. after changing PLAN_STORE_PATH). */
export function resetPlanStoreForTests(): void {
  const key = Symbol.for("marketplace.singleton.planStore");
  const existing = (globalThis as Record<symbol, unknown>)[key] as PlanStore | undefined;
  existing?.close();
  forgetSingleton("planStore");
}
