/**
 * Source files in the layouts their publishers use: the Census county list
 * with and without its header line, HUD crosswalks with and without the
 * USPS_ZIP_PREF columns and with a byte-order mark, zipped PUFs, Network PUF
 * rows whose URL is not one address, and merged files with both DentalOnlyPlan
 * and DentalOnly columns.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countiesFormat, hudZipCountyFormat } from "../../../seed/readers/geography";
import { networkFormat } from "../../../seed/readers/network";
import { planAttributesFormat } from "../../../seed/readers/plan-attributes";
import { collectCsv } from "../../../seed/readers/run";
import { serviceAreaFormat } from "../../../seed/readers/service-area";
import { SourceFormatError } from "../../../seed/readers/types";

const REPO = path.resolve(__dirname, "../../..");
const LAYOUTS = path.join(REPO, "tests/fixtures/seed/layouts");
const AK = path.join(REPO, "tests/fixtures/seed/real-2026-ak");
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function file(name: string, content: string | Buffer): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "seed-layouts-"));
  dirs.push(dir);
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe("Census county list", () => {
  it("reads the list without its header line (2020 pipe file): the first line is a county too", async () => {
    const { rows, report } = await collectCsv(
      path.join(LAYOUTS, "national-county2020.ak.headerless.txt"),
      countiesFormat,
    );
    expect(report.rowsRead).toBe(30);
    expect(report.rowsRejected).toBe(0);
    expect(rows[0]).toEqual({ fips: "02013", name: "Aleutians East Borough", state: "AK" });
    expect(rows.find((r) => r.fips === "02158")?.name).toBe("Kusilvak Census Area");
  });

  it("reads the 2010 comma-separated list without header, and the list with its header", async () => {
    const headerless = file(
      "national_county.txt",
      "AL,01,001,Autauga County,H1\r\nAK,02,270,Wade Hampton Census Area,H5\r\n",
    );
    const { rows } = await collectCsv(headerless, countiesFormat);
    expect(rows).toEqual([
      { fips: "01001", name: "Autauga County", state: "AL" },
      { fips: "02270", name: "Wade Hampton Census Area", state: "AK" },
    ]);
    const withHeader = file(
      "national_county2020.txt",
      "STATE|STATEFP|COUNTYFP|COUNTYNS|COUNTYNAME|CLASSFP|FUNCSTAT\nAL|01|001|00161526|Autauga County|H1|A\n",
    );
    expect((await collectCsv(withHeader, countiesFormat)).rows).toEqual([
      { fips: "01001", name: "Autauga County", state: "AL" },
    ]);
  });

  it("still refuses a file that is neither", async () => {
    await expect(collectCsv(file("x.txt", "a|b|c\n1|2|3\n"), countiesFormat)).rejects.toBeInstanceOf(SourceFormatError);
  });
});

describe("HUD ZIP–county crosswalk", () => {
  const expected = [
    { source: "hud", zip: "99501", countyFips: "02020", state: "AK", countyName: null, share: 1 },
    { source: "hud", zip: "99686", countyFips: "02261", state: "AK", countyName: null, share: 0.97 },
  ];
  it("reads the file with the USPS_ZIP_PREF columns and a byte-order mark", async () => {
    const hud = file(
      "zip-county-hud.csv",
      "\uFEFFZIP,COUNTY,USPS_ZIP_PREF_CITY,USPS_ZIP_PREF_STATE,RES_RATIO,BUS_RATIO,OTH_RATIO,TOT_RATIO\r\n" +
        "99501,02020,ANCHORAGE,AK,1,1,1,1\r\n99686,2261,VALDEZ,AK,0.96,0.98,1,0.97\r\n",
    );
    const { rows, report } = await collectCsv(hud, hudZipCountyFormat);
    expect(report.rowsRejected).toBe(0);
    expect(rows).toEqual(expected);
  });

  it("reads the file without the USPS_ZIP_PREF columns (pre-2020 layout), lower-case headers too", async () => {
    const old = file(
      "zip-county-hud.csv",
      "ZIP,COUNTY,RES_RATIO,BUS_RATIO,OTH_RATIO,TOT_RATIO\n99501,02020,1,1,1,1\n99686,02261,0.96,0.98,1,0.97\n",
    );
    expect((await collectCsv(old, hudZipCountyFormat)).rows).toEqual(expected);
    const lower = file(
      "zip-county-hud.csv",
      "\uFEFFzip,county,res_ratio,bus_ratio,oth_ratio,tot_ratio\n99501,02020,1,1,1,1\n99686,02261,0.96,0.98,1,0.97\n",
    );
    expect((await collectCsv(lower, hudZipCountyFormat)).rows).toEqual(expected);
  });
});

describe("zipped PUFs", () => {
  it("reads a PUF straight from its .zip, the data entry beside a smaller text file, like the plain file", async () => {
    const zipped = await collectCsv(path.join(LAYOUTS, "real-2026-ak-zipped/service-area-puf.zip"), serviceAreaFormat, {
      year: 2026,
    });
    const plain = await collectCsv(path.join(AK, "service-area-puf.csv"), serviceAreaFormat, { year: 2026 });
    expect(zipped.rows).toEqual(plain.rows);
    expect(zipped.report.rowsRead).toBe(43);
    expect(zipped.report.checksum).toBe(plain.report.checksum); // of the content, not of the archive
    const pa = await collectCsv(
      path.join(LAYOUTS, "real-2026-ak-zipped/plan-attributes-puf.zip"),
      planAttributesFormat,
      {
        year: 2026,
      },
    );
    expect(pa.rows).toHaveLength(64);
  });

  it("refuses an archive without a CSV or text file", async () => {
    // An empty zip archive: just the end-of-central-directory record.
    const empty = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);
    await expect(collectCsv(file("rate-puf.zip", empty), serviceAreaFormat)).rejects.toThrow(/no \.csv or \.txt file/);
  });
});

describe("Network PUF rows whose NetworkURL is not one address", () => {
  it("keeps the network's id and name, records the URL as missing and counts the row", async () => {
    const net = file(
      "network-puf.csv",
      "BusinessYear,StateCode,IssuerId,NetworkName,NetworkId,NetworkURL,MarketCoverage,DentalOnlyPlan\n" +
        "2026,AK,38344,Premera Heritage,AKN001,Indemnity,Individual,No\n" +
        '2026,AK,38344,Premera Choice,AKN002,"https://a.example.com/find; https://b.example.com/find",Individual,No\n' +
        "2026,AK,38344,Premera Plus,AKN003,https://premera.example.com/find,Individual,No\n",
    );
    const { rows, report } = await collectCsv(net, networkFormat, { year: 2026 });
    expect(rows.map((r) => [r.networkId, r.name, r.url])).toEqual([
      ["AKN001", "Premera Heritage", null],
      ["AKN002", "Premera Choice", null],
      ["AKN003", "Premera Plus", "https://premera.example.com/find"],
    ]);
    expect(report.rowsLoaded).toBe(3);
    expect(report.rowsRejected).toBe(0);
    expect(report.notes).toEqual({ "NetworkURL not a single http(s) address (recorded as missing)": 2 });
  });
});

describe("merged files with both DentalOnlyPlan and DentalOnly", () => {
  it("reads whichever of the two is filled on each row", async () => {
    const sa = file(
      "service-area-puf.csv",
      "BusinessYear,StateCode,IssuerId,ServiceAreaId,ServiceAreaName,CoverEntireState,County,PartialCounty,ZipCodes,MarketCoverage,DentalOnlyPlan,DentalOnly\n" +
        // PY2016 row of a merged file: DentalOnlyPlan empty, DentalOnly says Yes.
        "2016,AK,21989,AKS001,Dental,Yes,,,,Individual,,Yes\n" +
        // The other way round.
        "2016,AK,21989,AKS002,Dental 2,Yes,,,,Individual,Yes,\n" +
        "2016,AK,38344,AKS003,Medical,Yes,,,,Individual,No,\n" +
        "2016,AK,38345,AKS004,Medical 2,Yes,,,,Individual,,No\n",
    );
    const { rows, report } = await collectCsv(sa, serviceAreaFormat, { year: 2016 });
    expect(rows.map((r) => r.serviceAreaId)).toEqual(["AKS003", "AKS004"]);
    expect(report.skipReasons).toEqual({ "dental-only row": 2 });
  });
});
