/**
 * The Plan ID Crosswalk reader over the 12 real PY2015→PY2016 rows in
 * seed/reference (two per CrosswalkLevel 0–5) and over a PY2026-layout
 * header (24 columns, with the bronze-to-silver columns).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { crosswalkFormat } from "../../../seed/readers/crosswalk";
import { collectCsv } from "../../../seed/readers/run";
import { SourceFormatError } from "../../../seed/readers/types";

const REPO = path.resolve(__dirname, "../../..");
const REAL = path.join(REPO, "seed/reference/puf-plan-id-crosswalk.py2015-to-2016-legacy.sample.csv");
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function temp(name: string, text: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "xw-"));
  dirs.push(dir);
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe("Plan ID Crosswalk reader", () => {
  it("reads the real PY2015→PY2016 rows: years from the header, dental rows skipped, no-plan ids as null", async () => {
    const { rows, report } = await collectCsv(REAL, crosswalkFormat);
    expect(report.rowsRead).toBe(12);
    // The two stand-alone dental rows (TX, DentalPlan = Y) and VA 97927VA0010003 (Y) are skipped.
    expect(report.rowsSkipped).toBe(3);
    expect(report.skipReasons).toEqual({ "dental plan row": 3 });
    expect(report.rowsRejected).toBe(0);
    expect(rows).toHaveLength(9);
    expect(new Set(rows.map((r) => `${r.fromYear}->${r.toYear}`))).toEqual(new Set(["2015->2016"]));

    const byId = new Map(rows.map((r) => [r.fromPlanId, r]));
    // Level 1, reason 2: NE 15438NE0180011 → 15438NE0180002, same issuer, silver, whole county 31151.
    expect(byId.get("15438NE0180011")).toMatchObject({
      state: "NE",
      fromIssuerId: "15438",
      fromMultistate: false,
      fromMetal: "Silver",
      fromChildAdultOnly: 0,
      countyFips: "31151",
      zip: null,
      level: 1,
      reason: 2,
      toPlanId: "15438NE0180002",
      toIssuerId: "15438",
      toMetal: "Silver",
      ageOffPlanId: null,
      ageOffIssuerId: null,
      silverCsrPlanId: null,
    });
    // Level 1, reason 6: MS product 003 → product 004.
    expect(byId.get("97560MS0030008")).toMatchObject({ level: 1, reason: 6, toPlanId: "97560MS0040005" });
    // Level 2, reason 4: TN county row with no target plan (00000XX0000000, X columns).
    expect(byId.get("66842TN0050023")).toMatchObject({
      level: 2,
      reason: 4,
      toPlanId: null,
      toIssuerId: null,
      toMetal: null,
      toMultistate: null,
    });
    // Level 3: ZIP-level rows of MI (whole county 00000 in this sample).
    expect(byId.get("29698MI0570001")).toMatchObject({ level: 3, reason: 2, toPlanId: "29698MI0570021" });
    // Levels 4 and 5: no re-enrolment target.
    for (const id of ["71268IA0050004", "75605NM0330002", "67202LA0010005"])
      expect(byId.get(id)).toMatchObject({ toPlanId: null, reason: 5 });
    expect(byId.get("67202LA0010005")).toMatchObject({ level: 5, fromMetal: "Catastrophic" });
  });

  it("reads the PY2026 layout (24 columns) with the CSR-eligible silver plan and a ZIP", async () => {
    const header =
      "State,DentalPlan,PlanID_2026,IssuerID_2026,MultistatePlan_2026,MetalLevel_2026,ChildAdultOnly_2026,FIPSCode,ZipCode,CrosswalkLevel,ReasonForCrosswalk,PlanID_2027,IssuerID_2027,MultistatePlan_2027,MetalLevel_2027,ChildAdultOnly_2027,AgeOffPlanID_2027,IssuerID_AgeOff2027,MultistatePlan_AgeOff2027,MetalLevel_AgeOff2027,ChildAdultOnly_AgeOff2027,ReasonForBronzeToSilverCrosswalk,SilverCSREligPlanID_2027,SilverCSREligIssuerID_2027";
    const file = temp(
      "plan-id-crosswalk-puf.csv",
      `${header}\nTX,N,10101TX0010001,10101,N,Bronze,0,48453,78701,3,2,10101TX0010009,10101,N,Bronze,0,00000XX0000000,0,X,X,X,1,10101TX0020004,10101\n` +
        `TX,N,10101TX001000A,10101,N,Bronze,0,48453,00000,1,2,10101TX0010009,10101,N,Bronze,0,00000XX0000000,0,X,X,X,,,\n`,
    );
    const { rows, report } = await collectCsv(file, crosswalkFormat);
    expect(rows).toEqual([
      expect.objectContaining({
        fromYear: 2026,
        toYear: 2027,
        zip: "78701",
        level: 3,
        toPlanId: "10101TX0010009",
        bronzeToSilverReason: 1,
        silverCsrPlanId: "10101TX0020004",
        silverCsrIssuerId: "10101",
      }),
    ]);
    expect(report.rejectReasons["malformed PlanID_2026"]?.count).toBe(1);
  });

  it("refuses a file without two consecutive PlanID_<year> columns", async () => {
    const file = temp(
      "x.csv",
      "State,FIPSCode,CrosswalkLevel,ReasonForCrosswalk,PlanID_2026\nTX,48453,0,0,10101TX0010001\n",
    );
    await expect(collectCsv(file, crosswalkFormat)).rejects.toBeInstanceOf(SourceFormatError);
  });
});
