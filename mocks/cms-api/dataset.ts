/**
 * The upstream fake's view of a source directory in the CMS formats listed in
 * docs/data.md (Plan Attributes, Rate and Service Area PUFs, HUD ZIP-county
 * crosswalk, Census county list, rating areas, QHP machine-readable
 * drugs.json / providers.json). Every file is optional: the fake answers from
 * whatever is there. It reads the files itself, independently of the
 * service's seed pipeline, because it stands in for an external system.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { PROVIDER_TYPE_ORDER, type ProviderTypeName } from "../../app/domain/coverage-suggestions";
import { parseCsv } from "./csv";

/** The provider types of the Marketplace API, from the service's one list (app/domain is pure, so the fake may share it). */
export type ProviderKind = ProviderTypeName;

export interface FakePlan {
  id: string;
  year: number;
  state: string;
  issuerId: string;
  issuerName: string;
  name: string;
  metalLevel: string;
  planType: string;
  serviceAreaId: string;
  designType: string;
  /** Share of the premium that pays for essential health benefits (1 when unknown). */
  ehbShare: number;
  deductible: number | null;
  moop: number | null;
  hsaEligible: boolean;
  nationalNetwork: boolean;
  sbcUrl: string;
  brochureUrl: string;
  formularyUrl: string;
}

export interface RateTable {
  effective: string;
  expiration: string;
  /** Rate PUF age label (`0-14`, `15` … `63`, `64 and over`, legacy `0-20`) → monthly rate. */
  byAge: Map<string, number>;
}

export interface ServiceAreaRow {
  year: number;
  state: string;
  issuerId: string;
  serviceAreaId: string;
  wholeState: boolean;
  county: string;
  zips: Set<string> | null;
  individual: boolean;
}

export interface ZipCounty {
  zip: string;
  fips: string;
  state: string;
  name: string;
  ratio: number;
}

export interface FakeDrugPlan {
  tier: string;
  priorAuthorization: boolean;
  stepTherapy: boolean;
  quantityLimit: boolean;
  years: number[] | null;
}

export interface FakeDrug {
  rxcui: string;
  drugName: string;
  plans: Map<string, FakeDrugPlan>;
}

export interface FakeAddress {
  street1: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
}

export interface FakeProvider {
  npi: string;
  kind: ProviderKind;
  name: string;
  specialties: string[];
  facilityTypes: string[];
  accepting: string;
  gender: string | null;
  languages: string[];
  addresses: FakeAddress[];
  plans: Map<string, { tiers: string[]; years: number[] | null }>;
}

export interface FakeDataset {
  dir: string;
  plans: FakePlan[];
  /** key `${year}|${planId}|${ratingArea}` → rate tables by effective period. */
  rates: Map<string, RateTable[]>;
  serviceAreas: ServiceAreaRow[];
  zipCounties: Map<string, ZipCounty[]>;
  counties: Map<string, { state: string; name: string }>;
  ratingAreaByCounty: Map<string, number>;
  /** key `${state}|${zip3}` */
  ratingAreaByZip3: Map<string, number>;
  drugs: Map<string, FakeDrug>;
  providers: FakeProvider[];
  years: number[];
}

function readIfExists(file: string): string | null {
  return existsSync(file) ? readFileSync(file, "utf8") : null;
}

function csvRows(dir: string, name: string, delimiter = ","): Array<Record<string, string>> {
  const text = readIfExists(path.join(dir, name));
  return text === null ? [] : parseCsv(text, delimiter);
}

/**
 * A year-keyed PUF's rows from the folder and its plan-year folders (`2026/`, as
 * the seed reads them): the live API serves every year it holds, not only the newest.
 */
function yearRows(dir: string, name: string): Array<Record<string, string>> {
  return yearFolders(dir).flatMap((folder) => csvRows(folder, name));
}

/** The folder and its plan-year folders (`2026/`), in that order. */
function yearFolders(dir: string): string[] {
  const yearDirs = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && /^\d{4}$/.test(entry.name))
        .map((entry) => path.join(dir, entry.name))
        .sort()
    : [];
  return [dir, ...yearDirs];
}

/** `$6,000 ` → 6000; `Not Applicable` / empty → null. */
export function parseMoney(value: string | undefined): number | null {
  if (!value) return null;
  const match = /-?[\d,]*\.?\d+/.exec(value.replace(/\$/g, ""));
  if (!match) return null;
  const n = Number(match[0].replace(/,/g, ""));
  return Number.isFinite(n) ? n : null;
}

function parseShare(value: string | undefined): number {
  if (!value) return 1;
  const n = Number(value.replace("%", "").trim());
  if (!Number.isFinite(n) || n <= 0) return 1;
  const share = value.includes("%") || n > 1 ? n / 100 : n;
  return share > 0 && share <= 1 ? share : 1;
}

export function ratingAreaNumber(value: string | undefined): number | null {
  if (!value) return null;
  const match = /(\d+)\s*$/.exec(value.trim());
  return match ? Number(match[1]) : null;
}

/** ISO `2027-01-01` or `1/1/2027` → `2027-01-01`. */
export function isoDate(value: string | undefined): string {
  if (!value) return "";
  const v = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(v);
  if (us) return `${us[3]}-${us[1].padStart(2, "0")}-${us[2].padStart(2, "0")}`;
  return "";
}

const pad5 = (v: string) => v.trim().padStart(5, "0");
const yes = (v: string | undefined) => (v ?? "").trim().toLowerCase() === "yes";

function loadPlans(dir: string): FakePlan[] {
  const byKey = new Map<string, { row: Record<string, string>; preferred: boolean }>();
  for (const row of yearRows(dir, "plan-attributes-puf.csv")) {
    if (!(row.marketcoverage ?? "").toLowerCase().startsWith("individual")) continue;
    if (yes(row.dentalonlyplan)) continue;
    const id = row.standardcomponentid;
    const year = Number(row.businessyear);
    if (!/^\d{5}[A-Z]{2}\d{7}$/.test(id ?? "") || !Number.isInteger(year)) continue;
    const key = `${year}|${id}`;
    // The on-exchange standard variant (-01) describes the plan sold on the marketplace.
    const preferred = (row.planid ?? "").endsWith("-01");
    const existing = byKey.get(key);
    if (!existing || (preferred && !existing.preferred)) byKey.set(key, { row, preferred });
  }
  const plans: FakePlan[] = [];
  for (const { row } of byKey.values()) {
    const integrated = yes(row.medicaldrugdeductiblesintegrated) || !row.mehbdedinntier1individual;
    plans.push({
      id: row.standardcomponentid,
      year: Number(row.businessyear),
      state: row.statecode,
      issuerId: pad5(row.issuerid ?? row.standardcomponentid.slice(0, 5)),
      issuerName: row.issuermarketplacemarketingname || `Issuer ${row.issuerid}`,
      name: row.planmarketingname || row.standardcomponentid,
      metalLevel: row.metallevel,
      planType: row.plantype,
      serviceAreaId: row.serviceareaid,
      designType: row.designtype ?? "",
      ehbShare: parseShare(row.ehbpercenttotalpremium),
      deductible: parseMoney(integrated ? row.tehbdedinntier1individual : row.mehbdedinntier1individual),
      moop: parseMoney(row.tehbinntier1individualmoop || row.mehbinntier1individualmoop),
      hsaEligible: yes(row.ishsaeligible),
      nationalNetwork: yes(row.nationalnetwork),
      sbcUrl: row.urlforsummaryofbenefitscoverage ?? "",
      brochureUrl: row.planbrochure ?? "",
      formularyUrl: row.formularyurl ?? "",
    });
  }
  plans.sort((a, b) => a.year - b.year || a.id.localeCompare(b.id));
  return plans;
}

/** Issuers' "do not sell" sentinels (9999, 9999.99, 999999). */
const SENTINEL_RATE = 9999;

function loadRates(dir: string): Map<string, RateTable[]> {
  const rates = new Map<string, RateTable[]>();
  for (const row of yearRows(dir, "rate-puf.csv")) {
    const age = (row.age ?? "").trim();
    if (!age || age.toLowerCase() === "family option") continue;
    const rate = Number(row.individualrate);
    if (!Number.isFinite(rate) || rate >= SENTINEL_RATE) continue;
    const area = ratingAreaNumber(row.ratingareaid);
    if (area === null) continue;
    const key = `${Number(row.businessyear)}|${row.planid}|${area}`;
    const effective = isoDate(row.rateeffectivedate);
    const expiration = isoDate(row.rateexpirationdate);
    let tables = rates.get(key);
    if (!tables) rates.set(key, (tables = []));
    let table = tables.find((t) => t.effective === effective && t.expiration === expiration);
    if (!table) tables.push((table = { effective, expiration, byAge: new Map() }));
    table.byAge.set(age.toLowerCase(), rate);
  }
  return rates;
}

function loadServiceAreas(dir: string): ServiceAreaRow[] {
  return yearRows(dir, "service-area-puf.csv")
    .filter((row) => !yes(row.dentalonlyplan))
    .map((row) => ({
      year: Number(row.businessyear),
      state: row.statecode,
      issuerId: pad5(row.issuerid ?? ""),
      serviceAreaId: row.serviceareaid,
      wholeState: yes(row.coverentirestate),
      county: row.county ? pad5(row.county) : "",
      zips: yes(row.partialcounty)
        ? new Set(
            (row.zipcodes ?? "")
              .split(/[,\s]+/)
              .filter(Boolean)
              .map(pad5),
          )
        : null,
      individual: !row.marketcoverage || row.marketcoverage.toLowerCase().startsWith("individual"),
    }));
}

function loadCounties(dir: string): Map<string, { state: string; name: string }> {
  const counties = new Map<string, { state: string; name: string }>();
  for (const row of csvRows(dir, "national-county2020.txt", "|")) {
    const fips = `${(row.statefp ?? "").padStart(2, "0")}${(row.countyfp ?? "").padStart(3, "0")}`;
    if (fips.length === 5) counties.set(fips, { state: row.state, name: row.countyname });
  }
  return counties;
}

function loadZipCounties(
  dir: string,
  counties: Map<string, { state: string; name: string }>,
): Map<string, ZipCounty[]> {
  const byZip = new Map<string, ZipCounty[]>();
  const add = (entry: ZipCounty) => {
    let list = byZip.get(entry.zip);
    if (!list) byZip.set(entry.zip, (list = []));
    if (!list.some((e) => e.fips === entry.fips)) list.push(entry);
  };
  for (const row of csvRows(dir, "zip-county-hud.csv")) {
    if (!row.zip || !row.county) continue;
    const fips = pad5(row.county);
    const county = counties.get(fips);
    add({
      zip: pad5(row.zip),
      fips,
      state: county?.state ?? row.usps_zip_pref_state ?? "",
      name: county?.name ?? `County ${fips}`,
      ratio: Number(row.tot_ratio) || 0,
    });
  }
  // Census ZCTA parts fill ZIPs the HUD file lacks (share = land part / ZCTA land).
  for (const row of csvRows(dir, "zcta-county-census2020.txt", "|")) {
    const zip = row.geoid_zcta5_20;
    const fips = row.geoid_county_20;
    if (!zip || !fips) continue;
    const county = counties.get(pad5(fips));
    const land = Number(row.arealand_zcta5_20);
    add({
      zip: pad5(zip),
      fips: pad5(fips),
      state: county?.state ?? "",
      name: county?.name ?? row.namelsad_county_20 ?? `County ${fips}`,
      ratio: land > 0 ? Number(row.arealand_part) / land : 0,
    });
  }
  for (const list of byZip.values()) list.sort((a, b) => b.ratio - a.ratio || a.fips.localeCompare(b.fips));
  return byZip;
}

function loadRatingAreas(dir: string) {
  const byCounty = new Map<string, number>();
  for (const row of csvRows(dir, "rating-areas-by-county.csv")) {
    const area = ratingAreaNumber(row.rating_area_id);
    if (row.county_fips && area !== null) byCounty.set(pad5(row.county_fips), area);
  }
  const byZip3 = new Map<string, number>();
  for (const row of csvRows(dir, "rating-areas-by-zip3.csv")) {
    const area = ratingAreaNumber(row.rating_area_id);
    if (row.state && row.zip3 && area !== null) byZip3.set(`${row.state}|${row.zip3.padStart(3, "0")}`, area);
  }
  return { byCounty, byZip3 };
}

/** Issuer files of the folder and of its plan-year folders (`2026/mr/`): each entry names its years. */
function machineReadableFiles(dir: string, prefix: "drugs" | "providers"): string[] {
  const files: string[] = [];
  for (const folder of yearFolders(dir)) {
    const root = path.join(folder, "mr");
    if (!existsSync(root)) continue;
    for (const issuer of readdirSync(root).sort()) {
      const issuerDir = path.join(root, issuer);
      if (!statSync(issuerDir).isDirectory()) continue;
      for (const name of readdirSync(issuerDir).sort()) {
        if (name.startsWith(prefix) && name.endsWith(".json")) files.push(path.join(issuerDir, name));
      }
    }
  }
  return files;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value && typeof value === "object" ? [value] : [];
}

function years(value: unknown): number[] | null {
  return Array.isArray(value) ? value.map(Number).filter(Number.isFinite) : null;
}

/** Both listings' years; null (every year) when either names none. */
function unionYears(a: number[] | null, b: number[] | null): number[] | null {
  return a === null || b === null ? null : [...new Set([...a, ...b])].sort((x, y) => x - y);
}

function loadDrugs(dir: string): Map<string, FakeDrug> {
  const drugs = new Map<string, FakeDrug>();
  for (const file of machineReadableFiles(dir, "drugs")) {
    for (const item of asArray(JSON.parse(readFileSync(file, "utf8")))) {
      const d = item as Record<string, unknown>;
      const rxcui = String(d.rxnorm_id ?? "").trim();
      if (!rxcui) continue;
      let drug = drugs.get(rxcui);
      if (!drug) drugs.set(rxcui, (drug = { rxcui, drugName: String(d.drug_name ?? rxcui), plans: new Map() }));
      for (const p of asArray(d.plans)) {
        const plan = p as Record<string, unknown>;
        const planId = String(plan.plan_id ?? "");
        if (!planId) continue;
        // A plan listed in two years' files (same id both years) keeps the first listing, serving both years.
        const listed = drug.plans.get(planId);
        if (listed) {
          listed.years = unionYears(listed.years, years(plan.years));
          continue;
        }
        drug.plans.set(planId, {
          tier: String(plan.drug_tier ?? ""),
          priorAuthorization: plan.prior_authorization === true,
          stepTherapy: plan.step_therapy === true,
          quantityLimit: plan.quantity_limit === true,
          years: years(plan.years),
        });
      }
    }
  }
  return drugs;
}

/** The machine-readable files spell the types in capitals (INDIVIDUAL, FACILITY, GROUP). */
const KINDS: Record<string, ProviderKind> = Object.fromEntries(
  PROVIDER_TYPE_ORDER.map((kind) => [kind.toUpperCase(), kind]),
);

function providerName(p: Record<string, unknown>, kind: ProviderKind): string {
  if (kind === "Individual") {
    const n = (p.name ?? {}) as Record<string, unknown>;
    if (typeof p.name === "string") return p.name;
    return [n.prefix, n.first, n.middle, n.last, n.suffix]
      .filter((part) => typeof part === "string" && part.trim())
      .join(" ");
  }
  return String((kind === "Facility" ? p.facility_name : p.group_name) ?? p.facility_name ?? p.group_name ?? "");
}

function loadProviders(dir: string): FakeProvider[] {
  const byKey = new Map<string, FakeProvider>();
  for (const file of machineReadableFiles(dir, "providers")) {
    for (const item of asArray(JSON.parse(readFileSync(file, "utf8")))) {
      const p = item as Record<string, unknown>;
      const npi = String(p.npi ?? "").trim();
      const kind = KINDS[String(p.type ?? "").toUpperCase()];
      if (!/^\d{10}$/.test(npi) || !kind) continue;
      // One entry per (NPI, type): an organisation listed as a facility by one
      // issuer and as a group by another is answered under both types.
      const key = `${npi}|${kind}`;
      let provider = byKey.get(key);
      if (!provider) {
        provider = {
          npi,
          kind,
          name: providerName(p, kind),
          specialties: asArray(p.specialty ?? p.speciality).map(String),
          facilityTypes: asArray(p.facility_type).map(String),
          accepting: typeof p.accepting === "string" ? p.accepting : "unknown",
          gender: typeof p.gender === "string" ? p.gender : null,
          languages: asArray(p.languages).map(String),
          addresses: asArray(p.addresses).map((a) => {
            const addr = a as Record<string, unknown>;
            return {
              street1: String(addr.address ?? ""),
              street2: String(addr.address_2 ?? ""),
              city: String(addr.city ?? ""),
              state: String(addr.state ?? ""),
              zip: String(addr.zip ?? "").slice(0, 5),
            };
          }),
          plans: new Map(),
        };
        byKey.set(key, provider);
      }
      for (const pl of asArray(p.plans)) {
        const plan = pl as Record<string, unknown>;
        const planId = String(plan.plan_id ?? "");
        if (!planId) continue;
        const known = provider.plans.get(planId);
        const entry = known
          ? { ...known, years: unionYears(known.years, years(plan.years)) }
          : { tiers: [] as string[], years: years(plan.years) };
        const tier = String(plan.network_tier ?? "");
        if (tier && !entry.tiers.includes(tier)) entry.tiers.push(tier);
        provider.plans.set(planId, entry);
      }
    }
  }
  return [...byKey.values()];
}

export function loadDataset(dir: string): FakeDataset {
  const counties = loadCounties(dir);
  const plans = loadPlans(dir);
  const { byCounty, byZip3 } = loadRatingAreas(dir);
  return {
    dir,
    plans,
    rates: loadRates(dir),
    serviceAreas: loadServiceAreas(dir),
    zipCounties: loadZipCounties(dir, counties),
    counties,
    ratingAreaByCounty: byCounty,
    ratingAreaByZip3: byZip3,
    drugs: loadDrugs(dir),
    providers: loadProviders(dir),
    years: [...new Set(plans.map((p) => p.year))].sort(),
  };
}
