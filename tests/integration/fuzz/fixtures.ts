/**
 * Known-good values from the bundled sample plan store (seed/sample, built
 * into data/test/plan-store.sqlite by tests/global-setup.ts), so that the
 * "valid" bodies the fuzz generators start from really are valid: a place
 * whose county holds the ZIP, a plan offered there, codes with own rows.
 * `valid seeds answer 2xx` in each test file proves these stay true.
 */

export const PLAN_YEAR = 2027;

export interface SamplePlace {
  state: string;
  county_fips: string;
  zip: string;
  /** Plans offered in this county (for enrollment applications). */
  planIds: readonly string[];
}

/** Places in owned-data states: NY (own eligibility) and TX (upstream eligibility through the fake). */
export const PLACES: readonly SamplePlace[] = [
  { state: "NY", county_fips: "36061", zip: "10001", planIds: ["20101NY0010001", "20101NY0010002"] },
  { state: "NY", county_fips: "36047", zip: "11201", planIds: ["20101NY0010003"] },
  { state: "NY", county_fips: "36047", zip: "10038", planIds: ["20101NY0010001"] },
  { state: "TX", county_fips: "48113", zip: "75201", planIds: ["10101TX0010001", "10101TX0010002"] },
  { state: "TX", county_fips: "48453", zip: "78701", planIds: ["10101TX0010001"] },
];

/** RxCUIs with own formulary rows, and NPIs with own provider-network rows. */
export const RXCUIS = ["105585", "1373463", "1664463", "197361", "209459", "243670"] as const;
export const NPIS = ["1310000017", "1310000025", "1310000041", "1360000008", "1360000024"] as const;
export const PLAN_IDS = [
  "10101TX0010001",
  "10101TX0010002",
  "10101TX0010003",
  "20101NY0010001",
  "20202NY0010001",
  "50101NE0030001",
] as const;

/** ZIPs in own data (some cross a county or state line) and a few that are not. */
export const ZIPS = [
  "10001",
  "10038",
  "75201",
  "75007",
  "77494",
  "02861",
  "38079",
  "57638",
  "90210",
  "99501",
  "00000",
  "99999",
  "12345",
] as const;

/** Words the drug and provider autocompletes know in the sample. */
export const DRUG_QUERIES = ["lipitor", "ator", "metf", "insulin", "ibuprofen", "amox"] as const;
export const PROVIDER_QUERIES = ["smith", "avery", "clinic", "hospital", "medical", "john"] as const;

/** The upload route's document types (app/server/intake/storage.server.ts UPLOAD_DOC_TYPES). */
export const DOC_TYPES = [
  "intake_form",
  "consent_form",
  "income_worksheet",
  "enrollment_checklist",
  "client_notice",
  "other",
] as const;

/** Secret the fuzz tests configure, so they can mint valid unsubscribe tokens. */
export const UNSUBSCRIBE_SECRET = "fuzz-unsubscribe-secret-0123456789abcdef";
