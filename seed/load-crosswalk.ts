/**
 * Loads the Plan ID Crosswalk PUFs of a source layout into `plan_crosswalk`
 * (decision 340). A row is kept when its previous-year plan's year is one of
 * the years loaded; rows of other years are skipped and counted. Rows with a
 * target plan keep it even when the next year is not loaded: the renewal
 * answer then says the next year's plans are not on file.
 */
import type Database from "better-sqlite3";
import { planCrosswalk } from "../db/plan-store-crosswalk";
import { crosswalkFormat } from "./readers/crosswalk";
import { runCsv, type FileReport, type RunOptions } from "./readers/run";
import { inserter } from "./load";

export async function loadCrosswalks(
  db: Database.Database,
  files: string[],
  years: number[],
  options: (file: string) => RunOptions,
): Promise<FileReport[]> {
  const insert = inserter(db, planCrosswalk);
  const loaded = new Set(years);
  const reports: FileReport[] = [];
  for (const file of files) {
    const seen = new Set<string>();
    reports.push(
      await runCsv(file, crosswalkFormat, options(file), (r) => {
        if (!loaded.has(r.fromYear)) return { skip: `plan year ${r.fromYear} not loaded` };
        // The file repeats a plan × county × ZIP once per row; keep the first.
        const key = `${r.fromYear}|${r.fromPlanId}|${r.countyFips}|${r.zip ?? ""}`;
        if (seen.has(key)) return { skip: "duplicate plan × county × ZIP row" };
        seen.add(key);
        insert(r);
      }),
    );
  }
  return reports;
}
