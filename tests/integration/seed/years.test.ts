/**
 * Plan years: a file of another year than --year is refused with the years
 * found; a flat directory whose files hold several years loads each year
 * found in them, not the year of the first row.
 */
import Database from "better-sqlite3";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildPlanStore } from "../../../seed/build-store";
import { main as seedCli } from "../../../seed/cli";
import { SourceFormatError } from "../../../seed/readers/types";
import { businessYearsOf } from "../../../seed/sources";
import { FIXTURE_SOURCE, REPO, copyFixtureSource, removeTempDirs, tempDir } from "./fixture-store";
import { writeSameIdCrosswalk } from "../renewal/same-id-crosswalk";

afterAll(() => removeTempDirs());

const AK = path.join(REPO, "tests/fixtures/seed/real-2026-ak");
const PUFS = ["plan-attributes-puf.csv", "rate-puf.csv", "service-area-puf.csv", "benefits-and-cost-sharing-puf.csv"];

describe("plan years", () => {
  it("refuses --year 2025 over 2026 files, naming the years found, and keeps the current store", async () => {
    const out = path.join(tempDir(), "plan-store.sqlite");
    await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: out });
    const before = readFileSync(out);
    const error = await buildPlanStore({ sourceDir: AK, outPath: out, year: 2025 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceFormatError);
    expect((error as Error).message).toBe(
      "plan-attributes-puf.csv: no rows of plan year 2025: its rows are of plan year 2026",
    );
    expect(readFileSync(out).equals(before)).toBe(true);

    const errors: string[] = [];
    const log = console.error;
    console.error = (...a: unknown[]) => errors.push(a.join(" "));
    try {
      expect(await seedCli(["--source", AK, "--out", out, "--year", "2025", "--quiet"])).toBe(1);
    } finally {
      console.error = log;
    }
    expect(errors.join("\n")).toMatch(/its rows are of plan year 2026/);
  });

  it("reads every row's BusinessYear, not the first row's", async () => {
    const src = copyFixtureSource();
    const file = path.join(src, "plan-attributes-puf.csv");
    const text = readFileSync(file, "utf8");
    const [header, ...rows] = text.split(/\r?\n/).filter((l) => l !== "");
    // The 2026 rows come after the 2027 ones: a first-row guess would miss them.
    writeFileSync(file, [header, ...rows, ...rows.map((r) => r.replace(/^2027,/, "2026,"))].join("\n") + "\n");
    expect(await businessYearsOf(file)).toEqual([2026, 2027]);
  });

  it("loads each plan year found in a flat directory's files, each file split by its rows' year", async () => {
    const src = copyFixtureSource();
    for (const name of PUFS) {
      const file = path.join(src, name);
      const text = readFileSync(file, "utf8").replace(/\r?\n$/, "");
      const [, ...rows] = text.split(/\r?\n/);
      const older = rows.filter((r) => /^2027,/.test(r)).map((r) => r.replace(/^2027,/, "2026,"));
      writeFileSync(file, [text, ...older].join("\n") + "\n");
    }
    // Two consecutive years: the gate wants the 2026 → 2027 Plan ID Crosswalk (decision 340).
    await writeSameIdCrosswalk(src, 2026, 2027);
    const out = path.join(tempDir(), "plan-store.sqlite");
    const report = await buildPlanStore({ sourceDir: src, outPath: out });
    expect(report.years).toEqual([2026, 2027]);
    expect(report.complete).toBe(true);
    const db = new Database(out, { readonly: true });
    try {
      expect(db.prepare("SELECT plan_year, count(*) AS n FROM plans GROUP BY plan_year").all()).toEqual([
        { plan_year: 2026, n: 6 },
        { plan_year: 2027, n: 6 },
      ]);
    } finally {
      db.close();
    }
  });
});
