/**
 * The seed pipeline end to end on the fixture source directory: what lands in
 * the store, determinism, the atomic swap, failed loads, the write store
 * beside the plan store, sample marking, plan-year directories and the CLI.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildPlanStore, type BuildProgress } from "../../../seed/build-store";
import { main as seedCli, parseArgs } from "../../../seed/cli";
import { SourceFormatError } from "../../../seed/readers/types";
import {
  FIXTURE_SOURCE,
  copyFixtureSource,
  edit,
  storeDigest,
  tableCounts,
  tempDir,
  removeTempDirs,
} from "./fixture-store";
import { writeSameIdCrosswalk } from "../renewal/same-id-crosswalk";

afterAll(() => removeTempDirs());

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("buildPlanStore on the fixture source directory", () => {
  it("loads every file, counts rows read / loaded / skipped / rejected with reasons, and records each file", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    const progress: BuildProgress[] = [];
    const report = await buildPlanStore({
      sourceDir: FIXTURE_SOURCE,
      outPath: out,
      onProgress: (p) => progress.push(p),
    });

    expect(report.years).toEqual([2027]); // detected from BusinessYear
    expect(report.sample).toBe(false);
    expect(report.files.map((f) => f.file)).toEqual([
      "states.csv",
      "national-county2020.txt",
      "zip-county-hud.csv",
      "zcta-county-census2020.txt",
      "rating-areas-by-county.csv",
      "rating-areas-by-zip3.csv",
      "plan-attributes-puf.csv",
      "network-puf.csv",
      "service-area-puf.csv",
      "rate-puf.csv",
      "benefits-and-cost-sharing-puf.csv",
      "quality-puf.csv",
      "mr/12345/plans.json",
      "mr/12345/drugs.json",
      "mr/12345/providers.json",
    ]);
    const rates = report.files.find((f) => f.file === "rate-puf.csv")!;
    // 12345TX0010001: 2 areas × 51 ages; -0002 and -0003: 51; NE 2 × 51; AK 3 × 51; NY 1 Family Option row.
    expect(rates.rowsLoaded).toBe(2 * 51 + 51 + 51 + 2 * 51 + 3 * 51 + 1);
    expect(rates.skipReasons).toEqual({
      "placeholder rate (9999 or more)": 3,
      "SHOP (small group) plan": 1,
      "dental-only plan": 1,
      "plan not in Plan Attributes": 1,
    });
    expect(rates.rowsRejected).toBe(5);
    expect(rates.rowsRead).toBe(rates.rowsLoaded + rates.rowsSkipped + rates.rowsRejected);
    const benefits = report.files.find((f) => f.file === "benefits-and-cost-sharing-puf.csv")!;
    expect(benefits.skipReasons).toEqual({
      "SHOP (small group) plan": 50,
      "dental-only plan": 50,
      "plan variant not in Plan Attributes": 1,
    });

    const db = new Database(out, { readonly: true });
    try {
      const versions = db.prepare("SELECT * FROM data_versions ORDER BY id").all() as Array<Record<string, unknown>>;
      expect(versions).toHaveLength(15);
      const rateRow = versions.find((v) => v.source_file === "rate-puf.csv")!;
      expect(rateRow).toMatchObject({
        format: "rate-puf",
        plan_year: 2027,
        rows_loaded: rates.rowsLoaded,
        rows_rejected: 5,
        is_sample: 0,
      });
      expect(rateRow.checksum).toBe(sha256(path.join(FIXTURE_SOURCE, "rate-puf.csv")));
      expect(JSON.parse(rateRow.reject_reasons as string)["malformed Age"].count).toBe(1);
      expect(Number.isNaN(Date.parse(rateRow.loaded_at as string))).toBe(false);
      // Readers must not need a journal: the finished store is in rollback-journal mode, not WAL.
      expect(db.pragma("journal_mode", { simple: true })).toBe("delete");
      const indexes = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all();
      expect(indexes.length).toBe(15); // 14 + plan_crosswalk_from (decision 340)
    } finally {
      db.close();
    }
    expect(report.tables).toMatchObject({
      plans: 6,
      plan_variants: 10,
      rates: rates.rowsLoaded,
      formulary: 3,
      provider_network: 5,
      service_areas: 7,
    });
    expect(progress.some((p) => p.phase === "read")).toBe(true);
    expect(progress.some((p) => p.phase === "index")).toBe(true);
    expect(progress.at(-1)!.phase).toBe("finish");
    const lastRead = progress.filter((p) => p.phase === "read").at(-1) as Extract<BuildProgress, { phase: "read" }>;
    expect(lastRead.overallBytesRead).toBe(lastRead.overallTotalBytes);
  });

  it("gives the same database when rerun on the same input", async () => {
    const dir = tempDir();
    const a = path.join(dir, "a.sqlite");
    const b = path.join(dir, "b.sqlite");
    const ra = await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: a });
    const rb = await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: b });
    expect(rb.tables).toEqual(ra.tables);
    expect(tableCounts(b)).toEqual(tableCounts(a));
    expect(storeDigest(b)).toBe(storeDigest(a));
  });

  it("marks sample data from the --sample option or a SAMPLE-DATA file in the source directory", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    expect((await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out, sample: true })).sample).toBe(true);
    const src = copyFixtureSource();
    writeFileSync(path.join(src, "SAMPLE-DATA"), "made-up plans\n");
    expect((await buildPlanStore({ sourceDir: src, outPath: out })).sample).toBe(true);
    const db = new Database(out, { readonly: true });
    try {
      expect(db.prepare("SELECT DISTINCT is_sample FROM data_versions").all()).toEqual([{ is_sample: 1 }]);
      expect(db.prepare("SELECT value FROM store_meta WHERE key = 'sample'").get()).toEqual({ value: "1" });
    } finally {
      db.close();
    }
  });

  it("loads one sub-directory per plan year, geography from the root; --year picks one", async () => {
    const src = tempDir("seed-years-");
    for (const name of readdirSync(FIXTURE_SOURCE)) {
      const year = /puf\.csv$|^mr$|^rating-areas/.test(name);
      cpSync(path.join(FIXTURE_SOURCE, name), path.join(src, year ? "2027" : "", name), { recursive: true });
    }
    // 2026: the same plans a year earlier (BusinessYear moved back one year), without
    // rating-area files of its own: the root's county file serves it.
    mkdirSync(path.join(src, "2026"));
    for (const name of [
      "plan-attributes-puf.csv",
      "rate-puf.csv",
      "service-area-puf.csv",
      "benefits-and-cost-sharing-puf.csv",
    ]) {
      cpSync(path.join(src, "2027", name), path.join(src, "2026", name));
      edit(path.join(src, "2026", name), (t) => t.replace(/^2026,/gm, "2025,").replace(/^2027,/gm, "2026,"));
    }
    cpSync(path.join(src, "2027", "rating-areas-by-county.csv"), path.join(src, "rating-areas-by-county.csv"));
    // Two consecutive years: the 2026 → 2027 crosswalk goes with the 2027 files (decision 340).
    await writeSameIdCrosswalk(path.join(src, "2026"), 2026, 2027, path.join(src, "2027"));
    const out = path.join(tempDir(), "plan-store.sqlite");
    const both = await buildPlanStore({ sourceDir: src, outPath: out });
    expect(both.years).toEqual([2026, 2027]);
    const db = new Database(out, { readonly: true });
    try {
      expect(db.prepare("SELECT plan_year, count(*) AS n FROM plans GROUP BY plan_year").all()).toEqual([
        { plan_year: 2026, n: 6 },
        { plan_year: 2027, n: 6 },
      ]);
      // 2026 has no rating-area file of its own: the root one serves it.
      expect(db.prepare("SELECT count(*) AS n FROM rating_area_counties WHERE plan_year = 2026").get()).toEqual({
        n: 9,
      });
      expect(db.prepare("SELECT count(*) AS n FROM rating_area_zip3 WHERE plan_year = 2026").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    // Dropping 2027 from the store is a shrink the operator must accept.
    const only = await buildPlanStore({ sourceDir: src, outPath: out, year: 2026, acceptShrink: true });
    expect(only.years).toEqual([2026]);
    expect(only.files.some((f) => f.file.startsWith("2027/"))).toBe(false);
  });
});

describe("atomic swap and failed loads", () => {
  it("keeps the previous store, byte for byte, when a load fails, and leaves no temporary file", async () => {
    const dir = tempDir();
    const out = path.join(dir, "plan-store.sqlite");
    await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out });
    const before = { sha: sha256(out), ino: statSync(out).ino, digest: storeDigest(out) };

    const broken = copyFixtureSource();
    // A Rate PUF without its PlanId column is not a Rate PUF: the load stops.
    edit(path.join(broken, "rate-puf.csv"), (t) => t.replace(",PlanId,", ",PlanIdentifier,"));
    await expect(buildPlanStore({ sourceDir: broken, outPath: out })).rejects.toBeInstanceOf(SourceFormatError);
    await expect(buildPlanStore({ sourceDir: path.join(dir, "no-such-dir"), outPath: out })).rejects.toThrow(
      /source directory not found/,
    );
    const empty = tempDir("seed-empty-");
    await expect(buildPlanStore({ sourceDir: empty, outPath: out })).rejects.toThrow(/no source files/);

    expect(sha256(out)).toBe(before.sha);
    expect(statSync(out).ino).toBe(before.ino);
    expect(storeDigest(out)).toBe(before.digest);
    expect(readdirSync(dir)).toEqual(["plan-store.sqlite"]);
  });

  it("replaces the store by rename (new inode) and removes temporaries of dead loads only", async () => {
    const dir = tempDir();
    const out = path.join(dir, "plan-store.sqlite");
    await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out });
    const firstIno = statSync(out).ino;
    const dead = `${out}.tmp-999999`;
    const alive = `${out}.tmp-${process.ppid}`;
    writeFileSync(dead, "left by a crashed load");
    writeFileSync(alive, "another load in progress");
    await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out });
    expect(statSync(out).ino).not.toBe(firstIno);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(alive)).toBe(true);
    rmSync(alive);
  });

  it("never touches a write store sitting beside the plan store", async () => {
    const dir = tempDir();
    const out = path.join(dir, "plan-store.sqlite");
    const writeStore = path.join(dir, "app.db");
    const w = new Database(writeStore);
    w.exec(
      "CREATE TABLE waitlist (id TEXT PRIMARY KEY, email TEXT); INSERT INTO waitlist VALUES ('w1', 'someone@example.com')",
    );
    w.close();
    writeFileSync(path.join(dir, "app.db-journal-note"), "unrelated file");
    const before = { sha: sha256(writeStore), mtime: statSync(writeStore).mtimeMs, ino: statSync(writeStore).ino };

    await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out });
    const broken = copyFixtureSource();
    edit(path.join(broken, "plan-attributes-puf.csv"), (t) => t.replace("PlanMarketingName", "MarketingNameOfPlan"));
    await expect(buildPlanStore({ sourceDir: broken, outPath: out })).rejects.toThrow(/missing column/);
    await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out });

    expect(sha256(writeStore)).toBe(before.sha);
    expect(statSync(writeStore).mtimeMs).toBe(before.mtime);
    expect(statSync(writeStore).ino).toBe(before.ino);
    expect(readdirSync(dir).sort()).toEqual(["app.db", "app.db-journal-note", "plan-store.sqlite"]);
    const r = new Database(writeStore, { readonly: true });
    expect(r.prepare("SELECT * FROM waitlist").all()).toEqual([{ id: "w1", email: "someone@example.com" }]);
    r.close();
  });
});

describe("seed CLI", () => {
  it("parses its arguments", () => {
    expect(parseArgs(["--source", "seed/sample", "--year", "2027", "--out=data/x.sqlite", "--sample"])).toEqual({
      source: "seed/sample",
      year: 2027,
      out: "data/x.sqlite",
      sample: true,
      quiet: false,
      json: false,
      allowIncomplete: false,
      acceptShrink: false,
      publish: false,
    });
    expect(parseArgs(["--source", "x", "--allow-incomplete", "--accept-shrink", "--min-ratio", "0.5"])).toMatchObject({
      allowIncomplete: true,
      acceptShrink: true,
      minRatio: 0.5,
    });
    expect(() => parseArgs(["--source", "x", "--min-ratio", "2"])).toThrow(/fraction/);
    expect(() => parseArgs(["--year", "2027"])).toThrow(/--source/);
    expect(() => parseArgs(["--source", "x", "--year", "27"])).toThrow(/four-digit/);
    expect(() => parseArgs(["--source", "x", "--bogus"])).toThrow(/unknown argument/);
  });

  it("exits 0 after a load, 1 when the load fails, 2 on bad arguments", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    const log = console.log;
    const error = console.error;
    console.log = () => undefined;
    console.error = () => undefined;
    try {
      expect(await seedCli(["--source", FIXTURE_SOURCE, "--out", out, "--quiet"])).toBe(0);
      expect(existsSync(out)).toBe(true);
      expect(await seedCli(["--source", path.join(FIXTURE_SOURCE, "missing"), "--out", out, "--quiet"])).toBe(1);
      expect(await seedCli(["--out", out])).toBe(2);
    } finally {
      console.log = log;
      console.error = error;
    }
  });
});
