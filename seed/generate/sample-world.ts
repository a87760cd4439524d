/**
 * The bundled sample (seed/sample/): real county codes, ZIPs and rating
 * areas; made-up issuers, plans, prices, providers and formularies.
 *
 * Geography sources: seed/reference/zip-county.hud-usps-2025q2.excerpt.csv,
 * zcta-county.census2020.multistate.excerpt.csv, rating-area-by-county.excerpt.csv,
 * rating-area-by-zip3.cms-gra-2015.csv, and the CMS rating areas as carried in
 * PolicyEngine's aca_rating_areas.csv for NY, OK and TN counties. ZIPs not in
 * the HUD excerpt are given the county (and, for 74127 and 30341, an
 * approximate split) their post office serves; docs/decisions/030.
 */
import { REAL_DRUGS } from "./drugs";
import type {
  CensusPart,
  County,
  HudZip,
  Issuer,
  Network,
  Plan,
  RatingAreaByCounty,
  RatingAreaByZip3,
  ServiceArea,
  World,
} from "./model";
import { makePlan, METAL_PRICE_MILLI, type PlanSpec } from "./plans";
import { Prng, unitHash } from "./prng";
import { moopLimit } from "./reference";

const c = (fips: string, state: string, name: string, classfp = "H1", funcstat = "A"): County => ({
  fips,
  state,
  name,
  classfp,
  funcstat,
});

export const SAMPLE_COUNTIES: readonly County[] = [
  // NY (community rated; NYC boroughs are county-equivalents consolidated with the city)
  c("36047", "NY", "Kings County", "H6", "C"),
  c("36061", "NY", "New York County", "H6", "C"),
  c("36081", "NY", "Queens County", "H6", "C"),
  c("36001", "NY", "Albany County"),
  // TX
  c("48113", "TX", "Dallas County"),
  c("48453", "TX", "Travis County"),
  c("48121", "TX", "Denton County"),
  c("48085", "TX", "Collin County"),
  c("48201", "TX", "Harris County"),
  c("48157", "TX", "Fort Bend County"),
  c("48473", "TX", "Waller County"),
  // OK
  c("40143", "OK", "Tulsa County"),
  c("40113", "OK", "Osage County"),
  // TN / KY (42223 crosses the state line)
  c("47125", "TN", "Montgomery County"),
  c("47095", "TN", "Lake County"),
  c("47131", "TN", "Obion County"),
  c("21047", "KY", "Christian County"),
  c("21075", "KY", "Fulton County"),
  // NE (rated by 3-digit ZIP)
  c("31055", "NE", "Douglas County"),
  c("31109", "NE", "Lancaster County"),
  c("31031", "NE", "Cherry County"),
  // AK (rated by 3-digit ZIP)
  c("02020", "AK", "Anchorage Municipality", "H6", "C"),
  c("02170", "AK", "Matanuska-Susitna Borough"),
  // Other counties of the HUD and Census excerpts
  c("10005", "DE", "Sussex County"),
  c("24019", "MD", "Dorchester County"),
  c("12121", "FL", "Suwannee County"),
  c("12067", "FL", "Lafayette County"),
  c("12041", "FL", "Gilchrist County"),
  c("12029", "FL", "Dixie County"),
  c("12086", "FL", "Miami-Dade County"),
  c("12099", "FL", "Palm Beach County"),
  c("19149", "IA", "Plymouth County"),
  c("19109", "IA", "Kossuth County"),
  c("46105", "SD", "Perkins County"),
  c("46031", "SD", "Corson County"),
  c("46127", "SD", "Union County"),
  c("46099", "SD", "Minnehaha County"),
  c("46063", "SD", "Harding County"),
  c("46121", "SD", "Todd County"),
  c("38001", "ND", "Adams County"),
  c("38037", "ND", "Grant County"),
  c("38085", "ND", "Sioux County"),
  c("38011", "ND", "Bowman County"),
  c("38087", "ND", "Slope County"),
  c("27043", "MN", "Faribault County"),
  c("27091", "MN", "Martin County"),
  c("27133", "MN", "Rock County"),
  c("44007", "RI", "Providence County"),
  c("25005", "MA", "Bristol County"),
  c("23017", "ME", "Oxford County"),
  c("33007", "NH", "Coos County"),
  c("53075", "WA", "Whitman County"),
  c("16057", "ID", "Latah County"),
  // State-based-exchange ZIPs
  c("06037", "CA", "Los Angeles County"),
  c("42101", "PA", "Philadelphia County", "H6", "C"),
  c("34017", "NJ", "Hudson County"),
  c("13089", "GA", "DeKalb County"),
  c("13121", "GA", "Fulton County"),
];

const z = (zip: string, county: string, city: string, uspsState: string, ratio: number): HudZip => ({
  zip,
  county,
  city,
  uspsState,
  ratio,
});

/**
 * HUD USPS ZIP–county rows. Rows marked "excerpt" are the real 2025-Q2
 * TOT_RATIO values; the others are single-county ZIPs (ratio 1) and two
 * approximate splits (74127, 30341).
 */
export const SAMPLE_HUD_ZIPS: readonly HudZip[] = [
  // excerpt
  z("10001", "36061", "NEW YORK", "NY", 1.0),
  z("10038", "36061", "NEW YORK", "NY", 0.8888),
  z("10038", "36047", "NEW YORK", "NY", 0.1112),
  z("19973", "10005", "SEAFORD", "DE", 1.0),
  z("32008", "12121", "BRANFORD", "FL", 0.4619),
  z("32008", "12067", "BRANFORD", "FL", 0.2591),
  z("32008", "12041", "BRANFORD", "FL", 0.2274),
  z("32008", "12029", "BRANFORD", "FL", 0.0516),
  z("33139", "12086", "MIAMI BEACH", "FL", 1.0),
  z("33433", "12099", "BOCA RATON", "FL", 1.0),
  z("38079", "47095", "TIPTONVILLE", "TN", 0.999),
  z("38079", "47131", "TIPTONVILLE", "TN", 0.001),
  z("42223", "47125", "FORT CAMPBELL", "KY", 0.682),
  z("42223", "21047", "FORT CAMPBELL", "KY", 0.318),
  z("51001", "19149", "AKRON", "IA", 1.0),
  z("57638", "46105", "LEMMON", "SD", 0.9736),
  z("57638", "46031", "LEMMON", "SD", 0.02),
  z("57638", "38001", "LEMMON", "SD", 0.0064),
  z("68102", "31055", "OMAHA", "NE", 1.0),
  z("69201", "31031", "VALENTINE", "NE", 1.0),
  z("75007", "48121", "CARROLLTON", "TX", 0.8978),
  z("75007", "48113", "CARROLLTON", "TX", 0.0764),
  z("75007", "48085", "CARROLLTON", "TX", 0.0259),
  z("75011", "48113", "CARROLLTON", "TX", 0.5796),
  z("75011", "48121", "CARROLLTON", "TX", 0.4204),
  z("77494", "48157", "KATY", "TX", 0.8158),
  z("77494", "48201", "KATY", "TX", 0.1793),
  z("77494", "48473", "KATY", "TX", 0.0049),
  z("99501", "02020", "ANCHORAGE", "AK", 1.0),
  z("99654", "02170", "WASILLA", "AK", 1.0),
  // single-county ZIPs of the sample's plan counties
  z("11201", "36047", "BROOKLYN", "NY", 1.0),
  z("11375", "36081", "FOREST HILLS", "NY", 1.0),
  z("12203", "36001", "ALBANY", "NY", 1.0),
  z("75201", "48113", "DALLAS", "TX", 1.0),
  z("75001", "48113", "ADDISON", "TX", 1.0),
  z("78701", "48453", "AUSTIN", "TX", 1.0),
  z("78702", "48453", "AUSTIN", "TX", 1.0),
  z("78704", "48453", "AUSTIN", "TX", 1.0),
  z("78758", "48453", "AUSTIN", "TX", 1.0),
  z("74103", "40143", "TULSA", "OK", 1.0),
  z("37040", "47125", "CLARKSVILLE", "TN", 1.0),
  z("68508", "31109", "LINCOLN", "NE", 1.0),
  // approximate splits (Tulsa's west side runs into Osage County; Chamblee into Fulton)
  z("74127", "40143", "TULSA", "OK", 0.78),
  z("74127", "40113", "TULSA", "OK", 0.22),
  // state-based-exchange ZIPs
  z("90210", "06037", "BEVERLY HILLS", "CA", 1.0),
  z("19103", "42101", "PHILADELPHIA", "PA", 1.0),
  z("07030", "34017", "HOBOKEN", "NJ", 1.0),
  z("30341", "13089", "ATLANTA", "GA", 0.9),
  z("30341", "13121", "ATLANTA", "GA", 0.1),
];

const p = (zcta: string, county: string, countyName: string, arealandPart: number): CensusPart => ({
  zcta,
  county,
  countyName,
  arealandPart,
  areawaterPart: 0,
});

/** Census 2020 ZCTA × county parts of the ZCTAs that cross a state line (real land areas). */
export const SAMPLE_CENSUS_PARTS: readonly CensusPart[] = [
  p("02861", "44007", "Providence County", 9207555),
  p("02861", "25005", "Bristol County", 42976),
  p("03579", "23017", "Oxford County", 846017376),
  p("03579", "33007", "Coos County", 610782331),
  p("19973", "10005", "Sussex County", 201647634),
  p("19973", "24019", "Dorchester County", 15901281),
  p("38079", "47095", "Lake County", 242631070),
  p("38079", "21075", "Fulton County", 43552785),
  p("42223", "47125", "Montgomery County", 31013818),
  p("42223", "21047", "Christian County", 25233712),
  p("51001", "19149", "Plymouth County", 257617679),
  p("51001", "46127", "Union County", 170253188),
  p("56027", "27043", "Faribault County", 126547405),
  p("56027", "19109", "Kossuth County", 21919185),
  p("56027", "27091", "Martin County", 15581305),
  p("57030", "46099", "Minnehaha County", 309295608),
  p("57030", "27133", "Rock County", 34630032),
  p("57638", "46105", "Perkins County", 1577913693),
  p("57638", "38001", "Adams County", 664126649),
  p("57638", "38037", "Grant County", 134555788),
  p("57638", "38085", "Sioux County", 122844974),
  p("57638", "46031", "Corson County", 122600444),
  p("58653", "38011", "Bowman County", 676683086),
  p("58653", "46063", "Harding County", 140436509),
  p("58653", "38087", "Slope County", 134627844),
  p("69201", "31031", "Cherry County", 3456413614),
  p("69201", "46121", "Todd County", 702183487),
  p("99128", "53075", "Whitman County", 142561658),
  p("99128", "16057", "Latah County", 11527944),
];

const ra = (state: string, county: string, countyName: string, area: number): RatingAreaByCounty => ({
  state,
  county,
  countyName,
  area,
});

export const SAMPLE_RATING_AREAS_BY_COUNTY: readonly RatingAreaByCounty[] = [
  ra("NY", "36001", "Albany", 1),
  ra("NY", "36047", "Kings", 4),
  ra("NY", "36061", "New York", 4),
  ra("NY", "36081", "Queens", 4),
  ra("OK", "40113", "Osage", 4),
  ra("OK", "40143", "Tulsa", 4),
  ra("TN", "47095", "Lake", 5),
  ra("TN", "47125", "Montgomery", 4),
  ra("TN", "47131", "Obion", 5),
  ra("TX", "48085", "Collin", 8),
  ra("TX", "48113", "Dallas", 8),
  ra("TX", "48121", "Denton", 25),
  ra("TX", "48157", "Fort Bend", 26),
  ra("TX", "48201", "Harris", 10),
  ra("TX", "48453", "Travis", 3),
  ra("TX", "48473", "Waller", 26),
];

const r3 = (state: string, zip3: string, area: number): RatingAreaByZip3 => ({ state, zip3, area });

/** AK and NE are rated by 3-digit ZIP (CMS State Gross Rating Areas). */
export const SAMPLE_RATING_AREAS_BY_ZIP3: readonly RatingAreaByZip3[] = [
  r3("AK", "995", 1),
  r3("AK", "996", 2),
  r3("AK", "997", 2),
  r3("AK", "998", 3),
  r3("AK", "999", 3),
  r3("NE", "680", 1),
  r3("NE", "681", 1),
  r3("NE", "683", 2),
  r3("NE", "684", 2),
  r3("NE", "685", 2),
  r3("NE", "686", 3),
  r3("NE", "687", 3),
  r3("NE", "688", 3),
  r3("NE", "689", 3),
  r3("NE", "690", 4),
  r3("NE", "691", 4),
  r3("NE", "692", 4),
  r3("NE", "693", 4),
];

// ---------------------------------------------------------------------------
// Issuers and plans (all made up).

type IssuerSpec = Omit<Issuer, "serviceAreas" | "networks"> & {
  networks: Network[];
  serviceAreas: ServiceArea[];
  plans: PlanSpec[];
};

const sa = (
  id: string,
  name: string,
  counties: ServiceArea["counties"],
  extra: Partial<ServiceArea> = {},
): ServiceArea => ({
  id,
  name,
  statewide: false,
  counties,
  market: "Individual",
  dental: false,
  ...extra,
});
const whole = (...fips: string[]) => fips.map((county) => ({ county }));
const net = (id: string, name: string, multiTier = false): Network => ({ id, name, multiTier });
const plan = (
  metal: PlanSpec["metal"],
  type: PlanSpec["type"],
  name: string,
  extra: Partial<PlanSpec> = {},
): PlanSpec => ({
  metal,
  type,
  name,
  networkId: extra.networkId ?? "",
  serviceAreaId: extra.serviceAreaId ?? "",
  ...extra,
});

function issuer(spec: Omit<IssuerSpec, "machineReadable"> & { machineReadable?: boolean }): IssuerSpec {
  const s: IssuerSpec = { machineReadable: true, ...spec };
  const defNet = s.networks[0]?.id ?? "";
  const defSa = s.serviceAreas[0]?.id ?? "";
  s.plans = s.plans.map((pl) => ({
    ...pl,
    networkId: pl.networkId || defNet,
    serviceAreaId: pl.serviceAreaId || defSa,
  }));
  return s;
}

/** Premium of a silver plan for a 21-year-old (NY: any adult), per state, in dollars a month. */
const STATE_SILVER_BASE: Record<string, number> = { TX: 468, OK: 512, TN: 447, NE: 566, NY: 812 };

export const SAMPLE_ISSUERS: readonly IssuerSpec[] = [
  // --- Texas: Dallas (Rating Area 8) and Travis (Rating Area 3), 25+ plans in each.
  issuer({
    id: "10101",
    state: "TX",
    name: "Bluebonnet Health Plans",
    slug: "bluebonnet",
    tobaccoMilli: 1250,
    trailingSpace: true,
    priceMilli: 1000,
    networks: [net("TXN001", "Bluebonnet Select")],
    serviceAreas: [
      sa("TXS001", "Bluebonnet North and Central Texas", whole("48113", "48085", "48121", "48453")),
      sa("TXS002", "Bluebonnet Small Business", whole("48113"), { market: "SHOP (Small Group)" }),
    ],
    plans: [
      plan("Bronze", "HMO", "Bluebonnet Bronze Essential"),
      plan("Bronze", "HMO", "Bluebonnet Bronze HSA", { hsa: true }),
      plan("Expanded Bronze", "HMO", "Bluebonnet Expanded Bronze Plus"),
      plan("Silver", "HMO", "Bluebonnet Silver Standard", { aian: true, designType: "Design 2" }),
      plan("Silver", "HMO", "Bluebonnet Silver Copay Plus", { separateDrugDeductible: true }),
      plan("Gold", "HMO", "Bluebonnet Gold Advantage", { both: true }),
      plan("Gold", "HMO", "Bluebonnet Gold Copay", { isNew: true }),
      plan("Platinum", "HMO", "Bluebonnet Platinum Premier"),
      plan("Silver", "HMO", "Bluebonnet Small Business Silver", {
        market: "SHOP (Small Group)",
        serviceAreaId: "TXS002",
      }),
    ],
  }),
  issuer({
    id: "10202",
    state: "TX",
    name: "Pecan Valley Health",
    slug: "pecanvalley",
    tobaccoMilli: null,
    trailingSpace: false,
    priceMilli: 1060,
    networks: [net("TXN001", "Pecan Valley Preferred Network", true)],
    serviceAreas: [sa("TXS001", "Pecan Valley Texas Metro", whole("48113", "48085", "48453"))],
    plans: [
      plan("Bronze", "PPO", "Pecan Valley Bronze PPO"),
      plan("Expanded Bronze", "EPO", "Pecan Valley Expanded Bronze EPO"),
      plan("Silver", "PPO", "Pecan Valley Silver PPO", { both: true }),
      plan("Silver", "EPO", "Pecan Valley Silver EPO"),
      plan("Gold", "PPO", "Pecan Valley Gold PPO"),
      plan("Gold", "EPO", "Pecan Valley Gold EPO", { quality: "none" }),
      plan("Platinum", "PPO", "Pecan Valley Platinum PPO"),
    ],
  }),
  issuer({
    id: "10303",
    state: "TX",
    name: "Trinity Crest Insurance",
    slug: "trinitycrest",
    tobaccoMilli: 1500,
    trailingSpace: false,
    priceMilli: 950,
    networks: [net("TXN001", "Trinity Crest Access")],
    serviceAreas: [
      sa("TXS001", "Trinity Crest Dallas and Central Austin", [
        { county: "48113" },
        { county: "48453", partialZips: ["78701", "78702", "78703", "78704", "78705"] },
      ]),
    ],
    plans: [
      plan("Bronze", "EPO", "Trinity Crest Bronze Value"),
      plan("Bronze", "EPO", "Trinity Crest Bronze HSA", { hsa: true }),
      plan("Silver", "EPO", "Trinity Crest Silver Value"),
      plan("Silver", "EPO", "Trinity Crest Silver Plus"),
      plan("Gold", "EPO", "Trinity Crest Gold Value", { isNew: true }),
      plan("Catastrophic", "EPO", "Trinity Crest Catastrophic"),
    ],
  }),
  issuer({
    id: "10404",
    state: "TX",
    name: "Longhorn Mutual Health",
    slug: "longhorn",
    tobaccoMilli: 1150,
    trailingSpace: true,
    priceMilli: 1020,
    networks: [net("TXN001", "Longhorn Core"), net("TXN002", "Longhorn Open Access", true)],
    serviceAreas: [sa("TXS001", "Longhorn Austin and Dallas", whole("48453", "48113"))],
    plans: [
      plan("Bronze", "HMO", "Longhorn Bronze Core"),
      plan("Silver", "HMO", "Longhorn Silver Core"),
      plan("Silver", "POS", "Longhorn Silver Open Access", { networkId: "TXN002" }),
      plan("Gold", "HMO", "Longhorn Gold Core"),
      plan("Gold", "POS", "Longhorn Gold Open Access", { networkId: "TXN002" }),
      plan("Catastrophic", "HMO", "Longhorn Catastrophic Core", { quality: "none" }),
    ],
  }),
  issuer({
    id: "10505",
    state: "TX",
    name: "Gulf Prairie Health",
    slug: "gulfprairie",
    tobaccoMilli: 1200,
    trailingSpace: false,
    priceMilli: 980,
    networks: [net("TXN001", "Gulf Prairie Network")],
    serviceAreas: [sa("TXS001", "Gulf Prairie North Texas and Austin", whole("48113", "48453", "48121"))],
    plans: [
      plan("Bronze", "HMO", "Gulf Prairie Bronze"),
      plan("Expanded Bronze", "HMO", "Gulf Prairie Expanded Bronze"),
      plan("Silver", "HMO", "Gulf Prairie Silver"),
      plan("Gold", "HMO", "Gulf Prairie Gold"),
      plan("Platinum", "HMO", "Gulf Prairie Platinum"),
    ],
  }),
  issuer({
    id: "10606",
    state: "TX",
    name: "Prairie Smile Dental",
    slug: "prairiesmile",
    tobaccoMilli: null,
    trailingSpace: false,
    priceMilli: 1000,
    machineReadable: false,
    networks: [net("TXN001", "Prairie Smile Dentists")],
    serviceAreas: [sa("TXS001", "Prairie Smile Texas", whole("48113", "48453"), { dental: true })],
    plans: [plan("Low", "PPO", "Prairie Smile Family Dental Low", { dental: true })],
  }),
  // --- New York: community rated, NYC (Rating Area 4) and Albany (Rating Area 1), 12+ plans each.
  issuer({
    id: "20101",
    state: "NY",
    name: "Hudson Crest Health",
    slug: "hudsoncrest",
    tobaccoMilli: null,
    trailingSpace: false,
    priceMilli: 1000,
    networks: [net("NYN001", "Hudson Crest Network")],
    serviceAreas: [
      sa("NYS001", "Hudson Crest New York City and Capital Region", whole("36047", "36061", "36081", "36001")),
    ],
    plans: [
      plan("Bronze", "HMO", "Hudson Crest Bronze"),
      plan("Silver", "HMO", "Hudson Crest Silver", { aian: true, designType: "Design 1" }),
      plan("Gold", "HMO", "Hudson Crest Gold"),
      plan("Platinum", "HMO", "Hudson Crest Platinum"),
      plan("Catastrophic", "HMO", "Hudson Crest Catastrophic"),
    ],
  }),
  issuer({
    id: "20202",
    state: "NY",
    name: "Five Boroughs Health Plan",
    slug: "fiveboroughs",
    tobaccoMilli: null,
    trailingSpace: true,
    priceMilli: 960,
    networks: [net("NYN001", "Five Boroughs Community Network")],
    serviceAreas: [sa("NYS001", "Five Boroughs New York City", whole("36047", "36061", "36081"))],
    plans: [
      plan("Bronze", "HMO", "Five Boroughs Bronze"),
      plan("Silver", "HMO", "Five Boroughs Silver"),
      plan("Gold", "HMO", "Five Boroughs Gold"),
      plan("Gold", "EPO", "Five Boroughs Gold EPO", { isNew: true }),
      plan("Platinum", "HMO", "Five Boroughs Platinum"),
    ],
  }),
  issuer({
    id: "20303",
    state: "NY",
    name: "Knickerbocker Health",
    slug: "knickerbocker",
    tobaccoMilli: null,
    trailingSpace: false,
    priceMilli: 1080,
    networks: [net("NYN001", "Knickerbocker Tiered Network", true)],
    serviceAreas: [sa("NYS001", "Knickerbocker New York City and Albany", whole("36047", "36061", "36081", "36001"))],
    plans: [
      plan("Bronze", "EPO", "Knickerbocker Bronze EPO"),
      plan("Silver", "EPO", "Knickerbocker Silver EPO"),
      plan("Gold", "PPO", "Knickerbocker Gold PPO", { both: true }),
      plan("Platinum", "PPO", "Knickerbocker Platinum PPO", { quality: "none" }),
    ],
  }),
  issuer({
    id: "20404",
    state: "NY",
    name: "Capital Region Health Cooperative",
    slug: "capitalregion",
    tobaccoMilli: null,
    trailingSpace: false,
    priceMilli: 930,
    networks: [net("NYN001", "Capital Region Cooperative Network")],
    serviceAreas: [sa("NYS001", "Capital Region", whole("36001"))],
    plans: [
      plan("Bronze", "HMO", "Capital Region Bronze"),
      plan("Silver", "HMO", "Capital Region Silver"),
      plan("Gold", "HMO", "Capital Region Gold"),
      plan("Platinum", "HMO", "Capital Region Platinum"),
      plan("Catastrophic", "HMO", "Capital Region Catastrophic"),
    ],
  }),
  // --- Oklahoma: Tulsa and Osage (Rating Area 4); ZIP 74127 spans both.
  issuer({
    id: "30101",
    state: "OK",
    name: "Red Earth Health",
    slug: "redearth",
    tobaccoMilli: 1300,
    trailingSpace: false,
    priceMilli: 1000,
    networks: [net("OKN001", "Red Earth Network")],
    serviceAreas: [sa("OKS001", "Red Earth Tulsa Area", whole("40143", "40113"))],
    plans: [
      plan("Bronze", "HMO", "Red Earth Bronze", { aian: true }),
      plan("Expanded Bronze", "HMO", "Red Earth Expanded Bronze"),
      plan("Silver", "HMO", "Red Earth Silver"),
      plan("Silver", "HMO", "Red Earth Silver Plus"),
      plan("Gold", "HMO", "Red Earth Gold"),
    ],
  }),
  issuer({
    id: "30202",
    state: "OK",
    name: "Cimarron Health Partners",
    slug: "cimarron",
    tobaccoMilli: 1100,
    trailingSpace: true,
    priceMilli: 1070,
    networks: [net("OKN001", "Cimarron Partners PPO")],
    serviceAreas: [sa("OKS001", "Cimarron Tulsa County", whole("40143"))],
    plans: [
      plan("Bronze", "PPO", "Cimarron Bronze PPO"),
      plan("Silver", "PPO", "Cimarron Silver PPO"),
      plan("Gold", "PPO", "Cimarron Gold PPO"),
    ],
  }),
  // --- Tennessee: Montgomery County (Rating Area 4); ZIP 42223 crosses into Kentucky.
  issuer({
    id: "40101",
    state: "TN",
    name: "Cumberland Ridge Health",
    slug: "cumberlandridge",
    tobaccoMilli: 1500,
    trailingSpace: false,
    priceMilli: 1000,
    networks: [net("TNN001", "Cumberland Ridge Network")],
    serviceAreas: [sa("TNS001", "Cumberland Ridge Clarksville", whole("47125"))],
    plans: [
      plan("Bronze", "HMO", "Cumberland Ridge Bronze"),
      plan("Silver", "HMO", "Cumberland Ridge Silver"),
      plan("Gold", "HMO", "Cumberland Ridge Gold"),
      plan("Platinum", "HMO", "Cumberland Ridge Platinum"),
      plan("Catastrophic", "HMO", "Cumberland Ridge Catastrophic"),
    ],
  }),
  // --- Nebraska: one statewide service area, rated by 3-digit ZIP.
  issuer({
    id: "50101",
    state: "NE",
    name: "Platte River Health",
    slug: "platteriver",
    tobaccoMilli: null,
    trailingSpace: false,
    priceMilli: 1000,
    networks: [net("NEN001", "Platte River Statewide")],
    serviceAreas: [sa("NES001", "Nebraska Statewide", [], { statewide: true })],
    plans: [
      plan("Bronze", "EPO", "Platte River Bronze HSA", { hsa: true }),
      plan("Expanded Bronze", "EPO", "Platte River Expanded Bronze"),
      plan("Silver", "EPO", "Platte River Silver"),
      plan("Gold", "EPO", "Platte River Gold"),
    ],
  }),
];

/** Providers drawn per state, and how many each issuer lists (the sample keeps these small). */
const PROVIDER_POOL: Record<string, number> = { TX: 48, NY: 40, OK: 16, TN: 12, NE: 12 };

export function buildSampleWorld(seed = "sample-2027"): World {
  const year = 2027;
  const limit = moopLimit(year).individual;
  const rng = new Prng(seed);
  const countyArea = new Map(SAMPLE_RATING_AREAS_BY_COUNTY.map((r) => [r.county, r.area]));
  const zip3Areas = (state: string) =>
    [...new Set(SAMPLE_RATING_AREAS_BY_ZIP3.filter((r) => r.state === state).map((r) => r.area))].sort((a, b) => a - b);

  const issuers: Issuer[] = [];
  const plans: Plan[] = [];
  for (const spec of SAMPLE_ISSUERS) {
    const { plans: planSpecs, ...rest } = spec;
    const iss: Issuer = { ...rest };
    issuers.push(iss);
    const irng = rng.fork(`issuer/${iss.id}`);
    planSpecs.forEach((ps, i) => {
      const area = iss.serviceAreas.find((s) => s.id === ps.serviceAreaId);
      if (!area) throw new Error(`${iss.id}: no service area ${ps.serviceAreaId}`);
      const areas = area.statewide
        ? zip3Areas(iss.state)
        : [
            ...new Set(area.counties.map((x) => countyArea.get(x.county) ?? fail(`no rating area for ${x.county}`))),
          ].sort((a, b) => a - b);
      const prng = irng.fork(`plan/${i}`);
      const jitter = Math.round(prng.range(955, 1045));
      const cents = (ra: number): number => {
        if (ps.dental) return Math.round(prng.fork(`dental/${ra}`).range(24, 38) * 100);
        // Area factor is a property of the state's rating area, shared by every issuer there.
        const areaMilli = 900 + Math.floor(unitHash(hashState(iss.state), ra) * 260);
        const dollarsBase =
          STATE_SILVER_BASE[iss.state] *
          (METAL_PRICE_MILLI[ps.metal] / 1000) *
          (iss.priceMilli / 1000) *
          (jitter / 1000) *
          (areaMilli / 1000);
        return Math.round(dollarsBase * 100);
      };
      plans.push(makePlan(iss, ps, i + 1, prng, limit, areas, cents));
    });
  }

  const perIssuer = new Map<string, number>();
  for (const iss of issuers) perIssuer.set(iss.id, Math.ceil((PROVIDER_POOL[iss.state] ?? 10) * 0.65));

  // One sentinel rate: Pecan Valley's bronze PPO priced at 9999.99 in Denton's rating area, which it does not sell.
  const sentinelPlan = plans.find((pl) => pl.issuer.id === "10202" && pl.metal === "Bronze");
  if (!sentinelPlan) throw new Error("sentinel plan missing");

  return {
    scale: "sample",
    year,
    importDate: "2026-10-15",
    lastUpdated: "2026-10-15",
    counties: [...SAMPLE_COUNTIES].sort((a, b) => a.fips.localeCompare(b.fips)),
    hudZips: [...SAMPLE_HUD_ZIPS],
    censusParts: [...SAMPLE_CENSUS_PARTS],
    ratingAreasByCounty: [...SAMPLE_RATING_AREAS_BY_COUNTY],
    ratingAreasByZip3: [...SAMPLE_RATING_AREAS_BY_ZIP3],
    issuers,
    plans,
    drugs: [...REAL_DRUGS],
    providers: { poolPerState: new Map(Object.entries(PROVIDER_POOL)), perIssuer },
    sentinelRates: [{ plan: sentinelPlan, area: 25, age: "21", cents: 999999 }],
  };
}

function fail(message: string): never {
  throw new Error(message);
}

export function hashState(state: string): number {
  return state.charCodeAt(0) * 256 + state.charCodeAt(1);
}
