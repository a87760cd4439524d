// Why a plan ranks where it does, in facts a page words in its own language: how its yearly cost
// compares, how it covers the chosen drugs and doctors, what would change the order, and warnings
// for likely poor choices (decision 333).

/** What the reasons read of one plan of the list. */
export interface RankFacts {
  id: string;
  name: string;
  metalLevel: string;
  /** The household's CSR variant is the one priced (a silver plan with extra savings). */
  csr: boolean;
  typical: number;
  badYear: number;
  /** Each chosen drug: covered (true), not covered (false), not known (null). */
  drugs: ReadonlyArray<{ rxcui: string; covered: boolean | null }>;
  doctors: ReadonlyArray<{ npi: string; inNetwork: boolean | null }>;
}

/** One reason: a code a catalogue words (`ranking.<code>`) and the values it names. */
export interface Reason {
  code:
    | "only_plan"
    | "lowest_typical"
    | "typical_more"
    | "drugs_covered"
    | "doctors_in_network"
    | "coverage_unknown"
    | "lowest_bad_year"
    | "bad_year_more"
    | "more_care_other_least"
    | "more_care_this_less"
    | "csr_silver_cheaper"
    | "misses_drug_cheaper_covers"
    | "misses_doctor_cheaper_covers";
  values: Record<string, string | number>;
}

export interface Ranking {
  position: number;
  reasons: Reason[];
  /** What would change the order. */
  changes: Reason[];
  warnings: Reason[];
}

export interface RankingContext {
  count: number;
  /** The cheapest plan and the next, in the list's order of cost (typical, bad year, id): what the reasons read. */
  byTypical: RankFacts[];
  lowestBadYear: RankFacts | null;
  cheapestCsrSilver: RankFacts | null;
  cheapestCovering: Map<string, RankFacts>;
  cheapestInNetwork: Map<string, RankFacts>;
}

const cents = (x: number) => Math.round(x * 100) / 100;
const byCost = (a: RankFacts, b: RankFacts) =>
  a.typical - b.typical || a.badYear - b.badYear || a.id.localeCompare(b.id);

/** Whether `p` comes before `than` in the order of cost (no `than`: yes). */
const before = (p: RankFacts, than: RankFacts | null | undefined) => !than || byCost(p, than) < 0;

/**
 * The whole list's comparisons, made once; `rankingOf` then reads them for each plan shown. Each is
 * the first plan of the list in the order of cost (typical, bad year, id) that qualifies, found in
 * one pass without putting the whole list (a county's ~500 plans) in order.
 */
export function rankingContext(plans: readonly RankFacts[]): RankingContext {
  let first: RankFacts | null = null;
  let second: RankFacts | null = null;
  let lowestBadYear: RankFacts | null = null;
  let cheapestCsrSilver: RankFacts | null = null;
  const cheapestCovering = new Map<string, RankFacts>();
  const cheapestInNetwork = new Map<string, RankFacts>();
  for (const p of plans) {
    if (before(p, first)) {
      second = first;
      first = p;
    } else if (before(p, second)) second = p;
    // The lowest bad year; of equal ones, the first in the order of cost.
    if (
      !lowestBadYear ||
      p.badYear < lowestBadYear.badYear ||
      (p.badYear === lowestBadYear.badYear && before(p, lowestBadYear))
    )
      lowestBadYear = p;
    if (p.csr && before(p, cheapestCsrSilver)) cheapestCsrSilver = p;
    for (const d of p.drugs)
      if (d.covered === true && before(p, cheapestCovering.get(d.rxcui))) cheapestCovering.set(d.rxcui, p);
    for (const d of p.doctors)
      if (d.inNetwork === true && before(p, cheapestInNetwork.get(d.npi))) cheapestInNetwork.set(d.npi, p);
  }
  const byTypical = first ? (second ? [first, second] : [first]) : [];
  return { count: plans.length, byTypical, lowestBadYear, cheapestCsrSilver, cheapestCovering, cheapestInNetwork };
}

const isBronzeOrGold = (metal: string) => /bronze|gold/i.test(metal);

/** The reasons, the changes and the warnings of one plan at `position` (1-based) of the list shown. */
export function rankingOf(ctx: RankingContext, plan: RankFacts, position: number): Ranking {
  const reasons: Reason[] = [];
  const changes: Reason[] = [];
  const warnings: Reason[] = [];
  const best = ctx.byTypical[0];
  if (ctx.count <= 1) reasons.push({ code: "only_plan", values: {} });
  else if (best.id === plan.id) {
    const next = ctx.byTypical[1];
    reasons.push({ code: "lowest_typical", values: { amount: cents(next.typical - plan.typical), plan: next.name } });
  } else
    reasons.push({ code: "typical_more", values: { amount: cents(plan.typical - best.typical), plan: best.name } });

  if (plan.drugs.length > 0)
    reasons.push({
      code: "drugs_covered",
      values: { covered: plan.drugs.filter((d) => d.covered === true).length, total: plan.drugs.length },
    });
  if (plan.doctors.length > 0)
    reasons.push({
      code: "doctors_in_network",
      values: { covered: plan.doctors.filter((d) => d.inNetwork === true).length, total: plan.doctors.length },
    });
  const unknown =
    plan.drugs.filter((d) => d.covered === null).length + plan.doctors.filter((d) => d.inNetwork === null).length;
  if (unknown > 0) reasons.push({ code: "coverage_unknown", values: { count: unknown } });

  const lowestBad = ctx.lowestBadYear;
  if (lowestBad && ctx.count > 1) {
    if (lowestBad.id === plan.id || lowestBad.badYear === plan.badYear)
      reasons.push({ code: "lowest_bad_year", values: {} });
    else
      reasons.push({
        code: "bad_year_more",
        values: { amount: cents(plan.badYear - lowestBad.badYear), plan: lowestBad.name },
      });
    if (best.id === plan.id && lowestBad.badYear < plan.badYear)
      changes.push({ code: "more_care_other_least", values: { plan: lowestBad.name } });
    if (best.id !== plan.id && plan.badYear < best.badYear)
      changes.push({
        code: "more_care_this_less",
        values: { amount: cents(best.badYear - plan.badYear), plan: best.name },
      });
  }

  const silver = ctx.cheapestCsrSilver;
  if (silver && !plan.csr && isBronzeOrGold(plan.metalLevel) && silver.typical < plan.typical)
    warnings.push({
      code: "csr_silver_cheaper",
      values: { amount: cents(plan.typical - silver.typical), plan: silver.name },
    });
  for (const d of plan.drugs) {
    const other = ctx.cheapestCovering.get(d.rxcui);
    if (d.covered === false && other && other.typical < plan.typical)
      warnings.push({
        code: "misses_drug_cheaper_covers",
        values: { rxcui: d.rxcui, plan: other.name, amount: cents(plan.typical - other.typical) },
      });
  }
  for (const d of plan.doctors) {
    const other = ctx.cheapestInNetwork.get(d.npi);
    if (d.inNetwork === false && other && other.typical < plan.typical)
      warnings.push({
        code: "misses_doctor_cheaper_covers",
        values: { npi: d.npi, plan: other.name, amount: cents(plan.typical - other.typical) },
      });
  }
  return { position, reasons, changes, warnings };
}
