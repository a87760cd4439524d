/**
 * Facts the generator takes from the project's reference files rather than
 * from its own code: the PY2026 column lists of the public-use files, the
 * age-rating curves, NY family tiers, the MOOP limit and the marketplace
 * type of each state (app/domain/parameters/aca-parameters.json, read through
 * its one accessor, parameter()).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { parameter } from "../../app/domain/parameters/parameter-file";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const read = (rel: string) => readFileSync(join(REPO_ROOT, rel), "utf8");

type HeadersFile = Record<string, Record<string, string[] | string>>;
const headersFile = JSON.parse(read("seed/reference/puf-column-headers.json")) as HeadersFile;

export function headerList(file: string, variant: string): string[] {
  const list = headersFile[file]?.[variant];
  if (!Array.isArray(list)) throw new Error(`puf-column-headers.json has no ${file}.${variant}`);
  return list;
}

/** Exact PY2026 header lists (seed/reference/puf-column-headers.json). */
export const HEADERS = {
  planAttributes: headerList("plan_attributes_puf", "PY2026"),
  rate: headerList("rate_puf", "PY2026"),
  benefits: headerList("benefits_cost_sharing_puf", "PY2026"),
  serviceArea: headerList("service_area_puf", "PY2026"),
  quality: headerList("quality_puf", "PY2026"),
  network: headerList("network_puf", "PY2017_and_later_probable"),
  hudZipCounty: headerList("hud_usps_zip_county", "2020_and_later"),
  censusZctaCounty: headerList(
    "census_zcta_county_2020",
    "tab20_zcta520_county20_natl.txt (pipe-delimited, UTF-8 BOM)",
  ),
  nationalCounty: ["STATE", "STATEFP", "COUNTYFP", "COUNTYNS", "COUNTYNAME", "CLASSFP", "FUNCSTAT"],
  ratingAreasByCounty: ["state", "county_fips", "county_name", "rating_area_id"],
  ratingAreasByZip3: ["state", "zip3", "rating_area_id"],
  states: [
    "plan_year",
    "state_code",
    "state_name",
    "exchange_kind",
    "marketplace_name",
    "marketplace_url",
    "owned_data",
  ],
} as const;

/** Rate PUF `Age` labels of PY2018 onward, in file order. */
export const RATE_AGE_LABELS: readonly string[] = [
  "0-14",
  ...Array.from({ length: 49 }, (_, i) => String(15 + i)),
  "64 and over",
];

/** Ages 14 (= "0-14") … 64 (= "64 and over") covered by a curve key like "21-24", "0-20", "64+", "59+". */
function agesOfKey(key: string): number[] {
  const clamp = (n: number) => Math.min(64, Math.max(14, n));
  const plus = /^(\d+)\+$/.exec(key);
  if (plus) return range(clamp(Number(plus[1])), 64);
  const span = /^(\d+)-(\d+)$/.exec(key);
  if (span) return range(clamp(Number(span[1])), clamp(Number(span[2])));
  if (/^\d+$/.test(key)) return [clamp(Number(key))];
  throw new Error(`unknown age-curve key ${key}`);
}
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const labelOfAge = (age: number) => (age <= 14 ? "0-14" : age >= 64 ? "64 and over" : String(age));

/**
 * Age factors in thousandths (1.222 → 1222) per Rate PUF label. States with
 * their own curve (AL, MS, OR, UT among the owned-data states) use it; every
 * other age-rated state uses the federal default (45 CFR 147.102(e)).
 */
export function ageCurveMilli(state: string): Map<string, number> {
  const curve = parameter("ageCurveStateSpecific")[state] ?? parameter("ageCurveFederalDefault");
  const out = new Map<string, number>();
  for (const [key, factor] of Object.entries(curve)) {
    for (const age of agesOfKey(key)) out.set(labelOfAge(age), Math.round(factor * 1000));
  }
  for (const label of RATE_AGE_LABELS) {
    if (!out.has(label)) throw new Error(`age curve for ${state} lacks ${label}`);
  }
  return out;
}

/** Community-rated states with family tiers instead of an age curve. */
export const COMMUNITY_RATED: ReadonlySet<string> = new Set(parameter("ageRatingExemptStates"));

/** NY family-tier factors in thousandths, keyed by the Rate PUF column they fill. */
export function nyFamilyTierMilli(): Record<string, number> {
  const t = parameter("familyTiers").NY;
  const m = (x: number) => Math.round(x * 1000);
  return {
    Couple: m(t.TWO_ADULTS),
    PrimarySubscriberAndOneDependent: m(t.ONE_ADULT_AND_CHILDREN),
    PrimarySubscriberAndTwoDependents: m(t.ONE_ADULT_AND_CHILDREN),
    PrimarySubscriberAndThreeOrMoreDependents: m(t.ONE_ADULT_AND_CHILDREN),
    CoupleAndOneDependent: m(t.TWO_ADULTS_AND_CHILDREN),
    CoupleAndTwoDependents: m(t.TWO_ADULTS_AND_CHILDREN),
    CoupleAndThreeOrMoreDependents: m(t.TWO_ADULTS_AND_CHILDREN),
  };
}

export function moopLimit(year: number): { individual: number; family: number } {
  const limits = parameter("maxOutOfPocket", year);
  return { individual: limits.selfOnly, family: limits.otherThanSelfOnly };
}

/** The 2027 benefit names actually seen in the PY2026 BenCS PUF (seed/reference/benefit-names.py2026-ffm.csv). */
export function knownBenefitNames(): Set<string> {
  const names = new Set<string>();
  for (const line of read("seed/reference/benefit-names.py2026-ffm.csv").split(/\r?\n/).slice(1)) {
    if (!line) continue;
    const m = /^"((?:[^"]|"")*)"/.exec(line);
    names.add(m ? m[1].replace(/""/g, '"') : line.split(",")[0]);
  }
  return names;
}
