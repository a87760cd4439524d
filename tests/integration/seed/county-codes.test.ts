/**
 * Retired and renamed county codes (seed/reference/county-code-changes.csv):
 * HUD rows with Alaska's 02261 (Valdez-Cordova, split 2019) and 02270 (Wade
 * Hampton, renamed Kusilvak 2015) go to their successors, each mapping
 * counted in the seed report; a service area naming a retired code covers
 * its successors.
 */
import Database from "better-sqlite3";
import { cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildPlanStore } from "../../../seed/build-store";
import { areaCounties, loadCountyChanges, remapZipCounties } from "../../../seed/county-codes";
import { REPO, edit, removeTempDirs, tempDir } from "./fixture-store";

afterAll(() => removeTempDirs());

const AK = path.join(REPO, "tests/fixtures/seed/real-2026-ak");
const AK_COUNTIES = path.join(REPO, "tests/fixtures/seed/layouts/national-county2020.ak.headerless.txt");

describe("the county-code table", () => {
  const changes = loadCountyChanges();
  it("lists Alaska's retired codes and Connecticut's 2022 planning regions", () => {
    expect(changes.get("02261")).toMatchObject({ successors: ["02063", "02066"], kind: "split" });
    expect(changes.get("02270")).toMatchObject({ successors: ["02158"], kind: "renamed" });
    expect(changes.get("09003")?.successors).toHaveLength(9);
    expect(changes.get("09003")?.kind).toBe("realigned");
  });

  it("splits a ZIP of a split county by the other rows that place it, and keeps one nothing places", () => {
    const remaps = remapZipCounties(
      changes,
      [
        { rowid: 1, source: "hud", zip: "99686", countyFips: "02261", share: 1 },
        { rowid: 2, source: "hud", zip: "99574", countyFips: "02261", share: 1 },
        { rowid: 3, source: "hud", zip: "99581", countyFips: "02270", share: 0.5 },
      ],
      [
        { rowid: 10, source: "census", zip: "99686", countyFips: "02063", share: 0.75 },
        { rowid: 11, source: "census", zip: "99686", countyFips: "02066", share: 0.25 },
      ],
    );
    expect(remaps).toEqual([
      {
        kind: "replace",
        rowid: 1,
        to: [
          { countyFips: "02063", share: 0.75 },
          { countyFips: "02066", share: 0.25 },
        ],
        remark: "county 02261 (retired 2019) mapped to 02063, 02066",
      },
      {
        kind: "keep",
        rowid: 2,
        remark: "county 02261 (retired 2019) kept: no other row places the ZIP in a successor",
      },
      {
        kind: "replace",
        rowid: 3,
        to: [{ countyFips: "02158", share: 0.5 }],
        remark: "county 02270 (retired 2015) mapped to 02158",
      },
    ]);
    // A successor the load's geography does not know (older or made-up files): the old code is kept.
    expect(
      remapZipCounties(
        changes,
        [{ rowid: 4, source: "hud", zip: "33101", countyFips: "12025", share: 1 }],
        [],
        () => false,
      ),
    ).toEqual([
      {
        kind: "keep",
        rowid: 4,
        remark:
          "county 12025 (retired 1997) kept: its successor is in neither the county list nor the crosswalks of this load",
      },
    ]);
    expect(areaCounties(changes, "02261", () => false).codes).toEqual(["02261"]);
    expect(areaCounties(changes, "02261").codes).toEqual(["02063", "02066"]);
    expect(areaCounties(changes, "09001").codes).toEqual(["09001"]);
    expect(areaCounties(changes, "02020")).toEqual({ codes: ["02020"] });
  });
});

describe("a load with retired county codes", () => {
  it("maps HUD's 02261 and 02270 rows to their successors and counts each mapping", async () => {
    const src = tempDir("seed-codes-");
    cpSync(AK, src, { recursive: true });
    cpSync(AK_COUNTIES, path.join(src, "national-county2020.txt"));
    writeFileSync(
      path.join(src, "zip-county-hud.csv"),
      "ZIP,COUNTY,USPS_ZIP_PREF_CITY,USPS_ZIP_PREF_STATE,RES_RATIO,BUS_RATIO,OTH_RATIO,TOT_RATIO\n" +
        "99501,02020,ANCHORAGE,AK,1,1,1,1\n" +
        "99686,02261,VALDEZ,AK,1,1,1,1\n" +
        "99573,02261,COPPER CENTER,AK,1,1,1,1\n" +
        "99581,02270,EMMONAK,AK,1,1,1,1\n",
    );
    writeFileSync(
      path.join(src, "zcta-county-census2020.txt"),
      "zcta,county_fips,county_name,land_share\n99686,02063,Chugach Census Area,1\n99573,02066,Copper River Census Area,1\n",
    );
    // A service-area row under the retired Valdez-Cordova code covers both successors.
    edit(path.join(src, "service-area-puf.csv"), (t) => t.replace(/(,AKS002,[^\n]*?,No,)02275,/, "$102261,"));

    const out = path.join(tempDir(), "plan-store.sqlite");
    const report = await buildPlanStore({ sourceDir: src, outPath: out, allowIncomplete: true });
    const hud = report.files.find((f) => f.file === "zip-county-hud.csv")!;
    expect(hud.notes).toEqual({
      "county 02261 (retired 2019) mapped to 02063": 1,
      "county 02261 (retired 2019) mapped to 02066": 1,
      "county 02270 (retired 2015) mapped to 02158": 1,
    });
    expect(report.files.find((f) => f.file === "service-area-puf.csv")!.notes).toEqual({
      "county 02261 (retired 2019) mapped to 02063, 02066": 1,
    });
    // Only the missing rates fail the gate: every county has a name.
    expect(report.problems.map((p) => p.condition)).toEqual(["rates"]);

    const db = new Database(out, { readonly: true });
    try {
      expect(db.prepare("SELECT zip, county_fips, share FROM zip_counties ORDER BY zip, rank").all()).toEqual([
        { zip: "99501", county_fips: "02020", share: 1 },
        { zip: "99573", county_fips: "02066", share: 1 },
        { zip: "99581", county_fips: "02158", share: 1 },
        { zip: "99686", county_fips: "02063", share: 1 },
      ]);
      expect(
        db.prepare("SELECT count(*) AS n FROM zip_counties WHERE county_fips IN ('02261', '02270')").get(),
      ).toEqual({
        n: 0,
      });
      const areas = db
        .prepare("SELECT DISTINCT county_fips FROM service_areas WHERE county_fips IN ('02261', '02063', '02066')")
        .all();
      expect(areas).toEqual(expect.arrayContaining([{ county_fips: "02063" }, { county_fips: "02066" }]));
      expect(areas).not.toContainEqual({ county_fips: "02261" });
    } finally {
      db.close();
    }
  });
});
