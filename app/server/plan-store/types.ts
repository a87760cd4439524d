/**
 * What the plan store hands out: plain data, the same on the server and in
 * components. Plan shape: issue 3 part 2 and the specification's "Plan (own
 * plan data)". No schema validates these (they are read from the store the
 * seed pipeline built), so they are declared here once.
 */
import type { ExchangeKind } from "../../../db/plan-store";
import type { CsrLevel } from "../../domain/eligibility/csr";

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

/** A key benefit's in-network tier-1 cost share; `outOfNetwork` when the PUF states one (the visits: issue 26). */
export type KeyBenefit = TierCostShare & { outOfNetwork?: TierCostShare };

export type KeyBenefits = {
  primaryCare?: KeyBenefit;
  specialist?: KeyBenefit;
  emergencyRoom?: KeyBenefit;
  urgentCare?: KeyBenefit;
  genericDrugs?: KeyBenefit;
  preferredBrandDrugs?: KeyBenefit;
  nonPreferredBrandDrugs?: KeyBenefit;
  specialtyDrugs?: KeyBenefit;
  imaging?: KeyBenefit;
  inpatientStay?: KeyBenefit;
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
