/**
 * Builds the plan store: a new SQLite file next to the target
 * (`<out>.tmp-<pid>`), filled from the source directory, indexed, synced to
 * disk and renamed over the target in one step. A running server therefore
 * sees either the old store or the new one, never a half-built one, and a
 * failed load removes its temporary file and leaves the previous store as it
 * was. Nothing else in the target's directory is touched (the write store may
 * live there).
 */
import Database from "better-sqlite3";
import { existsSync, mkdirSync, renameSync, unlinkSync } from "node:fs";
import path from "node:path";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { PLAN_STORE_SCHEMA_VERSION, planStoreTables } from "../db/plan-store";
import * as schema from "../db/plan-store";
import { planStoreDdl } from "../db/plan-store-ddl";
import { fsyncPath, removeStaleTemporaries } from "../db/plan-store-file";
import { PlanStoreLoader, inserter, type LoadProgress } from "./load";
import type { FileReport } from "./readers/run";
import { DEFAULT_MIN_RATIO, StoreRefusedError, checkCompleteness, checkShrink, type GateProblem } from "./gate";
import { checkCrosswalk } from "./crosswalk-gate";
import { contentSize } from "./readers/zip";
import { SOURCE_FILES, resolveSources, type SourceLayout } from "./sources";

export type BuildProgress =
  | ({ phase: "read" } & LoadProgress)
  | { phase: "index"; index: string; done: number; total: number }
  | { phase: "finish"; message: string };

export type BuildPlanStoreOptions = {
  /** Directory laid out as docs/data.md describes. */
  sourceDir: string;
  /** The store file to replace (default: the PLAN_STORE_PATH setting, see seed/cli.ts). */
  outPath: string;
  /** Plan year to load; default: the BusinessYear of the files (or every year directory). */
  year?: number;
  /** Mark the data as sample data (also set by a SAMPLE-DATA file in the source directory). */
  sample?: boolean;
  onProgress?: (progress: BuildProgress) => void;
  /** Swap in a store that fails the completeness gate, marked incomplete (development only). */
  allowIncomplete?: boolean;
  /** Swap in a store with fewer rows than `minRatio` of the current one. */
  acceptShrink?: boolean;
  /** Least share of each count of the current store the new one must keep (default 0.8). */
  minRatio?: number;
};

export type LoadReport = {
  outPath: string;
  sourceDir: string;
  years: number[];
  sample: boolean;
  loadedAt: string;
  durationMs: number;
  files: FileReport[];
  /** Row count of every table in the new store. */
  tables: Record<string, number>;
  totals: { rowsRead: number; rowsLoaded: number; rowsSkipped: number; rowsRejected: number };
  warnings: string[];
  /** False when the store failed the completeness gate and was loaded with allowIncomplete. */
  complete: boolean;
  /** The gate's failed conditions (empty when complete), shrink findings accepted included. */
  problems: GateProblem[];
};

/** Year-specific files absent from the source, per plan year (for the gate's messages). */
function missingFiles(layout: SourceLayout): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  for (const y of layout.years) {
    out[y.year] = (["planAttributes", "rates", "benefits", "serviceAreas"] as const)
      .filter((k) => !y.files[k])
      .map((k) => SOURCE_FILES[k]);
  }
  return out;
}

export async function buildPlanStore(options: BuildPlanStoreOptions): Promise<LoadReport> {
  const started = Date.now();
  const outPath = path.resolve(options.outPath);
  const layout = await resolveSources(options.sourceDir, { year: options.year, sample: options.sample });
  mkdirSync(path.dirname(outPath), { recursive: true });
  removeStaleTemporaries(outPath);
  const tmpPath = `${outPath}.tmp-${process.pid}`;
  if (existsSync(tmpPath)) unlinkSync(tmpPath);

  let overallTotalBytes = 0;
  for (const f of layout.allFiles) overallTotalBytes += await contentSize(f);
  let db: Database.Database | undefined;
  try {
    db = new Database(tmpPath);
    // Build-time settings: nothing needs crash safety until the final rename.
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.pragma("locking_mode = EXCLUSIVE");
    db.pragma("cache_size = -262144");
    const ddl = planStoreDdl();
    for (const statement of ddl.tables) db.exec(statement);

    db.exec("BEGIN");
    const loader = new PlanStoreLoader({
      db,
      layout,
      overallTotalBytes,
      onProgress: options.onProgress ? (p) => options.onProgress!({ phase: "read", ...p }) : undefined,
    });
    await loader.loadAll();

    ddl.indexes.forEach((statement, i) => {
      options.onProgress?.({
        phase: "index",
        index: statement.split('"')[1] ?? statement,
        done: i,
        total: ddl.indexes.length,
      });
      db!.exec(statement);
    });
    options.onProgress?.({ phase: "index", index: "", done: ddl.indexes.length, total: ddl.indexes.length });

    const loadedAt = new Date().toISOString();
    const years = layout.years.map((y) => y.year);

    // The gate: nothing below runs for a refused store; the catch removes the temporary file.
    const incomplete = [
      ...checkCompleteness(db, years, missingFiles(layout)),
      ...checkCrosswalk(db, years, layout.crosswalks.length > 0),
    ];
    if (incomplete.length > 0 && !options.allowIncomplete)
      throw new StoreRefusedError(
        incomplete,
        "(pass --allow-incomplete to load it anyway, marked incomplete; for development only)",
      );
    const shrunk = checkShrink(db, outPath, options.minRatio ?? DEFAULT_MIN_RATIO);
    if (shrunk.length > 0 && !options.acceptShrink)
      throw new StoreRefusedError(shrunk, "(pass --accept-shrink to replace the current store anyway)");
    const problems = [...incomplete, ...shrunk];

    const insertMeta = inserter(db, schema.storeMeta);
    insertMeta({ key: "schema_version", value: String(PLAN_STORE_SCHEMA_VERSION) });
    insertMeta({ key: "plan_years", value: JSON.stringify(years) });
    insertMeta({ key: "sample", value: layout.sample ? "1" : "0" });
    insertMeta({ key: "complete", value: incomplete.length === 0 ? "1" : "0" });
    insertMeta({ key: "problems", value: JSON.stringify(problems) });
    insertMeta({ key: "loaded_at", value: loadedAt });
    insertMeta({ key: "source", value: path.basename(layout.root) });
    const insertVersion = inserter(db, schema.dataVersions, { omit: ["id"] });
    for (const f of loader.files) {
      insertVersion({
        sourceFile: f.file,
        format: f.format,
        planYear: f.planYear,
        checksum: f.checksum,
        bytes: f.bytes,
        rowsRead: f.rowsRead,
        rowsLoaded: f.rowsLoaded,
        rowsSkipped: f.rowsSkipped,
        rowsRejected: f.rowsRejected,
        skipReasons: JSON.stringify(f.skipReasons),
        rejectReasons: JSON.stringify(f.rejectReasons),
        loadedAt,
        isSample: layout.sample,
      });
    }
    const tables: Record<string, number> = {};
    for (const table of planStoreTables) {
      const name = getTableConfig(table).name;
      tables[name] = (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
    }
    tables.store_meta += 1; // the report row itself, written next
    const totals = { rowsRead: 0, rowsLoaded: 0, rowsSkipped: 0, rowsRejected: 0 };
    for (const f of loader.files) {
      totals.rowsRead += f.rowsRead;
      totals.rowsLoaded += f.rowsLoaded;
      totals.rowsSkipped += f.rowsSkipped;
      totals.rowsRejected += f.rowsRejected;
    }
    // The summary report (per file: read, loaded, skipped, rejected with reasons, notes) for /api/health and operators.
    const summary = {
      files: loader.files.map((f) => ({
        file: f.file,
        format: f.format,
        planYear: f.planYear,
        rowsRead: f.rowsRead,
        rowsLoaded: f.rowsLoaded,
        rowsSkipped: f.rowsSkipped,
        rowsRejected: f.rowsRejected,
        skipReasons: f.skipReasons,
        rejectReasons: f.rejectReasons,
        notes: f.notes,
      })),
      tables,
      totals,
      warnings: loader.warnings,
    };

    insertMeta({ key: "report", value: JSON.stringify(summary) });
    db.exec("COMMIT");

    options.onProgress?.({ phase: "finish", message: "syncing and swapping in the new store" });
    // Readers open the store read-only; a rollback journal (not WAL) means no -wal/-shm files.
    db.pragma("locking_mode = NORMAL");
    db.pragma("journal_mode = DELETE");
    db.close();
    db = undefined;
    fsyncPath(tmpPath);
    renameSync(tmpPath, outPath);
    fsyncPath(path.dirname(outPath));

    return {
      outPath,
      sourceDir: layout.root,
      years,
      sample: layout.sample,
      loadedAt,
      durationMs: Date.now() - started,
      files: loader.files,
      tables,
      totals,
      warnings: loader.warnings,
      complete: incomplete.length === 0,
      problems,
    };
  } catch (error) {
    try {
      db?.close();
    } catch {
      // Already closed or unusable: the file is removed below either way.
    }
    try {
      if (existsSync(tmpPath)) unlinkSync(tmpPath);
    } catch {
      // Left for removeStaleTemporaries on the next load.
    }
    throw error;
  }
}
