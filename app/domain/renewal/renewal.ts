/**
 * Renewal rules that need no I/O (issue 27): which crosswalk row applies to a
 * household's place, the plan id as typed, the year-over-year changes, and
 * the alternatives that beat the plan the household would be renewed into.
 */

/** A Plan ID Crosswalk row as the plan store holds it (db/plan-store-crosswalk.ts). */
export type CrosswalkRow = {
  fromYear: number;
  toYear: number;
  fromPlanId: string;
  countyFips: string;
  zip: string | null;
  level: number;
  reason: number | null;
  toPlanId: string | null;
};

/** "10101tx0010001-06 " → { planId: "10101TX0010001", suffix: "06" }; null when it is not a HIOS plan id. */
export function parsePlanId(raw: string): { planId: string; suffix: string | null } | null {
  const m = /^\s*([0-9]{5}[A-Za-z]{2}[0-9]{7})(?:-([0-9]{2}))?\s*$/.exec(raw);
  return m ? { planId: m[1].toUpperCase(), suffix: m[2] ?? null } : null;
}

/**
 * The row for a place: a ZIP-level row for the household's ZIP, else the
 * county's whole-county row, else none (CMS: `ZipCode` 00000 = the whole county).
 */
export function rowForPlace<T extends Pick<CrosswalkRow, "countyFips" | "zip">>(
  rows: readonly T[],
  place: { countyFips: string; zip: string },
): T | undefined {
  const inCounty = rows.filter((r) => r.countyFips === place.countyFips);
  return inCounty.find((r) => r.zip === place.zip) ?? inCounty.find((r) => r.zip === null);
}

export type Change = { from: number | null; to: number | null; change: number | null };

const cents = (n: number) => Math.round(n * 100) / 100;

/** `to - from` to the cent; null when either side is unknown. */
export function changeOf(from: number | null | undefined, to: number | null | undefined): Change {
  const f = from ?? null;
  const t = to ?? null;
  return { from: f, to: t, change: f === null || t === null ? null : cents(t - f) };
}

/** The parts of a priced plan the comparison reads. */
export type ComparablePlan = {
  id: string;
  issuer: { id: string; name: string };
  premium_w_credit: number;
  deductible: { individual: number | null };
  moop: { individual: number | null };
  yearly_cost: number;
};

export type CoverageByPlan = ReadonlyMap<string, { drugsCovered: number; doctorsInNetwork: number }>;

export type Why =
  | { kind: "yearly_cost"; amount: number }
  | { kind: "premium"; amount: number }
  | { kind: "deductible"; amount: number }
  | { kind: "moop"; amount: number }
  | { kind: "drugs"; covered: number; of: number }
  | { kind: "doctors"; inNetwork: number; of: number };

/**
 * The plans that beat `against` on the household's yearly cost, lowest first,
 * at most `limit`, each with why: the yearly saving and every figure it is
 * better on (monthly premium after credit, deductible, out-of-pocket maximum,
 * drugs covered and doctors in network, when chosen). With no plan to beat
 * (no successor), the lowest-cost plans, with the figures that set them apart.
 */
export function alternativesTo<P extends ComparablePlan>(
  plans: readonly P[],
  against: P | null,
  options: { limit: number; coverage?: CoverageByPlan; drugs?: number; doctors?: number },
): Array<{ plan: P; saves_per_year: number | null; why: Why[] }> {
  const pool = plans
    .filter((p) => !against || (p.id !== against.id && p.yearly_cost < against.yearly_cost))
    .sort((a, b) => a.yearly_cost - b.yearly_cost || a.premium_w_credit - b.premium_w_credit || (a.id < b.id ? -1 : 1))
    .slice(0, options.limit);
  return pool.map((plan) => {
    const why: Why[] = [];
    if (against) {
      why.push({ kind: "yearly_cost", amount: cents(against.yearly_cost - plan.yearly_cost) });
      if (plan.premium_w_credit < against.premium_w_credit)
        why.push({ kind: "premium", amount: cents(against.premium_w_credit - plan.premium_w_credit) });
      const lower = (a: number | null, b: number | null) => (a !== null && b !== null && a < b ? cents(b - a) : 0);
      const ded = lower(plan.deductible.individual, against.deductible.individual);
      if (ded > 0) why.push({ kind: "deductible", amount: ded });
      const moop = lower(plan.moop.individual, against.moop.individual);
      if (moop > 0) why.push({ kind: "moop", amount: moop });
    }
    const mine = options.coverage?.get(plan.id);
    const theirs = against ? options.coverage?.get(against.id) : undefined;
    if (mine && options.drugs && (!theirs || mine.drugsCovered > theirs.drugsCovered))
      why.push({ kind: "drugs", covered: mine.drugsCovered, of: options.drugs });
    if (mine && options.doctors && (!theirs || mine.doctorsInNetwork > theirs.doctorsInNetwork))
      why.push({ kind: "doctors", inNetwork: mine.doctorsInNetwork, of: options.doctors });
    return { plan, saves_per_year: against ? cents(against.yearly_cost - plan.yearly_cost) : null, why };
  });
}

/** A sentence for one reason (English; the page words them in the visitor's language). */
export function whyWords(why: Why, money: (n: number) => string): string {
  switch (why.kind) {
    case "yearly_cost":
      return `About ${money(why.amount)} less a year for your household, premiums and expected care costs together`;
    case "premium":
      return `${money(why.amount)} a month less after your credit`;
    case "deductible":
      return `Deductible ${money(why.amount)} lower`;
    case "moop":
      return `Out-of-pocket maximum ${money(why.amount)} lower`;
    case "drugs":
      return `Covers ${why.covered} of your ${why.of} drugs`;
    case "doctors":
      return `${why.inNetwork} of your ${why.of} doctors in network`;
  }
}
