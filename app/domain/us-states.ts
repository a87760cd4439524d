// The USPS codes of the 50 states and DC, and of the territories: the one list the service keeps
// (the agent form's licensing states, the ZIP-prefix table's test and the fuzz generators use it).
// Order: by state name, as USPS lists them (DC after Delaware).

/** USPS codes of the 50 states and the District of Columbia. */
export const STATES_AND_DC = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "DC",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
] as const;

/** USPS codes of the inhabited US territories: Puerto Rico, Guam, the Virgin Islands, American Samoa, the Northern Mariana Islands. */
export const US_TERRITORIES = ["PR", "GU", "VI", "AS", "MP"] as const;

/** The 50 states, DC and the territories. */
export const US_JURISDICTIONS = [...STATES_AND_DC, ...US_TERRITORIES] as const;

/** A USPS code of a state, DC or a territory. */
export type UsJurisdiction = (typeof US_JURISDICTIONS)[number];
