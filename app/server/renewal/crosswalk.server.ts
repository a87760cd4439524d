import type { CrosswalkRow } from "../../domain/renewal/renewal";
import type { PlanStore } from "../plan-store/plan-store.server";
import type { StoreHandle } from "../plan-store/store-file.server";

/**
 * The plan store's Plan ID Crosswalk and plan names for the renewal answer
 * and the /renew page (issue 27). A store built before the crosswalk table
 * existed has none: every plan is then "not in the crosswalk".
 */

const hasTable = new WeakMap<StoreHandle, boolean>();

function crosswalkLoaded(handle: StoreHandle): boolean {
  let known = hasTable.get(handle);
  if (known === undefined) {
    known = Boolean(
      handle.sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'plan_crosswalk'").get(),
    );
    hasTable.set(handle, known);
  }
  return known;
}

/** Every crosswalk row of a plan of `fromYear` (all its counties and ZIPs). */
export function crosswalkRows(store: PlanStore, fromYear: number, planId: string): CrosswalkRow[] {
  return store.read((handle) => {
    if (!crosswalkLoaded(handle)) return [];
    return handle.sqlite
      .prepare(
        `SELECT from_year AS fromYear, to_year AS toYear, from_plan_id AS fromPlanId, county_fips AS countyFips,
                zip, level, reason, to_plan_id AS toPlanId
           FROM plan_crosswalk WHERE from_year = ? AND from_plan_id = ? ORDER BY county_fips, zip`,
      )
      .all(fromYear, planId) as CrosswalkRow[];
  });
}

export type PlanName = { id: string; name: string; issuerId: string; issuer: string; metal: string; state: string };

/** A plan of a year by its 14-character id (any state), or undefined. */
export function planNamed(store: PlanStore, year: number, planId: string): PlanName | undefined {
  return store.read(
    (handle) =>
      handle.sqlite
        .prepare(
          `SELECT p.plan_id AS id, p.name, p.issuer_id AS issuerId, COALESCE(i.name, p.issuer_id) AS issuer,
                  p.metal_level AS metal, p.state
             FROM plans p LEFT JOIN issuers i ON i.plan_year = p.plan_year AND i.issuer_id = p.issuer_id
            WHERE p.plan_year = ? AND p.plan_id = ?`,
        )
        .get(year, planId) as PlanName | undefined,
  );
}

/** The on-exchange plans of a year in a state, by insurer then name (the page's "pick your plan" list). */
export function plansOfState(store: PlanStore, year: number, state: string): PlanName[] {
  return store.read(
    (handle) =>
      handle.sqlite
        .prepare(
          `SELECT p.plan_id AS id, p.name, p.issuer_id AS issuerId, COALESCE(i.name, p.issuer_id) AS issuer,
                  p.metal_level AS metal, p.state
             FROM plans p LEFT JOIN issuers i ON i.plan_year = p.plan_year AND i.issuer_id = p.issuer_id
            WHERE p.plan_year = ? AND p.state = ? AND p.on_exchange = 1
            ORDER BY issuer, p.name, p.plan_id`,
        )
        .all(year, state) as PlanName[],
  );
}
