/**
 * The 50 states and DC: FIPS code, name, 2020 county count, and who runs the
 * marketplace in a plan year. Exchange kinds come from
 * app/domain/parameters/aca-parameters.json (marketplaceType); marketplace
 * names and addresses are the states' own public sites.
 */
import { STATE_MARKETPLACES } from "../../app/domain/marketplaces";
import { parameter } from "../../app/domain/parameters/parameter-file";

export type ExchangeKind = "healthcaregov" | "sbe_federal_platform" | "sbe";

export type StateInfo = {
  code: string;
  fips: string;
  name: string;
  /** Counties and equivalents in the Census 2020 county list. */
  countyCount: number;
  /** First three ZIP digits used by the state's post offices (for synthetic ZIPs). */
  zip3: [number, number];
};

export const STATES: readonly StateInfo[] = [
  { code: "AL", fips: "01", name: "Alabama", countyCount: 67, zip3: [350, 369] },
  { code: "AK", fips: "02", name: "Alaska", countyCount: 30, zip3: [995, 999] },
  { code: "AZ", fips: "04", name: "Arizona", countyCount: 15, zip3: [850, 865] },
  { code: "AR", fips: "05", name: "Arkansas", countyCount: 75, zip3: [716, 729] },
  { code: "CA", fips: "06", name: "California", countyCount: 58, zip3: [900, 961] },
  { code: "CO", fips: "08", name: "Colorado", countyCount: 64, zip3: [800, 816] },
  { code: "CT", fips: "09", name: "Connecticut", countyCount: 8, zip3: [60, 69] },
  { code: "DE", fips: "10", name: "Delaware", countyCount: 3, zip3: [197, 199] },
  { code: "DC", fips: "11", name: "District of Columbia", countyCount: 1, zip3: [200, 205] },
  { code: "FL", fips: "12", name: "Florida", countyCount: 67, zip3: [320, 349] },
  { code: "GA", fips: "13", name: "Georgia", countyCount: 159, zip3: [300, 319] },
  { code: "HI", fips: "15", name: "Hawaii", countyCount: 5, zip3: [967, 968] },
  { code: "ID", fips: "16", name: "Idaho", countyCount: 44, zip3: [832, 838] },
  { code: "IL", fips: "17", name: "Illinois", countyCount: 102, zip3: [600, 629] },
  { code: "IN", fips: "18", name: "Indiana", countyCount: 92, zip3: [460, 479] },
  { code: "IA", fips: "19", name: "Iowa", countyCount: 99, zip3: [500, 528] },
  { code: "KS", fips: "20", name: "Kansas", countyCount: 105, zip3: [660, 679] },
  { code: "KY", fips: "21", name: "Kentucky", countyCount: 120, zip3: [400, 427] },
  { code: "LA", fips: "22", name: "Louisiana", countyCount: 64, zip3: [700, 714] },
  { code: "ME", fips: "23", name: "Maine", countyCount: 16, zip3: [39, 49] },
  { code: "MD", fips: "24", name: "Maryland", countyCount: 24, zip3: [206, 219] },
  { code: "MA", fips: "25", name: "Massachusetts", countyCount: 14, zip3: [10, 27] },
  { code: "MI", fips: "26", name: "Michigan", countyCount: 83, zip3: [480, 499] },
  { code: "MN", fips: "27", name: "Minnesota", countyCount: 87, zip3: [550, 567] },
  { code: "MS", fips: "28", name: "Mississippi", countyCount: 82, zip3: [386, 397] },
  { code: "MO", fips: "29", name: "Missouri", countyCount: 115, zip3: [630, 658] },
  { code: "MT", fips: "30", name: "Montana", countyCount: 56, zip3: [590, 599] },
  { code: "NE", fips: "31", name: "Nebraska", countyCount: 93, zip3: [680, 693] },
  { code: "NV", fips: "32", name: "Nevada", countyCount: 17, zip3: [889, 898] },
  { code: "NH", fips: "33", name: "New Hampshire", countyCount: 10, zip3: [30, 38] },
  { code: "NJ", fips: "34", name: "New Jersey", countyCount: 21, zip3: [70, 89] },
  { code: "NM", fips: "35", name: "New Mexico", countyCount: 33, zip3: [870, 884] },
  { code: "NY", fips: "36", name: "New York", countyCount: 62, zip3: [100, 149] },
  { code: "NC", fips: "37", name: "North Carolina", countyCount: 100, zip3: [270, 289] },
  { code: "ND", fips: "38", name: "North Dakota", countyCount: 53, zip3: [580, 588] },
  { code: "OH", fips: "39", name: "Ohio", countyCount: 88, zip3: [430, 459] },
  { code: "OK", fips: "40", name: "Oklahoma", countyCount: 77, zip3: [730, 749] },
  { code: "OR", fips: "41", name: "Oregon", countyCount: 36, zip3: [970, 979] },
  { code: "PA", fips: "42", name: "Pennsylvania", countyCount: 67, zip3: [150, 196] },
  { code: "RI", fips: "44", name: "Rhode Island", countyCount: 5, zip3: [28, 29] },
  { code: "SC", fips: "45", name: "South Carolina", countyCount: 46, zip3: [290, 299] },
  { code: "SD", fips: "46", name: "South Dakota", countyCount: 66, zip3: [570, 577] },
  { code: "TN", fips: "47", name: "Tennessee", countyCount: 95, zip3: [370, 385] },
  { code: "TX", fips: "48", name: "Texas", countyCount: 254, zip3: [750, 799] },
  { code: "UT", fips: "49", name: "Utah", countyCount: 29, zip3: [840, 847] },
  { code: "VT", fips: "50", name: "Vermont", countyCount: 14, zip3: [50, 59] },
  { code: "VA", fips: "51", name: "Virginia", countyCount: 133, zip3: [201, 246] },
  { code: "WA", fips: "53", name: "Washington", countyCount: 39, zip3: [980, 994] },
  { code: "WV", fips: "54", name: "West Virginia", countyCount: 55, zip3: [247, 268] },
  { code: "WI", fips: "55", name: "Wisconsin", countyCount: 72, zip3: [530, 549] },
  { code: "WY", fips: "56", name: "Wyoming", countyCount: 23, zip3: [820, 831] },
];

export const STATE_BY_CODE = new Map(STATES.map((s) => [s.code, s]));
export const STATE_BY_FIPS = new Map(STATES.map((s) => [s.fips, s]));

/** States that run their own enrollment platform, with the name and address consumers know (the app's one table). */
const OWN_MARKETPLACES: Record<string, [string, string]> = Object.fromEntries(
  Object.entries(STATE_MARKETPLACES).map(([code, m]) => [code, [m.name, m.url]]),
);

const HEALTHCARE_GOV: [string, string] = ["HealthCare.gov", "https://www.healthcare.gov"];

export type StateRow = {
  planYear: number;
  code: string;
  name: string;
  exchangeKind: ExchangeKind;
  marketplaceName: string;
  marketplaceUrl: string;
  ownedData: boolean;
};

/**
 * Who runs each state's marketplace in `planYear`. 2026 is the CMS list;
 * 2027 applies the expected changes recorded in aca-parameters.json (Oregon
 * leaves the federal platform; docs/decisions/031). `ownedData` is NY plus
 * every state whose plans are sold on HealthCare.gov that year, i.e. the
 * states whose plans are in the federal PUFs.
 */
export function stateRows(planYear: number): StateRow[] {
  const base = parameter("marketplaceType", 2026);
  const own = new Set(base.stateBasedOwnPlatform);
  const sbeFp = new Set(base.healthcareGovOfWhichSbeFp);
  if (planYear >= 2027) {
    for (const change of parameter("marketplaceTypeExpectedChanges", 2027).changes) {
      if (/full SBM/i.test(change.change)) {
        own.add(change.state);
        sbeFp.delete(change.state);
      }
    }
  }
  return STATES.map((s) => {
    const kind: ExchangeKind = own.has(s.code) ? "sbe" : sbeFp.has(s.code) ? "sbe_federal_platform" : "healthcaregov";
    const [marketplaceName, marketplaceUrl] = kind === "sbe" ? OWN_MARKETPLACES[s.code] : HEALTHCARE_GOV;
    if (!marketplaceName) throw new Error(`no marketplace name for ${s.code}`);
    return {
      planYear,
      code: s.code,
      name: s.name,
      exchangeKind: kind,
      marketplaceName,
      marketplaceUrl,
      ownedData: s.code === "NY" || kind !== "sbe",
    };
  });
}
