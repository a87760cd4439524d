/**
 * Every reader over real rows (seed/reference: legacy PUF rows, HUD and Census
 * excerpts, CMS GRA transcriptions, CMS example JSON files) and over the
 * PY2026-header fixtures (tests/fixtures/seed/py2027), malformed rows included.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { benefitsFormat } from "../../../seed/readers/benefits";
import {
  censusZctaCountyFormat,
  countiesFormat,
  hudZipCountyFormat,
  ratingAreaCountyFormat,
  ratingAreaZip3Format,
  statesFormat,
} from "../../../seed/readers/geography";
import { mrDrugsFormat, mrPlansFormat, mrProvidersFormat } from "../../../seed/readers/machine-readable";
import { networkFormat } from "../../../seed/readers/network";
import { planAttributesFormat } from "../../../seed/readers/plan-attributes";
import { qualityFormat } from "../../../seed/readers/quality";
import { rateFormat } from "../../../seed/readers/rate";
import { collectCsv, collectJson } from "../../../seed/readers/run";
import { serviceAreaFormat } from "../../../seed/readers/service-area";
import { SourceFormatError } from "../../../seed/readers/types";

const REPO = path.resolve(__dirname, "../../..");
const REF = path.join(REPO, "seed/reference");
const FIX = path.join(REPO, "tests/fixtures/seed/py2027");
const ref = (name: string) => path.join(REF, name);
const fix = (name: string) => path.join(FIX, name);
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dataLines = (file: string) => readFileSync(file, "utf8").trim().split(/\r?\n/).length - 1;

describe("Benefits and Cost Sharing reader", () => {
  it("reads the real PY2016 rows (legacy headers) with every money text parsed beside its raw value", async () => {
    const { rows, report } = await collectCsv(
      ref("puf-benefits-cost-sharing.py2016-legacy.sample.csv"),
      benefitsFormat,
      { year: 2016 },
    );
    expect(report.rowsRejected).toBe(0);
    expect(report.rowsRead).toBe(17);
    expect(rows).toHaveLength(17);
    const er = rows.find((r) => r.benefitName === "Emergency Room Services")!;
    expect(er).toMatchObject({
      planId: "77552OH0020001",
      variantId: "77552OH0020001-00",
      copayInnTier1: "$250 Copay after deductible",
      copayInnTier1Amount: 250,
      isCovered: true,
    });
    const generic = rows.find((r) => r.benefitName === "Generic Drugs")!;
    expect(generic).toMatchObject({
      copayInnTier1: "No Charge after deductible",
      copayInnTier1Amount: 0,
      coinsInnTier1: "30% Coinsurance after deductible",
      coinsInnTier1Rate: 0.3,
      coinsOutOfNetRate: 1,
    });
    expect(generic.exclusions).toMatch(/step therapy program/);
    const glasses = rows.find((r) => r.benefitName === "Eye Glasses for Children")!;
    expect(glasses).toMatchObject({ quantLimitOnSvc: true, limitQty: 1, limitUnit: "Item(s) per Year" });
    const notCovered = rows.find((r) => r.benefitName === "Major Dental Care - Adult")!;
    expect(notCovered).toMatchObject({ isCovered: false, copayInnTier1: null, copayInnTier1Amount: null });
    // A quoted benefit name with a comma survives.
    expect(rows.map((r) => r.benefitName)).toContain("Congenital Anomaly, including Cleft Lip/Palate");
    // CSR variants keep their 17-character ids.
    expect(
      rows
        .filter((r) => /-0[456]$/.test(r.variantId))
        .map((r) => r.variantId.slice(-2))
        .sort(),
    ).toEqual(["04", "04", "04", "05", "05", "06"]);
  });

  it("refuses a file with no row of the plan year asked for, naming the years found", async () => {
    await expect(
      collectCsv(ref("puf-benefits-cost-sharing.py2016-legacy.sample.csv"), benefitsFormat, { year: 2027 }),
    ).rejects.toThrow(/no rows of plan year 2027: its rows are of plan year 2016$/);
    const { rows, report } = await collectCsv(
      ref("puf-benefits-cost-sharing.py2016-legacy.sample.csv"),
      benefitsFormat,
      { year: 2016 },
    );
    expect(rows).toHaveLength(17);
    expect(report.skipReasons).toEqual({});
  });

  it("reads PY2026 headers and rejects malformed rows with a counted reason", async () => {
    const { rows, report } = await collectCsv(fix("benefits-and-cost-sharing-puf.csv"), benefitsFormat, { year: 2027 });
    // 12 plan variants × 50 benefits, plus 4 bad rows (quoted line breaks in Explanation are not rows).
    expect(report.rowsRead).toBe(12 * 50 + 4);
    expect(report.rejectReasons).toEqual({
      "malformed PlanId (expected 14-character standard component + -NN)": { count: 1, lines: [expect.any(Number)] },
      "missing BenefitName": { count: 1, lines: [expect.any(Number)] },
      "unknown IsCovered value": { count: 1, lines: [expect.any(Number)] },
    });
    const base = rows.filter((r) => r.variantId === "12345TX0010001-01");
    expect(base.length).toBeGreaterThan(40);
    expect(base.find((r) => r.benefitName === "Emergency Room Services")!.explanation).toBe(
      'Copay waived if admitted,\nsee "SBC" for details',
    );
  });
});

describe("Service Area reader", () => {
  it("reads the real PY2016 rows: statewide, whole and partial counties; skips SHOP and dental-only", async () => {
    const { rows, report } = await collectCsv(ref("puf-service-area.py2016-legacy.sample.csv"), serviceAreaFormat, {
      year: 2016,
    });
    expect(report.rowsRead).toBe(14);
    expect(report.rowsRejected).toBe(0);
    expect(report.skipReasons).toEqual({ "SHOP (small group) row": 1, "dental-only row": 1 });
    expect(rows.filter((r) => r.coverEntireState).map((r) => `${r.state}/${r.issuerId}`)).toEqual([
      "MI/15560",
      "AR/65817",
      "AZ/21463",
    ]);
    const macomb = rows.find((r) => r.countyFips === "26099")!;
    expect(macomb).toMatchObject({ issuerId: "71667", serviceAreaId: "MIS001", partialCounty: true });
    expect(macomb.zips).toHaveLength(32);
    expect(macomb.zips[0]).toBe("48015");
    expect(rows.find((r) => r.countyFips === "39155")).toMatchObject({ partialCounty: false, zips: [] });
    // A leading-zero FIPS kept as text.
    expect(rows.find((r) => r.countyFips === "04023")).toMatchObject({ state: "AZ", issuerId: "17454" });
  });

  it("matches lower-cased headers and rejects bad counties and ZIP lists", async () => {
    const { rows, report } = await collectCsv(fix("service-area-puf.csv"), serviceAreaFormat, { year: 2027 });
    expect(rows).toHaveLength(7);
    expect(report.rejectReasons).toEqual({
      "County FIPS is not in StateCode": { count: 1, lines: [11] },
      "partial county without ZipCodes": { count: 1, lines: [12] },
      "malformed ZIP in ZipCodes": { count: 1, lines: [13] },
    });
    expect(rows.find((r) => r.countyFips === "48121")!.zips).toEqual(["75007", "75010", "75019"]);
  });
});

describe("Network PUF reader", () => {
  it("reads the real PY2016 rows and skips the SHOP row", async () => {
    const { rows, report } = await collectCsv(ref("puf-network.py2016-legacy.sample.csv"), networkFormat, {
      year: 2016,
    });
    expect(report.rowsRead).toBe(10);
    expect(report.rowsRejected).toBe(0);
    expect(report.skipReasons).toEqual({ "SHOP (small group) row": 1 });
    expect(rows.find((r) => r.issuerId === "16204")).toEqual({
      planYear: 2016,
      issuerId: "16204",
      networkId: "OHN001",
      name: "InHealth Network",
      url: "http://inhealthohio.org/you-need-to-know/provider-network",
    });
  });
});

describe("Plan Attributes reader", () => {
  it("reads PY2026 headers (BOM, CRLF): plan, variant, CSR level, deductibles, MOOPs, SBC scenarios, URLs", async () => {
    const skipped: string[] = [];
    const { rows, report } = await collectCsv(fix("plan-attributes-puf.csv"), planAttributesFormat, {
      year: 2027,
      onSkippedPlan: (p) => skipped.push(`${p.planId}:${p.planClass}`),
    });
    expect(report.rowsRead).toBe(15);
    expect(report.skipReasons).toEqual({
      "SHOP (small group) plan": 1,
      "dental-only plan": 1,
    });
    expect(skipped).toEqual(["12345TX0020001:shop", "12345TX0030001:dental"]);
    expect(Object.keys(report.rejectReasons).sort()).toEqual([
      "malformed PlanId (expected 14-character standard component + -NN)",
      "missing MetalLevel",
    ]);
    const v94 = rows.find((r) => r.variantId === "12345TX0010001-06")!;
    expect(v94).toMatchObject({
      planId: "12345TX0010001",
      suffix: "06",
      csrLevel: 94,
      issuerName: "Lone Star Health",
      state: "TX",
    });
    expect(v94.variant).toMatchObject({
      csrVariationType: "94% AV Level Silver Plan",
      deductibleIndividual: 0,
      moopIndividual: 1000,
      moopFamily: 2000,
      issuerActuarialValue: 0.943,
    });
    const v73 = rows.find((r) => r.variantId === "12345TX0010001-04")!;
    expect(v73.csrLevel).toBe(73);
    expect(rows.find((r) => r.variantId === "12345TX0010001-05")!.csrLevel).toBe(87);
    const base = rows.find((r) => r.variantId === "12345TX0010001-01")!;
    expect(base.variant).toMatchObject({
      deductibleIndividualRaw: "$4,500",
      deductibleIndividual: 4500,
      deductibleFamilyRaw: "$9000 per group",
      deductibleFamily: 9000,
    });
    expect(base.costLimits).toContainEqual({
      kind: "moop",
      coverage: "total",
      networkTier: "in_network_tier1",
      familyCost: "family_per_person",
      raw: "$9200 per person",
      amount: 9200,
    });
    expect(base.costLimits).toContainEqual({
      kind: "coinsurance",
      coverage: "total",
      networkTier: "in_network_tier1",
      familyCost: null,
      raw: "30.00%",
      amount: 0.3,
    });
    // "Not Applicable" cells are not kept as limits.
    expect(base.costLimits.every((c) => !/not applicable/i.test(c.raw))).toBe(true);
    expect(base.sbcScenarios[0]).toEqual({
      scenario: "having_a_baby",
      deductibleRaw: "$4,500",
      deductible: 4500,
      copaymentRaw: "$20",
      copayment: 20,
      coinsuranceRaw: "$1,300",
      coinsurance: 1300,
      limitRaw: "$0",
      limit: 0,
    });
    // A bare host name gets a scheme.
    expect(base.urls.brochure).toBe("https://www.12345.example.com/brochure/12345TX0010001");
    // Separate medical and drug deductibles.
    const ne = rows.find((r) => r.planId === "23456NE0010001")!;
    expect(ne.variant).toMatchObject({
      deductiblesIntegrated: false,
      deductibleIndividual: 1200,
      deductibleFamily: 2400,
      drugDeductibleIndividual: 300,
    });
    expect(ne.plan.name).toBe("Plains Gold 1500 ℠");
  });

  it("refuses a file without the plan id columns", async () => {
    const dir = tempDir("seed-pa-");
    writeFileSync(path.join(dir, "x.csv"), "BusinessYear,StateCode\n2027,TX\n");
    await expect(collectCsv(path.join(dir, "x.csv"), planAttributesFormat, { year: 2027 })).rejects.toBeInstanceOf(
      SourceFormatError,
    );
  });
});

describe("Rate reader", () => {
  it("reads age bands, tobacco rates and Family Option rows; skips placeholder rates; rejects malformed rows", async () => {
    const { rows, report } = await collectCsv(fix("rate-puf.csv"), rateFormat, { year: 2027 });
    expect(report.skipReasons).toEqual({ "placeholder rate (9999 or more)": 3 });
    expect(report.rejectReasons).toEqual({
      "malformed Age": { count: 1, lines: [expect.any(Number)] },
      "malformed RatingAreaId": { count: 1, lines: [expect.any(Number)] },
      "malformed IndividualRate": { count: 1, lines: [expect.any(Number)] },
      "malformed PlanId": { count: 1, lines: [expect.any(Number)] },
      "unknown Tobacco value": { count: 1, lines: [expect.any(Number)] },
    });
    const silver = rows.filter((r) => r.planId === "12345TX0010001" && r.ratingArea === 7);
    expect(silver.map((r) => r.ageBand)).toEqual([
      "0-14",
      ...Array.from({ length: 49 }, (_, i) => String(15 + i)),
      "64 and over",
    ]);
    // Fixture: base 400.00 × federal factor 1.222 at 35 = 488.80; tobacco × 1.5 = 733.20.
    expect(silver.find((r) => r.ageBand === "35")).toMatchObject({
      individualRate: 488.8,
      tobaccoRate: 733.2,
      tobacco: "tobacco_user_non_tobacco_user",
    });
    expect(rows.find((r) => r.planId === "12345TX0010002" && r.ageBand === "21")).toMatchObject({
      tobacco: "no_preference",
      tobaccoRate: null,
      individualRate: 300,
    });
    const family = rows.find((r) => r.ageBand === "Family Option")!;
    expect(family).toMatchObject({
      planId: "34567NY0010001",
      ratingArea: 4,
      individualRate: 700,
      couple: 1400,
      primarySubscriberAndOneDependent: 1190,
      coupleAndThreeOrMoreDependents: 1995,
    });
    // The SHOP and dental rows are plain rows to the reader: the loader skips them by plan.
    expect(rows.some((r) => r.planId === "12345TX0020001")).toBe(true);
  });
});

describe("Quality reader", () => {
  it("reads star ratings and NR values", async () => {
    const { rows, report } = await collectCsv(fix("quality-puf.csv"), qualityFormat, { year: 2027 });
    expect(rows.find((r) => r.planId === "12345TX0010001")).toMatchObject({
      overall: 4,
      medicalCare: 3,
      memberExperience: 5,
      planAdministration: 4,
    });
    expect(rows.find((r) => r.planId === "12345TX0010002")).toMatchObject({
      overall: null,
      overallRaw: "NR - New-Ineligible for Scoring",
    });
    expect(rows.find((r) => r.planId === "23456NE0010001")).toMatchObject({
      overall: 3,
      planAdministration: null,
      planAdministrationRaw: "NR - Not Rated",
    });
    expect(report.rejectReasons).toEqual({ "malformed rating value (expected 1-5 or NR)": { count: 1, lines: [6] } });
  });
});

describe("ZIP → county readers", () => {
  it("reads the real HUD excerpt (multi-county and cross-state ZIPs)", async () => {
    const file = ref("zip-county.hud-usps-2025q2.excerpt.csv");
    const { rows, report } = await collectCsv(file, hudZipCountyFormat);
    expect(report.rowsRejected).toBe(0);
    expect(rows).toHaveLength(dataLines(file));
    expect(rows.filter((r) => r.zip === "42223").map((r) => [r.countyFips, r.state, r.share])).toEqual([
      ["47125", "TN", 0.682],
      ["21047", "KY", 0.318],
    ]);
    expect(rows.find((r) => r.zip === "99501")).toMatchObject({
      countyFips: "02020",
      state: "AK",
      countyName: "Anchorage Municipality",
    });
  });

  it("reads HUD 2020+ headers and rejects malformed rows", async () => {
    const { rows, report } = await collectCsv(fix("zip-county-hud.csv"), hudZipCountyFormat);
    expect(rows.find((r) => r.zip === "99501")!.countyFips).toBe("02020"); // leading zero restored
    expect(report.rejectReasons).toEqual({
      "malformed ZIP": { count: 1, lines: [16] },
      "malformed TOT_RATIO": { count: 1, lines: [17] },
    });
  });

  it("reads the real Census cross-state excerpt", async () => {
    const file = ref("zcta-county.census2020.multistate.excerpt.csv");
    const { rows, report } = await collectCsv(file, censusZctaCountyFormat);
    expect(report.rowsRejected).toBe(0);
    expect(rows).toHaveLength(dataLines(file));
    expect(rows.filter((r) => r.zip === "57638").map((r) => r.state)).toEqual(["SD", "ND", "ND", "ND", "SD"]);
  });

  it("reads the Census relationship file format (pipe, BOM) and computes the land share", async () => {
    const { rows, report } = await collectCsv(fix("zcta-county-census2020.txt"), censusZctaCountyFormat);
    expect(report.skipReasons).toEqual({ "county part outside any ZCTA": 1 });
    // 31013818 / 56247530 of ZCTA 42223's land is in Montgomery County TN.
    expect(rows.find((r) => r.zip === "42223" && r.countyFips === "47125")!.share).toBeCloseTo(31013818 / 56247530, 12);
    expect(rows.find((r) => r.zip === "69201" && r.countyFips === "46121")).toMatchObject({
      state: "SD",
      countyName: "Todd County",
    });
  });

  it("reads the Census county list", async () => {
    const { rows } = await collectCsv(fix("national-county2020.txt"), countiesFormat);
    expect(rows[0]).toEqual({ fips: "48113", name: "Dallas County", state: "TX" });
    expect(rows.find((r) => r.fips === "02020")).toEqual({
      fips: "02020",
      name: "Anchorage Municipality",
      state: "AK",
    });
  });
});

describe("rating-area readers", () => {
  it("reads the real county transcription (CMS GRA) without a reject", async () => {
    const file = ref("rating-area-by-county.excerpt.csv");
    const { rows, report } = await collectCsv(file, ratingAreaCountyFormat);
    expect(report.rowsRejected).toBe(0);
    expect(rows).toHaveLength(dataLines(file));
    expect(rows.find((r) => r.countyFips === "04013")).toEqual({
      state: "AZ",
      countyFips: "04013",
      countyName: "Maricopa",
      ratingArea: 4,
    });
  });

  it("reads the real ZIP3 transcription (AK, NE, …)", async () => {
    const { rows, report } = await collectCsv(ref("rating-area-by-zip3.cms-gra-2015.csv"), ratingAreaZip3Format);
    expect(report.rowsRejected).toBe(0);
    expect(rows.filter((r) => r.state === "AK").map((r) => `${r.zip3}:${r.ratingArea}`)).toEqual([
      "995:1",
      "996:2",
      "997:2",
      "998:3",
      "999:3",
    ]);
    expect(rows.find((r) => r.state === "MA" && r.zip3 === "010")!.ratingArea).toBe(1);
  });

  it("rejects counties outside their state and malformed areas", async () => {
    const { report } = await collectCsv(fix("rating-areas-by-county.csv"), ratingAreaCountyFormat);
    expect(report.rejectReasons).toEqual({
      "county_fips is not in state": { count: 1, lines: [11] },
      "malformed rating_area_id": { count: 1, lines: [12] },
    });
  });
});

describe("states.csv reader", () => {
  it("reads marketplace kinds per plan year and rejects unknown kinds", async () => {
    const { rows, report } = await collectCsv(fix("states.csv"), statesFormat);
    expect(rows.find((r) => r.code === "NY" && r.planYear === 2027)).toEqual({
      planYear: 2027,
      code: "NY",
      name: "New York",
      exchangeKind: "sbe",
      marketplaceName: "NY State of Health",
      marketplaceUrl: "https://nystateofhealth.ny.gov",
      ownedData: true,
    });
    expect(rows.find((r) => r.code === "AR")!.exchangeKind).toBe("sbe_federal_platform");
    expect(report.rejectReasons).toEqual({
      "unknown exchange_kind (expected healthcaregov, sbe_federal_platform, sbe)": { count: 1, lines: [18] },
    });
  });
});

describe("QHP machine-readable readers", () => {
  it("reads the CMS example drugs.json: one formulary row per drug × plan, flags as booleans", async () => {
    const { rows, report } = await collectJson(ref("qhp-mr-drugs.cms-example.json"), mrDrugsFormat, { year: 2020 });
    expect(report.rowsRejected).toBe(0);
    expect(rows).toEqual([
      {
        rxcui: "209459",
        drugName: "Acetaminophen 500 MG Oral Tablet [Tylenol]",
        planId: "12345XX9876543",
        drugTier: "GENERIC",
        priorAuth: false,
        stepTherapy: false,
        quantityLimit: false,
      },
      {
        rxcui: "209459",
        drugName: "Acetaminophen 500 MG Oral Tablet [Tylenol]",
        planId: "12345XX9876542",
        drugTier: "GENERIC",
        priorAuth: false,
        stepTherapy: false,
        quantityLimit: false,
      },
      {
        rxcui: "209459",
        drugName: "Acetaminophen 500 MG Oral Tablet [Tylenol]",
        planId: "12345XX9876541",
        drugTier: "GENERIC",
        priorAuth: false,
        stepTherapy: false,
        quantityLimit: false,
      },
      {
        rxcui: "248656",
        drugName: "Azithromycin 500 MG Oral Tablet [Zithromax]",
        planId: "12345XX9876543",
        drugTier: "GENERIC",
        priorAuth: false,
        stepTherapy: false,
        quantityLimit: true,
      },
      {
        rxcui: "248656",
        drugName: "Azithromycin 500 MG Oral Tablet [Zithromax]",
        planId: "12345XX9876542",
        drugTier: "GENERIC",
        priorAuth: false,
        stepTherapy: false,
        quantityLimit: false,
      },
    ]);
  });

  it("skips plan entries of other plan years", async () => {
    const { rows, report } = await collectJson(ref("qhp-mr-drugs.cms-example.json"), mrDrugsFormat, { year: 2027 });
    expect(rows).toHaveLength(0);
    expect(report.skipReasons).toEqual({ "other plan year": 5 });
  });

  it("reads the CMS example providers.json: one row per NPI × plan × tier", async () => {
    const { rows } = await collectJson(ref("qhp-mr-providers.cms-example.json"), mrProvidersFormat, { year: 2020 });
    expect(rows).toHaveLength(10);
    expect(
      rows.filter((r) => r.npi === "1234567893" && r.planId === "12345XX9876543").map((r) => r.networkTier),
    ).toEqual(["PREFERRED", "NON-PREFERRED"]);
    expect(rows.filter((r) => r.npi === "1234567891")).toEqual([
      { npi: "1234567891", planId: "12345XX9876543", networkTier: "PREFERRED" },
      { npi: "1234567891", planId: "12345XX9876543", networkTier: "NON-PREFERRED" },
    ]);
  });

  it("reads the CMS example plans.json (formulary as a list and as a single object)", async () => {
    const { rows } = await collectJson(ref("qhp-mr-plans.cms-example.json"), mrPlansFormat, { year: 2020 });
    expect(rows.map((r) => r.planId)).toEqual(["12345XX9876543", "12345XX9876542", "12345XX9876541"]);
    expect(rows[1]).toMatchObject({
      summaryUrl: "https://www.vandelay.co/plans/silver/summary",
      marketingName: "Vandelay Insurance Silver Health Plan",
    });
  });

  it("counts malformed entries and elements with a reason, and skips providers without an NPI", async () => {
    const { rows, report } = await collectJson(fix("mr/12345/providers.json"), mrProvidersFormat, { year: 2027 });
    expect(rows).toHaveLength(5);
    expect(report.skipReasons).toEqual({ "provider without NPI": 1 });
    expect(report.rejectReasons).toEqual({
      "malformed npi (expected 10 digits)": { count: 1, lines: [4] },
      "malformed JSON element": { count: 1, lines: [5] },
    });
    // A numeric NPI is read as text.
    expect(rows.find((r) => r.npi === "1234567891")).toEqual({
      npi: "1234567891",
      planId: "12345TX0010001",
      networkTier: "PREFERRED",
    });
  });

  it("records a file that is not a JSON array as one rejected row instead of failing", async () => {
    const dir = tempDir("seed-mr-");
    copyFileSync(ref("qhp-mr-cms-data-index.cms-example.json"), path.join(dir, "drugs.json"));
    const { rows, report } = await collectJson(path.join(dir, "drugs.json"), mrDrugsFormat, { year: 2020 });
    expect(rows).toHaveLength(0);
    expect(report.rejectReasons).toEqual({ "unreadable file: not a JSON array": { count: 1, lines: [0] } });
  });
});
