/**
 * Parsing of the text values found in the CMS public-use files, shared by the
 * seed readers and the plan-store read module. Pure functions, no I/O.
 * Formats: docs/reference/puf-formats.md §3 (money is text:
 * "$6,000 ", "$12000 per person", "30.00% Coinsurance after deductible",
 * "Not Applicable", "No Charge after deductible").
 */

const NOT_APPLICABLE = /^(per (person|group) )?not applicable$/i;

/** True for empty cells and the PUFs' "Not Applicable" family of values. */
export function isNotApplicable(raw: string | null | undefined): boolean {
  if (raw === null || raw === undefined) return true;
  const t = raw.trim();
  return t === "" || NOT_APPLICABLE.test(t) || /^n\/?a$/i.test(t);
}

/** The trimmed cell, or null when empty. */
export function cleanText(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const t = raw.trim();
  return t === "" ? null : t;
}

/**
 * A dollar amount in a cell: "$6,000 " → 6000, "$12000 per group" → 12000,
 * "$250 Copay after deductible" → 250, "No Charge" → 0; null for
 * "Not Applicable", empty cells, percentages and text without a number.
 */
export function parseMoney(raw: string | null | undefined): number | null {
  if (isNotApplicable(raw)) return null;
  const t = (raw as string).trim();
  if (/^no charge/i.test(t)) return 0;
  if (t.includes("%")) return null;
  const m = /^\$?\s*(-?[0-9][0-9,]*(?:\.[0-9]+)?)/.exec(t);
  if (!m) return null;
  const n = Number(m[1].replace(/,/g, ""));
  return Number.isFinite(n) ? n : null;
}

/**
 * A coinsurance or percentage as a fraction: "30.00%" → 0.3,
 * "20% Coinsurance after deductible" → 0.2, "No Charge" → 0, "100%" → 1;
 * null for "Not Applicable", empty cells and text without a percentage.
 */
export function parseRate(raw: string | null | undefined): number | null {
  if (isNotApplicable(raw)) return null;
  const t = (raw as string).trim();
  if (/^no charge/i.test(t)) return 0;
  const m = /^(-?[0-9]+(?:\.[0-9]+)?)\s*%/.exec(t);
  if (!m) return null;
  const n = Number(m[1]) / 100;
  return Number.isFinite(n) ? n : null;
}

/** A plain decimal ("298.4", "0.700079495"), or null. */
export function parseDecimal(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined) return null;
  const t = raw.trim().replace(/^\$/, "").replace(/,/g, "");
  if (t === "" || !/^-?[0-9]*\.?[0-9]+(e[-+]?[0-9]+)?$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** Yes/No style flags: Yes, No, Y, N, True, False, 1, 0, Covered, Not Covered. */
export function parseYesNo(raw: string | null | undefined): boolean | null {
  if (raw === null || raw === undefined) return null;
  const t = raw.trim().toLowerCase();
  if (["yes", "y", "true", "1", "covered"].includes(t)) return true;
  if (["no", "n", "false", "0", "not covered"].includes(t)) return false;
  return null;
}

/** Dates as ISO YYYY-MM-DD from "2026-01-01", "2015-08-27 15:13:29" or "1/1/2026"; null otherwise. */
export function parseDate(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const t = raw.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T].*)?$/.exec(t);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s.*)?$/.exec(t);
  if (m) return `${m[3]}-${m[1].padStart(2, "0")}-${m[2].padStart(2, "0")}`;
  return null;
}

/** What a cost-share text says besides its number (for display and pricing logic). */
export type CostShareText = {
  display: string;
  notApplicable: boolean;
  noCharge: boolean;
  afterDeductible: boolean;
  beforeDeductible: boolean;
};

export function describeCostShare(raw: string | null | undefined): CostShareText {
  const display = (raw ?? "").trim();
  const lower = display.toLowerCase();
  return {
    display,
    notApplicable: isNotApplicable(raw),
    noCharge: lower.startsWith("no charge") || /^\$0(\.0+)?$/.test(display) || /^0(\.0+)?%$/.test(display),
    afterDeductible: lower.includes("after deductible"),
    beforeDeductible: lower.includes("before deductible"),
  };
}

// ---------------------------------------------------------------- identifiers

export const STANDARD_COMPONENT_ID = /^[0-9]{5}[A-Z]{2}[0-9]{7}$/;
export const VARIANT_ID = /^([0-9]{5}[A-Z]{2}[0-9]{7})-([0-9]{2})$/;

/** CSR level of a silver variant suffix (puf-formats.md §2; 45 CFR 155.305(g)). */
export const CSR_LEVEL_BY_SUFFIX: Readonly<Record<string, 73 | 87 | 94>> = { "04": 73, "05": 87, "06": 94 };
export const CSR_SUFFIX_BY_LEVEL: Readonly<Record<"73" | "87" | "94", string>> = { "73": "04", "87": "05", "94": "06" };

/** "Rating Area 7", "rating area 07" or "7" → 7; null otherwise. */
export function parseRatingArea(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined) return null;
  const m = /^(?:rating\s*area\s*)?0*([0-9]{1,3})$/i.exec(raw.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 ? n : null;
}

export function ratingAreaLabel(n: number): string {
  return `Rating Area ${n}`;
}

/** Zero-pads a numeric code read as text ("4023" → "04023"); null when not digits or too long. */
export function padCode(raw: string | null | undefined, width: number): string | null {
  if (raw === null || raw === undefined) return null;
  let t = raw.trim();
  // Spreadsheet exports sometimes turn codes into floats ("29027.0").
  t = t.replace(/\.0+$/, "");
  if (!/^[0-9]+$/.test(t) || t.length > width) return null;
  return t.padStart(width, "0");
}

/** USPS state code by 2-digit state FIPS code (Census). */
export const STATE_BY_FIPS: Readonly<Record<string, string>> = {
  "01": "AL",
  "02": "AK",
  "04": "AZ",
  "05": "AR",
  "06": "CA",
  "08": "CO",
  "09": "CT",
  "10": "DE",
  "11": "DC",
  "12": "FL",
  "13": "GA",
  "15": "HI",
  "16": "ID",
  "17": "IL",
  "18": "IN",
  "19": "IA",
  "20": "KS",
  "21": "KY",
  "22": "LA",
  "23": "ME",
  "24": "MD",
  "25": "MA",
  "26": "MI",
  "27": "MN",
  "28": "MS",
  "29": "MO",
  "30": "MT",
  "31": "NE",
  "32": "NV",
  "33": "NH",
  "34": "NJ",
  "35": "NM",
  "36": "NY",
  "37": "NC",
  "38": "ND",
  "39": "OH",
  "40": "OK",
  "41": "OR",
  "42": "PA",
  "44": "RI",
  "45": "SC",
  "46": "SD",
  "47": "TN",
  "48": "TX",
  "49": "UT",
  "50": "VT",
  "51": "VA",
  "53": "WA",
  "54": "WV",
  "55": "WI",
  "56": "WY",
  "60": "AS",
  "66": "GU",
  "69": "MP",
  "72": "PR",
  "78": "VI",
};

/** The state of a 5-digit county FIPS code, or undefined for an unknown prefix. */
export function stateOfCounty(countyFips: string): string | undefined {
  return STATE_BY_FIPS[countyFips.slice(0, 2)];
}
