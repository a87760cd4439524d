/**
 * Fills an empty plan-store database (tables created, no indexes yet) from a
 * resolved source layout. Streams every file; cross-file rules:
 * - only individual-market medical plans are loaded: rates, benefits, quality
 *   ratings and issuer-file rows of SHOP, dental-only or unknown plans are
 *   skipped and counted (puf-formats.md §0.6);
 * - ZIP→county is the union of HUD and Census rows per ZIP, each county with
 *   its share and state, ordered by share (docs/decisions/022-zip-county-merge.md);
 * - document links come from Plan Attributes, then plans.json, and the
 *   provider directory from the Network PUF.
 * Rows are inserted in source order (maps are flushed in key order), so the
 * same input gives the same rows.
 */
import type Database from "better-sqlite3";
import { getTableColumns } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../db/plan-store";
import { DOCUMENT_KINDS } from "../db/plan-store";
import { benefitsFormat } from "./readers/benefits";
import {
  censusZctaCountyFormat,
  countiesFormat,
  hudZipCountyFormat,
  ratingAreaCountyFormat,
  ratingAreaZip3Format,
  statesFormat,
  type ZipCountyRecord,
} from "./readers/geography";
import { mrDrugsFormat, mrPlansFormat, mrProvidersFormat } from "./readers/machine-readable";
import { networkFormat } from "./readers/network";
import { planAttributesFormat, type PlanAttributesRecord } from "./readers/plan-attributes";
import { qualityFormat } from "./readers/quality";
import { rateFormat } from "./readers/rate";
import { runCsv, runJson, type FileProgress, type FileReport, type RunOptions } from "./readers/run";
import { serviceAreaFormat } from "./readers/service-area";
import type { SourceLayout, YearSources } from "./sources";
import { areaCounties, loadCountyChanges, remapZipCounties, type StagedZipCounty } from "./county-codes";
import { stateOfCounty } from "../db/plan-store-values";
import path from "node:path";
import { loadCrosswalks } from "./load-crosswalk";

export type LoadProgress = FileProgress & {
  /** Bytes read over all source files so far, and their total. */
  overallBytesRead: number;
  overallTotalBytes: number;
};

export type LoadContext = {
  db: Database.Database;
  layout: SourceLayout;
  onProgress?: (progress: LoadProgress) => void;
  overallTotalBytes: number;
};

type DocumentKind = (typeof DOCUMENT_KINDS)[number];

// ---------------------------------------------------------------- inserts

type Bindable = string | number | bigint | Buffer | null;

function toSql(v: unknown): Bindable {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  return v as Bindable;
}

/** A prepared INSERT for a drizzle table, taking an object keyed like the table's TS columns. */
export function inserter<T extends SQLiteTable>(
  db: Database.Database,
  table: T,
  options: { omit?: string[]; conflict?: "IGNORE" } = {},
): (values: Partial<Record<keyof T["_"]["columns"], unknown>>) => Database.RunResult {
  const entries = Object.entries(getTableColumns(table)).filter(([key]) => !options.omit?.includes(key));
  const keys = entries.map(([key]) => key);
  const names = entries.map(([, col]) => `"${col.name}"`);
  const tableName = (table as unknown as { [k: symbol]: string })[Symbol.for("drizzle:Name")];
  const stmt = db.prepare(
    `INSERT${options.conflict ? ` OR ${options.conflict}` : ""} INTO "${tableName}" (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
  );
  return (values) => {
    const record = values as Record<string, unknown>;
    const args = new Array<Bindable>(keys.length);
    for (let i = 0; i < keys.length; i++) args[i] = toSql(record[keys[i]]);
    return stmt.run(args);
  };
}

// ---------------------------------------------------------------- loader

type PlanClass = "individual" | "shop" | "dental";

type CountyName = { name: string; state: string; rank: number };

export class PlanStoreLoader {
  readonly files: FileReport[] = [];
  readonly warnings: string[] = [];
  private overallBytes = 0;
  private readonly counties = new Map<string, CountyName>();
  private readonly db: Database.Database;
  /** Retired county codes and their successors (seed/reference/county-code-changes.csv). */
  private readonly changes = loadCountyChanges();
  /** Counties this load's geography knows (named by the county list or the crosswalks). */
  private readonly knownCounty = (fips: string): boolean => this.counties.has(fips);
  /** Set while loading a year that is one of several found in a flat directory. */
  private yearMayBeAbsent = false;

  constructor(private readonly ctx: LoadContext) {
    this.db = ctx.db;
  }

  private label(file: string): string {
    return path.relative(this.ctx.layout.root, file).split(path.sep).join("/");
  }

  private runOptions(file: string, year?: number, extra: Partial<RunOptions> = {}): RunOptions {
    let lastBytes = 0;
    return {
      year,
      yearMayBeAbsent: this.yearMayBeAbsent,
      label: this.label(file),
      ...extra,
      onProgress: (p) => {
        this.overallBytes += p.bytesRead - lastBytes;
        lastBytes = p.bytesRead;
        this.ctx.onProgress?.({
          ...p,
          overallBytesRead: this.overallBytes,
          overallTotalBytes: this.ctx.overallTotalBytes,
        });
      },
    };
  }

  private nameCounty(fips: string, name: string | null, state: string, rank: number): void {
    if (!name) return;
    const known = this.counties.get(fips);
    if (!known || known.rank > rank) this.counties.set(fips, { name, state, rank });
  }

  async loadAll(): Promise<void> {
    const { layout } = this.ctx;
    if (layout.states) await this.loadStates(layout.states);
    if (layout.counties) await this.loadCounties(layout.counties);
    this.db.exec(
      `CREATE TEMP TABLE zip_county_staging (source TEXT NOT NULL, zip TEXT NOT NULL, county_fips TEXT NOT NULL, state TEXT NOT NULL, share REAL NOT NULL, file TEXT NOT NULL)`,
    );
    if (layout.zipCountyHud) await this.loadZipCounty(layout.zipCountyHud, "hud");
    if (layout.zctaCountyCensus) await this.loadZipCounty(layout.zctaCountyCensus, "census");
    for (const year of layout.years) await this.loadYear(year);
    const years = layout.years.map((y) => y.year);
    this.files.push(...(await loadCrosswalks(this.db, layout.crosswalks, years, (f) => this.runOptions(f))));
    this.mapRetiredZipCounties();
    this.finishZipCounties();
    this.finishCounties();
  }

  // -------------------------------------------------------------- global files

  private async loadStates(file: string): Promise<void> {
    const insert = inserter(this.db, schema.states);
    const seen = new Set<string>();
    this.files.push(
      await runCsv(file, statesFormat, this.runOptions(file), (r) => {
        const key = `${r.planYear}|${r.code}`;
        if (seen.has(key)) return { reject: "duplicate plan_year + state_code" };
        seen.add(key);
        insert(r);
      }),
    );
  }

  private async loadCounties(file: string): Promise<void> {
    this.files.push(
      await runCsv(file, countiesFormat, this.runOptions(file), (r) => {
        if (this.counties.get(r.fips)?.rank === 0) return { skip: "duplicate county" };
        this.nameCounty(r.fips, r.name, r.state, 0);
      }),
    );
  }

  private async loadZipCounty(file: string, source: "hud" | "census"): Promise<void> {
    const stmt = this.db.prepare(
      `INSERT INTO temp.zip_county_staging (source, zip, county_fips, state, share, file) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const format = source === "hud" ? hudZipCountyFormat : censusZctaCountyFormat;
    const label = this.label(file);
    this.files.push(
      await runCsv(file, format, this.runOptions(file), (r: ZipCountyRecord) => {
        stmt.run(source, r.zip, r.countyFips, r.state, r.share, label);
        this.nameCounty(r.countyFips, r.countyName, r.state, source === "census" ? 1 : 3);
      }),
    );
  }

  /**
   * ZIP→county rows with a retired county code go to its successors
   * (seed/county-codes.ts); each mapping is counted in its file's notes.
   */
  private mapRetiredZipCounties(): void {
    const codes = [...this.changes.keys()];
    const list = codes.map(() => "?").join(", ");
    const retired = this.db
      .prepare(
        `SELECT rowid, source, zip, county_fips AS countyFips, share, file FROM temp.zip_county_staging WHERE county_fips IN (${list}) ORDER BY zip, county_fips, source`,
      )
      .all(...codes) as Array<StagedZipCounty & { file: string }>;
    if (retired.length === 0) return;
    const othersOf = this.db.prepare(
      `SELECT rowid, source, zip, county_fips AS countyFips, share FROM temp.zip_county_staging WHERE zip = ? AND county_fips NOT IN (${list})`,
    );
    const others = [...new Set(retired.map((r) => r.zip))].flatMap(
      (zip) => othersOf.all(zip, ...codes) as StagedZipCounty[],
    );
    const fileOf = new Map(retired.map((r) => [r.rowid, r.file]));
    const sourceOf = new Map(retired.map((r) => [r.rowid, r]));
    const remove = this.db.prepare(`DELETE FROM temp.zip_county_staging WHERE rowid = ?`);
    const add = this.db.prepare(
      `UPDATE temp.zip_county_staging SET share = min(1, share + ?) WHERE source = ? AND zip = ? AND county_fips = ?`,
    );
    const insert = this.db.prepare(
      `INSERT INTO temp.zip_county_staging (source, zip, county_fips, state, share, file) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const staged = new Set(
      (
        this.db.prepare(`SELECT DISTINCT county_fips AS f FROM temp.zip_county_staging`).all() as Array<{ f: string }>
      ).map((r) => r.f),
    );
    const known = (fips: string) => this.counties.has(fips) || staged.has(fips);
    for (const m of remapZipCounties(this.changes, retired, others, known)) {
      const report = this.files.find((f) => f.file === fileOf.get(m.rowid));
      if (report) report.notes[m.remark] = (report.notes[m.remark] ?? 0) + 1;
      if (m.kind === "keep") continue;
      const r = sourceOf.get(m.rowid)!;
      remove.run(m.rowid);
      for (const to of m.to) {
        // The same source may list the successor for this ZIP already: the shares add up.
        if (add.run(to.share, r.source, r.zip, to.countyFips).changes === 0)
          insert.run(r.source, r.zip, to.countyFips, stateOfCounty(to.countyFips) ?? "", to.share, r.file);
      }
    }
  }

  /**
   * One row per (ZIP, county): HUD's share where HUD lists the pair (address
   * weighted), else Census land share; rank by share, then FIPS. A pair listed
   * twice by one source keeps its largest share.
   */
  private finishZipCounties(): void {
    this.db.exec(`
      INSERT INTO zip_counties (zip, county_fips, state, share, hud_share, census_share, rank)
      SELECT zip, county_fips, state, COALESCE(hud, census), hud, census,
             ROW_NUMBER() OVER (PARTITION BY zip ORDER BY COALESCE(hud, census) DESC, county_fips)
      FROM (
        SELECT zip, county_fips, MAX(state) AS state,
               MAX(CASE WHEN source = 'hud' THEN share END) AS hud,
               MAX(CASE WHEN source = 'census' THEN share END) AS census
        FROM temp.zip_county_staging GROUP BY zip, county_fips
      )
      ORDER BY zip, 7;
      DROP TABLE temp.zip_county_staging;
    `);
  }

  private finishCounties(): void {
    const insert = inserter(this.db, schema.counties);
    for (const fips of [...this.counties.keys()].sort()) {
      const c = this.counties.get(fips)!;
      insert({ fips, name: c.name, state: c.state });
    }
  }

  // -------------------------------------------------------------- one plan year

  private async loadYear(y: YearSources): Promise<void> {
    const { year, files } = y;
    this.yearMayBeAbsent = Boolean(y.foundAmongSeveral);
    if (files.ratingAreasByCounty) await this.loadRatingAreasByCounty(files.ratingAreasByCounty, year);
    if (files.ratingAreasByZip3) await this.loadRatingAreasByZip3(files.ratingAreasByZip3, year);

    const planClass = new Map<string, PlanClass>();
    const variants = new Set<string>();
    const documents = new Map<string, Map<DocumentKind, { url: string; source: string; rank: number }>>();
    const planNetwork = new Map<string, { issuerId: string; networkId: string | null }>();
    const classify = (planId: string): { skip: string } | undefined => {
      const c = planClass.get(planId);
      if (c === "individual") return undefined;
      if (c === "shop") return { skip: "SHOP (small group) plan" };
      if (c === "dental") return { skip: "dental-only plan" };
      return { skip: "plan not in Plan Attributes" };
    };
    const offerDocument = (
      planId: string,
      kind: DocumentKind,
      url: string | null | undefined,
      source: string,
      rank: number,
    ) => {
      if (!url) return;
      let m = documents.get(planId);
      if (!m) documents.set(planId, (m = new Map()));
      const known = m.get(kind);
      if (!known || known.rank > rank) m.set(kind, { url, source, rank });
    };

    if (files.planAttributes) {
      await this.loadPlanAttributes(files.planAttributes, year, planClass, variants, planNetwork, offerDocument);
    } else {
      this.warnings.push(`${year}: no ${"plan-attributes-puf.csv"}: no plans can be loaded for this year`);
    }

    const networkUrls = new Map<string, string | null>();
    if (files.network) {
      const insert = inserter(this.db, schema.networks);
      const file = files.network;
      this.files.push(
        await runCsv(file, networkFormat, this.runOptions(file, year), (r) => {
          // The same network is listed once per market; the first row wins.
          const key = `${r.issuerId}|${r.networkId}`;
          if (networkUrls.has(key)) return { skip: "duplicate network row" };
          networkUrls.set(key, r.url);
          insert(r);
        }),
      );
    }

    if (files.serviceAreas) await this.loadServiceAreas(files.serviceAreas, year);

    if (files.rates) {
      const insert = inserter(this.db, schema.rates);
      const file = files.rates;
      this.files.push(
        await runCsv(file, rateFormat, this.runOptions(file, year), (r) => {
          const skipped = classify(r.planId);
          if (skipped) return skipped;
          insert(r);
        }),
      );
    }

    if (files.benefits) {
      const insert = inserter(this.db, schema.benefits);
      const file = files.benefits;
      this.files.push(
        await runCsv(file, benefitsFormat, this.runOptions(file, year), (r) => {
          const skipped = classify(r.planId);
          if (skipped) return skipped;
          if (!variants.has(r.variantId)) return { skip: "plan variant not in Plan Attributes" };
          insert(r);
        }),
      );
    }

    if (files.quality) {
      const insert = inserter(this.db, schema.qualityRatings);
      const seen = new Set<string>();
      const file = files.quality;
      this.files.push(
        await runCsv(file, qualityFormat, this.runOptions(file, year), (r) => {
          const skipped = classify(r.planId);
          if (skipped) return skipped;
          if (seen.has(r.planId)) return { skip: "duplicate PlanID" };
          seen.add(r.planId);
          insert(r);
        }),
      );
    }

    const insertFormulary = inserter(this.db, schema.formulary);
    // One name per RxCUI and year: the first issuer's spelling (they copy RxNorm's).
    const insertDrugName = inserter(this.db, schema.drugNames, { conflict: "IGNORE" });
    const insertNetwork = inserter(this.db, schema.providerNetwork);
    for (const mr of y.machineReadable) {
      const opts = this.runOptions(mr.path, year);
      if (mr.kind === "plans") {
        this.files.push(
          await runJson(mr.path, mrPlansFormat, opts, (r) => {
            const skipped = classify(r.planId);
            if (skipped) return skipped;
            offerDocument(r.planId, "summary_of_benefits", r.summaryUrl, "plans.json", 100);
            offerDocument(r.planId, "formulary", r.formularyUrl, "plans.json", 100);
          }),
        );
      } else if (mr.kind === "drugs") {
        this.files.push(
          await runJson(mr.path, mrDrugsFormat, opts, (r) => {
            const skipped = classify(r.planId);
            if (skipped) return skipped;
            const { drugName, ...formularyRow } = r;
            insertFormulary({ planYear: year, ...formularyRow });
            if (drugName) insertDrugName({ planYear: year, rxcui: r.rxcui, name: drugName });
          }),
        );
      } else {
        this.files.push(
          await runJson(mr.path, mrProvidersFormat, opts, (r) => {
            const skipped = classify(r.planId);
            if (skipped) return skipped;
            insertNetwork({ planYear: year, ...r });
          }),
        );
      }
    }

    // Provider directories: the plan's network in the Network PUF.
    for (const [planId, net] of planNetwork) {
      if (!net.networkId) continue;
      offerDocument(
        planId,
        "provider_directory",
        networkUrls.get(`${net.issuerId}|${net.networkId}`),
        "network-puf",
        0,
      );
    }
    const insertDocument = inserter(this.db, schema.planDocuments);
    for (const planId of [...documents.keys()].sort()) {
      const m = documents.get(planId)!;
      for (const kind of DOCUMENT_KINDS) {
        const d = m.get(kind);
        if (d) insertDocument({ planYear: year, planId, kind, url: d.url, source: d.source });
      }
    }
    const plans = [...planClass.values()].filter((c) => c === "individual").length;
    if (files.planAttributes && plans === 0)
      this.warnings.push(`${year}: no individual-market medical plans were loaded`);
  }

  private async loadRatingAreasByCounty(file: string, year: number): Promise<void> {
    const insert = inserter(this.db, schema.ratingAreaCounties);
    const seen = new Map<string, number>();
    this.files.push(
      await runCsv(file, ratingAreaCountyFormat, this.runOptions(file, year), (r) => {
        const known = seen.get(r.countyFips);
        if (known !== undefined)
          return known === r.ratingArea
            ? { skip: "duplicate county" }
            : { reject: "county listed in two rating areas" };
        seen.set(r.countyFips, r.ratingArea);
        this.nameCounty(r.countyFips, r.countyName, r.state, 2);
        const { codes, remark } = areaCounties(this.changes, r.countyFips, this.knownCounty);
        for (const countyFips of codes) {
          if (countyFips !== r.countyFips && seen.has(countyFips)) continue; // the file lists the successor too
          seen.set(countyFips, r.ratingArea);
          insert({ planYear: year, ...r, countyFips });
        }
        if (remark) return { note: remark };
      }),
    );
  }

  private async loadRatingAreasByZip3(file: string, year: number): Promise<void> {
    const insert = inserter(this.db, schema.ratingAreaZip3);
    const seen = new Map<string, number>();
    this.files.push(
      await runCsv(file, ratingAreaZip3Format, this.runOptions(file, year), (r) => {
        const key = `${r.state}|${r.zip3}`;
        const known = seen.get(key);
        if (known !== undefined)
          return known === r.ratingArea ? { skip: "duplicate ZIP3" } : { reject: "ZIP3 listed in two rating areas" };
        seen.set(key, r.ratingArea);
        insert({ planYear: year, ...r });
      }),
    );
  }

  private async loadPlanAttributes(
    file: string,
    year: number,
    planClass: Map<string, PlanClass>,
    variants: Set<string>,
    planNetwork: Map<string, { issuerId: string; networkId: string | null }>,
    offerDocument: (
      planId: string,
      kind: DocumentKind,
      url: string | null | undefined,
      source: string,
      rank: number,
    ) => void,
  ): Promise<void> {
    const insertVariant = inserter(this.db, schema.planVariants);
    const insertLimit = inserter(this.db, schema.costLimits);
    const insertSbc = inserter(this.db, schema.sbcScenarios);
    // Plan-level fields come from the -01 variant when there is one, else the lowest suffix.
    const plans = new Map<string, { rank: number; record: PlanAttributesRecord; onExchange: boolean }>();
    const issuers = new Map<string, { state: string; name: string | null }>();
    const rankOf = (suffix: string) => (suffix === "01" ? 0 : 1 + Number(suffix));

    this.files.push(
      await runCsv(
        file,
        planAttributesFormat,
        this.runOptions(file, year, {
          onSkippedPlan: (p) => {
            if (planClass.get(p.planId) !== "individual") planClass.set(p.planId, p.planClass);
          },
        }),
        (r) => {
          if (variants.has(r.variantId)) return { reject: "duplicate PlanId" };
          variants.add(r.variantId);
          planClass.set(r.planId, "individual");
          const rank = rankOf(r.suffix);
          const onExchange = r.suffix !== "00";
          const known = plans.get(r.planId);
          if (!known) plans.set(r.planId, { rank, record: r, onExchange });
          else {
            known.onExchange ||= onExchange;
            if (rank < known.rank) {
              known.rank = rank;
              known.record = r;
            }
          }
          const issuer = issuers.get(r.issuerId);
          if (!issuer) issuers.set(r.issuerId, { state: r.state, name: r.issuerName });
          else if (!issuer.name && r.issuerName) issuer.name = r.issuerName;

          insertVariant({
            planYear: year,
            variantId: r.variantId,
            planId: r.planId,
            suffix: r.suffix,
            csrLevel: r.csrLevel,
            ...r.variant,
          });
          for (const cell of r.costLimits) insertLimit({ planYear: year, variantId: r.variantId, ...cell });
          for (const s of r.sbcScenarios) insertSbc({ planYear: year, variantId: r.variantId, ...s });
          for (const [kind, url] of Object.entries(r.urls))
            offerDocument(r.planId, kind as DocumentKind, url, "plan-attributes", rank);
        },
      ),
    );

    const insertPlan = inserter(this.db, schema.plans);
    for (const planId of [...plans.keys()].sort()) {
      const { record, onExchange } = plans.get(planId)!;
      insertPlan({
        planYear: year,
        planId,
        issuerId: record.issuerId,
        state: record.state,
        onExchange,
        ...record.plan,
      });
      planNetwork.set(planId, { issuerId: record.issuerId, networkId: record.plan.networkId?.toUpperCase() ?? null });
    }
    const insertIssuer = inserter(this.db, schema.issuers);
    for (const issuerId of [...issuers.keys()].sort()) {
      const i = issuers.get(issuerId)!;
      insertIssuer({ planYear: year, issuerId, state: i.state, name: i.name ?? `Issuer ${issuerId}` });
    }
  }

  private async loadServiceAreas(file: string, year: number): Promise<void> {
    const insertArea = inserter(this.db, schema.serviceAreas);
    const insertZip = inserter(this.db, schema.serviceAreaZips);
    const seen = new Set<string>();
    this.files.push(
      await runCsv(file, serviceAreaFormat, this.runOptions(file, year), (r) => {
        const key = `${r.issuerId}|${r.serviceAreaId}|${r.countyFips}`;
        if (seen.has(key)) return { skip: "duplicate service-area county" };
        seen.add(key);
        // A retired county code stands for its successors (statewide rows have no county).
        const { codes, remark } =
          r.countyFips === "" ? { codes: [""] } : areaCounties(this.changes, r.countyFips, this.knownCounty);
        for (const countyFips of codes) {
          const mappedKey = `${r.issuerId}|${r.serviceAreaId}|${countyFips}`;
          if (countyFips !== r.countyFips && seen.has(mappedKey)) continue;
          seen.add(mappedKey);
          insertArea({ ...r, countyFips, planYear: year });
          for (const zip of r.zips) {
            insertZip({ planYear: year, issuerId: r.issuerId, serviceAreaId: r.serviceAreaId, countyFips, zip });
          }
        }
        if (remark) return { note: remark };
      }),
    );
  }
}
