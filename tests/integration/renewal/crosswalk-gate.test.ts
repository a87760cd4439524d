/**
 * The completeness gate covers the Plan ID Crosswalk when two consecutive
 * plan years are loaded (decision 340): a 2026 plan without a crosswalk row,
 * or a row mapping to a plan that is not a 2027 plan, refuses the store.
 */
import Database from "better-sqlite3";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildPlanStore } from "../../../seed/build-store";
import { StoreRefusedError } from "../../../seed/gate";
import { copyFixtureSource, removeTempDirs, tempDir } from "../seed/fixture-store";
import { writeSameIdCrosswalk } from "./same-id-crosswalk";

afterAll(() => removeTempDirs());

const PUFS = ["plan-attributes-puf.csv", "rate-puf.csv", "service-area-puf.csv", "benefits-and-cost-sharing-puf.csv"];

/** The py2027 fixture with its rows repeated as 2026 rows: six plans in each year. */
function twoYearSource(): string {
  const src = copyFixtureSource();
  for (const name of PUFS) {
    const file = path.join(src, name);
    const text = readFileSync(file, "utf8").replace(/\r?\n$/, "");
    const [, ...rows] = text.split(/\r?\n/);
    const older = rows.filter((r) => /^2027,/.test(r)).map((r) => r.replace(/^2027,/, "2026,"));
    writeFileSync(file, [text, ...older].join("\n") + "\n");
  }
  return src;
}

async function refusal(src: string): Promise<string[]> {
  try {
    await buildPlanStore({ sourceDir: src, outPath: path.join(tempDir(), "plan-store.sqlite") });
  } catch (error) {
    if (error instanceof StoreRefusedError) return error.problems.map((p) => `${p.condition}: ${p.message}`);
    throw error;
  }
  return [];
}

describe("the gate's crosswalk condition", () => {
  it("refuses two years without a crosswalk file, naming the file", async () => {
    const problems = await refusal(twoYearSource());
    const why = "(no plan-id-crosswalk-puf.csv in the source)";
    expect(problems.filter((p) => p.startsWith("crosswalk:"))).toEqual([
      `crosswalk: 2026→2027 AK: 1 of 1 2026 plans have no crosswalk row ${why} (e.g. 45678AK0010001)`,
      `crosswalk: 2026→2027 NE: 1 of 1 2026 plans have no crosswalk row ${why} (e.g. 23456NE0010001)`,
      `crosswalk: 2026→2027 NY: 1 of 1 2026 plans have no crosswalk row ${why} (e.g. 34567NY0010001)`,
      `crosswalk: 2026→2027 TX: 2 of 2 2026 plans have no crosswalk row ${why} (e.g. 12345TX0010001, 12345TX0010002)`,
    ]);
  });

  it("passes with a row per 2026 plan and loads the rows", async () => {
    const src = twoYearSource();
    const written = await writeSameIdCrosswalk(src, 2026, 2027);
    const out = path.join(tempDir(), "plan-store.sqlite");
    const report = await buildPlanStore({ sourceDir: src, outPath: out });
    expect(report.complete).toBe(true);
    const db = new Database(out, { readonly: true });
    try {
      const n = (db.prepare("SELECT count(*) AS n FROM plan_crosswalk").get() as { n: number }).n;
      expect(n).toBe(written);
    } finally {
      db.close();
    }
  });

  it("refuses a crosswalk row whose target is not a 2027 plan", async () => {
    const src = twoYearSource();
    await writeSameIdCrosswalk(src, 2026, 2027);
    const file = path.join(src, "plan-id-crosswalk-puf.csv");
    const [header, first, ...rest] = readFileSync(file, "utf8").trim().split("\n");
    const fields = first.split(",");
    fields[11] = `${fields[11].slice(0, 10)}9999`;
    writeFileSync(file, [header, fields.join(","), ...rest].join("\n") + "\n");
    const problems = await refusal(src);
    expect(problems).toEqual([
      expect.stringMatching(
        /^crosswalk: 2026→2027 [A-Z]{2}: 1 crosswalk target plan is not 2027 plans \(e\.g\. \d{5}[A-Z]{2}\d{3}9999\)$/,
      ),
    ]);
  });
});
