/**
 * A national-scale synthetic market for load testing: the 30 states whose
 * plans the service prices itself in 2027 (NY and the HealthCare.gov
 * states), every county of every state (real state FIPS codes and county
 * counts; county codes follow the Census odd-number sequence, names are
 * made up), and issuers, plans, rates, formularies and provider networks
 * sized to the targets. Nothing here is real market data;
 * docs/decisions/033.
 */
import { syntheticDrugs, REAL_DRUGS } from "./drugs";
import type {
  CensusPart,
  County,
  HudZip,
  Issuer,
  Metal,
  Network,
  Plan,
  RatingAreaByCounty,
  RatingAreaByZip3,
  ServiceArea,
  World,
} from "./model";
import { makePlan, METAL_PRICE_MILLI, type PlanSpec } from "./plans";
import { Prng, unitHash } from "./prng";
import { COMMUNITY_RATED, moopLimit, RATE_AGE_LABELS } from "./reference";
import { SAMPLE_COUNTIES } from "./sample-world";
import { STATES, stateRows, type StateInfo } from "./states";
import { issuerCounties, poolZipsByState } from "./write-mr";

export type NationalTargets = {
  planVariants: number;
  rateRows: number;
  formularyRows: number;
  providerNetworkRows: number;
};

export const NATIONAL_TARGETS: NationalTargets = {
  planVariants: 20_000,
  rateRows: 2_500_000,
  formularyRows: 5_000_000,
  providerNetworkRows: 10_000_000,
};

/** Rating areas per state, close to the CMS counts (FL 67, SC 46, TX 27, …). */
const RATING_AREAS: Record<string, number> = {
  AK: 3,
  AL: 13,
  AR: 7,
  AZ: 7,
  DE: 1,
  FL: 67,
  HI: 1,
  IA: 7,
  IN: 17,
  KS: 7,
  LA: 8,
  MI: 16,
  MO: 10,
  MS: 6,
  MT: 4,
  NC: 16,
  ND: 4,
  NE: 4,
  NH: 1,
  OH: 17,
  OK: 5,
  SC: 46,
  SD: 4,
  TN: 8,
  TX: 27,
  UT: 6,
  WI: 16,
  WV: 11,
  WY: 3,
  NY: 8,
};
/** States rated by 3-digit ZIP, with the CMS ZIP3 → area table (gaps filled with the nearest area). */
const ZIP3_RATED: Record<string, (zip3: number) => number> = {
  AK: (z) => (z <= 995 ? 1 : z <= 997 ? 2 : 3),
  NE: (z) => (z <= 682 ? 1 : z <= 685 ? 2 : z <= 689 ? 3 : 4),
};

const METAL_CYCLE: Metal[] = [
  "Silver",
  "Bronze",
  "Gold",
  "Silver",
  "Expanded Bronze",
  "Bronze",
  "Silver",
  "Gold",
  "Platinum",
  "Silver",
  "Bronze",
  "Gold",
  "Catastrophic",
  "Silver",
  "Expanded Bronze",
  "Gold",
];
const TYPES = ["HMO", "PPO", "EPO", "POS"] as const;
const AGE_ROWS = RATE_AGE_LABELS.length;

export function buildNationalWorld(
  options: { seed?: string; fraction?: number; targets?: NationalTargets } = {},
): World {
  const seed = options.seed ?? "national-2027";
  const fraction = options.fraction ?? 1;
  const base = options.targets ?? NATIONAL_TARGETS;
  const targets: NationalTargets = {
    planVariants: Math.max(60, Math.round(base.planVariants * fraction)),
    rateRows: Math.max(2000, Math.round(base.rateRows * fraction)),
    formularyRows: Math.max(2000, Math.round(base.formularyRows * fraction)),
    providerNetworkRows: Math.max(2000, Math.round(base.providerNetworkRows * fraction)),
  };
  const year = 2027;
  const limit = moopLimit(year).individual;
  const rng = new Prng(seed);
  const planStates = stateRows(year)
    .filter((s) => s.ownedData)
    .map((s) => s.code);

  // --- Geography: every county of every state; three ZIPs per county, some shared with a neighbour.
  const realNames = new Map(SAMPLE_COUNTIES.map((c) => [c.fips, c]));
  const counties: County[] = [];
  const hudZips: HudZip[] = [];
  const censusParts: CensusPart[] = [];
  const ratingAreasByCounty: RatingAreaByCounty[] = [];
  const ratingAreasByZip3: RatingAreaByZip3[] = [];
  const countyAreas = new Map<string, number>();
  const countiesByState = new Map<string, County[]>();
  for (const st of STATES) {
    const list: County[] = [];
    for (let k = 0; k < st.countyCount; k++) {
      const fips = `${st.fips}${String(2 * k + 1).padStart(3, "0")}`;
      const real = realNames.get(fips);
      list.push(real ?? { fips, state: st.code, name: `Sample County ${fips.slice(2)}`, classfp: "H1", funcstat: "A" });
    }
    countiesByState.set(st.code, list);
    counties.push(...list);
    writeZips(st, list, hudZips, censusParts, !ZIP3_RATED[st.code]);
    const areas = RATING_AREAS[st.code];
    if (!areas) continue;
    if (ZIP3_RATED[st.code]) {
      for (let z3 = st.zip3[0]; z3 <= st.zip3[1]; z3++)
        ratingAreasByZip3.push({ state: st.code, zip3: String(z3).padStart(3, "0"), area: ZIP3_RATED[st.code](z3) });
      for (const c of list) {
        const zip = hudZips.find((z) => z.county === c.fips)!;
        countyAreas.set(c.fips, ZIP3_RATED[st.code](Number(zip.zip.slice(0, 3))));
      }
    } else {
      list.forEach((c, k) => {
        const area = 1 + Math.floor((k * areas) / list.length);
        countyAreas.set(c.fips, area);
        ratingAreasByCounty.push({ state: st.code, county: c.fips, countyName: c.name.replace(/ County$/, ""), area });
      });
    }
  }

  // --- Plans per state, proportional to its rating areas (big states have more issuers and plans).
  const variantsPerPlan = (m: Metal, both: boolean) => 3 + (m === "Silver" ? 3 : 0) + (both ? 1 : 0);
  const avgVariants = METAL_CYCLE.reduce((s, m) => s + variantsPerPlan(m, false), 0) / METAL_CYCLE.length + 0.3;
  const totalPlans = Math.round(targets.planVariants / avgVariants);
  const weight = (code: string) => RATING_AREAS[code] + 6;
  const weightSum = planStates.reduce((s, c) => s + weight(c), 0);

  type Draft = { issuer: Issuer; specs: PlanSpec[]; coverage: number; start: number };
  const drafts: Draft[] = [];
  planStates.forEach((code, si) => {
    const st = STATES.find((s) => s.code === code)!;
    const srng = rng.fork(`state/${code}`);
    const statePlans = Math.max(4, Math.round((totalPlans * weight(code)) / weightSum));
    const nIssuers = Math.min(15, Math.max(3, Math.round(2 + RATING_AREAS[code] / 4 + st.countyCount / 60)));
    for (let k = 0; k < nIssuers; k++) {
      const irng = srng.fork(`issuer/${k}`);
      const id = `${10 + si}${String(k + 1).padStart(3, "0")}`;
      const nPlans = Math.max(
        1,
        Math.round(statePlans / nIssuers) + (k === 0 ? statePlans - Math.round(statePlans / nIssuers) * nIssuers : 0),
      );
      const networks: Network[] = [{ id: `${code}N001`, name: `Sample Issuer ${id} Network`, multiTier: false }];
      if (nPlans >= 12)
        networks.push({ id: `${code}N002`, name: `Sample Issuer ${id} Tiered Network`, multiTier: true });
      const issuer: Issuer = {
        id,
        state: code,
        name: `Sample Health Plan ${code} ${k + 1}`,
        slug: `sample-${code.toLowerCase()}-${k + 1}`,
        networks,
        serviceAreas: [],
        tobaccoMilli:
          COMMUNITY_RATED.has(code) || irng.chance(0.3) ? null : irng.pick([1100, 1150, 1200, 1250, 1300, 1500]),
        trailingSpace: irng.chance(0.3),
        priceMilli: Math.round(irng.range(900, 1120)),
        machineReadable: true,
      };
      const specs: PlanSpec[] = [];
      for (let n = 0; n < nPlans; n++) {
        const metal = METAL_CYCLE[(n + k) % METAL_CYCLE.length];
        const type = TYPES[(k + Math.floor(n / 5)) % TYPES.length];
        const network = networks[n % networks.length];
        specs.push({
          metal,
          type,
          name: `Sample ${code} ${k + 1} ${metal} ${type} ${n + 1}`,
          networkId: network.id,
          serviceAreaId: `${code}S001`,
          aian: true,
          both: irng.chance(0.3),
          hsa: metal === "Bronze" && irng.chance(0.4),
          isNew: irng.chance(0.06),
          separateDrugDeductible: metal !== "Catastrophic" && metal !== "Platinum" && irng.chance(0.15),
        });
      }
      drafts.push({ issuer, specs, coverage: irng.range(0.3, 1), start: irng.next() });
    }
  });

  // --- Service areas: each issuer covers a run of rating areas; the run length is calibrated so
  // that the Rate PUF comes out near its target row count. In a ZIP3-rated state the run is
  // taken among the areas that have counties (AK and NE have areas without any of the
  // generated ZIPs): an issuer covering only those would sell plans in no county, which the
  // seed's completeness gate rightly refuses.
  const areasWithCounties = new Map<string, number[]>();
  for (const [fips, area] of countyAreas) {
    const state = STATES.find((st) => st.fips === fips.slice(0, 2))!.code;
    if (!ZIP3_RATED[state]) continue;
    const list = areasWithCounties.get(state) ?? [];
    if (!list.includes(area)) list.push(area);
    areasWithCounties.set(state, list);
  }
  for (const list of areasWithCounties.values()) list.sort((a, b) => a - b);
  const areasCovered = (d: Draft, f: number) => {
    const pool =
      areasWithCounties.get(d.issuer.state) ?? Array.from({ length: RATING_AREAS[d.issuer.state] }, (_, i) => i + 1);
    const n = pool.length;
    const len = Math.min(n, Math.max(1, Math.round(f * d.coverage * n)));
    const first = Math.floor(d.start * n);
    return Array.from({ length: len }, (_, i) => pool[(first + i) % n]).sort((a, b) => a - b);
  };
  const rowsFor = (f: number) =>
    drafts.reduce(
      (s, d) => s + d.specs.length * areasCovered(d, f).length * (COMMUNITY_RATED.has(d.issuer.state) ? 1 : AGE_ROWS),
      0,
    );
  const f = bisect(rowsFor, targets.rateRows, 0, 4);

  const issuers: Issuer[] = [];
  const plans: Plan[] = [];
  const stateBase = new Map(
    planStates.map((code) => [
      code,
      COMMUNITY_RATED.has(code)
        ? 760 + Math.floor(unitHash(1, code.charCodeAt(0), code.charCodeAt(1)) * 160)
        : 400 + Math.floor(unitHash(2, code.charCodeAt(0), code.charCodeAt(1)) * 200),
    ]),
  );
  drafts.forEach((d, di) => {
    const iss = d.issuer;
    const areas = areasCovered(d, f);
    const areaSet = new Set(areas);
    const stateCounties = countiesByState.get(iss.state)!;
    const covered = stateCounties.filter((c) => areaSet.has(countyAreas.get(c.fips)!));
    const statewide = areas.length === RATING_AREAS[iss.state] && di % 2 === 0;
    const sa: ServiceArea = {
      id: `${iss.state}S001`,
      name: statewide ? `${iss.name} Statewide` : `${iss.name} Service Area`,
      statewide,
      counties: statewide
        ? []
        : covered.map((c, i) =>
            i === 0 && di % 8 === 3
              ? {
                  county: c.fips,
                  partialZips: hudZips
                    .filter((z) => z.county === c.fips)
                    .slice(0, 2)
                    .map((z) => z.zip),
                }
              : { county: c.fips },
          ),
      market: "Individual",
      dental: false,
    };
    iss.serviceAreas.push(sa);
    issuers.push(iss);
    const prng = rng.fork(`plans/${iss.id}`);
    d.specs.forEach((spec, i) => {
      const pr = prng.fork(String(i));
      const jitter = pr.range(0.95, 1.05);
      const cents = (area: number) => {
        const areaMilli = 880 + Math.floor(unitHash(3, iss.state.charCodeAt(0), iss.state.charCodeAt(1), area) * 300);
        return Math.round(
          stateBase.get(iss.state)! *
            (METAL_PRICE_MILLI[spec.metal] / 1000) *
            (iss.priceMilli / 1000) *
            jitter *
            (areaMilli / 1000) *
            100,
        );
      };
      plans.push(makePlan(iss, spec, i + 1, pr, limit, areas, cents));
    });
  });

  // --- Drugs: enough for the formulary target at the generator's coverage rates (~88% of plans list a drug).
  const synthetic = Math.max(0, Math.ceil(targets.formularyRows / (plans.length * 0.88)) - REAL_DRUGS.length);
  const drugs = [...REAL_DRUGS, ...syntheticDrugs(synthetic)];

  const world: World = {
    scale: "national",
    year,
    importDate: "2026-10-15",
    lastUpdated: "2026-10-15",
    counties,
    hudZips,
    censusParts,
    ratingAreasByCounty,
    ratingAreasByZip3,
    issuers,
    plans,
    drugs,
    providers: { poolPerState: new Map(), perIssuer: new Map() },
    sentinelRates: [{ plan: plans[0], area: 1, age: "0-14", cents: 99999900 }],
  };

  // --- Providers: a pool per state three times what one issuer lists; the per-issuer count is
  // calibrated so the provider-network rows come out near target.
  const zipsByState = poolZipsByState(world);
  const issuerInfo = issuers.map((iss) => {
    const own = plans.filter((p) => p.issuer === iss);
    const countiesSet = issuerCounties(world, iss);
    const zips = zipsByState.get(iss.state) ?? [];
    const eligibleZips = zips.filter((z) => countiesSet.has(z.county)).length;
    const perNetwork = iss.networks.map((n) => own.filter((p) => p.networkId === n.id).length);
    // Each network is joined with probability 0.7; a provider in none falls back to one of them.
    const none = Math.pow(0.3, iss.networks.length);
    const expectedPlans =
      iss.networks.length === 1
        ? own.length
        : perNetwork.reduce((s, x) => s + 0.7 * x, 0) + (none * own.length) / iss.networks.length;
    return { iss, zips: zips.length, eligibleZips, expectedPlans };
  });
  const rowsForProviders = (n: number) =>
    issuerInfo.reduce((s, x) => {
      if (x.zips === 0) return s;
      const eligible = Math.floor((3 * n * x.eligibleZips) / x.zips);
      return s + Math.min(n, eligible) * x.expectedPlans;
    }, 0);
  const perIssuer = Math.max(5, Math.round(bisect(rowsForProviders, targets.providerNetworkRows, 1, 1_000_000)));
  for (const code of planStates) world.providers.poolPerState.set(code, perIssuer * 3);
  for (const iss of issuers) world.providers.perIssuer.set(iss.id, perIssuer);
  return world;
}

/**
 * Three ZIPs per county, numbered through the state's ZIP3 range; a county's
 * ZIPs never straddle two ZIP3s (so ZIP3-rated states keep one rating area per
 * county). In county-rated states every third county shares a ZIP with its
 * neighbour (70/30), as multi-county ZIPs are common.
 */
function writeZips(st: StateInfo, list: County[], hud: HudZip[], census: CensusPart[], allowShared: boolean): void {
  let z3 = st.zip3[0];
  let last = 1;
  list.forEach((c, k) => {
    if (last + 3 > 99) {
      z3 = z3 >= st.zip3[1] ? st.zip3[0] : z3 + 1;
      last = 1;
    }
    for (let i = 0; i < 3; i++) {
      const zip = `${String(z3).padStart(3, "0")}${String(last++).padStart(2, "0")}`;
      const shared = allowShared && i === 2 && k % 3 === 0 && list.length > 1;
      const city = `SAMPLE CITY ${c.fips.slice(2)}`;
      if (shared) {
        const other = list[(k + 1) % list.length];
        hud.push({ zip, county: c.fips, city, uspsState: st.code, ratio: 0.7 });
        hud.push({ zip, county: other.fips, city, uspsState: st.code, ratio: 0.3 });
        census.push({ zcta: zip, county: c.fips, countyName: c.name, arealandPart: 70_000_000, areawaterPart: 0 });
        census.push({
          zcta: zip,
          county: other.fips,
          countyName: other.name,
          arealandPart: 30_000_000,
          areawaterPart: 0,
        });
      } else {
        hud.push({ zip, county: c.fips, city, uspsState: st.code, ratio: 1 });
        census.push({ zcta: zip, county: c.fips, countyName: c.name, arealandPart: 50_000_000, areawaterPart: 0 });
      }
    }
  });
}

/** The x in [lo, hi] where the increasing function fn(x) is closest to target. */
function bisect(fn: (x: number) => number, target: number, lo: number, hi: number): number {
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (fn(mid) < target) lo = mid;
    else hi = mid;
  }
  return Math.abs(fn(lo) - target) <= Math.abs(fn(hi) - target) ? lo : hi;
}
