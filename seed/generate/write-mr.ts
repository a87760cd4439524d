/**
 * QHP machine-readable files per issuer, mr/<issuer-id>/{plans,drugs,providers}.json,
 * in the CMS schema (github.com/CMSgov/QHP-provider-formulary-APIs; examples in
 * seed/reference/qhp-mr-*.cms-example.json). Written element by element, so a
 * multi-gigabyte providers.json never sits in memory.
 *
 * Formulary and network membership are decided by stateless hashes of
 * (issuer, drug or provider, plan), so the files are reproducible and the
 * same provider keeps the same NPI, name and address in every issuer's file.
 */
import { join } from "node:path";
import type { Drug, Issuer, Plan, World } from "./model";
import { JsonArrayFile } from "./output";
import { unitHash } from "./prng";
import { STATE_BY_CODE } from "./states";

export type MrSummary = {
  files: { file: string; items: number; bytes: number }[];
  formularyRows: number;
  providerNetworkRows: number;
  providers: number;
};

type FormularyEntry = { tier: string; pa: boolean; st: boolean; ql: boolean };

/** Issuer-level formulary decision for a drug; plan-level exclusions are applied on top. */
export function issuerFormulary(issuerNum: number, drugIndex: number, drug: Drug): FormularyEntry | null {
  const u = (k: number) => unitHash(issuerNum, drugIndex, k);
  const onList = { generic: 0.94, preventive: 0.97, brand: 0.8, specialty: 0.72 }[drug.cls];
  if (u(1) >= onList) return null;
  let tier: string;
  switch (drug.cls) {
    case "generic":
      tier = u(2) < 0.12 ? "NON-PREFERRED-GENERIC" : unitHash(issuerNum, 7) < 0.5 ? "GENERIC" : "PREFERRED-GENERIC";
      break;
    case "preventive":
      tier = unitHash(issuerNum, 8) < 0.5 ? "ZERO-COST-SHARE-PREVENTIVE" : "GENERIC";
      break;
    case "brand":
      tier = u(2) < 0.6 ? "PREFERRED-BRAND" : "NON-PREFERRED-BRAND";
      break;
    default:
      tier = "SPECIALTY";
  }
  return {
    tier,
    pa: drug.cls === "specialty" || (drug.cls === "brand" && u(3) < 0.25) || u(3) < 0.02,
    st: (tier === "NON-PREFERRED-BRAND" && u(4) < 0.5) || (drug.cls === "specialty" && u(4) < 0.3),
    ql: u(5) < 0.15,
  };
}

/** Catastrophic and bronze plans leave some brand and specialty drugs off. */
export function planExcludes(plan: Plan, planIndex: number, drugIndex: number, drug: Drug): boolean {
  const lean = plan.metal === "Catastrophic" || plan.metal === "Bronze";
  return lean && (drug.cls === "brand" || drug.cls === "specialty") && unitHash(planIndex, drugIndex, 11) < 0.2;
}

/** NPI check digit (Luhn over "80840" + the 9-digit base; the prefix adds a constant 24). */
export function npiCheckDigit(base9: string): number {
  let sum = 24;
  for (let i = 0; i < 9; i++) {
    let d = base9.charCodeAt(8 - i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidNpi(npi: string): boolean {
  return /^[12][0-9]{9}$/.test(npi) && npiCheckDigit(npi.slice(0, 9)) === Number(npi[9]);
}

// Invented names: ordinary first names with surnames made up for the sample.
const FIRST = [
  "Avery",
  "Jordan",
  "Priya",
  "Mateo",
  "Elena",
  "Marcus",
  "Hana",
  "Tobias",
  "Grace",
  "Rafael",
  "Nadia",
  "Owen",
  "Leah",
  "Samir",
  "Ines",
  "Caleb",
  "Mei",
  "Victor",
  "Rosa",
  "Julian",
  "Amara",
  "Felix",
  "Lucia",
  "Dmitri",
  "Keiko",
  "Andre",
  "Yara",
  "Colin",
  "Selma",
  "Hugo",
];
const LAST = [
  "Ashgrove",
  "Bellwether",
  "Cinderford",
  "Dunmore",
  "Everhollow",
  "Fairbrook",
  "Glenwick",
  "Hollander",
  "Ivybridge",
  "Juniperro",
  "Kestrelton",
  "Larkspur",
  "Merriwell",
  "Northcote",
  "Oakhurst",
  "Pembrook",
  "Quillfeather",
  "Ravensworth",
  "Silverdale",
  "Thornbury",
  "Underhill",
  "Valecrest",
  "Whitmoor",
  "Yarrowby",
  "Zellwood",
  "Brightwater",
  "Coldharbor",
  "Dovecote",
  "Emberlyn",
  "Foxmere",
];
const SPECIALTIES = [
  "Family Medicine",
  "Internal Medicine",
  "Pediatrics",
  "Cardiology",
  "Dermatology",
  "Obstetrics & Gynecology",
  "Orthopaedic Surgery",
  "Psychiatry",
  "Endocrinology",
  "Ophthalmology",
  "Gastroenterology",
  "Neurology",
];
const STREETS = [
  "Meadowlark",
  "Juniper",
  "Riverbend",
  "Cedar Hollow",
  "Bluestem",
  "Harbor View",
  "Old Mill",
  "Prairie Wind",
  "Stonegate",
  "Willow Creek",
];
const STREET_KIND = ["Ave", "St", "Blvd", "Rd", "Pkwy"];
const FACILITY = [
  ["Community Hospital", "Hospital"],
  ["Medical Center", "Hospital"],
  ["Urgent Care", "Urgent Care"],
  ["Imaging Center", "Imaging Center"],
  ["Surgery Center", "Ambulatory Surgical Center"],
] as const;
const AREA_CODE: Record<string, string> = { TX: "214", NY: "718", OK: "918", TN: "931", NE: "402" };

export type PoolZip = { zip: string; city: string; county: string };

/** What the directory knows about provider number `j` of a state's pool: fixed, whichever issuer lists it. */
function providerIdentity(state: string, j: number, zips: PoolZip[]) {
  const st = STATE_BY_CODE.get(state)!;
  const h = (k: number) => unitHash(Number(st.fips), j, k);
  const roll = h(1);
  const type = roll < 0.72 ? "INDIVIDUAL" : roll < 0.9 ? "GROUP" : "FACILITY";
  const base9 = `${type === "INDIVIDUAL" ? 1 : 2}${st.fips}${String(j).padStart(6, "0")}`;
  const npi = base9 + npiCheckDigit(base9);
  const home = zips[j % zips.length];
  const phone = `${AREA_CODE[state] ?? "800"}55501${String(j % 100).padStart(2, "0")}`;
  const street = (k: number) =>
    `${100 + Math.floor(h(k) * 8800)} ${STREETS[Math.floor(h(k + 1) * STREETS.length)]} ${STREET_KIND[Math.floor(h(k + 2) * STREET_KIND.length)]}`;
  const addresses: Record<string, string>[] = [
    { address: street(10), city: titleCase(home.city), state, zip: home.zip, phone },
  ];
  const someLocations = type === "INDIVIDUAL" && h(2) < 0.15;
  if (someLocations || h(3) < 0.1) {
    const other = zips[(j + 1 + Math.floor(h(4) * zips.length)) % zips.length];
    addresses.push({
      address: street(20),
      address_2: "Suite 200",
      city: titleCase(other.city),
      state,
      zip: other.zip,
      phone,
    });
  }
  const first = FIRST[Math.floor(h(5) * FIRST.length)];
  const last = LAST[Math.floor(h(6) * LAST.length)];
  return { type, npi, home, addresses, first, last, someLocations, h };
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/\b[a-z]/g, (ch) => ch.toUpperCase());
}

export function writeMachineReadable(world: World, dir: string): MrSummary {
  const summary: MrSummary = { files: [], formularyRows: 0, providerNetworkRows: 0, providers: 0 };
  const YEARS = [world.year];
  const drugs = world.drugs;
  const poolZips = poolZipsByState(world);

  const globalPlanIndex = new Map(world.plans.map((p, i) => [p, i]));
  for (const iss of world.issuers) {
    if (!iss.machineReadable) continue;
    const plans = world.plans.filter((p) => p.issuer === iss && p.market === "Individual" && !p.dental);
    if (plans.length === 0) continue;
    const issuerNum = Number(iss.id);
    const out = join(dir, "mr", iss.id);
    const planIndex = globalPlanIndex;

    // plans.json
    const pf = new JsonArrayFile(join(out, "plans.json"));
    const tiersUsed = new Set<string>();
    drugs.forEach((d, i) => {
      const e = issuerFormulary(issuerNum, i, d);
      if (e) tiersUsed.add(e.tier);
    });
    for (const p of plans) pf.push(planJson(p, [...tiersUsed].sort(), world.lastUpdated, YEARS));
    summary.files.push(asFile(pf.close()));

    // drugs.json
    const df = new JsonArrayFile(join(out, "drugs.json"));
    drugs.forEach((d, i) => {
      const e = issuerFormulary(issuerNum, i, d);
      if (!e) return;
      const entries = [];
      for (const p of plans) {
        if (planExcludes(p, planIndex.get(p)!, i, d)) continue;
        entries.push({
          plan_id_type: "HIOS-PLAN-ID",
          plan_id: p.id,
          drug_tier: e.tier,
          prior_authorization: e.pa,
          step_therapy: e.st,
          quantity_limit: e.ql,
          years: YEARS,
        });
      }
      if (entries.length === 0) return;
      summary.formularyRows += entries.length;
      df.push({ rxnorm_id: d.rxcui, drug_name: d.name, plans: entries });
    });
    summary.files.push(asFile(df.close()));

    // providers.json
    const prf = new JsonArrayFile(join(out, "providers.json"));
    const zips = poolZips.get(iss.state) ?? [];
    const pool = world.providers.poolPerState.get(iss.state) ?? 0;
    const counties = issuerCounties(world, iss);
    const eligible: number[] = [];
    for (let j = 0; j < pool && zips.length > 0; j++) if (counties.has(zips[j % zips.length].county)) eligible.push(j);
    const want = Math.min(world.providers.perIssuer.get(iss.id) ?? 0, eligible.length);
    // A stride through the eligible list picks `want` distinct providers without shuffling.
    const start = Math.floor(unitHash(issuerNum, 21) * Math.max(1, eligible.length));
    const step = coprimeStep(eligible.length, issuerNum);
    const chosen: number[] = [];
    for (let k = 0; k < want; k++) chosen.push(eligible[(start + k * step) % eligible.length]);
    chosen.sort((a, b) => a - b);
    const plansByNetwork = new Map(iss.networks.map((n) => [n.id, plans.filter((p) => p.networkId === n.id)]));
    for (const j of chosen) {
      const who = providerIdentity(iss.state, j, zips);
      const nets = iss.networks.filter((n, k) => iss.networks.length === 1 || unitHash(issuerNum, j, 30 + k) < 0.7);
      if (nets.length === 0) nets.push(iss.networks[j % iss.networks.length]);
      const planEntries = [];
      for (const n of nets) {
        const tier = n.multiTier && unitHash(issuerNum, j, 40) >= 0.7 ? "NON-PREFERRED" : "PREFERRED";
        for (const p of plansByNetwork.get(n.id) ?? []) {
          planEntries.push({ plan_id_type: "HIOS-PLAN-ID", plan_id: p.id, network_tier: tier, years: YEARS });
        }
      }
      if (planEntries.length === 0) continue;
      summary.providerNetworkRows += planEntries.length;
      summary.providers++;
      prf.push(providerJson(who, planEntries, world.lastUpdated));
    }
    summary.files.push(asFile(prf.close()));
  }
  return summary;
}

/** ZIPs of each state whose main county is served by some issuer: where the state's providers practise. */
export function poolZipsByState(world: World): Map<string, PoolZip[]> {
  const countyState = new Map(world.counties.map((c) => [c.fips, c.state]));
  const servedCounties = new Map<string, Set<string>>();
  for (const iss of world.issuers) {
    const set = servedCounties.get(iss.state) ?? new Set<string>();
    for (const c of issuerCounties(world, iss)) set.add(c);
    servedCounties.set(iss.state, set);
  }
  const poolZips = new Map<string, PoolZip[]>();
  const seen = new Set<string>();
  for (const z of world.hudZips) {
    const state = countyState.get(z.county);
    if (!state || seen.has(z.zip)) continue;
    seen.add(z.zip);
    if (!servedCounties.get(state)?.has(z.county)) continue;
    const list = poolZips.get(state) ?? [];
    list.push({ zip: z.zip, city: z.city, county: z.county });
    poolZips.set(state, list);
  }
  return poolZips;
}

/** Counties an issuer serves (statewide service areas: every county of the state in the world). */
export function issuerCounties(world: World, iss: Issuer): Set<string> {
  const set = new Set<string>();
  for (const sa of iss.serviceAreas) {
    if (sa.market !== "Individual" || sa.dental) continue;
    if (sa.statewide) for (const c of world.counties) if (c.state === iss.state) set.add(c.fips);
    for (const c of sa.counties) set.add(c.county);
  }
  return set;
}

function coprimeStep(n: number, salt: number): number {
  if (n <= 1) return 1;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let step = 1 + (salt % n);
  while (gcd(step, n) !== 1) step = (step % n) + 1;
  return step;
}

function providerJson(who: ReturnType<typeof providerIdentity>, plans: unknown[], lastUpdated: string): unknown {
  const { h } = who;
  if (who.type === "INDIVIDUAL") {
    const specialty = [SPECIALTIES[Math.floor(h(7) * SPECIALTIES.length)]];
    return {
      npi: who.npi,
      type: "INDIVIDUAL",
      name:
        h(8) < 0.3
          ? { first: who.first, middle: FIRST[Math.floor(h(9) * FIRST.length)], last: who.last, suffix: "MD" }
          : { first: who.first, last: who.last },
      addresses: who.addresses,
      specialty,
      accepting: who.someLocations ? "accepting in some locations" : h(11) < 0.8 ? "accepting" : "not accepting",
      gender: h(12) < 0.5 ? "Female" : "Male",
      languages: h(13) < 0.3 ? ["English", "Spanish"] : ["English"],
      last_updated_on: lastUpdated,
      plans,
    };
  }
  if (who.type === "FACILITY") {
    const [suffix, kind] = FACILITY[Math.floor(h(14) * FACILITY.length)];
    return {
      npi: who.npi,
      type: "FACILITY",
      facility_name: `${who.last} ${suffix}`,
      facility_type: [kind],
      last_updated_on: lastUpdated,
      addresses: who.addresses,
      plans,
    };
  }
  return {
    npi: who.npi,
    type: "GROUP",
    group_name: `${who.last} ${h(15) < 0.5 ? "Medical Group" : "Family Practice Associates"}`,
    addresses: who.addresses,
    last_updated_on: lastUpdated,
    plans,
  };
}

function planJson(p: Plan, tiers: string[], lastUpdated: string, YEARS: number[]): unknown {
  const host = `https://www.${p.issuer.slug}.example.com`;
  const k = p.knobs;
  const bronzeLike = p.metal === "Bronze" || p.metal === "Expanded Bronze" || p.metal === "Catastrophic";
  const net = p.issuer.networks.find((n) => n.id === p.networkId);
  const tierCost = (tier: string) => {
    const copay = (amount: number, afterDed: boolean) => ({
      copay_amount: amount,
      copay_opt: amount === 0 ? "NO-CHARGE" : afterDed ? "AFTER-DEDUCTIBLE" : "BEFORE-DEDUCTIBLE",
      coinsurance_rate: 0.0,
      coinsurance_opt: null,
    });
    const coins = (rate: number) => ({
      copay_amount: 0.0,
      copay_opt: "NO-CHARGE",
      coinsurance_rate: rate,
      coinsurance_opt: "AFTER-DEDUCTIBLE",
    });
    switch (tier) {
      case "ZERO-COST-SHARE-PREVENTIVE":
        return copay(0, false);
      case "GENERIC":
      case "PREFERRED-GENERIC":
        return copay(k.genericCopay, bronzeLike);
      case "NON-PREFERRED-GENERIC":
        return copay(k.genericCopay + 15, bronzeLike);
      case "PREFERRED-BRAND":
        return copay(k.brandCopay, true);
      case "NON-PREFERRED-BRAND":
        return coins(Math.min(50, k.coinsurance + 10) / 100);
      default:
        return coins(Math.min(50, k.coinsurance + 10) / 100);
    }
  };
  return {
    plan_id_type: "HIOS-PLAN-ID",
    plan_id: p.id,
    marketing_name: p.name,
    summary_url: `${host}/2027/sbc/${p.id}-01.pdf`,
    marketing_url: `${host}/plans/${p.id}`,
    formulary_url: `${host}/${p.issuer.state.toLowerCase()}/2027/formulary`,
    plan_contact: `members@${p.issuer.slug}.example.com`,
    network: net?.multiTier
      ? [{ network_tier: "PREFERRED" }, { network_tier: "NON-PREFERRED" }]
      : [{ network_tier: "PREFERRED" }],
    formulary: tiers.map((tier) => ({
      drug_tier: tier,
      mail_order: tier !== "SPECIALTY",
      cost_sharing: [
        { pharmacy_type: "1-MONTH-IN-RETAIL", ...tierCost(tier) },
        ...(tier !== "SPECIALTY" ? [{ pharmacy_type: "3-MONTHS-IN-MAIL", ...tierCost(tier) }] : []),
      ],
    })),
    last_updated_on: lastUpdated,
    years: YEARS,
  };
}

function asFile(s: { path: string; items: number; bytes: number }) {
  return { file: s.path, items: s.items, bytes: s.bytes };
}
