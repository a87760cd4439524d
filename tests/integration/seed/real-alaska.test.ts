/**
 * The seed pipeline over real CMS rows (Alaska, PY2026, tests/fixtures/seed/real-2026-ak,
 * copied from the team's reference folder): the completeness gate refuses
 * them (there is no Rate PUF), keeps the current store serving, and with
 * --allow-incomplete loads them, marked incomplete in /api/health. Values are
 * checked against the raw rows, read here with csv-parse (not the seed's reader).
 */
import Database from "better-sqlite3";
import { parse } from "csv-parse/sync";
import { createHash } from "node:crypto";
import { cpSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as health from "../../../app/routes/api.health";
import { resetEnvForTests } from "../../../app/server/platform/env.server";
import { openPlanStore, resetPlanStoreForTests } from "../../../app/server/plan-store/plan-store.server";
import { buildPlanStore } from "../../../seed/build-store";
import { main as seedCli } from "../../../seed/cli";
import { StoreRefusedError } from "../../../seed/gate";
import { FIXTURE_SOURCE, REPO, removeTempDirs, tempDir } from "./fixture-store";

const AK = path.join(REPO, "tests/fixtures/seed/real-2026-ak");
const AK_COUNTIES = path.join(REPO, "tests/fixtures/seed/layouts/national-county2020.ak.headerless.txt");

afterAll(() => {
  removeTempDirs();
  resetPlanStoreForTests();
});

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** The real AK files plus the Census county list without its header line. */
function alaskaSource(): string {
  const dir = tempDir("seed-ak-");
  cpSync(AK, dir, { recursive: true });
  cpSync(AK_COUNTIES, path.join(dir, "national-county2020.txt"));
  return dir;
}

function rawRows(file: string): Array<Record<string, string>> {
  return parse(readFileSync(file), { columns: true, bom: true }) as Array<Record<string, string>>;
}

async function quietly<T>(fn: () => Promise<T>): Promise<{ value: T; stderr: string }> {
  const log = console.log;
  const error = console.error;
  let stderr = "";
  console.log = () => undefined;
  console.error = (...args: unknown[]) => {
    stderr += `${args.join(" ")}\n`;
  };
  try {
    return { value: await fn(), stderr };
  } finally {
    console.log = log;
    console.error = error;
  }
}

describe("real Alaska PY2026 files without a Rate PUF", () => {
  it("are refused: the seed exits non-zero naming the missing rates, and the current store keeps serving", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out });
    const before = { sha: sha256(out), ino: statSync(out).ino };

    const { value: code, stderr } = await quietly(() => seedCli(["--source", alaskaSource(), "--out", out, "--quiet"]));
    expect(code).toBe(3);
    const lines = stderr.split("\n").filter((l) => l.startsWith("  "));
    // One line per failed condition: here only the rates (the county list names every county).
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ {2}2026 AK: 15 of 15 plans have no rates \(no rate-puf\.csv in the source\)/);
    expect(sha256(out)).toBe(before.sha);
    expect(statSync(out).ino).toBe(before.ino);
  });

  it("without a county list, the gate also names the counties that would have no name", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    const error = await buildPlanStore({ sourceDir: AK, outPath: out }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreRefusedError);
    const problems = (error as StoreRefusedError).problems;
    expect(problems.map((p) => p.condition)).toEqual(["rates", "county-names"]);
    // The distinct counties of the individual-market medical service-area rows (PUF values carry trailing blanks).
    const counties = new Set(
      rawRows(path.join(AK, "service-area-puf.csv"))
        .filter((r) => r.MarketCoverage === "Individual" && r.DentalOnlyPlan === "No" && r.County.trim() !== "")
        .map((r) => r.County.trim()),
    );
    expect(counties.size).toBe(13);
    expect(problems[1].message).toMatch(/^AK: 13 counties have no name/);
  });

  it("load with --allow-incomplete: Alaska plans are served, the store is marked incomplete in /api/health", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    const { value: code } = await quietly(() =>
      seedCli(["--source", alaskaSource(), "--out", out, "--quiet", "--allow-incomplete"]),
    );
    expect(code).toBe(0);

    // Counts against the raw rows: 64 individual-market medical variants, 15 plans.
    const raw = rawRows(path.join(AK, "plan-attributes-puf.csv"));
    expect(raw).toHaveLength(98);
    const medical = raw.filter((r) => r.MarketCoverage === "Individual" && r.DentalOnlyPlan === "No");
    expect(medical).toHaveLength(64);
    const db = new Database(out, { readonly: true });
    try {
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      expect(count("SELECT count(*) AS n FROM plan_variants")).toBe(64);
      expect(count("SELECT count(*) AS n FROM plans")).toBe(new Set(medical.map((r) => r.StandardComponentId)).size);
      expect(count("SELECT count(*) AS n FROM plans")).toBe(15);
      expect(count("SELECT count(*) AS n FROM rates")).toBe(0);
      expect(count("SELECT count(*) AS n FROM counties WHERE state = 'AK'")).toBe(30);
      const meta = Object.fromEntries(
        (db.prepare("SELECT key, value FROM store_meta").all() as Array<{ key: string; value: string }>).map((r) => [
          r.key,
          r.value,
        ]),
      );
      expect(meta.complete).toBe("0");
      // The summary report, per file: read, loaded, skipped and rejected with reasons.
      const report = JSON.parse(meta.report);
      const benefits = report.files.find((f: { file: string }) => f.file === "benefits-and-cost-sharing-puf.csv");
      expect(benefits.rowsRead).toBe(rawRows(path.join(AK, "benefits-and-cost-sharing-puf.csv")).length);
      expect(benefits.rowsRead).toBe(benefits.rowsLoaded + benefits.rowsSkipped + benefits.rowsRejected);
      expect(Object.keys(benefits.skipReasons)).toEqual(
        expect.arrayContaining(["dental-only plan", "SHOP (small group) plan"]),
      );
      expect(report.tables.plan_variants).toBe(64);
      expect(report.tables.store_meta).toBe(8); // schema_version, plan_years, sample, complete, problems, loaded_at, source, report
      expect(JSON.parse(meta.problems)).toEqual([
        expect.objectContaining({ condition: "rates", message: expect.stringMatching(/^2026 AK: 15 of 15 plans/) }),
      ]);

      // A plan's deductible and MOOP, against its raw row.
      const row = raw.find((r) => r.PlanId === "38344AK1060001-01")!;
      expect((row.TEHBDedInnTier1Individual || row.MEHBDedInnTier1Individual).trim()).toBe("$1,500");
      expect((row.TEHBInnTier1IndividualMOOP || row.MEHBInnTier1IndividualMOOP).trim()).toBe("$6,300");
      expect(
        db
          .prepare(
            "SELECT deductible_individual_raw AS dr, deductible_individual AS d, moop_individual_raw AS mr, moop_individual AS m FROM plan_variants WHERE variant_id = ?",
          )
          .get("38344AK1060001-01"),
      ).toEqual({ dr: "$1,500", d: 1500, mr: "$6,300", m: 6300 });
    } finally {
      db.close();
    }

    const store = openPlanStore(out);
    try {
      const offered = store.plansOffered({ year: 2026, state: "AK", countyFips: "02020", zip: "99501" });
      expect(offered).toHaveLength(15);
    } finally {
      store.close();
    }

    process.env.PLAN_STORE_PATH = out;
    process.env.LOG_LEVEL = "silent";
    resetEnvForTests();
    resetPlanStoreForTests();
    try {
      const response = await health.loader({
        request: new Request("http://localhost/api/health"),
        params: {},
        context: {},
      } as never);
      const body = await response.json();
      expect(body.planData).toBe("real");
      expect(body.planStore).toMatchObject({
        complete: false,
        source: expect.stringMatching(/^seed-ak-/),
        planYears: [2026],
      });
      expect(body.planStore.problems[0]).toMatch(/^2026 AK: 15 of 15 plans have no rates/);
      expect(Number.isNaN(Date.parse(body.planStore.loadedAt))).toBe(false);
    } finally {
      delete process.env.PLAN_STORE_PATH;
      resetEnvForTests();
      resetPlanStoreForTests();
    }
  });

  it("loads the same store from the PUFs zipped as CMS publishes them", async () => {
    const zipped = tempDir("seed-ak-zip-");
    cpSync(path.join(REPO, "tests/fixtures/seed/layouts/real-2026-ak-zipped"), zipped, { recursive: true });
    cpSync(AK_COUNTIES, path.join(zipped, "national-county2020.txt"));
    const dir = tempDir();
    const fromZip = await buildPlanStore({ sourceDir: zipped, outPath: path.join(dir, "z.db"), allowIncomplete: true });
    const plain = await buildPlanStore({
      sourceDir: alaskaSource(),
      outPath: path.join(dir, "p.db"),
      allowIncomplete: true,
    });
    expect(fromZip.files.map((f) => f.file)).toEqual([
      "national-county2020.txt",
      "plan-attributes-puf.zip",
      "service-area-puf.zip",
      "benefits-and-cost-sharing-puf.zip",
    ]);
    expect(fromZip.tables).toEqual(plain.tables);
    expect(fromZip.tables.plan_variants).toBe(64);
    expect(fromZip.files.map((f) => f.checksum)).toEqual(plain.files.map((f) => f.checksum));
  });
});
