/**
 * The bundled sample (seed/sample/): generated fresh into a temp directory,
 * compared byte for byte with the committed copy and with a second run, and
 * checked against what the issue asks of it (counties, plan counts, CSR
 * variants, exact PY2026 headers, the age curve to the cent, real geography).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parameter } from "../../../app/domain/parameters/parameter-file";
import { generate } from "../../../seed/generate/index";
import { centsTimesMilli, listFiles, money, readTable, toCents, type Table } from "./files";

const REPO = join(__dirname, "..", "..", "..");
const COMMITTED = join(REPO, "seed", "sample");
const headersJson = JSON.parse(readFileSync(join(REPO, "seed/reference/puf-column-headers.json"), "utf8"));

let dirA: string;
let dirB: string;
let pa: Table;
let rates: Table;
let benefits: Table;
let serviceAreas: Table;
let hud: Table;

beforeAll(() => {
  dirA = mkdtempSync(join(tmpdir(), "sample-a-"));
  dirB = mkdtempSync(join(tmpdir(), "sample-b-"));
  generate({ scale: "sample", outDir: dirA });
  generate({ scale: "sample", outDir: dirB });
  pa = readTable(join(dirA, "plan-attributes-puf.csv"));
  rates = readTable(join(dirA, "rate-puf.csv"));
  benefits = readTable(join(dirA, "benefits-and-cost-sharing-puf.csv"));
  serviceAreas = readTable(join(dirA, "service-area-puf.csv"));
  hud = readTable(join(dirA, "zip-county-hud.csv"));
});

afterAll(() => {
  rmSync(dirA, { recursive: true, force: true });
  rmSync(dirB, { recursive: true, force: true });
});

/** Individual medical -01 rows: the plans a consumer can buy. */
const sellable = () =>
  pa.rows.filter((r) => r.PlanId.endsWith("-01") && r.MarketCoverage === "Individual" && r.DentalOnlyPlan === "No");

/** Plans offered at a ZIP in a county: service area covers the county (whole, or partially with the ZIP listed) or the state. */
function plansAt(county: string, zip: string): Record<string, string>[] {
  const state = hud.rows.find((r) => r.COUNTY === county)!.USPS_ZIP_PREF_STATE;
  return sellable().filter((p) =>
    serviceAreas.rows.some(
      (sa) =>
        sa.IssuerId === p.IssuerId &&
        sa.ServiceAreaId === p.ServiceAreaId &&
        sa.MarketCoverage === "Individual" &&
        ((sa.CoverEntireState === "Yes" && sa.StateCode === p.StateCode && p.StateCode === state) ||
          (sa.County === county && (sa.PartialCounty === "No" || sa.ZipCodes.split(", ").includes(zip)))),
    ),
  );
}

function deductible(r: Record<string, string>): number {
  return money(r.TEHBDedInnTier1Individual) ?? money(r.MEHBDedInnTier1Individual)!;
}

describe("sample files", () => {
  it("are byte-identical across two runs and to the committed seed/sample", () => {
    const files = listFiles(dirA);
    expect(listFiles(dirB)).toEqual(files);
    expect(listFiles(COMMITTED)).toEqual(files);
    for (const f of files) {
      const a = readFileSync(join(dirA, f));
      expect(a.equals(readFileSync(join(dirB, f))), `${f} differs between runs`).toBe(true);
      expect(
        a.equals(readFileSync(join(COMMITTED, f))),
        `${f} differs from the committed sample: run npm run seed:synth`,
      ).toBe(true);
    }
  });

  it("stay well under 5 MB and are marked as sample data", () => {
    // Per plan year: 2027 at the root, 2026 in 2026/ (issue 27 added the year before; decision 341).
    const size = (f: string) => statSync(join(dirA, f)).size;
    const files = listFiles(dirA);
    const total = files.filter((f) => !f.startsWith("2026")).reduce((s, f) => s + size(f), 0);
    expect(total).toBeLessThan(4 * 1024 * 1024);
    const earlier = files.filter((f) => f.startsWith("2026")).reduce((s, f) => s + size(f), 0);
    expect(earlier).toBeLessThan(4 * 1024 * 1024);
    expect(existsSync(join(dirA, "SAMPLE-DATA"))).toBe(true);
    expect(readFileSync(join(dirA, "README.md"), "utf8")).toMatch(/made up/i);
  });

  it("use exactly the PY2026 header lists", () => {
    const firstLine = (f: string) => readFileSync(join(dirA, f), "utf8").split("\n")[0];
    expect(firstLine("plan-attributes-puf.csv")).toBe(headersJson.plan_attributes_puf.PY2026.join(","));
    expect(firstLine("rate-puf.csv")).toBe(headersJson.rate_puf.PY2026.join(","));
    expect(firstLine("benefits-and-cost-sharing-puf.csv")).toBe(headersJson.benefits_cost_sharing_puf.PY2026.join(","));
    expect(firstLine("service-area-puf.csv")).toBe(headersJson.service_area_puf.PY2026.join(","));
    expect(firstLine("quality-puf.csv")).toBe(headersJson.quality_puf.PY2026.join(","));
    expect(firstLine("zip-county-hud.csv")).toBe(headersJson.hud_usps_zip_county["2020_and_later"].join(","));
    const census = Object.values(headersJson.census_zcta_county_2020)[0] as string[];
    expect(firstLine("zcta-county-census2020.txt")).toBe("\uFEFF" + census.join("|"));
    expect(firstLine("national-county2020.txt")).toBe("STATE|STATEFP|COUNTYFP|COUNTYNS|COUNTYNAME|CLASSFP|FUNCSTAT");
    expect(firstLine("states.csv")).toBe(
      "plan_year,state_code,state_name,exchange_kind,marketplace_name,marketplace_url,owned_data",
    );
  });
});

describe("plans", () => {
  it("have valid HIOS ids, and variant rows that match their suffix", () => {
    for (const r of pa.rows) {
      expect(r.StandardComponentId).toMatch(/^[0-9]{5}[A-Z]{2}[0-9]{7}$/);
      expect(r.PlanId.slice(0, 14)).toBe(r.StandardComponentId);
      const suffix = r.PlanId.slice(15);
      const expected: Record<string, RegExp> = {
        "00": /Off Exchange Plan$/,
        "01": /On Exchange Plan$/,
        "02": /^Zero Cost Sharing/,
        "03": /^Limited Cost Sharing/,
        "04": /^73% AV Level Silver/,
        "05": /^87% AV Level Silver/,
        "06": /^94% AV Level Silver/,
      };
      expect(r.CSRVariationType).toMatch(expected[suffix]);
      expect(r.BusinessYear).toBe("2027");
    }
  });

  it("offer NY at least 12 plans across the metal levels in Kings, Albany and a third county", () => {
    const nyCounties = ["36047", "36001", "36061", "36081"];
    const zipOf: Record<string, string> = { "36047": "11201", "36001": "12203", "36061": "10001", "36081": "11375" };
    for (const county of nyCounties) {
      const plans = plansAt(county, zipOf[county]);
      expect(plans.length, county).toBeGreaterThanOrEqual(12);
      expect(new Set(plans.map((p) => p.MetalLevel))).toEqual(
        new Set(["Bronze", "Silver", "Gold", "Platinum", "Catastrophic"]),
      );
    }
  });

  it("offer at least 25 plans in Dallas and Travis, including where Travis is only partly served", () => {
    expect(plansAt("48113", "75201").length).toBeGreaterThanOrEqual(25);
    const travisCore = plansAt("48453", "78701");
    const travisOther = plansAt("48453", "78758");
    expect(travisOther.length).toBeGreaterThanOrEqual(25);
    // Trinity Crest serves Travis only in five central ZIPs.
    expect(travisCore.length - travisOther.length).toBe(6);
  });

  it("give every silver plan 73/87/94 variants with strictly lower deductible and MOOP, and no higher copays", () => {
    const silver = sellable().filter((r) => r.MetalLevel === "Silver");
    expect(silver.length).toBeGreaterThanOrEqual(15);
    const pcp = (planId: string) =>
      money(
        benefits.rows.find(
          (b) => b.PlanId === planId && b.BenefitName === "Primary Care Visit to Treat an Injury or Illness",
        )!.CopayInnTier1,
      ) ?? 0;
    for (const s of silver) {
      const v = (suffix: string) => pa.rows.find((r) => r.PlanId === `${s.StandardComponentId}-${suffix}`)!;
      const chain = ["01", "04", "05", "06"].map(v);
      chain.forEach((row, i) => expect(row, `${s.StandardComponentId} -${["01", "04", "05", "06"][i]}`).toBeDefined());
      for (let i = 1; i < chain.length; i++) {
        expect(deductible(chain[i])).toBeLessThan(deductible(chain[i - 1]));
        expect(money(chain[i].TEHBInnTier1IndividualMOOP)!).toBeLessThan(
          money(chain[i - 1].TEHBInnTier1IndividualMOOP)!,
        );
        expect(pcp(chain[i].PlanId)).toBeLessThanOrEqual(pcp(chain[i - 1].PlanId));
      }
      // 45 CFR 156.420: 87% and 94% variants' MOOP at most a third of the 2027 limit (12,000 / 3 = 4,000).
      expect(money(chain[2].TEHBInnTier1IndividualMOOP)!).toBeLessThanOrEqual(4000);
      expect(money(chain[3].TEHBInnTier1IndividualMOOP)!).toBeLessThanOrEqual(4000);
    }
  });

  it("keep every MOOP within the 2027 limit of $12,000 / $24,000", () => {
    const { selfOnly: single, otherThanSelfOnly: family } = parameter("maxOutOfPocket", 2027);
    for (const r of pa.rows) {
      expect(money(r.TEHBInnTier1IndividualMOOP)!).toBeLessThanOrEqual(single);
      expect(money(r.TEHBInnTier1FamilyPerGroupMOOP)!).toBeLessThanOrEqual(family);
    }
  });

  it("cover all metal levels, plan types and some HSA-eligible bronze plans", () => {
    const metals = new Set(pa.rows.map((r) => r.MetalLevel));
    for (const m of ["Bronze", "Expanded Bronze", "Silver", "Gold", "Platinum", "Catastrophic"])
      expect(metals).toContain(m);
    expect(new Set(sellable().map((r) => r.PlanType))).toEqual(new Set(["HMO", "PPO", "EPO", "POS"]));
    expect(pa.rows.some((r) => r.MetalLevel === "Bronze" && r.IsHSAEligible === "Yes")).toBe(true);
    expect(pa.rows.some((r) => r.PlanId.endsWith("-02"))).toBe(true);
    expect(pa.rows.some((r) => r.PlanId.endsWith("-00"))).toBe(true);
  });

  it("fill the SBC scenarios and the document addresses with example.com-style URLs", () => {
    for (const r of sellable()) {
      for (const c of ["SBCHavingaBabyDeductible", "SBCHavingDiabetesCoinsurance", "SBCHavingSimplefractureCopayment"])
        expect(r[c]).toMatch(/^\$[0-9,]+$/);
      for (const c of ["URLForSummaryofBenefitsCoverage", "FormularyURL", "PlanBrochure", "URLForEnrollmentPayment"]) {
        expect(new URL(r[c]).hostname).toMatch(/\.example\.(com|org)$/);
      }
    }
  });

  it("include one small-group plan and one dental-only plan for the loader to skip", () => {
    expect(
      new Set(pa.rows.filter((r) => r.MarketCoverage === "SHOP (Small Group)").map((r) => r.StandardComponentId)).size,
    ).toBe(1);
    expect(new Set(pa.rows.filter((r) => r.DentalOnlyPlan === "Yes").map((r) => r.StandardComponentId)).size).toBe(1);
  });
});

describe("rates", () => {
  /** Federal default curve from aca-parameters.json, in thousandths per Rate PUF label. */
  function federalCurve(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [key, f] of Object.entries(parameter("ageCurveFederalDefault", 2027))) {
      const milli = Math.round(f * 1000);
      if (key === "0-14") out.set("0-14", milli);
      else if (key === "64+") out.set("64 and over", milli);
      else if (key.includes("-")) {
        const [a, b] = key.split("-").map(Number);
        for (let age = a; age <= b; age++) out.set(String(age), milli);
      } else out.set(key, milli);
    }
    return out;
  }

  it("follow the federal age curve from the age-21 rate, to the cent (worked example)", () => {
    const row = (age: string) =>
      rates.rows.find((r) => r.PlanId === "10101TX0010001" && r.RatingAreaId === "Rating Area 3" && r.Age === age)!;
    // Bluebonnet Bronze Essential, Rating Area 3 (Travis), base at 21 = $416.13.
    expect(row("21").IndividualRate).toBe("416.13");
    // 0-14: 416.13 × 0.765 = 318.33945 → $318.34 (45 CFR 147.102(e) default curve)
    expect(row("0-14").IndividualRate).toBe("318.34");
    // 40: 416.13 × 1.278 = 531.81414 → $531.81
    expect(row("40").IndividualRate).toBe("531.81");
    // 64 and over: 416.13 × 3.000 = 1248.39
    expect(row("64 and over").IndividualRate).toBe("1248.39");
    // Tobacco (Bluebonnet surcharge 1.25): 21 → 416.13 × 1.25 = 520.1625 → $520.16; 64+ → 1248.39 × 1.25 = 1560.4875 → $1560.49
    expect(row("21").IndividualTobaccoRate).toBe("520.16");
    expect(row("64 and over").IndividualTobaccoRate).toBe("1560.49");
    // Under 21 no surcharge.
    expect(row("0-14").IndividualTobaccoRate).toBe("318.34");
  });

  it("follow the curve for every age-rated plan and rating area, with tobacco at most 1.5×", () => {
    const curve = federalCurve();
    const groups = new Map<string, Record<string, string>[]>();
    for (const r of rates.rows) {
      if (r.Age === "Family Option" || r.IndividualRate === "9999.99") continue;
      const key = `${r.PlanId}|${r.RatingAreaId}|${r.RateEffectiveDate}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    expect(groups.size).toBeGreaterThan(100);
    for (const [key, rows] of groups) {
      expect(rows.length, key).toBe(51);
      const base = toCents(rows.find((r) => r.Age === "21")!.IndividualRate);
      for (const r of rows) {
        const expected = centsTimesMilli(base, curve.get(r.Age)!);
        expect(toCents(r.IndividualRate), `${key} ${r.Age}`).toBe(expected);
        if (r.Tobacco === "Tobacco User/Non-Tobacco User") {
          const t = toCents(r.IndividualTobaccoRate);
          expect(t).toBeGreaterThanOrEqual(expected);
          expect(t).toBeLessThanOrEqual(Math.round(expected * 1.5) + 1);
        } else {
          expect(r.Tobacco).toBe("No Preference");
          expect(r.IndividualTobaccoRate).toBe("");
        }
      }
    }
  });

  it("rate NY by community rating: one Family Option row per plan and area, tiers from the NY factors", () => {
    const ny = rates.rows.filter((r) => r.StateCode === "NY");
    expect(ny.length).toBeGreaterThan(0);
    // Hudson Crest Silver, NYC (Rating Area 4): single 911.67; couple 911.67 × 2.0 = 1823.34;
    // adult + children 911.67 × 1.7 = 1549.839 → 1549.84; two adults + children 911.67 × 2.85 = 2598.2595 → 2598.26.
    const example = ny.find((r) => r.PlanId === "20101NY0010002" && r.RatingAreaId === "Rating Area 4")!;
    expect([
      example.IndividualRate,
      example.Couple,
      example.PrimarySubscriberAndOneDependent,
      example.CoupleAndThreeOrMoreDependents,
    ]).toEqual(["911.67", "1823.34", "1549.84", "2598.26"]);
    const tiers = parameter("familyTiers", 2027).NY;
    for (const r of ny) {
      expect(r.Age).toBe("Family Option");
      expect(r.Tobacco).toBe("No Preference");
      const base = toCents(r.IndividualRate);
      expect(toCents(r.Couple)).toBe(centsTimesMilli(base, Math.round(tiers.TWO_ADULTS * 1000)));
      for (const c of [
        "PrimarySubscriberAndOneDependent",
        "PrimarySubscriberAndTwoDependents",
        "PrimarySubscriberAndThreeOrMoreDependents",
      ]) {
        expect(toCents(r[c])).toBe(centsTimesMilli(base, Math.round(tiers.ONE_ADULT_AND_CHILDREN * 1000)));
      }
      for (const c of ["CoupleAndOneDependent", "CoupleAndTwoDependents", "CoupleAndThreeOrMoreDependents"]) {
        expect(toCents(r[c])).toBe(centsTimesMilli(base, Math.round(tiers.TWO_ADULTS_AND_CHILDREN * 1000)));
      }
    }
  });

  it("price every sellable plan in every rating area it serves", () => {
    const countyArea = new Map(
      readTable(join(dirA, "rating-areas-by-county.csv")).rows.map((r) => [r.county_fips, r.rating_area_id]),
    );
    const zip3Areas = new Set(
      readTable(join(dirA, "rating-areas-by-zip3.csv"))
        .rows.filter((r) => r.state === "NE")
        .map((r) => r.rating_area_id),
    );
    for (const p of sellable()) {
      const priced = new Set(rates.rows.filter((r) => r.PlanId === p.StandardComponentId).map((r) => r.RatingAreaId));
      for (const sa of serviceAreas.rows.filter(
        (s) => s.IssuerId === p.IssuerId && s.ServiceAreaId === p.ServiceAreaId,
      )) {
        const needed = sa.CoverEntireState === "Yes" ? [...zip3Areas] : [countyArea.get(sa.County)!];
        for (const area of needed) expect(priced, `${p.StandardComponentId} ${area}`).toContain(area);
      }
    }
  });

  it("contain exactly one placeholder (sentinel) rate", () => {
    expect(rates.rows.filter((r) => Number(r.IndividualRate) >= 9999).length).toBe(1);
  });
});

describe("benefits, service areas and quality", () => {
  it("give every medical variant more than 40 benefit rows, all with PY2026 benefit names", () => {
    const names = new Set(
      readFileSync(join(REPO, "seed/reference/benefit-names.py2026-ffm.csv"), "utf8")
        .split("\n")
        .slice(1)
        .filter(Boolean)
        .map((l) => (l.startsWith('"') ? l.slice(1, l.indexOf('"', 1)) : l.split(",")[0])),
    );
    const perVariant = new Map<string, number>();
    for (const b of benefits.rows) {
      expect(names, b.BenefitName).toContain(b.BenefitName);
      perVariant.set(b.PlanId, (perVariant.get(b.PlanId) ?? 0) + 1);
    }
    for (const r of pa.rows.filter((x) => x.DentalOnlyPlan === "No"))
      expect(perVariant.get(r.PlanId), r.PlanId).toBeGreaterThan(40);
  });

  it("have county rows, a statewide row and a partial county with its ZIP list", () => {
    expect(serviceAreas.rows.some((r) => r.CoverEntireState === "Yes" && r.County === "")).toBe(true);
    const partial = serviceAreas.rows.find((r) => r.PartialCounty === "Yes")!;
    expect(partial.County).toBe("48453");
    expect(partial.ZipCodes).toBe("78701, 78702, 78703, 78704, 78705");
    expect(serviceAreas.rows.filter((r) => /^[0-9]{5}$/.test(r.County)).length).toBeGreaterThan(20);
  });

  it("rate most plans 1–5, leave some unrated and some without a row", () => {
    const q = readTable(join(dirA, "quality-puf.csv")).rows;
    const values = q.flatMap((r) => [
      r.OverallRatingValue,
      r.MedicalCareRatingValue,
      r.MemberExperienceRatingValue,
      r.PlanAdministrationRatingValue,
    ]);
    for (const v of values) expect(v).toMatch(/^([1-5]|NR - .+)$/);
    expect(q.some((r) => r.OverallRatingValue.startsWith("NR"))).toBe(true);
    const rated = new Set(q.map((r) => r.PlanID));
    expect(sellable().some((p) => !rated.has(p.StandardComponentId))).toBe(true);
  });
});

describe("geography and states", () => {
  const shares = (zip: string) =>
    Object.fromEntries(hud.rows.filter((r) => r.ZIP === zip).map((r) => [r.COUNTY, Number(r.TOT_RATIO)]));

  it("include real multi-county and cross-state ZIPs with their HUD shares", () => {
    expect(shares("42223")).toEqual({ "47125": 0.682, "21047": 0.318 });
    expect(shares("75007")).toEqual({ "48121": 0.8978, "48113": 0.0764, "48085": 0.0259 });
    expect(Object.keys(shares("74127")).sort()).toEqual(["40113", "40143"]);
    for (const zip of new Set(hud.rows.map((r) => r.ZIP))) {
      const total = Object.values(shares(zip)).reduce((a, b) => a + b, 0);
      expect(total, zip).toBeCloseTo(1, 3);
    }
  });

  it("include ZIPs of state-based-exchange states and the sample's plan ZIPs", () => {
    const county = (zip: string) => Object.keys(shares(zip)).sort();
    expect(county("90210")).toEqual(["06037"]);
    expect(county("19103")).toEqual(["42101"]);
    expect(county("07030")).toEqual(["34017"]);
    expect(county("30341")).toEqual(["13089", "13121"]);
    expect(county("11201")).toEqual(["36047"]);
    expect(county("12203")).toEqual(["36001"]);
    expect(county("10001")).toEqual(["36061"]);
    expect(county("75201")).toEqual(["48113"]);
    expect(county("78701")).toEqual(["48453"]);
  });

  it("list every county used by a ZIP or a service area in the county file, with matching state codes", () => {
    const counties = readTable(join(dirA, "national-county2020.txt"), "|").rows;
    const fips = new Set(counties.map((c) => c.STATEFP + c.COUNTYFP));
    for (const c of [...hud.rows.map((r) => r.COUNTY), ...serviceAreas.rows.map((r) => r.County).filter(Boolean)])
      expect(fips, c).toContain(c);
    expect(counties.find((c) => c.STATEFP + c.COUNTYFP === "36047")!.COUNTYNAME).toBe("Kings County");
  });

  it("split the Census cross-state ZCTA 42223 by land area", () => {
    const census = readTable(join(dirA, "zcta-county-census2020.txt"), "|").rows.filter(
      (r) => r.GEOID_ZCTA5_20 === "42223",
    );
    const share = (c: string) => {
      const r = census.find((x) => x.GEOID_COUNTY_20 === c)!;
      return Number(r.AREALAND_PART) / Number(r.AREALAND_ZCTA5_20);
    };
    // 31,013,818 / (31,013,818 + 25,233,712) = 0.5514
    expect(share("47125")).toBeCloseTo(0.5514, 4);
    expect(share("21047")).toBeCloseTo(0.4486, 4);
  });

  it("list every state and DC for 2027 with its marketplace", () => {
    const states = readTable(join(dirA, "states.csv")).rows;
    expect(states.length).toBe(51);
    const by = Object.fromEntries(states.map((s) => [s.state_code, s]));
    expect([by.CA.exchange_kind, by.CA.marketplace_name, by.CA.marketplace_url]).toEqual([
      "sbe",
      "Covered California",
      "https://www.coveredca.com",
    ]);
    expect([by.PA.marketplace_name, by.NJ.marketplace_url, by.GA.marketplace_url]).toEqual([
      "Pennie",
      "https://www.nj.gov/getcoverednj",
      "https://georgiaaccess.gov",
    ]);
    expect([by.NY.exchange_kind, by.NY.owned_data, by.NY.marketplace_url]).toEqual([
      "sbe",
      "true",
      "https://nystateofhealth.ny.gov",
    ]);
    expect([by.TX.exchange_kind, by.TX.owned_data]).toEqual(["healthcaregov", "true"]);
    expect([by.AR.exchange_kind, by.AR.owned_data]).toEqual(["sbe_federal_platform", "true"]);
    // Oregon leaves the federal platform for 2027 (aca-parameters.json marketplaceType["2027"]).
    expect([by.OR.exchange_kind, by.OR.owned_data]).toEqual(["sbe", "false"]);
    expect(states.filter((s) => s.owned_data === "true").length).toBe(30);
  });
});

describe("machine-readable files", () => {
  const REAL_RXCUIS = [
    "314076",
    "314077",
    "197361",
    "308136",
    "310798",
    "979492",
    "866414",
    "313988",
    "861007",
    "860975",
    "617310",
    "259255",
    "617318",
    "312961",
    "314231",
    "312940",
    "310431",
    "309362",
    "243670",
    "313782",
    "209459",
    "308192",
  ];
  const issuerDirs = () => [...new Set(listFiles(join(dirA, "mr")).map((f) => f.split(/[/\\]/)[0]))];
  const json = (issuer: string, file: string) => JSON.parse(readFileSync(join(dirA, "mr", issuer, file), "utf8"));

  it("exist for every medical issuer, with plan ids from the Plan Attributes PUF", () => {
    const medicalIssuers = new Set(sellable().map((r) => r.IssuerId));
    expect(new Set(issuerDirs())).toEqual(medicalIssuers);
    const planIds = new Set(sellable().map((r) => r.StandardComponentId));
    for (const issuer of issuerDirs()) {
      const plans = json(issuer, "plans.json");
      for (const p of plans) {
        expect(planIds).toContain(p.plan_id);
        expect(p.plan_id_type).toBe("HIOS-PLAN-ID");
        expect(p.years).toEqual([2027]);
      }
      for (const d of json(issuer, "drugs.json")) for (const e of d.plans) expect(planIds).toContain(e.plan_id);
      for (const pr of json(issuer, "providers.json")) for (const e of pr.plans) expect(planIds).toContain(e.plan_id);
    }
  });

  it("list real RxCUIs, leave some drugs off some formularies and flag PA, step therapy and quantity limits", () => {
    const seen = new Map<string, number>();
    let pa = 0;
    let st = 0;
    let ql = 0;
    for (const issuer of issuerDirs()) {
      for (const d of json(issuer, "drugs.json")) {
        seen.set(d.rxnorm_id, (seen.get(d.rxnorm_id) ?? 0) + 1);
        for (const e of d.plans) {
          expect(e.drug_tier).toMatch(
            /^(GENERIC|PREFERRED-GENERIC|NON-PREFERRED-GENERIC|PREFERRED-BRAND|NON-PREFERRED-BRAND|SPECIALTY|ZERO-COST-SHARE-PREVENTIVE)$/,
          );
          pa += e.prior_authorization ? 1 : 0;
          st += e.step_therapy ? 1 : 0;
          ql += e.quantity_limit ? 1 : 0;
        }
      }
    }
    expect(REAL_RXCUIS.filter((r) => seen.has(r)).length).toBeGreaterThanOrEqual(20);
    expect([...seen.values()].some((n) => n < issuerDirs().length)).toBe(true);
    expect(pa).toBeGreaterThan(0);
    expect(st).toBeGreaterThan(0);
    expect(ql).toBeGreaterThan(0);
  });

  it("give providers valid made-up NPIs, the CMS types and network tiers, at sample addresses", () => {
    const zips = new Set(hud.rows.map((r) => r.ZIP));
    const luhnOk = (npi: string) => {
      // NPI check digit: Luhn over "80840" + the first nine digits.
      const digits = `80840${npi.slice(0, 9)}`.split("").map(Number);
      let sum = 0;
      digits.reverse().forEach((d, i) => {
        const x = i % 2 === 0 ? d * 2 : d;
        sum += x > 9 ? x - 9 : x;
      });
      return (10 - (sum % 10)) % 10 === Number(npi[9]);
    };
    const types = new Set<string>();
    const tiers = new Set<string>();
    for (const issuer of issuerDirs()) {
      for (const p of json(issuer, "providers.json")) {
        expect(p.npi).toMatch(/^[12][0-9]{9}$/);
        expect(luhnOk(p.npi), p.npi).toBe(true);
        types.add(p.type);
        for (const a of p.addresses) expect(zips).toContain(a.zip);
        for (const e of p.plans) tiers.add(e.network_tier);
        if (p.type === "INDIVIDUAL") expect(p.name.last).toBeTruthy();
        if (p.type === "FACILITY") expect(p.facility_name).toBeTruthy();
      }
    }
    expect(types).toEqual(new Set(["INDIVIDUAL", "FACILITY", "GROUP"]));
    expect(tiers).toEqual(new Set(["PREFERRED", "NON-PREFERRED"]));
  });
});
