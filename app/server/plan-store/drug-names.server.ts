import type { StoreHandle } from "./store-file.server";
import type { PlanStore } from "./plan-store.server";

/**
 * The service's own drug names: every RxCUI the issuers' formulary files list
 * for a plan year, with its name and how many plans list it
 * (docs/decisions/204-own-drug-name-index.md). Read once per store version
 * (a swapped-in store starts afresh) and searched in memory by prefix and
 * by words. A store built before the drug_names table existed has none.
 */

export interface OwnDrugName {
  rxcui: string;
  full_name: string;
  /** Plans of the year that list it. */
  plans: number;
}

interface YearIndex {
  drugs: OwnDrugName[];
  /** Lower-cased words of each name, for the word search. */
  words: string[][];
}

const indexes = new WeakMap<StoreHandle, Map<number, YearIndex>>();

function loadYear(handle: StoreHandle, year: number): YearIndex {
  let byYear = indexes.get(handle);
  if (!byYear) {
    byYear = new Map();
    indexes.set(handle, byYear);
  }
  const kept = byYear.get(year);
  if (kept) return kept;
  let rows: Array<{ rxcui: string; name: string; plans: number }> = [];
  const hasTable = handle.sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'drug_names'")
    .get();
  if (hasTable) {
    rows = handle.sqlite
      .prepare(
        `SELECT n.rxcui AS rxcui, n.name AS name,
                (SELECT COUNT(DISTINCT f.plan_id) FROM formulary f WHERE f.plan_year = n.plan_year AND f.rxcui = n.rxcui) AS plans
           FROM drug_names n WHERE n.plan_year = ? ORDER BY n.rxcui`,
      )
      .all(year) as typeof rows;
  }
  const drugs = rows.map((r) => ({ rxcui: r.rxcui, full_name: r.name, plans: r.plans }));
  const index: YearIndex = {
    drugs,
    words: drugs.map((d) =>
      d.full_name
        .toLowerCase()
        .split(/[^a-z0-9.]+/)
        .filter(Boolean),
    ),
  };
  byYear.set(year, index);
  return index;
}

/** Own drug names whose words begin with every typed word, at most `limit`, unranked. */
export function searchOwnDrugNames(
  store: PlanStore,
  query: { year: number; text: string; limit?: number },
): OwnDrugName[] {
  const typed = query.text
    .toLowerCase()
    .split(/[^a-z0-9.]+/)
    .filter(Boolean);
  if (typed.length === 0) return [];
  return store.read((handle) => {
    const index = loadYear(handle, query.year);
    const out: OwnDrugName[] = [];
    for (let i = 0; i < index.drugs.length; i++) {
      const words = index.words[i];
      if (typed.every((t) => words.some((w) => w.startsWith(t)))) out.push(index.drugs[i]);
      if (out.length >= (query.limit ?? 200)) break;
    }
    return out;
  });
}

/** How many plans of the year list each RxCUI (0 when none, or no own names). */
export function ownDrugPlanCounts(store: PlanStore, year: number, rxcuis: readonly string[]): Map<string, number> {
  return store.read((handle) => {
    const index = loadYear(handle, year);
    const wanted = new Set(rxcuis);
    return new Map(index.drugs.filter((d) => wanted.has(d.rxcui)).map((d) => [d.rxcui, d.plans]));
  });
}
