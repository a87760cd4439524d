/**
 * Writers for the CSV public files (names and formats: docs/data.md, "Source
 * directory layout"): the five CMS PUFs, the Network PUF, HUD and Census
 * ZIP–county files, the Census county list, rating areas and states.csv.
 */
import { join } from "node:path";
import { benefitRows, CSR_VARIATION_TYPE, sbcScenarios, variantDesign, type VariantDesign } from "./design";
import type { Plan, World } from "./model";
import { CsvFile, dollars, familyAmount, mulMilliCents, percent, rateAmount } from "./output";
import { ageCurveMilli, COMMUNITY_RATED, HEADERS, moopLimit, nyFamilyTierMilli, RATE_AGE_LABELS } from "./reference";
import { STATE_BY_CODE, stateRows } from "./states";

export type FileSummary = { file: string; rows: number; bytes: number };

const SOURCE_NAME = "HIOS";
const NA = "Not Applicable";

function urls(plan: Plan, suffix: string) {
  const host = `https://www.${plan.issuer.slug}.example.com`;
  return {
    enrollment: `${host}/enroll`,
    formulary: `${host}/${plan.issuer.state.toLowerCase()}/2027/formulary`,
    sbc: `${host}/2027/sbc/${plan.id}-${suffix}.pdf`,
    brochure: `https://www.${plan.issuer.slug}.example.org/2027/brochure/${plan.id}.pdf`,
    directory: `${host}/find-a-doctor`,
  };
}

// ---------------------------------------------------------------------------
// Plan Attributes

/** Individual, family-per-person and family-per-group values of one MOOP or deductible tier. */
function triple(amount: number | null, familyLimit: number, trailing: boolean): [string, string, string] {
  if (amount === null) return [NA, "per person not applicable", "per group not applicable"];
  return [
    dollars(amount) + (trailing ? " " : ""),
    familyAmount(amount, "person"),
    familyAmount(Math.min(amount * 2, familyLimit), "group"),
  ];
}

export function planAttributesRecord(world: World, plan: Plan, suffix: string): Record<string, string> {
  const limits = moopLimit(world.year);
  const v = variantDesign(plan, suffix, limits.individual);
  const iss = plan.issuer;
  const net = iss.networks.find((n) => n.id === plan.networkId);
  const multiTier = (net?.multiTier ?? false) && !plan.dental;
  const oon = plan.type === "PPO" || plan.type === "POS";
  const u = urls(plan, suffix);
  const tr = iss.trailingSpace;
  const r: Record<string, string> = {
    BusinessYear: String(world.year),
    StateCode: iss.state,
    IssuerId: iss.id,
    IssuerMarketPlaceMarketingName: iss.name,
    SourceName: SOURCE_NAME,
    ImportDate: world.importDate,
    MarketCoverage: plan.market,
    DentalOnlyPlan: plan.dental ? "Yes" : "No",
    StandardComponentId: plan.id,
    PlanMarketingName: plan.name,
    HIOSProductId: plan.id.slice(0, 10),
    NetworkId: plan.networkId,
    ServiceAreaId: plan.serviceAreaId,
    FormularyId: plan.formularyId,
    IsNewPlan: plan.isNew ? "New" : "Existing",
    PlanType: plan.type,
    MetalLevel: plan.metal,
    DesignType: plan.designType,
    UniquePlanDesign: plan.designType === "Not Applicable" ? "Yes" : "No",
    QHPNonQHPTypeId: plan.qhpType,
    IsNoticeRequiredForPregnancy: "No",
    IsReferralRequiredForSpecialist: plan.type === "HMO" ? "Yes" : "No",
    SpecialistRequiringReferral: plan.type === "HMO" ? "All Specialists" : "",
    PlanLevelExclusions: "",
    IndianPlanVariationEstimatedAdvancedPaymentAmountPerEnrollee:
      suffix === "02" ? dollars(28 + (plan.knobs.deductible % 17)) : "",
    CompositeRatingOffered: "No",
    ChildOnlyOffering: plan.metal === "Catastrophic" ? "Allows Adult-Only" : "Allows Adult and Child-Only",
    ChildOnlyPlanId: "",
    WellnessProgramOffered: plan.metal === "Gold" || plan.metal === "Platinum" ? "Yes" : "No",
    DiseaseManagementProgramsOffered: plan.dental
      ? ""
      : "Asthma, Diabetes, Heart Disease, High Blood Pressure & High Cholesterol",
    EHBPercentTotalPremium: plan.dental ? "1" : (0.9935 + (plan.knobs.coinsurance % 7) / 1000).toFixed(4),
    EHBPediatricDentalApportionmentQuantity: "0",
    IsGuaranteedRate: "No",
    PlanEffectiveDate: `${world.year}-01-01`,
    PlanExpirationDate: `${world.year}-12-31`,
    OutOfCountryCoverage: oon ? "Yes" : "No",
    OutOfCountryCoverageDescription: oon ? "Emergency and urgent care only" : "",
    OutOfServiceAreaCoverage: oon ? "Yes" : "No",
    OutOfServiceAreaCoverageDescription: oon ? "Emergency and urgent care only" : "",
    NationalNetwork: "No",
    URLForEnrollmentPayment: u.enrollment,
    FormularyURL: plan.dental ? "" : u.formulary,
    PlanId: `${plan.id}-${suffix}`,
    PlanVariantMarketingName: suffix === "01" || suffix === "00" ? plan.name : `${plan.name} ${variantLabel(suffix)}`,
    CSRVariationType: CSR_VARIATION_TYPE[suffix](plan.metal),
    IssuerActuarialValue: v.av === null ? "" : percent(v.av * 100),
    AVCalculatorOutputNumber: v.av === null ? "" : v.av.toFixed(9),
    MedicalDrugDeductiblesIntegrated: plan.separateDrugDeductible ? "No" : "Yes",
    MedicalDrugMaximumOutofPocketIntegrated: "Yes",
    MultipleInNetworkTiers: multiTier ? "Yes" : "No",
    FirstTierUtilization: multiTier ? "80%" : "100%",
    SecondTierUtilization: multiTier ? "20%" : "",
    ...(plan.dental ? {} : sbcScenarios(v)),
    SpecialtyDrugMaximumCoinsurance: plan.dental
      ? ""
      : v.zero
        ? "$0"
        : dollars(250 + 50 * Math.round(v.coinsurance / 10)),
    InpatientCopaymentMaximumDays: "0",
    BeginPrimaryCareCostSharingAfterNumberOfVisits: plan.metal === "Catastrophic" ? "3" : "0",
    BeginPrimaryCareDeductibleCoinsuranceAfterNumberOfCopays: "0",
    IsHSAEligible: plan.hsa ? "Yes" : "No",
    HSAOrHRAEmployerContribution: plan.market === "Individual" ? "" : "No",
    HSAOrHRAEmployerContributionAmount: "",
    URLForSummaryofBenefitsCoverage: u.sbc,
    PlanBrochure: u.brochure,
  };
  Object.assign(r, moopAndDeductibleColumns(v, plan, multiTier, oon, limits, tr));
  return r;
}

function variantLabel(suffix: string): string {
  return (
    { "02": "Zero Cost Sharing", "03": "Limited Cost Sharing", "04": "73% AV", "05": "87% AV", "06": "94% AV" }[
      suffix
    ] ?? ""
  );
}

function moopAndDeductibleColumns(
  v: VariantDesign,
  plan: Plan,
  multiTier: boolean,
  oon: boolean,
  limits: { individual: number; family: number },
  tr: boolean,
): Record<string, string> {
  const familyLimit = limits.family;
  const out: Record<string, string> = {};
  const put = (prefix: string, tier: string, suffix: string, vals: [string, string, string]) => {
    out[`${prefix}${tier}Individual${suffix}`] = vals[0];
    out[`${prefix}${tier}FamilyPerPerson${suffix}`] = vals[1];
    out[`${prefix}${tier}FamilyPerGroup${suffix}`] = vals[2];
  };
  // MOOPs are integrated for every PY2026-style plan: only the TEHB columns are
  // filled. The annual limit covers all in-network tiers; out-of-network is uncapped.
  const tier2Moop = multiTier ? Math.min(limits.individual, v.moop + 1500) : null;
  put("TEHB", "InnTier1", "MOOP", triple(v.moop, familyLimit, tr));
  put("TEHB", "InnTier2", "MOOP", triple(tier2Moop, familyLimit, false));
  put(
    "TEHB",
    "OutOfNet",
    "MOOP",
    triple(oon ? Math.max(plan.knobs.moop, 2000) * 2 : null, Number.MAX_SAFE_INTEGER, false),
  );
  put("TEHB", "CombInnOon", "MOOP", triple(null, 0, false));

  const dedColumns = (prefix: "TEHB" | "MEHB" | "DEHB", amount: number, coins: number) => {
    put(`${prefix}Ded`, "InnTier1", "", triple(amount, familyLimit * 4, tr));
    out[`${prefix}DedInnTier1Coinsurance`] = v.zero ? "0.00%" : percent(coins);
    put(`${prefix}Ded`, "InnTier2", "", triple(multiTier ? Math.round(amount * 1.5) : null, familyLimit * 4, false));
    out[`${prefix}DedInnTier2Coinsurance`] = multiTier ? percent(Math.min(50, coins + 10)) : NA;
    put(`${prefix}Ded`, "OutOfNet", "", triple(oon ? amount * 2 : null, familyLimit * 8, false));
    put(`${prefix}Ded`, "CombInnOon", "", triple(null, 0, false));
  };
  if (plan.separateDrugDeductible && v.drugDeductible !== null) {
    dedColumns("MEHB", v.deductible, v.coinsurance);
    dedColumns("DEHB", v.drugDeductible, v.coinsurance);
  } else {
    dedColumns("TEHB", v.deductible, v.coinsurance);
  }
  return out;
}

// ---------------------------------------------------------------------------

export function writePlanAttributes(world: World, dir: string): FileSummary {
  const f = new CsvFile(join(dir, "plan-attributes-puf.csv"), HEADERS.planAttributes);
  for (const plan of world.plans) for (const s of plan.variants) f.record(planAttributesRecord(world, plan, s));
  return summary(f.close());
}

export function writeBenefits(world: World, dir: string): FileSummary {
  const f = new CsvFile(join(dir, "benefits-and-cost-sharing-puf.csv"), HEADERS.benefits);
  const limit = moopLimit(world.year).individual;
  for (const plan of world.plans) {
    const net = plan.issuer.networks.find((n) => n.id === plan.networkId);
    for (const s of plan.variants) {
      const v = variantDesign(plan, s, limit);
      for (const row of benefitRows(plan, v, (net?.multiTier ?? false) && !plan.dental)) {
        f.record({
          BusinessYear: String(world.year),
          StateCode: plan.issuer.state,
          IssuerId: plan.issuer.id,
          SourceName: SOURCE_NAME,
          ImportDate: world.importDate,
          StandardComponentId: plan.id,
          PlanId: `${plan.id}-${s}`,
          ...row,
        });
      }
    }
  }
  return summary(f.close());
}

export function writeRates(world: World, dir: string): FileSummary {
  const headers = HEADERS.rate;
  const f = new CsvFile(join(dir, "rate-puf.csv"), headers);
  const col = (name: string) => {
    const i = headers.indexOf(name);
    if (i < 0) throw new Error(`rate PUF has no ${name}`);
    return i;
  };
  const C = {
    year: col("BusinessYear"),
    state: col("StateCode"),
    issuer: col("IssuerId"),
    source: col("SourceName"),
    imp: col("ImportDate"),
    eff: col("RateEffectiveDate"),
    exp: col("RateExpirationDate"),
    plan: col("PlanId"),
    area: col("RatingAreaId"),
    tobacco: col("Tobacco"),
    age: col("Age"),
    rate: col("IndividualRate"),
    tobRate: col("IndividualTobaccoRate"),
  };
  const familyCols = Object.entries(nyFamilyTierMilli()).map(([name, milli]) => [col(name), milli] as const);
  // Stand-alone dental family tiers (typical filed ratios).
  const dentalTiers = [
    ["Couple", 1900],
    ["PrimarySubscriberAndOneDependent", 1850],
    ["PrimarySubscriberAndTwoDependents", 2700],
    ["PrimarySubscriberAndThreeOrMoreDependents", 3400],
    ["CoupleAndOneDependent", 2750],
    ["CoupleAndTwoDependents", 3550],
    ["CoupleAndThreeOrMoreDependents", 4250],
  ].map(([n, m]) => [col(n as string), m as number] as const);
  const curves = new Map<string, Map<string, number>>();
  const curveOf = (state: string) => {
    let cv = curves.get(state);
    if (!cv) curves.set(state, (cv = ageCurveMilli(state)));
    return cv;
  };
  const labels = RATE_AGE_LABELS.map((label) => ({
    label,
    adult: label === "64 and over" || (label !== "0-14" && Number(label) >= 21),
  }));

  for (const plan of world.plans) {
    const iss = plan.issuer;
    const shop = plan.market !== "Individual";
    const base = new Array<string>(headers.length).fill("");
    base[C.year] = String(world.year);
    base[C.state] = iss.state;
    base[C.issuer] = iss.id;
    base[C.source] = SOURCE_NAME;
    base[C.imp] = world.importDate;
    base[C.eff] = `${world.year}-01-01`;
    // Small-group rates are filed by quarter.
    base[C.exp] = shop ? `${world.year}-03-31` : `${world.year}-12-31`;
    base[C.plan] = plan.id;
    for (const [area, cents] of plan.ratesByArea) {
      base[C.area] = `Rating Area ${area}`;
      if (plan.dental || COMMUNITY_RATED.has(iss.state)) {
        // Family-tier row: IndividualRate is the single rate, the tier columns the household premiums.
        const row = base.slice();
        row[C.tobacco] = "No Preference";
        row[C.age] = "Family Option";
        row[C.rate] = rateAmount(cents);
        for (const [i, milli] of plan.dental ? dentalTiers : familyCols)
          row[i] = rateAmount(mulMilliCents(cents, milli));
        f.array(row);
        continue;
      }
      const curve = curveOf(iss.state);
      const tob = iss.tobaccoMilli;
      base[C.tobacco] = tob === null ? "No Preference" : "Tobacco User/Non-Tobacco User";
      for (const { label, adult } of labels) {
        const rate = mulMilliCents(cents, curve.get(label)!);
        base[C.age] = label;
        base[C.rate] = rateAmount(rate);
        base[C.tobRate] = tob === null ? "" : rateAmount(adult ? mulMilliCents(rate, tob) : rate);
        f.array(base);
      }
    }
  }
  for (const s of world.sentinelRates) {
    const row = new Array<string>(headers.length).fill("");
    row[C.year] = String(world.year);
    row[C.state] = s.plan.issuer.state;
    row[C.issuer] = s.plan.issuer.id;
    row[C.source] = SOURCE_NAME;
    row[C.imp] = world.importDate;
    row[C.eff] = `${world.year}-01-01`;
    row[C.exp] = `${world.year}-12-31`;
    row[C.plan] = s.plan.id;
    row[C.area] = `Rating Area ${s.area}`;
    row[C.tobacco] = "No Preference";
    row[C.age] = s.age;
    row[C.rate] = rateAmount(s.cents);
    f.array(row);
  }
  return summary(f.close());
}

export function writeServiceAreas(world: World, dir: string): FileSummary {
  const f = new CsvFile(join(dir, "service-area-puf.csv"), HEADERS.serviceArea);
  for (const iss of world.issuers) {
    for (const sa of iss.serviceAreas) {
      const common = {
        BusinessYear: String(world.year),
        StateCode: iss.state,
        IssuerId: iss.id,
        SourceName: SOURCE_NAME,
        ImportDate: world.importDate,
        ServiceAreaId: sa.id,
        ServiceAreaName: sa.name,
        MarketCoverage: sa.market,
        DentalOnlyPlan: sa.dental ? "Yes" : "No",
      };
      if (sa.statewide) {
        f.record({
          ...common,
          CoverEntireState: "Yes",
          County: "",
          PartialCounty: "",
          ZipCodes: "",
          PartialCountyJustification: "",
        });
        continue;
      }
      for (const c of sa.counties) {
        const partial = c.partialZips !== undefined;
        f.record({
          ...common,
          CoverEntireState: "No",
          County: c.county,
          PartialCounty: partial ? "Yes" : "No",
          ZipCodes: partial ? c.partialZips!.join(", ") : "",
          PartialCountyJustification: partial
            ? "The provider network meets time and distance standards only in these ZIP codes of the county."
            : "",
        });
      }
    }
  }
  return summary(f.close());
}

export function writeQuality(world: World, dir: string): FileSummary {
  const f = new CsvFile(join(dir, "quality-puf.csv"), HEADERS.quality);
  for (const plan of world.plans) {
    const q = plan.quality;
    if (!q) continue;
    const vals =
      q.kind === "rated" ? [q.overall, q.medical, q.member, q.admin].map(String) : [q.text, q.text, q.text, q.text];
    f.record({
      IssuerID: plan.issuer.id,
      State: plan.issuer.state,
      "Plan Type": plan.type,
      Reportingunitid: `${plan.issuer.id}-${plan.issuer.state}-${plan.type}`,
      PlanID: plan.id,
      OverallRatingValue: vals[0],
      MedicalCareRatingValue: vals[1],
      MemberExperienceRatingValue: vals[2],
      PlanAdministrationRatingValue: vals[3],
    });
  }
  return summary(f.close());
}

export function writeNetworks(world: World, dir: string): FileSummary {
  const f = new CsvFile(join(dir, "network-puf.csv"), HEADERS.network);
  for (const iss of world.issuers) {
    const dental = iss.serviceAreas.every((s) => s.dental);
    for (const n of iss.networks) {
      f.record({
        BusinessYear: String(world.year),
        StateCode: iss.state,
        IssuerId: iss.id,
        SourceName: SOURCE_NAME,
        ImportDate: world.importDate,
        NetworkName: n.name,
        NetworkId: n.id,
        NetworkURL: `https://www.${iss.slug}.example.com/find-a-doctor?network=${n.id}`,
        MarketCoverage: "Individual",
        DentalOnlyPlan: dental ? "Yes" : "No",
      });
    }
  }
  return summary(f.close());
}

// ---------------------------------------------------------------------------
// Geography

export function writeGeography(world: World, dir: string): FileSummary[] {
  const out: FileSummary[] = [];
  const countyName = new Map(world.counties.map((c) => [c.fips, c.name]));

  const hud = new CsvFile(join(dir, "zip-county-hud.csv"), HEADERS.hudZipCounty);
  for (const z of world.hudZips) {
    hud.record({
      ZIP: z.zip,
      COUNTY: z.county,
      USPS_ZIP_PREF_CITY: z.city,
      USPS_ZIP_PREF_STATE: z.uspsState,
      RES_RATIO: ratio(z.res ?? z.ratio),
      BUS_RATIO: ratio(z.bus ?? z.ratio),
      OTH_RATIO: ratio(z.oth ?? z.ratio),
      TOT_RATIO: ratio(z.ratio),
    });
  }
  out.push(summary(hud.close()));

  // Census relationship file: pipe-delimited with a UTF-8 BOM, one row per ZCTA × county part.
  const census = new CsvFile(join(dir, "zcta-county-census2020.txt"), HEADERS.censusZctaCounty, {
    delimiter: "|",
    bom: true,
  });
  const zctaLand = new Map<string, number>();
  for (const p of world.censusParts) if (p.zcta) zctaLand.set(p.zcta, (zctaLand.get(p.zcta) ?? 0) + p.arealandPart);
  for (const p of world.censusParts) {
    const hasZcta = p.zcta !== "";
    census.record({
      OID_ZCTA5_20: hasZcta ? `22090${p.zcta}00000` : "",
      GEOID_ZCTA5_20: p.zcta,
      NAMELSAD_ZCTA5_20: hasZcta ? `ZCTA5 ${p.zcta}` : "",
      AREALAND_ZCTA5_20: hasZcta ? String(zctaLand.get(p.zcta)) : "",
      AREAWATER_ZCTA5_20: hasZcta ? "0" : "",
      MTFCC_ZCTA5_20: hasZcta ? "G6350" : "",
      CLASSFP_ZCTA5_20: hasZcta ? "B5" : "",
      FUNCSTAT_ZCTA5_20: hasZcta ? "S" : "",
      OID_COUNTY_20: `27590${p.county}00000`,
      GEOID_COUNTY_20: p.county,
      NAMELSAD_COUNTY_20: p.countyName || countyName.get(p.county) || "",
      AREALAND_COUNTY_20: "0",
      AREAWATER_COUNTY_20: "0",
      MTFCC_COUNTY_20: "G4020",
      CLASSFP_COUNTY_20: "H1",
      FUNCSTAT_COUNTY_20: "A",
      AREALAND_PART: String(p.arealandPart),
      AREAWATER_PART: String(p.areawaterPart),
    });
  }
  out.push(summary(census.close()));

  const counties = new CsvFile(join(dir, "national-county2020.txt"), HEADERS.nationalCounty, { delimiter: "|" });
  for (const c of world.counties) {
    const st = STATE_BY_CODE.get(c.state);
    if (!st || st.fips !== c.fips.slice(0, 2)) throw new Error(`county ${c.fips} does not belong to ${c.state}`);
    counties.array([c.state, st.fips, c.fips.slice(2), "00000000", c.name, c.classfp, c.funcstat]);
  }
  out.push(summary(counties.close()));

  const byCounty = new CsvFile(join(dir, "rating-areas-by-county.csv"), HEADERS.ratingAreasByCounty);
  for (const r of world.ratingAreasByCounty) byCounty.array([r.state, r.county, r.countyName, `Rating Area ${r.area}`]);
  out.push(summary(byCounty.close()));

  const byZip3 = new CsvFile(join(dir, "rating-areas-by-zip3.csv"), HEADERS.ratingAreasByZip3);
  for (const r of world.ratingAreasByZip3) byZip3.array([r.state, r.zip3, `Rating Area ${r.area}`]);
  out.push(summary(byZip3.close()));

  const states = new CsvFile(join(dir, "states.csv"), HEADERS.states);
  for (const s of stateRows(world.year)) {
    states.array([
      String(s.planYear),
      s.code,
      s.name,
      s.exchangeKind,
      s.marketplaceName,
      s.marketplaceUrl,
      s.ownedData ? "true" : "false",
    ]);
  }
  out.push(summary(states.close()));
  return out;
}

function ratio(x: number): string {
  // HUD publishes up to 10 decimals; trim trailing zeros but keep one.
  const s = x.toFixed(10).replace(/0+$/, "");
  return s.endsWith(".") ? `${s}0` : s;
}

function summary(s: { path: string; rows: number; bytes: number }): FileSummary {
  return { file: s.path, rows: s.rows, bytes: s.bytes };
}
