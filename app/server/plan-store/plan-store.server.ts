/**
 * Read access to the plan store (the SQLite file built by `npm run seed`).
 *
 * `planStore()` is a process-wide reader over the PLAN_STORE_PATH setting,
 * opened read-only. A reseed swaps in a new file; every call answers wholly
 * from one store version (./store-file.server.ts). What one version answers
 * is cached with it (./caches.server.ts, docs/decisions/111).
 *
 * Everything returns plain data (./types.ts); nothing here knows about HTTP.
 * The parts: rows.server.ts (rows → shapes), queries.server.ts (the prepared
 * statements), plan-records.server.ts (summaries and full records).
 */
import { parseRatingArea, ratingAreaLabel } from "../../../db/plan-store-values";
import { env } from "../platform/env.server";
import { forgetSingleton, onShutdown, processSingleton } from "../platform/lifecycle.server";
import { deepFreeze } from "../../lib/deep-freeze";
import { SUMMARY_CACHE_ENTRIES } from "./caches.server";
import { buildPlanDetail, buildSummaries } from "./plan-records.server";
import type { Queries } from "./queries.server";
import { json, normalizeZip, planIdOf, rateTablesFrom, type RateValues } from "./rows.server";
import { StoreFile, type PlanStoreOptions, type StoreHandle } from "./store-file.server";
import type {
  CountyMatch,
  DataVersion,
  FormularyRow,
  NetworkRow,
  Place,
  PlaceOffer,
  PlanDetail,
  PlanSummary,
  RateTable,
  StateInfo,
} from "./types";

export type * from "./types";
export { PlanStoreUnavailableError, type PlanStoreOptions } from "./store-file.server";

export class PlanStore {
  private readonly file: StoreFile;
  readonly path: string;

  constructor(file: string, options: PlanStoreOptions = {}) {
    this.file = new StoreFile(file, options);
    this.path = this.file.path;
  }

  /** Runs `fn` on one store version (see StoreFile.use). */
  private use<T>(fn: (q: Queries, h: StoreHandle) => T): T {
    return this.file.use(fn);
  }

  /** Runs `fn` on the current store version's connection (queries kept in their own files, e.g. drug-names). */
  read<T>(fn: (handle: StoreHandle) => T): T {
    return this.use((_q, h) => fn(h));
  }

  /** Whether a readable store is present. */
  available(): boolean {
    return this.file.available();
  }

  close(): void {
    this.file.close();
  }

  /** The open store file's identity: another object once a reseed swapped a new file in (a key for caches of its answers). */
  version(): object {
    return this.use((_, h) => h);
  }

  /** True when the store was built from sample data (pages must say so). */
  isSample(): boolean {
    return this.use((_, h) => h.sample);
  }

  dataVersions(): DataVersion[] {
    return this.use((q) =>
      q.dataVersions.all().map((r) => ({
        sourceFile: r.sourceFile,
        format: r.format,
        planYear: r.planYear,
        checksum: r.checksum,
        bytes: r.bytes,
        rowsRead: r.rowsRead,
        rowsLoaded: r.rowsLoaded,
        rowsSkipped: r.rowsSkipped,
        rowsRejected: r.rowsRejected,
        skipReasons: JSON.parse(r.skipReasons) as DataVersion["skipReasons"],
        rejectReasons: JSON.parse(r.rejectReasons) as DataVersion["rejectReasons"],
        loadedAt: r.loadedAt,
        isSample: r.isSample,
      })),
    );
  }

  /** Plan years that have plans, ascending. */
  yearsWithData(): number[] {
    return this.use((q, h) => [...(h.cache.years ??= q.years.all().map((r) => r.year))]);
  }

  /**
   * A state's marketplace for a plan year. When the states file has no row
   * for that year, the nearest earlier year answers (else the nearest later):
   * marketplace types rarely change and a stale answer beats none.
   */
  state(code: string, year: number): StateInfo | undefined {
    return this.use((q, h) => {
      const key = `${year}|${code.trim().toUpperCase()}`;
      let info = h.cache.states.get(key);
      if (info === undefined) {
        const rows = q.stateRows.all({ state: code.trim().toUpperCase() });
        const row =
          rows.find((r) => r.planYear === year) ?? [...rows].reverse().find((r) => r.planYear < year) ?? rows[0];
        if (row) {
          info = {
            code: row.code,
            name: row.name,
            exchangeKind: row.exchangeKind,
            ownedData: row.ownedData,
            planYear: row.planYear,
          };
          if (row.marketplaceName) info.marketplaceName = row.marketplaceName;
          if (row.marketplaceUrl) info.marketplaceUrl = row.marketplaceUrl;
        } else info = null;
        h.cache.states.set(key, info);
      }
      return info ? { ...info } : undefined;
    });
  }

  /** Counties of a ZIP (HUD and Census merged), largest share first; [] for an unknown ZIP. */
  countiesForZip(zip: string): CountyMatch[] {
    const z = normalizeZip(zip);
    if (!z) return [];
    return this.use((q, h) => {
      let rows = h.cache.countiesForZip.get(z);
      if (!rows) {
        rows = q.countiesForZip.all({ zip: z }).map((r) => ({
          zip: r.zip,
          countyFips: r.countyFips,
          countyName: r.countyName ?? r.countyFips,
          state: r.state,
          share: r.share,
        }));
        h.cache.countiesForZip.set(z, rows);
      }
      return rows.map((r) => ({ ...r }));
    });
  }

  /**
   * Every county of a state the store holds, by name: the chooser for a ZIP
   * missing from the ZIP–county data (issue 17 item 13). At most a few hundred
   * rows on an index, so read each time rather than cached.
   */
  countiesOfState(state: string): Array<{ countyFips: string; countyName: string; state: string }> {
    return this.use((q) =>
      q.countiesOfState.all({ state }).map((r) => ({ countyFips: r.fips, countyName: r.name, state: r.state })),
    );
  }

  /**
   * "Rating Area N" for a place: the county's area, or for a county the state
   * defines by 3-digit ZIP instead (AK, NE, Los Angeles County …) the ZIP3's.
   * docs/decisions/024-rating-area-lookup.md.
   */
  ratingAreaFor(place: { year: number; state: string; countyFips?: string; zip?: string }): string | undefined {
    return this.use((q) => this.ratingAreaIn(q, place));
  }

  private ratingAreaIn(
    q: Queries,
    place: { year: number; state: string; countyFips?: string; zip?: string },
  ): string | undefined {
    const state = place.state.trim().toUpperCase();
    if (place.countyFips) {
      const byCounty = q.ratingAreaByCounty.get({ year: place.year, county: place.countyFips, state });
      if (byCounty) return ratingAreaLabel(byCounty.ratingArea);
    }
    const zip = normalizeZip(place.zip);
    if (zip) {
      const byZip3 = q.ratingAreaByZip3.get({ year: place.year, state, zip3: zip.slice(0, 3) });
      if (byZip3) return ratingAreaLabel(byZip3.ratingArea);
    }
    return undefined;
  }

  /** Individual-market medical plans sold on the exchange at a place (service areas, partial-county ZIP lists). */
  plansOffered(place: Place): PlanSummary[] {
    // A fresh array: callers filter and sort it; the summaries themselves are frozen.
    return this.use((q, h) => [...this.offeredIn(q, h, place)]);
  }

  private offeredIn(q: Queries, h: StoreHandle, place: Place): readonly PlanSummary[] {
    const args = this.placeArgs(place);
    const key = `${args.year}|${args.state}|${args.county}|${args.zip ?? ""}`;
    let list = h.cache.offered.get(key);
    if (!list) {
      const ids = q.plansOffered.all(args).map((r) => r.planId);
      list = Object.freeze(this.summaries(q, h, place.year, ids));
      h.cache.offered.set(key, list);
    }
    return list;
  }

  /**
   * What a place's plan list is priced from, put together once per store
   * version: the plans offered there, the place's rating area and each plan's
   * rate table in it (null where the plan has no rates there), in the same
   * order. A list request then does one look-up instead of one per plan.
   */
  placeOffer(place: Place): PlaceOffer {
    const args = this.placeArgs(place);
    const key = `${args.year}|${args.state}|${args.county}|${args.zip ?? ""}`;
    return this.use((q, h) => {
      const known = h.cache.placeOffers.get(key);
      if (known) return known;
      const plans = this.offeredIn(q, h, place);
      const ratingArea = this.ratingAreaIn(q, place) ?? null;
      const tables = ratingArea
        ? this.rateTablesIn(q, h, { year: place.year, planIds: plans.map((p) => p.id), ratingArea })
        : new Map<string, RateTable>();
      const offer: PlaceOffer = Object.freeze({
        ratingArea,
        plans,
        rateTables: Object.freeze(plans.map((p) => tables.get(p.id) ?? null)),
      });
      h.cache.placeOffers.set(key, offer);
      return offer;
    });
  }

  isPlanOfferedIn(args: Place & { planId: string }): boolean {
    const planId = planIdOf(args.planId);
    if (!planId) return false;
    return this.use((q) => q.planOffered.all({ ...this.placeArgs(args), planId }).length > 0);
  }

  private placeArgs(place: Place) {
    return {
      year: place.year,
      state: place.state.trim().toUpperCase(),
      county: place.countyFips,
      zip: normalizeZip(place.zip) ?? null,
    };
  }

  /** Summaries of `ids` in that order (plans not in the store left out), built once per store version. */
  private summaries(q: Queries, h: StoreHandle, year: number, ids: string[]): PlanSummary[] {
    const missing = ids.filter((id) => h.cache.summaries.get(`${year}|${id}`) === undefined);
    if (missing.length > 0) {
      const built = new Map(buildSummaries(q, year, missing).map((s) => [s.id, s]));
      for (const id of missing) h.cache.summaries.set(`${year}|${id}`, deepFreeze(built.get(id) ?? null));
      // More ids than the cache holds: answer from what was just built.
      if (missing.length > SUMMARY_CACHE_ENTRIES)
        return ids.flatMap((id) => built.get(id) ?? h.cache.summaries.get(`${year}|${id}`) ?? []);
    }
    return ids.flatMap((id) => h.cache.summaries.get(`${year}|${id}`) ?? []);
  }

  /**
   * The full plan record, or undefined when the plan is not in the store for
   * that year. `id` may be the 14-character plan id or a variant id.
   */
  planById(id: string, year: number, options: { ratingArea?: string | number } = {}): PlanDetail | undefined {
    const planId = planIdOf(id);
    if (!planId) return undefined;
    return this.use((q, h) => {
      // The record is read once per store version; only the premium depends on the area asked for.
      const key = `${year}|${planId}`;
      let detail = h.cache.details.get(key);
      if (detail === undefined) {
        const [summary] = this.summaries(q, h, year, [planId]);
        detail = deepFreeze(buildPlanDetail(q, year, planId, summary) ?? null);
        h.cache.details.set(key, detail);
      }
      if (!detail) return undefined;
      const wanted =
        options.ratingArea === undefined
          ? null
          : typeof options.ratingArea === "number"
            ? options.ratingArea
            : parseRatingArea(options.ratingArea);
      const premiums = Object.values(detail.premiumsByRatingArea);
      const premium =
        wanted !== null
          ? (detail.premiumsByRatingArea[ratingAreaLabel(wanted)] ?? null)
          : premiums.length > 0
            ? Math.min(...premiums)
            : null;
      return { ...detail, premium };
    });
  }

  /** Rate tables of plans in one rating area ("Rating Area 7" or 7); plans without rates there are absent. */
  rateTables(args: { year: number; planIds: readonly string[]; ratingArea: string | number }): Map<string, RateTable> {
    return this.use((q, h) => this.rateTablesIn(q, h, args));
  }

  private rateTablesIn(
    q: Queries,
    h: StoreHandle,
    args: { year: number; planIds: readonly string[]; ratingArea: string | number },
  ): Map<string, RateTable> {
    const area = typeof args.ratingArea === "number" ? args.ratingArea : parseRatingArea(args.ratingArea);
    const ids = args.planIds.map(planIdOf).filter((p): p is string => p !== undefined);
    const result = new Map<string, RateTable>();
    if (area === null || ids.length === 0) return result;
    const key = (planId: string) => `${args.year}|${area}|${planId}`;
    const missing = [...new Set(ids)].filter((id) => h.cache.rateTables.get(key(id)) === undefined);
    const fresh = new Map<string, RateTable>();
    if (missing.length > 0) {
      const tables = rateTablesFrom(
        q.ratesInArea.values({ year: args.year, ids: json(missing), area }) as RateValues[],
      );
      for (const id of missing) {
        const t = tables.get(id)?.get(area);
        if (t) fresh.set(id, deepFreeze(t));
        h.cache.rateTables.set(key(id), t ?? null);
      }
    }
    for (const id of ids) {
      const t = fresh.get(id) ?? h.cache.rateTables.get(key(id));
      if (t) result.set(id, t);
    }
    return result;
  }

  /** Own formulary rows for drugs (RxCUIs), optionally only for some plans. */
  formularyRows(args: { year: number; rxcuis: readonly string[]; planIds?: readonly string[] }): FormularyRow[] {
    if (args.rxcuis.length === 0 || args.planIds?.length === 0) return [];
    const rxcuis = json(args.rxcuis.map(String));
    if (!args.planIds) return this.use((q) => q.formularyRows.all({ year: args.year, rxcuis }));
    const planIds = json(args.planIds.map((p) => planIdOf(p) ?? p));
    return this.use((q) => q.formularyRowsOfPlans.all({ year: args.year, rxcuis, planIds }));
  }

  /** Own provider-network rows for providers (NPIs), optionally only for some plans. */
  networkRows(args: { year: number; npis: readonly string[]; planIds?: readonly string[] }): NetworkRow[] {
    if (args.npis.length === 0 || args.planIds?.length === 0) return [];
    const npis = json(args.npis.map(String));
    if (!args.planIds) return this.use((q) => q.networkRows.all({ year: args.year, npis }));
    const planIds = json(args.planIds.map((p) => planIdOf(p) ?? p));
    return this.use((q) => q.networkRowsOfPlans.all({ year: args.year, npis, planIds }));
  }
}

/** A reader over any store file (tests, tools). The caller closes it. */
export function openPlanStore(file: string, options?: PlanStoreOptions): PlanStore {
  return new PlanStore(file, options);
}

/** The process-wide reader over PLAN_STORE_PATH; closed on shutdown. */
export function planStore(): PlanStore {
  return processSingleton("planStore", () => {
    const store = new PlanStore(env().PLAN_STORE_PATH);
    onShutdown("plan store", () => store.close());
    return store;
  });
}

/** Tests only: close and forget the process-wide reader (e.g. after changing PLAN_STORE_PATH). */
export function resetPlanStoreForTests(): void {
  const key = Symbol.for("marketplace.singleton.planStore");
  const existing = (globalThis as Record<symbol, unknown>)[key] as PlanStore | undefined;
  existing?.close();
  forgetSingleton("planStore");
}
