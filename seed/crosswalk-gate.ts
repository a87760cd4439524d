/**
 * The completeness gate's crosswalk condition (docs/data.md, decision 340):
 * when a load holds two consecutive plan years, every plan of the earlier
 * year must have a Plan ID Crosswalk row (the renewal answer needs one), and
 * every plan a crosswalk row maps to must be a plan of the later year.
 */
import type Database from "better-sqlite3";
import type { GateProblem } from "./gate";

const EXAMPLES = 3;

function examples(ids: string | null, total: number): string {
  if (!ids) return "";
  const list = ids.split(",").slice(0, EXAMPLES);
  return ` (e.g. ${list.join(", ")}${total > list.length ? ", …" : ""})`;
}

export function checkCrosswalk(db: Database.Database, years: number[], hasCrosswalkFile: boolean): GateProblem[] {
  const problems: GateProblem[] = [];
  const loaded = new Set(years);
  const why = hasCrosswalkFile ? "" : " (no plan-id-crosswalk-puf.csv in the source)";
  for (const to of [...loaded].sort((a, b) => a - b)) {
    const from = to - 1;
    if (!loaded.has(from)) continue;
    const unmapped = db
      .prepare(
        `SELECT p.state, count(*) AS n,
                (SELECT count(*) FROM plans q WHERE q.plan_year = p.plan_year AND q.state = p.state AND q.on_exchange = 1) AS total,
                group_concat(p.plan_id) AS ids
         FROM (SELECT plan_year, state, plan_id FROM plans WHERE plan_year = ? AND on_exchange = 1 ORDER BY plan_id) p
         WHERE NOT EXISTS (SELECT 1 FROM plan_crosswalk c WHERE c.from_year = p.plan_year AND c.from_plan_id = p.plan_id)
         GROUP BY p.state ORDER BY p.state`,
      )
      .all(from) as Array<{ state: string; n: number; total: number; ids: string | null }>;
    for (const g of unmapped)
      problems.push({
        condition: "crosswalk",
        message: `${from}→${to} ${g.state}: ${g.n} of ${g.total} ${from} plans have no crosswalk row${why}${examples(g.ids, g.n)}`,
      });
    const dangling = db
      .prepare(
        `SELECT c.state, count(DISTINCT c.to_plan_id) AS n, group_concat(DISTINCT c.to_plan_id) AS ids
         FROM plan_crosswalk c
         WHERE c.from_year = ? AND c.to_year = ? AND c.to_plan_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM plans p WHERE p.plan_year = c.to_year AND p.plan_id = c.to_plan_id)
         GROUP BY c.state ORDER BY c.state`,
      )
      .all(from, to) as Array<{ state: string; n: number; ids: string | null }>;
    for (const g of dangling)
      problems.push({
        condition: "crosswalk",
        message: `${from}→${to} ${g.state}: ${g.n} crosswalk target plan${g.n === 1 ? " is" : "s are"} not ${to} plans${examples(g.ids, g.n)}`,
      });
  }
  return problems;
}
