/**
 * The year before a generated world, and the Plan ID Crosswalk from it to the
 * world (issue 27, decision 341). The earlier year is derived from the later
 * one without drawing from its random streams, so the later year's files stay
 * byte for byte what they were:
 * - every plan of the later year is also sold the year before under the same
 *   id (CrosswalkLevel 0), a few per cent cheaper, with a slightly lower
 *   deductible and out-of-pocket maximum (within that year's federal limit);
 * - `renamed`: plans sold the year before under another id and name of the
 *   same issuer and product, renewed into the later plan (level 1, reason 2);
 * - `exiting`: an issuer that leaves the market after the earlier year; its
 *   plans map to another issuer's plan (level 1, reason 8: a crosswalk to a
 *   different issuer decided by CMS);
 * - `ending`: plans discontinued without a successor (level 4, reason 5).
 * All made up, like the rest of the generated data.
 */
import type { Issuer, Plan, PlanKnobs, World } from "./model";
import { unitHash } from "./prng";
import { moopLimit } from "./reference";

/** A plan of the earlier year that the later year does not sell under its id. */
export type PriorPlanSpec = {
  /** The earlier year's plan: id, name, issuer (an issuer of the later world or an exiting one). */
  id: string;
  name: string;
  issuer: Issuer;
  /** The later-year plan it is made from (design and service area) — and, for renamed ones, mapped to. */
  like: string;
  /** Where its enrollees go: the later plan's id, or null for none. */
  to: string | null;
  level: number;
  reason: number;
};

export type PriorYearSpec = {
  /** Later-year plan ids not sold the year before under that id (they replace a renamed plan). */
  newInLaterYear: string[];
  /** Plans of the earlier year only. */
  priorOnly: PriorPlanSpec[];
  /** Issuers of the earlier year only (they exit); their plans are in `priorOnly`. */
  exitingIssuers: Issuer[];
};

/** One Plan ID Crosswalk row (PY2026 layout, decision 340). */
export type CrosswalkRow = {
  state: string;
  from: Plan;
  county: string;
  zip: string | null;
  level: number;
  reason: number;
  to: Plan | null;
};

export type PriorYear = { world: World; crosswalk: CrosswalkRow[] };

const round50 = (n: number) => Math.round(n / 50) * 50;

/** Earlier-year premium: 3–9 % below the later year's, per plan. */
function priorCents(planId: string, cents: number): number {
  const key = Number(planId.slice(0, 5)) * 31 + Number(planId.slice(-4));
  return Math.round(cents * (0.91 + unitHash(key, 2026) * 0.06));
}

function priorKnobs(plan: Plan, limit: number): PlanKnobs {
  const k = plan.knobs;
  if (plan.metal === "Catastrophic") return { ...k, deductible: limit, moop: limit };
  const deductible = round50(k.deductible * 0.95);
  const moop = Math.min(limit, Math.max(deductible + 500, round50(k.moop * 0.96)));
  return { ...k, deductible, moop };
}

export function buildPriorYear(later: World, spec: PriorYearSpec): PriorYear {
  const year = later.year - 1;
  const limit = moopLimit(year).individual;
  const byId = new Map(later.plans.map((p) => [p.id, p]));
  const copy = (p: Plan, over: Partial<Plan> = {}): Plan => {
    const ratesByArea = new Map<number, number>();
    for (const [area, cents] of p.ratesByArea) ratesByArea.set(area, priorCents(over.id ?? p.id, cents));
    return { ...p, ratesByArea, knobs: priorKnobs(p, limit), isNew: false, ...over };
  };

  const plans: Plan[] = [];
  const crosswalkTargets = new Map<Plan, { to: Plan | null; level: number; reason: number }>();
  for (const p of later.plans) {
    if (spec.newInLaterYear.includes(p.id)) continue;
    const prior = copy(p);
    plans.push(prior);
    crosswalkTargets.set(prior, { to: p, level: 0, reason: 0 });
  }
  for (const s of spec.priorOnly) {
    const like = byId.get(s.like);
    if (!like) throw new Error(`prior-year plan ${s.id}: no later plan ${s.like}`);
    const prior = copy(like, { id: s.id, name: s.name, issuer: s.issuer });
    if (s.issuer !== like.issuer) prior.networkId = s.issuer.networks[0].id;
    if (s.issuer !== like.issuer) prior.serviceAreaId = s.issuer.serviceAreas[0].id;
    plans.push(prior);
    const to = s.to === null ? null : (byId.get(s.to) ?? null);
    if (s.to !== null && !to) throw new Error(`prior-year plan ${s.id}: no later plan ${s.to}`);
    crosswalkTargets.set(prior, { to, level: s.level, reason: s.reason });
  }

  // Providers for an exiting issuer: as many as its state's first issuer lists.
  const perIssuer = new Map(later.providers.perIssuer);
  for (const iss of spec.exitingIssuers)
    perIssuer.set(iss.id, perIssuer.get(later.issuers.find((i) => i.state === iss.state)?.id ?? "") ?? 0);
  const world: World = {
    ...later,
    providers: { ...later.providers, perIssuer },
    year,
    importDate: `${year - 1}-10-15`,
    lastUpdated: `${year - 1}-10-15`,
    issuers: [...later.issuers, ...spec.exitingIssuers],
    plans,
    sentinelRates: [],
  };

  // One whole-county row per plan × county of its service area (statewide: every county of the state).
  const crosswalk: CrosswalkRow[] = [];
  for (const from of plans) {
    if (from.market !== "Individual" || from.dental) continue;
    const target = crosswalkTargets.get(from)!;
    const area = from.issuer.serviceAreas.find((a) => a.id === from.serviceAreaId);
    if (!area) throw new Error(`prior-year plan ${from.id}: no service area`);
    const counties = area.statewide
      ? later.counties.filter((c) => c.state === from.issuer.state).map((c) => c.fips)
      : area.counties.map((c) => c.county);
    for (const county of counties) crosswalk.push({ state: from.issuer.state, from, county, zip: null, ...target });
  }
  return { world, crosswalk };
}

/**
 * The earlier year of a world: every later plan sold the year before, plus one
 * renamed plan, one exiting issuer's plan mapped to another issuer and one
 * plan without a successor, all in the first state with three issuers selling
 * silver plans (the sample: Texas, Bluebonnet, Gulf Prairie, Trinity Crest).
 */
export function defaultPriorYearSpec(later: World, names: { exitingIssuer: string; slug: string }): PriorYearSpec {
  const sellable = (p: Plan) => p.market === "Individual" && !p.dental;
  const silverOf = (iss: Issuer) => later.plans.find((p) => p.issuer === iss && sellable(p) && p.metal === "Silver");
  const withSilver = later.issuers.filter((iss) => silverOf(iss));
  const state = withSilver.find((iss) => withSilver.filter((o) => o.state === iss.state).length >= 3)?.state;
  if (!state) throw new Error("no state with three issuers selling silver plans");
  const [first, ...others] = withSilver.filter((iss) => iss.state === state);
  const [crossTarget, ending] = [silverOf(others[others.length - 1])!, silverOf(others[0])!];
  const renamedTarget = later.plans.find((p) => p.issuer === first && sellable(p))!;
  const maxIssuer = Math.max(...later.issuers.map((i) => Number(i.id)));
  const area = crossTarget.issuer.serviceAreas.find((a) => a.id === crossTarget.serviceAreaId)!;
  const exiting: Issuer = {
    ...crossTarget.issuer,
    id: String(maxIssuer + 1).padStart(5, "0"),
    name: names.exitingIssuer,
    slug: names.slug,
    networks: [{ id: crossTarget.networkId, name: `${names.exitingIssuer} Network`, multiTier: false }],
    serviceAreas: [{ ...area, name: `${names.exitingIssuer} Service Area` }],
  };
  const idLike = (p: Plan, issuerId: string, seq: number) =>
    `${issuerId}${p.id.slice(5, 10)}${String(seq).padStart(4, "0")}`;
  return {
    newInLaterYear: [renamedTarget.id],
    exitingIssuers: [exiting],
    priorOnly: [
      {
        id: idLike(renamedTarget, first.id, 9001),
        name: renamedTarget.name.replace(/ [A-Za-z]+$/, " Value"),
        issuer: first,
        like: renamedTarget.id,
        to: renamedTarget.id,
        level: 1,
        reason: 2,
      },
      {
        id: idLike(crossTarget, exiting.id, 1),
        name: `${names.exitingIssuer.replace(/ Health$/, "")} Silver`,
        issuer: exiting,
        like: crossTarget.id,
        to: crossTarget.id,
        level: 1,
        reason: 8,
      },
      {
        id: idLike(ending, ending.issuer.id, 9002),
        name: `${ending.name} Saver`,
        issuer: ending.issuer,
        like: ending.id,
        to: null,
        level: 4,
        reason: 5,
      },
    ],
  };
}
