/**
 * The plan store: a read-only SQLite file built by the seed pipeline
 * (seed/build-store.ts) from the CMS public-use files and swapped in
 * atomically. It is a different database from the write store, which a reseed
 * never touches (spec README, decision 1).
 *
 * This drizzle schema is the one source of truth: db/plan-store-ddl.ts derives
 * the CREATE TABLE / CREATE INDEX statements from it, the loader derives its
 * INSERT statements from it, and app/server/plan-store/queries.server.ts queries it.
 *
 * Conventions:
 * - Every plan row carries its plan year (`plan_year`); geography (counties,
 *   ZIP→county) does not, see docs/decisions/021-plan-store-geography-not-year-keyed.md.
 * - Money and percentages from the PUFs are text: the raw string is kept
 *   (`…_raw` or the bare name) and the parsed number sits beside it
 *   (`…_amount` in dollars, `…_rate` as a fraction: "30.00%" → 0.3).
 * - `plan_id` is the 14-character standard component id; `variant_id` the
 *   17-character plan variant id (`…-01`, `…-04`, `…-05`, `…-06`, …).
 * - The big tables (rates, benefits, formulary, provider_network) have no
 *   declared key, so that bulk inserts append; their indexes are created
 *   after the load (see planStoreDdl()).
 */
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { planCrosswalk } from "./plan-store-crosswalk";

export { planCrosswalk };

/** Bumped when a table or column changes meaning; the read module refuses an older store. */
export const PLAN_STORE_SCHEMA_VERSION = 1;

export const EXCHANGE_KINDS = ["healthcaregov", "sbe_federal_platform", "sbe"] as const;
export type ExchangeKind = (typeof EXCHANGE_KINDS)[number];

export const COST_LIMIT_KINDS = ["deductible", "moop", "coinsurance"] as const;
export const COST_LIMIT_COVERAGE = ["medical", "drug", "total"] as const;
export const NETWORK_TIERS = ["in_network_tier1", "in_network_tier2", "out_of_network", "combined"] as const;
export const FAMILY_COSTS = ["individual", "family_per_person", "family_per_group"] as const;
export const SBC_SCENARIOS = ["having_a_baby", "managing_diabetes", "simple_fracture"] as const;
export const DOCUMENT_KINDS = [
  "summary_of_benefits",
  "formulary",
  "provider_directory",
  "brochure",
  "enrollment",
] as const;
export const TOBACCO_RATING = ["no_preference", "tobacco_user_non_tobacco_user"] as const;

/** Key/value facts about the store itself (schema version, plan years). */
export const storeMeta = sqliteTable("store_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** One row per source file read by a load: what was read, loaded, skipped and rejected, and why. */
export const dataVersions = sqliteTable("data_versions", {
  id: integer("id").primaryKey(),
  sourceFile: text("source_file").notNull(),
  format: text("format").notNull(),
  planYear: integer("plan_year"),
  checksum: text("checksum").notNull(),
  bytes: integer("bytes").notNull(),
  rowsRead: integer("rows_read").notNull(),
  rowsLoaded: integer("rows_loaded").notNull(),
  rowsSkipped: integer("rows_skipped").notNull(),
  rowsRejected: integer("rows_rejected").notNull(),
  /** JSON: { [reason]: count } */
  skipReasons: text("skip_reasons").notNull(),
  /** JSON: { [reason]: { count, lines: first few line numbers } } */
  rejectReasons: text("reject_reasons").notNull(),
  loadedAt: text("loaded_at").notNull(),
  isSample: integer("is_sample", { mode: "boolean" }).notNull(),
});

/** Marketplace type per state and plan year (our transcription of the CMS fact sheet). */
export const states = sqliteTable(
  "states",
  {
    planYear: integer("plan_year").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    exchangeKind: text("exchange_kind", { enum: EXCHANGE_KINDS }).notNull(),
    marketplaceName: text("marketplace_name"),
    marketplaceUrl: text("marketplace_url"),
    ownedData: integer("owned_data", { mode: "boolean" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.planYear, t.code] })],
);

export const counties = sqliteTable(
  "counties",
  {
    fips: text("fips").primaryKey(),
    name: text("name").notNull(),
    state: text("state").notNull(),
  },
  (t) => [index("counties_state").on(t.state, t.fips)],
);

/**
 * ZIP → county, the union of the HUD USPS crosswalk and the Census ZCTA file.
 * A ZIP may map to several counties and to counties in two states; `share` is
 * HUD's TOT_RATIO where HUD lists the pair, else the Census land-area share.
 * `rank` 1 is the largest share.
 */
export const zipCounties = sqliteTable(
  "zip_counties",
  {
    zip: text("zip").notNull(),
    countyFips: text("county_fips").notNull(),
    state: text("state").notNull(),
    share: real("share").notNull(),
    hudShare: real("hud_share"),
    censusShare: real("census_share"),
    rank: integer("rank").notNull(),
  },
  (t) => [primaryKey({ columns: [t.zip, t.countyFips] }), index("zip_counties_rank").on(t.zip, t.rank)],
);

/** County → rating area ("Rating Area N" is stored as N). */
export const ratingAreaCounties = sqliteTable(
  "rating_area_counties",
  {
    planYear: integer("plan_year").notNull(),
    state: text("state").notNull(),
    countyFips: text("county_fips").notNull(),
    ratingArea: integer("rating_area").notNull(),
  },
  (t) => [primaryKey({ columns: [t.planYear, t.countyFips] })],
);

/** 3-digit ZIP prefix → rating area, for states that define areas so (AK, NE, …). */
export const ratingAreaZip3 = sqliteTable(
  "rating_area_zip3",
  {
    planYear: integer("plan_year").notNull(),
    state: text("state").notNull(),
    zip3: text("zip3").notNull(),
    ratingArea: integer("rating_area").notNull(),
  },
  (t) => [primaryKey({ columns: [t.planYear, t.state, t.zip3] })],
);

export const issuers = sqliteTable(
  "issuers",
  {
    planYear: integer("plan_year").notNull(),
    issuerId: text("issuer_id").notNull(),
    state: text("state").notNull(),
    name: text("name").notNull(),
  },
  (t) => [primaryKey({ columns: [t.planYear, t.issuerId] })],
);

/** Network PUF: the provider-directory URL of an issuer's network. */
export const networks = sqliteTable(
  "networks",
  {
    planYear: integer("plan_year").notNull(),
    issuerId: text("issuer_id").notNull(),
    networkId: text("network_id").notNull(),
    name: text("name"),
    url: text("url"),
  },
  (t) => [primaryKey({ columns: [t.planYear, t.issuerId, t.networkId] })],
);

/** Individual-market medical plans (standard components). SHOP and dental-only plans are not loaded. */
export const plans = sqliteTable(
  "plans",
  {
    planYear: integer("plan_year").notNull(),
    planId: text("plan_id").notNull(),
    issuerId: text("issuer_id").notNull(),
    state: text("state").notNull(),
    name: text("name").notNull(),
    metalLevel: text("metal_level").notNull(),
    planType: text("plan_type"),
    hiosProductId: text("hios_product_id"),
    networkId: text("network_id"),
    serviceAreaId: text("service_area_id"),
    formularyId: text("formulary_id"),
    isNewPlan: integer("is_new_plan", { mode: "boolean" }),
    designType: text("design_type"),
    uniquePlanDesign: integer("unique_plan_design", { mode: "boolean" }),
    qhpType: text("qhp_type"),
    /** Has an on-exchange variant (-01 … -06); off-exchange-only plans are not shopped here. */
    onExchange: integer("on_exchange", { mode: "boolean" }).notNull(),
    hsaEligible: integer("hsa_eligible", { mode: "boolean" }),
    ehbPercentPremium: real("ehb_percent_premium"),
    nationalNetwork: integer("national_network", { mode: "boolean" }),
    childOnlyOffering: text("child_only_offering"),
    isReferralRequiredForSpecialist: integer("is_referral_required_for_specialist", { mode: "boolean" }),
    specialistRequiringReferral: text("specialist_requiring_referral"),
    isNoticeRequiredForPregnancy: integer("is_notice_required_for_pregnancy", { mode: "boolean" }),
    planLevelExclusions: text("plan_level_exclusions"),
    wellnessProgramOffered: integer("wellness_program_offered", { mode: "boolean" }),
    diseaseManagementPrograms: text("disease_management_programs"),
    outOfCountryCoverage: integer("out_of_country_coverage", { mode: "boolean" }),
    outOfServiceAreaCoverage: integer("out_of_service_area_coverage", { mode: "boolean" }),
    effectiveDate: text("effective_date"),
    expirationDate: text("expiration_date"),
  },
  (t) => [
    primaryKey({ columns: [t.planYear, t.planId] }),
    index("plans_service_area").on(t.planYear, t.issuerId, t.serviceAreaId),
    index("plans_state").on(t.planYear, t.state),
  ],
);

/**
 * Plan variants (17-char ids). `csr_level` is 73 / 87 / 94 for the -04 / -05 /
 * -06 silver variants (45 CFR 155.305(g); puf-formats.md §2), else null.
 * The headline deductible / MOOP columns are derived from the PUF's 78 limit
 * columns (integrated → TEHB, else MEHB with the drug deductible beside it);
 * every limit column is also kept in `cost_limits`.
 */
export const planVariants = sqliteTable(
  "plan_variants",
  {
    planYear: integer("plan_year").notNull(),
    variantId: text("variant_id").notNull(),
    planId: text("plan_id").notNull(),
    suffix: text("suffix").notNull(),
    csrLevel: integer("csr_level"),
    csrVariationType: text("csr_variation_type"),
    marketingName: text("marketing_name"),
    issuerActuarialValue: real("issuer_actuarial_value"),
    avCalculatorOutput: real("av_calculator_output"),
    deductiblesIntegrated: integer("deductibles_integrated", { mode: "boolean" }),
    moopIntegrated: integer("moop_integrated", { mode: "boolean" }),
    multipleInNetworkTiers: integer("multiple_in_network_tiers", { mode: "boolean" }),
    firstTierUtilization: text("first_tier_utilization"),
    secondTierUtilization: text("second_tier_utilization"),
    deductibleIndividualRaw: text("deductible_individual_raw"),
    deductibleIndividual: real("deductible_individual"),
    deductibleFamilyRaw: text("deductible_family_raw"),
    deductibleFamily: real("deductible_family"),
    drugDeductibleIndividualRaw: text("drug_deductible_individual_raw"),
    drugDeductibleIndividual: real("drug_deductible_individual"),
    drugDeductibleFamilyRaw: text("drug_deductible_family_raw"),
    drugDeductibleFamily: real("drug_deductible_family"),
    moopIndividualRaw: text("moop_individual_raw"),
    moopIndividual: real("moop_individual"),
    moopFamilyRaw: text("moop_family_raw"),
    moopFamily: real("moop_family"),
    specialtyDrugMaxCoinsurance: text("specialty_drug_max_coinsurance"),
    inpatientCopaymentMaxDays: text("inpatient_copayment_max_days"),
    primaryCareCostSharingAfterVisits: text("primary_care_cost_sharing_after_visits"),
    primaryCareDeductibleCoinsuranceAfterCopays: text("primary_care_deductible_coinsurance_after_copays"),
  },
  (t) => [primaryKey({ columns: [t.planYear, t.variantId] }), index("plan_variants_plan").on(t.planYear, t.planId)],
);

/**
 * Every filled deductible / MOOP / default-coinsurance column of Plan
 * Attributes, one row per cell ({M,D,T}EHB × tier × individual/family).
 * "Not Applicable" cells are not stored. For `coinsurance`, `family_cost` is
 * null and `amount` is a fraction.
 */
export const costLimits = sqliteTable(
  "cost_limits",
  {
    planYear: integer("plan_year").notNull(),
    variantId: text("variant_id").notNull(),
    kind: text("kind", { enum: COST_LIMIT_KINDS }).notNull(),
    coverage: text("coverage", { enum: COST_LIMIT_COVERAGE }).notNull(),
    networkTier: text("network_tier", { enum: NETWORK_TIERS }).notNull(),
    familyCost: text("family_cost", { enum: FAMILY_COSTS }),
    raw: text("raw").notNull(),
    amount: real("amount"),
  },
  (t) => [index("cost_limits_variant").on(t.planYear, t.variantId)],
);

/** SBC coverage examples per variant (Plan Attributes SBCHaving… columns). */
export const sbcScenarios = sqliteTable(
  "sbc_scenarios",
  {
    planYear: integer("plan_year").notNull(),
    variantId: text("variant_id").notNull(),
    scenario: text("scenario", { enum: SBC_SCENARIOS }).notNull(),
    deductibleRaw: text("deductible_raw"),
    deductible: real("deductible"),
    copaymentRaw: text("copayment_raw"),
    copayment: real("copayment"),
    coinsuranceRaw: text("coinsurance_raw"),
    coinsurance: real("coinsurance"),
    limitRaw: text("limit_raw"),
    limit: real("limit"),
  },
  (t) => [primaryKey({ columns: [t.planYear, t.variantId, t.scenario] })],
);

/** Benefits and Cost Sharing PUF: one row per variant × benefit, cost-shares per network tier. */
export const benefits = sqliteTable(
  "benefits",
  {
    planYear: integer("plan_year").notNull(),
    variantId: text("variant_id").notNull(),
    planId: text("plan_id").notNull(),
    benefitName: text("benefit_name").notNull(),
    isCovered: integer("is_covered", { mode: "boolean" }),
    isEhb: integer("is_ehb", { mode: "boolean" }),
    copayInnTier1: text("copay_inn_tier1"),
    copayInnTier1Amount: real("copay_inn_tier1_amount"),
    copayInnTier2: text("copay_inn_tier2"),
    copayInnTier2Amount: real("copay_inn_tier2_amount"),
    copayOutOfNet: text("copay_out_of_net"),
    copayOutOfNetAmount: real("copay_out_of_net_amount"),
    coinsInnTier1: text("coins_inn_tier1"),
    coinsInnTier1Rate: real("coins_inn_tier1_rate"),
    coinsInnTier2: text("coins_inn_tier2"),
    coinsInnTier2Rate: real("coins_inn_tier2_rate"),
    coinsOutOfNet: text("coins_out_of_net"),
    coinsOutOfNetRate: real("coins_out_of_net_rate"),
    quantLimitOnSvc: integer("quant_limit_on_svc", { mode: "boolean" }),
    limitQty: real("limit_qty"),
    limitUnit: text("limit_unit"),
    exclusions: text("exclusions"),
    explanation: text("explanation"),
    ehbVarReason: text("ehb_var_reason"),
    isExclFromInnMoop: integer("is_excl_from_inn_moop", { mode: "boolean" }),
    isExclFromOonMoop: integer("is_excl_from_oon_moop", { mode: "boolean" }),
  },
  (t) => [index("benefits_variant").on(t.planYear, t.variantId)],
);

/**
 * Service Area PUF rows. A statewide row has `cover_entire_state` set and an
 * empty `county_fips`; a partial county lists its ZIPs in service_area_zips.
 */
export const serviceAreas = sqliteTable(
  "service_areas",
  {
    planYear: integer("plan_year").notNull(),
    state: text("state").notNull(),
    issuerId: text("issuer_id").notNull(),
    serviceAreaId: text("service_area_id").notNull(),
    serviceAreaName: text("service_area_name"),
    coverEntireState: integer("cover_entire_state", { mode: "boolean" }).notNull(),
    countyFips: text("county_fips").notNull(),
    partialCounty: integer("partial_county", { mode: "boolean" }).notNull(),
  },
  (t) => [
    index("service_areas_county").on(t.planYear, t.countyFips),
    index("service_areas_statewide").on(t.planYear, t.state, t.coverEntireState),
    index("service_areas_issuer").on(t.planYear, t.issuerId, t.serviceAreaId),
  ],
);

export const serviceAreaZips = sqliteTable(
  "service_area_zips",
  {
    planYear: integer("plan_year").notNull(),
    issuerId: text("issuer_id").notNull(),
    serviceAreaId: text("service_area_id").notNull(),
    countyFips: text("county_fips").notNull(),
    zip: text("zip").notNull(),
  },
  (t) => [index("service_area_zips_key").on(t.planYear, t.issuerId, t.serviceAreaId, t.countyFips, t.zip)],
);

/**
 * Rate PUF rows: plan × rating area × age band × effective date; each row holds
 * the non-tobacco (`individual_rate`) and tobacco rate. `age_band` keeps the
 * PUF label ("0-14", "15" … "63", "64 and over", "Family Option"). Family
 * Option rows carry the family-tier premiums (community-rated states).
 */
export const rates = sqliteTable(
  "rates",
  {
    planYear: integer("plan_year").notNull(),
    planId: text("plan_id").notNull(),
    ratingArea: integer("rating_area").notNull(),
    ageBand: text("age_band").notNull(),
    tobacco: text("tobacco", { enum: TOBACCO_RATING }).notNull(),
    individualRate: real("individual_rate").notNull(),
    tobaccoRate: real("tobacco_rate"),
    couple: real("couple"),
    primarySubscriberAndOneDependent: real("primary_subscriber_and_one_dependent"),
    primarySubscriberAndTwoDependents: real("primary_subscriber_and_two_dependents"),
    primarySubscriberAndThreeOrMoreDependents: real("primary_subscriber_and_three_or_more_dependents"),
    coupleAndOneDependent: real("couple_and_one_dependent"),
    coupleAndTwoDependents: real("couple_and_two_dependents"),
    coupleAndThreeOrMoreDependents: real("couple_and_three_or_more_dependents"),
    effectiveDate: text("effective_date"),
    expirationDate: text("expiration_date"),
  },
  (t) => [index("rates_plan_area").on(t.planYear, t.planId, t.ratingArea)],
);

/** Quality PUF (QRS star ratings); null rating = not rated, reason in the raw column. */
export const qualityRatings = sqliteTable(
  "quality_ratings",
  {
    planYear: integer("plan_year").notNull(),
    planId: text("plan_id").notNull(),
    issuerId: text("issuer_id"),
    state: text("state"),
    reportingUnitId: text("reporting_unit_id"),
    overall: integer("overall"),
    overallRaw: text("overall_raw"),
    medicalCare: integer("medical_care"),
    medicalCareRaw: text("medical_care_raw"),
    memberExperience: integer("member_experience"),
    memberExperienceRaw: text("member_experience_raw"),
    planAdministration: integer("plan_administration"),
    planAdministrationRaw: text("plan_administration_raw"),
  },
  (t) => [primaryKey({ columns: [t.planYear, t.planId] })],
);

/** Document links per plan: SBC, formulary, provider directory, brochure, enrollment. */
export const planDocuments = sqliteTable(
  "plan_documents",
  {
    planYear: integer("plan_year").notNull(),
    planId: text("plan_id").notNull(),
    kind: text("kind", { enum: DOCUMENT_KINDS }).notNull(),
    url: text("url").notNull(),
    source: text("source").notNull(),
  },
  (t) => [primaryKey({ columns: [t.planYear, t.planId, t.kind] })],
);

/** Formulary rows from the issuers' drugs.json (RxCUI × plan). */
export const formulary = sqliteTable(
  "formulary",
  {
    planYear: integer("plan_year").notNull(),
    rxcui: text("rxcui").notNull(),
    planId: text("plan_id").notNull(),
    drugTier: text("drug_tier"),
    priorAuth: integer("prior_auth", { mode: "boolean" }),
    stepTherapy: integer("step_therapy", { mode: "boolean" }),
    quantityLimit: integer("quantity_limit", { mode: "boolean" }),
  },
  (t) => [index("formulary_rxcui_plan").on(t.planYear, t.rxcui, t.planId)],
);

/**
 * Drug names from the issuers' drugs.json (`drug_name` per RxCUI), for the
 * service's own drug search (docs/decisions/204-own-drug-name-index.md).
 * A store built before this table existed simply has no own drug names.
 */
export const drugNames = sqliteTable(
  "drug_names",
  {
    planYear: integer("plan_year").notNull(),
    rxcui: text("rxcui").notNull(),
    name: text("name").notNull(),
  },
  (t) => [primaryKey({ columns: [t.planYear, t.rxcui] })],
);

/** Provider-network rows from the issuers' providers.json (NPI × plan × tier). */
export const providerNetwork = sqliteTable(
  "provider_network",
  {
    planYear: integer("plan_year").notNull(),
    npi: text("npi").notNull(),
    planId: text("plan_id").notNull(),
    networkTier: text("network_tier"),
  },
  (t) => [index("provider_network_npi_plan").on(t.planYear, t.npi, t.planId)],
);

/** Every table, in creation order. */
export const planStoreTables = [
  storeMeta,
  dataVersions,
  states,
  counties,
  zipCounties,
  ratingAreaCounties,
  ratingAreaZip3,
  issuers,
  networks,
  plans,
  planVariants,
  costLimits,
  sbcScenarios,
  benefits,
  serviceAreas,
  serviceAreaZips,
  rates,
  qualityRatings,
  planDocuments,
  formulary,
  drugNames,
  providerNetwork,
  planCrosswalk,
] as const;
