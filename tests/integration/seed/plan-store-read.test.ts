/**
 * The read module (app/server/plan-store/plan-store.server.ts) over a store built from the
 * fixture source directory. Expected premiums are worked out from the fixture
 * generator's inputs (tests/fixtures/seed/make-fixtures.ts): a base age-21
 * rate per plan and area times the federal default age factor
 * (puf-formats.md §9.1), tobacco rate = 1.5 × the non-tobacco rate.
 */
import Database from "better-sqlite3";
import { copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PlanStoreUnavailableError,
  openPlanStore,
  planStore,
  resetPlanStoreForTests,
  type PlanStore,
} from "../../../app/server/plan-store/plan-store.server";
import { resetEnvForTests } from "../../../app/server/platform/env.server";
import { buildPlanStore } from "../../../seed/build-store";
import { FIXTURE_SOURCE, tempDir, removeTempDirs } from "./fixture-store";

let storePath: string;
let store: PlanStore;

beforeAll(async () => {
  storePath = path.join(tempDir(), "plan-store.sqlite");
  await buildPlanStore({ sourceDir: FIXTURE_SOURCE, outPath: storePath });
  store = openPlanStore(storePath);
});

afterAll(() => store.close());
afterAll(() => removeTempDirs());

const SILVER = "12345TX0010001";
const BRONZE = "12345TX0010002";
const OFF_EXCHANGE_GOLD = "12345TX0010003";
const NE_GOLD = "23456NE0010001";
const NY_SILVER = "34567NY0010001";
const AK_BRONZE = "45678AK0010001";

describe("store facts", () => {
  it("reports years, versions and the sample flag", () => {
    expect(store.yearsWithData()).toEqual([2027]);
    expect(store.isSample()).toBe(false);
    const versions = store.dataVersions();
    expect(versions).toHaveLength(15);
    expect(versions.find((v) => v.sourceFile === "rate-puf.csv")!.skipReasons["placeholder rate (9999 or more)"]).toBe(
      3,
    );
    expect(versions.find((v) => v.sourceFile === "states.csv")!.rejectReasons).toEqual({
      "unknown exchange_kind (expected healthcaregov, sbe_federal_platform, sbe)": { count: 1, lines: [18] },
    });
  });

  it("answers a state's marketplace per plan year, falling back to the nearest year on file", () => {
    expect(store.state("tx", 2027)).toEqual({
      code: "TX",
      name: "Texas",
      exchangeKind: "healthcaregov",
      ownedData: true,
      planYear: 2027,
    });
    expect(store.state("NY", 2027)).toEqual({
      code: "NY",
      name: "New York",
      exchangeKind: "sbe",
      marketplaceName: "NY State of Health",
      marketplaceUrl: "https://nystateofhealth.ny.gov",
      ownedData: true,
      planYear: 2027,
    });
    expect(store.state("AR", 2027)!.exchangeKind).toBe("sbe_federal_platform");
    expect(store.state("IL", 2025)!.exchangeKind).toBe("healthcaregov");
    expect(store.state("IL", 2026)!.exchangeKind).toBe("sbe");
    expect(store.state("IL", 2027)).toMatchObject({ exchangeKind: "sbe", planYear: 2026 });
    expect(store.state("IL", 2024)).toMatchObject({ exchangeKind: "healthcaregov", planYear: 2025 });
    expect(store.state("ZZ", 2027)).toBeUndefined();
  });
});

describe("ZIP → county", () => {
  it("returns every county of a multi-county ZIP, largest share first", () => {
    expect(store.countiesForZip("75007")).toEqual([
      { zip: "75007", countyFips: "48121", countyName: "Denton County", state: "TX", share: 0.8978 },
      { zip: "75007", countyFips: "48113", countyName: "Dallas County", state: "TX", share: 0.0764 },
      { zip: "75007", countyFips: "48085", countyName: "Collin County", state: "TX", share: 0.0259 },
    ]);
  });

  it("merges HUD and Census: a county only Census knows is added with its land share", () => {
    // HUD: 69201 → Cherry County NE 1.0; Census adds Todd County SD, 702183487 / 4158597101 of the land.
    const m = store.countiesForZip("69201");
    expect(m.map((c) => [c.countyFips, c.state])).toEqual([
      ["31031", "NE"],
      ["46121", "SD"],
    ]);
    expect(m[0].share).toBe(1);
    expect(m[1].share).toBeCloseTo(702183487 / 4158597101, 12);
  });

  it("keeps cross-state ZIPs and accepts ZIP+4", () => {
    expect(store.countiesForZip("42223-1234").map((c) => `${c.state}:${c.countyName}:${c.share}`)).toEqual([
      "TN:Montgomery County:0.682",
      "KY:Christian County:0.318",
    ]);
    expect(store.countiesForZip("00000")).toEqual([]);
    expect(store.countiesForZip("not a zip")).toEqual([]);
  });
});

describe("rating areas", () => {
  it("uses the county rule, and the ZIP3 rule for states that define areas by ZIP (AK, NE)", () => {
    expect(store.ratingAreaFor({ year: 2027, state: "TX", countyFips: "48121", zip: "75007" })).toBe("Rating Area 7");
    expect(store.ratingAreaFor({ year: 2027, state: "TX", countyFips: "48201", zip: "77494" })).toBe("Rating Area 10");
    expect(store.ratingAreaFor({ year: 2027, state: "AK", countyFips: "02020", zip: "99501" })).toBe("Rating Area 1");
    expect(store.ratingAreaFor({ year: 2027, state: "NE", countyFips: "31031", zip: "69201" })).toBe("Rating Area 4");
    expect(store.ratingAreaFor({ year: 2027, state: "NE", countyFips: "31055", zip: "68102" })).toBe("Rating Area 1");
    expect(store.ratingAreaFor({ year: 2027, state: "NE", countyFips: "31055", zip: "68999" })).toBeUndefined();
    expect(store.ratingAreaFor({ year: 2026, state: "TX", countyFips: "48121" })).toBeUndefined();
  });
});

describe("plans offered at a place", () => {
  it("lists on-exchange individual medical plans whose service area covers the county", () => {
    const plans = store.plansOffered({ year: 2027, state: "TX", countyFips: "48113", zip: "75201" });
    // Not the off-exchange gold plan, nor the SHOP or dental plans (never loaded).
    expect(plans.map((p) => p.id)).toEqual([SILVER, BRONZE]);
    const silver = plans[0];
    expect(silver).toMatchObject({
      id: SILVER,
      year: 2027,
      name: "Lone Star Silver 4500",
      state: "TX",
      issuer: { id: "12345", name: "Lone Star Health" },
      metalLevel: "Silver",
      type: "HMO",
      hsaEligible: false,
      ehbShare: 0.9985,
      variantId: `${SILVER}-01`,
      deductible: { individual: 4500, family: 9000, individualDisplay: "$4,500" },
      moop: { individual: 9200, family: 18400 },
      qualityRating: 4,
      csrVariantIds: { "73": `${SILVER}-04`, "87": `${SILVER}-05`, "94": `${SILVER}-06` },
    });
    expect(silver.csrVariants["87"]).toMatchObject({ deductible: { individual: 800 }, moop: { individual: 3050 } });
    expect(silver.urls).toEqual({
      summaryOfBenefits: `https://12345.example.com/sbc/${SILVER}-01.pdf`,
      formulary: "https://12345.example.com/formulary",
      providerDirectory: "https://12345.example.com/find-a-doctor",
      brochure: `https://www.12345.example.com/brochure/${SILVER}`,
      enrollment: "https://12345.example.com/pay",
    });
    expect(silver.keyBenefits.primaryCare!.copay).toMatchObject({ value: 40, display: "$40" });
    expect(silver.keyBenefits.emergencyRoom!.coinsurance).toMatchObject({ value: 0.3, afterDeductible: true });
    expect(plans[1]).toMatchObject({ hsaEligible: true, qualityRating: null, csrVariantIds: {} });
  });

  it("honours partial-county ZIP lists", () => {
    expect(store.plansOffered({ year: 2027, state: "TX", countyFips: "48121", zip: "75007" }).map((p) => p.id)).toEqual(
      [SILVER, BRONZE],
    );
    expect(store.plansOffered({ year: 2027, state: "TX", countyFips: "48121", zip: "76201" })).toEqual([]);
    expect(store.isPlanOfferedIn({ planId: SILVER, year: 2027, state: "TX", countyFips: "48121", zip: "75010" })).toBe(
      true,
    );
    expect(store.isPlanOfferedIn({ planId: SILVER, year: 2027, state: "TX", countyFips: "48121", zip: "76201" })).toBe(
      false,
    );
  });

  it("covers whole states, and answers nothing for another year, state or county", () => {
    expect(store.plansOffered({ year: 2027, state: "NE", countyFips: "31031", zip: "69201" }).map((p) => p.id)).toEqual(
      [NE_GOLD],
    );
    expect(store.plansOffered({ year: 2027, state: "AK", countyFips: "02020", zip: "99501" }).map((p) => p.id)).toEqual(
      [AK_BRONZE],
    );
    expect(store.plansOffered({ year: 2026, state: "TX", countyFips: "48113", zip: "75201" })).toEqual([]);
    expect(store.plansOffered({ year: 2027, state: "TX", countyFips: "48157", zip: "77494" })).toEqual([]);
    expect(store.isPlanOfferedIn({ planId: OFF_EXCHANGE_GOLD, year: 2027, state: "TX", countyFips: "48113" })).toBe(
      false,
    );
    expect(store.isPlanOfferedIn({ planId: `${SILVER}-06`, year: 2027, state: "TX", countyFips: "48113" })).toBe(true);
    expect(store.isPlanOfferedIn({ planId: SILVER, year: 2027, state: "NE", countyFips: "31031" })).toBe(false);
  });
});

describe("plan detail", () => {
  it("has premiums per rating area and age curves per area", () => {
    const plan = store.planById(SILVER, 2027, { ratingArea: "Rating Area 10" })!;
    // Age 21 factor 1.000: area 7 base 400.00, area 10 base 440.00.
    expect(plan.premiumsByRatingArea).toEqual({ "Rating Area 7": 400, "Rating Area 10": 440 });
    expect(plan.premium).toBe(440);
    expect(store.planById(SILVER, 2027)!.premium).toBe(400); // no area given: the lowest
    // Age 35: 400.00 × 1.222 = 488.80; tobacco 488.80 × 1.5 = 733.20. Area 10: 440 × 1.222 = 537.68, × 1.5 = 806.52.
    expect(plan.ageRatesByArea["Rating Area 7"]["35"]).toEqual({ individual: 488.8, tobacco: 733.2 });
    expect(plan.ageRatesByArea["Rating Area 10"]["35"]).toEqual({ individual: 537.68, tobacco: 806.52 });
    // Children 0-14: 400 × 0.765 = 306.00; 64 and over: 400 × 3.000 = 1200.00.
    expect(plan.ageRatesByArea["Rating Area 7"]["0-14"]).toEqual({ individual: 306, tobacco: 459 });
    expect(plan.ageRatesByArea["Rating Area 7"]["64 and over"]).toEqual({ individual: 1200, tobacco: 1800 });
    expect(Object.keys(plan.ageRatesByArea["Rating Area 7"])).toHaveLength(51);
  });

  it("has the CSR variants 94, 87 and 73 with their own deductibles, MOOPs and cost-shares", () => {
    const plan = store.planById(SILVER, 2027)!;
    expect(Object.keys(plan.puf.csrVariants).sort()).toEqual(["73", "87", "94"]);
    const v94 = plan.puf.csrVariants["94"]!;
    expect(v94).toMatchObject({
      variantId: `${SILVER}-06`,
      csrLevel: "94",
      csrVariationType: "94% AV Level Silver Plan",
      actuarialValue: 0.943,
    });
    expect(v94.deductible).toEqual({
      individual: 0,
      family: 0,
      individualDisplay: "$0",
      familyDisplay: "$0 per group",
    });
    expect(v94.moop.individual).toBe(1000);
    expect(plan.puf.csrVariants["87"]!.deductible.individual).toBe(800);
    expect(plan.puf.csrVariants["73"]!.moop.individual).toBe(7350);
    // Fixture cost-shares: primary care $40 base, × 0.2 for the 94% variant = $8; generic drugs free at 94%.
    const pc = (v: { benefitDetails: Array<{ name: string; inNetwork: { copay: { value: number | null } } }> }) =>
      v.benefitDetails.find((b) => b.name === "Primary Care Visit to Treat an Injury or Illness")!.inNetwork.copay
        .value;
    expect(pc(plan.puf)).toBe(40);
    expect(pc(v94)).toBe(8);
    expect(v94.benefitDetails.find((b) => b.name === "Generic Drugs")!.inNetwork.copay).toMatchObject({
      display: "No Charge",
      value: 0,
      noCharge: true,
    });
    expect(v94.sbcScenarios.havingABaby!.deductible).toBe(0);
    expect(v94.deductibles).toContainEqual({
      coverage: "total",
      networkTier: "in_network_tier1",
      familyCost: "individual",
      amount: 0,
      display: "$0",
    });
  });

  it("has more than 40 benefits, SBC scenarios, quality rating, URLs, copays and coinsurance", () => {
    const plan = store.planById(SILVER, 2027)!;
    expect(plan.puf.benefitDetails.length).toBeGreaterThan(40);
    const er = plan.puf.benefitDetails.find((b) => b.name === "Emergency Room Services")!;
    expect(er).toMatchObject({
      covered: true,
      isEhb: true,
      inNetwork: { coinsurance: { display: "30.00% Coinsurance after deductible", value: 0.3, afterDeductible: true } },
      outOfNetwork: { coinsurance: { display: "100%", value: 1 } },
      explanation: 'Copay waived if admitted,\nsee "SBC" for details',
      excludedFromOutOfNetworkMoop: true,
    });
    expect(plan.puf.benefitDetails.find((b) => b.name === "Chiropractic Care")!.limit).toEqual({
      quantity: 20,
      unit: "Visit(s) per Year",
    });
    expect(plan.puf.benefitDetails.find((b) => b.name === "Bariatric Surgery")!.covered).toBe(false);
    // Baby: deductible 4,500 + copay 20 + coinsurance 1,300 + limit 0 = 5,820.
    expect(plan.puf.sbcScenarios.havingABaby).toEqual({
      deductible: 4500,
      copayment: 20,
      coinsurance: 1300,
      limit: 0,
      total: 5820,
    });
    // Diabetes: 2,250 + 500 + 100 + 20 = 2,870. Fracture: 1,500 + 300 + 50 + 0 = 1,850.
    expect(plan.puf.sbcScenarios.managingDiabetes!.total).toBe(2870);
    expect(plan.puf.sbcScenarios.simpleFracture!.total).toBe(1850);
    expect(plan.puf.qualityRating).toEqual({
      overall: 4,
      medicalCare: 3,
      memberExperience: 5,
      planAdministration: 4,
      notRatedReason: null,
    });
    expect(plan.puf.urls.providerDirectory).toBe("https://12345.example.com/find-a-doctor");
    expect(plan.copays["Specialist Visit"]).toBe(80);
    expect(plan.coinsurance["Emergency Room Services"]).toBe(0.3);
    expect("Bariatric Surgery" in plan.copays).toBe(false);
    expect(plan.deductible).toMatchObject({ individual: 4500, family: 9000 });
    expect(plan.moops.map((m) => m.familyCost)).toEqual(["individual", "family_per_person", "family_per_group"]);
    expect(plan.puf.variantIds).toEqual([
      `${SILVER}-00`,
      `${SILVER}-01`,
      `${SILVER}-04`,
      `${SILVER}-05`,
      `${SILVER}-06`,
    ]);
  });

  it("shows separate medical and drug deductibles, and unrated plans", () => {
    const ne = store.planById(NE_GOLD, 2027)!;
    expect(ne.deductible).toEqual({
      individual: 1200,
      family: 2400,
      individualDisplay: "$1,200",
      familyDisplay: "$2400 per group",
      drug: { individual: 300, family: null, individualDisplay: "$300", familyDisplay: null },
    });
    expect(ne.puf.qualityRating).toMatchObject({ overall: 3, planAdministration: null });
    const bronze = store.planById(BRONZE, 2027)!;
    expect(bronze.puf.qualityRating).toEqual({
      overall: null,
      medicalCare: null,
      memberExperience: null,
      planAdministration: null,
      notRatedReason: "NR - New-Ineligible for Scoring",
    });
    expect(bronze.puf.csrVariants).toEqual({});
    // Plans.json fills no gap here: Plan Attributes links win.
    expect(bronze.puf.urls.summaryOfBenefits).toBe(`https://12345.example.com/sbc/${BRONZE}-01.pdf`);
    expect(store.planById(AK_BRONZE, 2027)!.puf.qualityRating).toBeNull();
  });

  it("has family-tier premiums for a community-rated (NY) plan", () => {
    const ny = store.planById(NY_SILVER, 2027)!;
    expect(ny.premiumsByRatingArea).toEqual({ "Rating Area 4": 700 });
    expect(ny.ageRatesByArea).toEqual({});
    // NY tiers (family-tier-factors.csv): two adults 2.00 × 700 = 1,400; adult + children 1.70 × 700 = 1,190; two adults + children 2.85 × 700 = 1,995.
    expect(ny.familyTiersByArea["Rating Area 4"]).toEqual({
      individual: 700,
      couple: 1400,
      primarySubscriberAndOneDependent: 1190,
      primarySubscriberAndTwoDependents: 1190,
      primarySubscriberAndThreeOrMoreDependents: 1190,
      coupleAndOneDependent: 1995,
      coupleAndTwoDependents: 1995,
      coupleAndThreeOrMoreDependents: 1995,
    });
  });

  it("answers undefined for plans not in the store", () => {
    expect(store.planById("12345TX0020001", 2027)).toBeUndefined(); // SHOP
    expect(store.planById("12345TX0030001", 2027)).toBeUndefined(); // dental-only
    expect(store.planById(SILVER, 2026)).toBeUndefined();
    expect(store.planById("garbage", 2027)).toBeUndefined();
  });
});

describe("rate tables, formulary rows and provider-network rows", () => {
  it("returns the rate table of each plan rated in the area", () => {
    const tables = store.rateTables({
      year: 2027,
      planIds: [SILVER, BRONZE, NY_SILVER, "12345TX0020001"],
      ratingArea: "Rating Area 7",
    });
    expect([...tables.keys()].sort()).toEqual([SILVER, BRONZE]);
    // Bronze has no tobacco rating: tobacco users pay the same. Age 40: 300.00 × 1.278 = 383.40.
    expect(tables.get(BRONZE)!.ageRates["40"]).toEqual({ individual: 383.4, tobacco: 383.4 });
    expect(tables.get(SILVER)!.familyTiers).toBeUndefined();
    const ny = store.rateTables({ year: 2027, planIds: [NY_SILVER], ratingArea: 4 });
    expect(ny.get(NY_SILVER)).toEqual({
      ageRates: {},
      familyTiers: expect.objectContaining({ individual: 700, couple: 1400 }),
    });
    expect(store.rateTables({ year: 2027, planIds: [SILVER], ratingArea: "nonsense" }).size).toBe(0);
    // Placeholder rates (9999 …) were never loaded: BRONZE has no rates in area 10.
    expect(store.rateTables({ year: 2027, planIds: [BRONZE], ratingArea: 10 }).size).toBe(0);
  });

  it("returns formulary rows by RxCUI, optionally for some plans", () => {
    expect(store.formularyRows({ year: 2027, rxcuis: ["1373463"] })).toEqual([
      {
        rxcui: "1373463",
        planId: SILVER,
        drugTier: "PREFERRED-BRAND",
        priorAuth: true,
        stepTherapy: true,
        quantityLimit: false,
      },
    ]);
    expect(store.formularyRows({ year: 2027, rxcuis: ["860975"], planIds: [BRONZE] })).toEqual([
      {
        rxcui: "860975",
        planId: BRONZE,
        drugTier: "PREFERRED-GENERIC",
        priorAuth: false,
        stepTherapy: false,
        quantityLimit: true,
      },
    ]);
    expect(store.formularyRows({ year: 2027, rxcuis: ["860975", "1373463"], planIds: [SILVER, BRONZE] })).toHaveLength(
      3,
    );
    expect(store.formularyRows({ year: 2027, rxcuis: ["860975"], planIds: [] })).toEqual([]);
    expect(store.formularyRows({ year: 2026, rxcuis: ["860975"] })).toEqual([]);
  });

  it("returns provider-network rows by NPI, optionally for some plans", () => {
    expect(store.networkRows({ year: 2027, npis: ["1234567893"], planIds: [SILVER] })).toEqual([
      { npi: "1234567893", planId: SILVER, networkTier: "NON-PREFERRED" },
      { npi: "1234567893", planId: SILVER, networkTier: "PREFERRED" },
    ]);
    expect(
      store.networkRows({ year: 2027, npis: ["1234567801", "1234567891"] }).map((r) => `${r.npi}/${r.planId}`),
    ).toEqual([`1234567801/${BRONZE}`, `1234567891/${SILVER}`]);
  });
});

describe("store file lifecycle", () => {
  it("says the store is unavailable when the file is missing, and picks it up once it appears", async () => {
    const dir = tempDir();
    const file = path.join(dir, "plan-store.sqlite");
    const s = openPlanStore(file, { checkIntervalMs: 0 });
    expect(s.available()).toBe(false);
    expect(() => s.yearsWithData()).toThrow(PlanStoreUnavailableError);
    copyFileSync(storePath, file);
    expect(s.available()).toBe(true);
    expect(s.yearsWithData()).toEqual([2027]);
    s.close();
    expect(() => s.yearsWithData()).toThrow(/closed/);
  });

  it("refuses a store built with another schema version", () => {
    const file = path.join(tempDir(), "old.sqlite");
    copyFileSync(storePath, file);
    const db = new Database(file);
    db.prepare("UPDATE store_meta SET value = '0' WHERE key = 'schema_version'").run();
    db.close();
    const s = openPlanStore(file);
    expect(() => s.isSample()).toThrow(/schema version 0/);
    s.close();
  });

  it("planStore() reads PLAN_STORE_PATH once per process until reset", () => {
    const before = process.env.PLAN_STORE_PATH;
    try {
      process.env.PLAN_STORE_PATH = storePath;
      resetEnvForTests();
      resetPlanStoreForTests();
      const a = planStore();
      expect(a.path).toBe(storePath);
      expect(planStore()).toBe(a);
      expect(a.yearsWithData()).toEqual([2027]);
      resetPlanStoreForTests();
      expect(planStore()).not.toBe(a);
    } finally {
      resetPlanStoreForTests();
      if (before === undefined) delete process.env.PLAN_STORE_PATH;
      else process.env.PLAN_STORE_PATH = before;
      resetEnvForTests();
    }
  });

  it("keeps answering from the open store when the file is deleted", () => {
    const file = path.join(tempDir(), "plan-store.sqlite");
    copyFileSync(storePath, file);
    const s = openPlanStore(file, { checkIntervalMs: 0 });
    expect(s.yearsWithData()).toEqual([2027]);
    rmSync(file);
    expect(s.yearsWithData()).toEqual([2027]);
    s.close();
  });
});
