/**
 * The generator's picture of a market: geography, issuers, plans, drugs and
 * providers. A "world" is built either by hand (the bundled sample, real
 * geography) or procedurally (national scale); the writers turn any world
 * into the public file formats.
 */

export type County = {
  fips: string;
  state: string;
  /** As in the Census list: "Kings County", "Anchorage Municipality". */
  name: string;
  classfp: string;
  funcstat: string;
};

/** One HUD USPS crosswalk row (ZIP × county). */
export type HudZip = {
  zip: string;
  county: string;
  city: string;
  uspsState: string;
  /** Share of all addresses (TOT_RATIO); residential/business/other follow it. */
  ratio: number;
  res?: number;
  bus?: number;
  oth?: number;
};

/** One Census 2020 ZCTA × county part. An empty zcta is a county part outside any ZCTA. */
export type CensusPart = {
  zcta: string;
  county: string;
  countyName: string;
  arealandPart: number;
  areawaterPart: number;
};

export type RatingAreaByCounty = { state: string; county: string; countyName: string; area: number };
export type RatingAreaByZip3 = { state: string; zip3: string; area: number };

export type Metal = "Bronze" | "Expanded Bronze" | "Silver" | "Gold" | "Platinum" | "Catastrophic" | "Low" | "High";
export type PlanType = "HMO" | "PPO" | "EPO" | "POS";
export type Market = "Individual" | "SHOP (Small Group)";

export type ServiceAreaCounty = { county: string; partialZips?: string[] };
export type ServiceArea = {
  id: string;
  name: string;
  statewide: boolean;
  counties: ServiceAreaCounty[];
  market: Market;
  dental: boolean;
};

export type Network = { id: string; name: string; multiTier: boolean };

export type Issuer = {
  id: string;
  state: string;
  name: string;
  /** Lower-case slug for example URLs. */
  slug: string;
  networks: Network[];
  serviceAreas: ServiceArea[];
  /** "Tobacco User/Non-Tobacco User" with this surcharge (thousandths), or no tobacco rating. */
  tobaccoMilli: number | null;
  /** Some issuers pad individual amounts with a trailing space ("$6,000 "), as in the real files. */
  trailingSpace: boolean;
  /** Issuer-level price level (thousandths of the state's base premium). */
  priceMilli: number;
  /** Publishes the QHP machine-readable files (plans/drugs/providers.json). */
  machineReadable: boolean;
};

/** Quality PUF values for one plan: 1–5 each, or an "NR …" text. */
export type QualityRating =
  | { kind: "rated"; overall: number; medical: number; member: number; admin: number }
  | { kind: "nr"; text: "NR - Not Rated" | "NR - New-Ineligible for Scoring" };

export type Plan = {
  /** 14-character standard component id, e.g. 10101TX0010001. */
  id: string;
  issuer: Issuer;
  name: string;
  metal: Metal;
  type: PlanType;
  networkId: string;
  serviceAreaId: string;
  formularyId: string;
  market: Market;
  dental: boolean;
  hsa: boolean;
  isNew: boolean;
  /** "Both" plans also have an off-exchange -00 variant. */
  qhpType: "Both" | "On the Exchange" | "Off the Exchange";
  designType: string;
  /** Variant suffixes written for this plan, e.g. ["01","04","05","06"]. */
  variants: string[];
  /** Separate medical and drug deductibles (MedicalDrugDeductiblesIntegrated = No). */
  separateDrugDeductible: boolean;
  /** Rate PUF rows per rating area: base premium at age 21 in cents (age-rated) or the single-adult rate (NY). */
  ratesByArea: Map<number, number>;
  quality: QualityRating | null;
  /** Design knobs drawn once per plan, so every variant derives from the same base. */
  knobs: PlanKnobs;
};

export type PlanKnobs = {
  deductible: number;
  moop: number;
  coinsurance: number;
  pcpCopay: number;
  specialistCopay: number;
  erCopay: number;
  genericCopay: number;
  brandCopay: number;
  av: number;
};

export type DrugClass = "generic" | "brand" | "specialty" | "preventive";
export type Drug = { rxcui: string; name: string; cls: DrugClass; real: boolean };

export type ProviderKind = "INDIVIDUAL" | "FACILITY" | "GROUP";

export type World = {
  scale: "sample" | "national";
  year: number;
  importDate: string;
  lastUpdated: string;
  counties: County[];
  hudZips: HudZip[];
  censusParts: CensusPart[];
  ratingAreasByCounty: RatingAreaByCounty[];
  ratingAreasByZip3: RatingAreaByZip3[];
  issuers: Issuer[];
  plans: Plan[];
  drugs: Drug[];
  /** Provider directory shape, per issuer (written straight to providers.json). */
  providers: ProviderPlan;
  /** Extra Rate PUF rows that the loader must skip (sentinel). */
  sentinelRates: { plan: Plan; area: number; age: string; cents: number }[];
};

export type ProviderPlan = {
  /** Distinct providers per state the issuers draw from. */
  poolPerState: Map<string, number>;
  /** Providers listed per issuer. */
  perIssuer: Map<string, number>;
};
