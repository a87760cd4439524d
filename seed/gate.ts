/**
 * The completeness gate (docs/data.md, "What the gate checks"): run on the
 * new store before it is swapped in. A store that fails it is not swapped in
 * (the current one keeps serving) unless the operator allows an incomplete
 * store, which is then marked incomplete in store_meta and in /api/health.
 *
 * Conditions, for every plan year and state loaded:
 * - there are individual-market medical plans;
 * - every plan has rates, benefits (for at least one variant) and its
 *   issuer's service area;
 * - every county the ZIP→county rows or service areas name has a name;
 * and, against the store being replaced (unless that one is sample data),
 * - no plan year × state and no table shrinks below `minRatio` of its count.
 */
import Database from "better-sqlite3";
import { existsSync } from "node:fs";

/** One failed condition, as printed (one line each) and stored. */
export type GateProblem = { condition: string; message: string };

export class StoreRefusedError extends Error {
  constructor(
    readonly problems: GateProblem[],
    readonly hint: string,
  ) {
    super(`the new plan store was refused:\n${problems.map((p) => `  ${p.message}`).join("\n")}\n${hint}`);
    this.name = "StoreRefusedError";
  }
}

/** Default: a new store must keep at least 80% of each count (decision 171). */
export const DEFAULT_MIN_RATIO = 0.8;

const EXAMPLES = 3;

function examples(ids: string | null, total: number): string {
  if (!ids) return "";
  const list = ids.split(",").slice(0, EXAMPLES);
  return ` (e.g. ${list.join(", ")}${total > list.length ? ", …" : ""})`;
}

type Group = { plan_year: number; state: string; n: number; total: number; ids: string | null };

/**
 * Completeness of the store being built (`db`, rows loaded and indexed).
 * `years` are the plan years the load was asked to fill; `missingFiles` names
 * source files absent per year, so that a message can say why.
 */
export function checkCompleteness(
  db: Database.Database,
  years: number[],
  missingFiles: Record<number, string[]> = {},
): GateProblem[] {
  const problems: GateProblem[] = [];
  const why = (year: number, file: string) =>
    (missingFiles[year] ?? []).includes(file) ? ` (no ${file} in the source)` : "";

  const planYears = new Set(
    (db.prepare("SELECT DISTINCT plan_year AS y FROM plans").all() as Array<{ y: number }>).map((r) => r.y),
  );
  for (const year of years) {
    if (!planYears.has(year))
      problems.push({
        condition: "plans",
        message: `${year}: no individual-market medical plans loaded${why(year, "plan-attributes-puf.csv")}`,
      });
  }

  const perGroup = (condition: string, what: string, file: string, sql: string) => {
    for (const g of db.prepare(sql).all() as Group[]) {
      problems.push({
        condition,
        message: `${g.plan_year} ${g.state}: ${g.n} of ${g.total} plans have no ${what}${why(g.plan_year, file)}${examples(g.ids, g.n)}`,
      });
    }
  };
  const grouped = (missing: string) => `
    SELECT p.plan_year, p.state, count(*) AS n,
           (SELECT count(*) FROM plans q WHERE q.plan_year = p.plan_year AND q.state = p.state) AS total,
           group_concat(p.plan_id) AS ids
    FROM (SELECT plan_year, state, plan_id, issuer_id, service_area_id FROM plans ORDER BY plan_id) p
    WHERE ${missing}
    GROUP BY p.plan_year, p.state ORDER BY p.plan_year, p.state`;

  perGroup(
    "rates",
    "rates",
    "rate-puf.csv",
    grouped("NOT EXISTS (SELECT 1 FROM rates r WHERE r.plan_year = p.plan_year AND r.plan_id = p.plan_id)"),
  );
  // Nested EXISTS, not a join: without statistics SQLite would scan a year's benefits per plan.
  perGroup(
    "benefits",
    "benefits",
    "benefits-and-cost-sharing-puf.csv",
    grouped(`NOT EXISTS (SELECT 1 FROM plan_variants v WHERE v.plan_year = p.plan_year AND v.plan_id = p.plan_id
               AND EXISTS (SELECT 1 FROM benefits b WHERE b.plan_year = v.plan_year AND b.variant_id = v.variant_id))`),
  );
  perGroup(
    "service-area",
    "service area",
    "service-area-puf.csv",
    grouped(`NOT EXISTS (SELECT 1 FROM service_areas s WHERE s.plan_year = p.plan_year
               AND s.issuer_id = p.issuer_id AND s.service_area_id = p.service_area_id)`),
  );

  // Counties without a name: /api/counties would answer the FIPS code instead.
  const unnamed = db
    .prepare(
      `SELECT state, count(*) AS n, group_concat(fips) AS ids FROM (
         SELECT DISTINCT county_fips AS fips, state FROM zip_counties
         UNION SELECT DISTINCT county_fips, state FROM service_areas WHERE county_fips <> ''
         ORDER BY 1
       ) WHERE fips NOT IN (SELECT fips FROM counties)
       GROUP BY state ORDER BY state`,
    )
    .all() as Array<{ state: string; n: number; ids: string | null }>;
  for (const u of unnamed) {
    problems.push({
      condition: "county-names",
      message: `${u.state}: ${u.n} count${u.n === 1 ? "y has" : "ies have"} no name (no national-county2020.txt row, no name in the crosswalks)${examples(u.ids, u.n)}`,
    });
  }
  return problems;
}

/** Counts compared with the store being replaced. */
export function storeCounts(db: Database.Database): Map<string, number> {
  const counts = new Map<string, number>();
  const has = (t: string) => Boolean(db.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?").get(t));
  if (has("plans")) {
    for (const r of db
      .prepare("SELECT plan_year, state, count(*) AS n FROM plans GROUP BY plan_year, state")
      .all() as Array<{ plan_year: number; state: string; n: number }>)
      counts.set(`plans ${r.plan_year} ${r.state}`, r.n);
  }
  const tables = ["rates", "benefits", "service_areas", "counties", "zip_counties", "formulary", "provider_network"];
  for (const t of [...tables, "plan_crosswalk"]) {
    if (has(t)) counts.set(t, (db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n);
  }
  return counts;
}

/**
 * Shrink check against the store at `currentPath` (if any). A current store
 * of sample data is not compared: real data replacing made-up data is not a
 * loss. An unreadable current store is not compared either (nothing to keep).
 */
export function checkShrink(db: Database.Database, currentPath: string, minRatio: number): GateProblem[] {
  if (!existsSync(currentPath)) return [];
  let old: Map<string, number>;
  try {
    const current = new Database(currentPath, { readonly: true, fileMustExist: true });
    try {
      const sample = current.prepare("SELECT value FROM store_meta WHERE key = 'sample'").get() as
        { value: string } | undefined;
      if (sample?.value === "1") return [];
      old = storeCounts(current);
    } finally {
      current.close();
    }
  } catch {
    return [];
  }
  const now = storeCounts(db);
  const problems: GateProblem[] = [];
  for (const [key, before] of old) {
    const after = now.get(key) ?? 0;
    if (before > 0 && after < before * minRatio) {
      problems.push({
        condition: "shrink",
        message: `${key}: ${after.toLocaleString("en-US")} in the new store, ${before.toLocaleString("en-US")} in the current one (below ${Math.round(minRatio * 100)}%)`,
      });
    }
  }
  return problems;
}
