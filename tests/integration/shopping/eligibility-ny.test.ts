import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as eligibility from "../../../app/routes/api.eligibility";
import { EligibilityResponse } from "../../../app/schemas/shopping";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import {
  applicablePercent2027,
  cents,
  child,
  configureShopping,
  copyPlanYear,
  dropPlanYear,
  editedStoreCopy,
  guideline2026,
  PLACES,
  postJson,
  sampleEhbShare,
  sampleFamilyOptionRate,
  self,
  shoppingBody,
  spouse,
  startShoppingFake,
  type PersonIn,
} from "./helpers";

/**
 * POST /api/eligibility for New York: the service's own calculation, checked
 * against a hand calculation from the published rules
 * (docs/reference/eligibility-rules.md) and the sample rates
 * (seed/sample/rate-puf.csv, plan-attributes-puf.csv). No upstream call.
 */
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startShoppingFake();
});
afterAll(() => fake.close());

const ask = (body: unknown) => postJson(eligibility, "/api/eligibility", body);

// Kings County is Rating Area 4 (seed/sample/rating-areas-by-county.csv). Its silver plans
// (service-area-puf.csv: issuers 20101, 20202 and 20303 cover 36047):
const KINGS_SILVER = ["20101NY0010002", "20202NY0010002", "20303NY0030002"];
const KINGS_AREA = 4;

// NY family tiers (eligibility-rules.md §6; CMS State Specific Rating Variations): factor × single-adult rate.
const TIER = { single: 1.0, couple: 2.0, adultAndChildren: 1.7, family: 2.85 };

/**
 * Benchmark by hand: each silver plan's single-adult rate × tier factor (rounded to cents, as
 * /api/plans shows it), × its EHB share (rounded to cents), then the second-lowest.
 */
function kingsBenchmark(tierFactor: number): number {
  const ehbPremiums = KINGS_SILVER.map((id) =>
    cents(cents(sampleFamilyOptionRate(id, KINGS_AREA) * tierFactor) * sampleEhbShare(id)),
  );
  return [...ehbPremiums].sort((a, b) => a - b)[1];
}

describe("a worked example, every step written out", () => {
  it("Kings County, single adult, $47,880 (300% FPL) → aptc $497.96, no CSR", async () => {
    // Silver single-adult rates, Rating Area 4 (rate-puf.csv "Family Option" rows) × EHB share:
    //   20101NY0010002  911.67 × 0.9935 = 905.744  → 905.74
    //   20202NY0010002  906.52 × 0.9935 = 900.6276 → 900.63
    //   20303NY0030002 1010.78 × 0.9985 = 1009.264 → 1009.26
    // Benchmark = second-lowest = 905.74 (NY single tier factor 1.00).
    expect(kingsBenchmark(TIER.single)).toBe(905.74);
    // 2027 coverage uses the 2026 guideline: 15,960 for one. 47,880 / 15,960 = 300% FPL.
    // 2027 table, 300–400%: 10.22% flat. Contribution = 0.1022 × 47,880 / 12 = 407.778.
    // aptc = 905.74 − 407.778 = 497.962 → 497.96. Above 250%: no CSR.
    const { status, body } = await ask(shoppingBody(PLACES.kings, [self(40)], 47_880));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      year: 2027,
      aptc: 497.96,
      csr: null,
      is_medicaid_chip: false,
      in_coverage_gap: false,
      essential_plan: false,
      fpl_percent: 300,
      benchmark_premium: 905.74,
      expected_contribution: 407.78,
      source: "own",
    });
    expect(body.reasons.length).toBeGreaterThan(0);
    expect(() => EligibilityResponse.parse(body)).not.toThrow();
    expect(fake.calls).toHaveLength(0);
  });

  it("Kings County, family of four, $75,900 (230% FPL) → the parents on a QHP with aptc and CSR 73, the children on Child Health Plus", async () => {
    // Guideline 2026 for four: 15,960 + 3 × 5,680 = 33,000. 75,900 / 33,000 = 230%.
    // Essential Plan limit for 2027 coverage: 200% (BHP reinstated 2026-07-01), so not EP.
    // The children: NY's Medicaid/CHP limit for children is 405% (133,650): CHP-eligible, so not in
    // the credit's coverage family (26 CFR 1.36B-2(c)(2)); the parents are, as a couple (tier 2.00).
    // Applicable %: 6.78 + (230 − 200)/50 × (8.66 − 6.78) = 6.78 + 1.128 = 7.908 → 7.91%.
    // Contribution = 0.0791 × 75,900 / 12 = 500.3075.
    // Benchmark = second-lowest of (rate × 2.00 → cents) × EHB → cents:
    //   20101: 911.67 × 2 = 1823.34 × 0.9935 = 1811.4883 → 1811.49
    //   20202: 906.52 × 2 = 1813.04 × 0.9935 = 1801.2552 → 1801.26
    //   20303: 1010.78 × 2 = 2021.56 × 0.9985 = 2018.5277 → 2018.53
    // → 1811.49; aptc = 1811.49 − 500.3075 = 1311.1825 → 1311.18. 230% is in (200, 250]: CSR 73.
    expect(kingsBenchmark(TIER.couple)).toBe(1811.49);
    const { body } = await ask(shoppingBody(PLACES.kings, [self(42), spouse(40), child(12), child(9)], 75_900));
    expect(body).toMatchObject({
      aptc: 1311.18,
      csr: "73",
      essential_plan: false,
      is_medicaid_chip: true,
      medicaid_chip_members: [2, 3],
      coverage_family_members: [0, 1],
      medicare_members: [],
      fpl_percent: 230,
      benchmark_premium: 1811.49,
    });
  });
});

// ---------------------------------------------------------------- the FPL lines, one dollar either side

// `tier`: the credit's coverage family. Up to 405% FPL NY children are on Medicaid or Child Health
// Plus, so at every line below the children are outside it and only the adults are priced.
type Household = { name: string; people: PersonIn[]; tier: number; children: boolean };
const HOUSEHOLDS: Household[] = [
  { name: "single", people: [self(40)], tier: TIER.single, children: false },
  { name: "couple", people: [self(45), spouse(43)], tier: TIER.couple, children: false },
  { name: "one adult with children", people: [self(38), child(10), child(7)], tier: TIER.single, children: true },
  { name: "family", people: [self(42), spouse(40), child(12), child(9)], tier: TIER.couple, children: true },
];
const LINES = [100, 138, 150, 200, 250, 400];

/**
 * The expected answer by hand (eligibility-rules.md §§1–6), on income in whole cents.
 * NY 2027: Medicaid ≤ 138% and the Essential Plan ≤ 200% on the current guideline, which at
 * enrollment is still 2026's (the 2027 guideline is published in January); the credit and CSR on
 * the prior-year (2026) guideline: so one guideline, G = 15,960 + 5,680 × (n − 1), serves all.
 */
function expected(household: Household, income: number) {
  const g = guideline2026(household.people.length);
  const incomeCents = Math.round(income * 100);
  const atOrBelow = (percent: number) => incomeCents <= percent * g; // percent% of G dollars = percent × G cents
  const above = (percent: number) => incomeCents > percent * g;
  const fpl = Math.floor(incomeCents / g);
  const fplOneDecimal = Math.floor((incomeCents * 10) / g) / 10;
  const medicaid = atOrBelow(138);
  const essentialPlan = !medicaid && atOrBelow(200);
  const credit = !medicaid && !essentialPlan && !above(400) && incomeCents >= 100 * g;
  const pct = credit ? applicablePercent2027(fpl)! : null;
  const benchmark = kingsBenchmark(household.tier);
  const aptc = credit ? cents(Math.max(0, benchmark - (pct! * income) / 12)) : 0;
  const csr = !credit ? null : atOrBelow(150) ? "94" : atOrBelow(200) ? "87" : atOrBelow(250) ? "73" : null;
  return {
    aptc,
    csr,
    // The children (under 405%) are on Medicaid/CHP at every line here.
    is_medicaid_chip: medicaid || household.children,
    in_coverage_gap: false,
    essential_plan: essentialPlan,
    fpl_percent: fplOneDecimal,
  };
}

const CASES = HOUSEHOLDS.flatMap((household) =>
  LINES.flatMap((line) =>
    [-1, 0, 1].map((delta) => {
      const atLine = (line * guideline2026(household.people.length)) / 100;
      return { household, line, delta, income: Math.round((atLine + delta) * 100) / 100 };
    }),
  ),
);

describe("Kings County at 100, 138, 150, 200, 250 and 400% FPL and one dollar either side", () => {
  it.each(CASES.map((c) => ({ ...c, name: c.household.name })))(
    "$name at $line% FPL, $delta dollar ($income)",
    async (c) => {
      const { status, body } = await ask(shoppingBody(PLACES.kings, c.household.people, c.income));
      expect(status).toBe(200);
      expect(body).toMatchObject(expected(c.household, c.income));
    },
  );

  it("the table above really crosses every line (a regression in one rule changes some answer)", () => {
    const single = HOUSEHOLDS[0];
    const answers = CASES.filter((c) => c.household === single).map((c) => expected(single, c.income));
    // Medicaid stops one dollar over 138%; the Essential Plan one dollar over 200%; the credit one dollar over 400%.
    expect(answers.filter((a) => a.is_medicaid_chip)).toHaveLength(3 + 2); // 100% ±1 and 138% −1, 0
    expect(answers.filter((a) => a.essential_plan)).toHaveLength(1 + 3 + 2); // 138% +1, 150% ±1, 200% −1, 0
    expect(answers.filter((a) => a.csr === "73")).toHaveLength(1 + 2); // 200% +1, 250% −1, 0
    expect(answers.filter((a) => a.aptc > 0)).toHaveLength(1 + 3 + 2); // 200% +1, 250% ±1, 400% −1, 0
  });
});

describe("household facts the calculation reads", () => {
  it("household size larger than the people applying lowers the FPL percent (one applies, three in the tax household)", async () => {
    // $50,000 for a household of three: 50,000 / (15,960 + 2 × 5,680 = 27,320) = 183% → Essential Plan, no credit.
    const three = await ask({
      ...shoppingBody(PLACES.kings, [self(40)], 50_000),
      household: { size: 3, people: [self(40)] },
    });
    expect(three.body).toMatchObject({ fpl_percent: 183, essential_plan: true, aptc: 0, csr: null });
    // The same income for one: 313% → credit at 10.22%: 905.74 − 0.1022 × 50,000 / 12 = 905.74 − 425.8333 = 479.9067 → 479.91.
    const one = await ask(shoppingBody(PLACES.kings, [self(40)], 50_000));
    expect(one.body).toMatchObject({ fpl_percent: 313.2, essential_plan: false, aptc: 479.91 });
  });

  it("the Essential Plan is for ages 19–64: a 65-year-old without Medicare at 180% FPL gets the credit and CSR 87 instead", async () => {
    // 180% of 15,960 = 28,728. Applicable %: 4.30 + 30/50 × (6.78 − 4.30) = 5.788 → 5.79%.
    // Contribution = 0.0579 × 28,728 / 12 = 138.6126; aptc = 905.74 − 138.6126 = 767.1274 → 767.13 (community rating: age does not change the benchmark).
    const { body } = await ask(shoppingBody(PLACES.kings, [{ ...self(65), medicare_eligible: false }], 28_728));
    expect(body).toMatchObject({
      essential_plan: false,
      is_medicaid_chip: false,
      fpl_percent: 180,
      csr: "87",
      aptc: 767.13,
    });
    // With Medicare (the default at 65): no credit, listed as a Medicare member.
    const medicare = await ask(shoppingBody(PLACES.kings, [self(65)], 28_728));
    expect(medicare.body).toMatchObject({ medicare_members: [0], coverage_family_members: [], aptc: 0, csr: null });
    const younger = await ask(shoppingBody(PLACES.kings, [self(64)], 28_728));
    expect(younger.body).toMatchObject({ essential_plan: true, aptc: 0, csr: null });
  });

  it("tobacco use does not change a NY answer (no tobacco rating, and the benchmark never includes a surcharge)", async () => {
    const smoker = await ask(shoppingBody(PLACES.kings, [self(40, true)], 47_880));
    expect(smoker.body).toMatchObject({ aptc: 497.96, benchmark_premium: 905.74 });
  });

  it("Albany (Rating Area 1) has its own benchmark", async () => {
    // Albany silver single-adult rates (Rating Area 1) × EHB share:
    //   20101NY0010002 837.81 × 0.9935 = 832.3642 → 832.36
    //   20303NY0030002 928.89 × 0.9985 = 927.4967 → 927.50
    //   20404NY0010002 819.80 × 0.9985 = 818.5703 → 818.57
    // Second-lowest 832.36; at 300%: 832.36 − 407.778 = 424.582 → 424.58.
    const { body } = await ask(shoppingBody(PLACES.albany, [self(40)], 47_880));
    expect(body).toMatchObject({ benchmark_premium: 832.36, aptc: 424.58 });
  });
});

describe("the Essential Plan limit in force on the coverage date (250% until 2026-06-30, 200% from 2026-07-01)", () => {
  // A private store copy whose 2026 holds the same plans and rates as 2027 (the sample's own 2026 rows set aside).
  let store: { file: string; remove(): void };
  beforeAll(() => {
    store = editedStoreCopy((db) => {
      dropPlanYear(db, 2026);
      copyPlanYear(db, 2027, 2026);
    });
    configureShopping({ planStore: store.file, upstreamUrl: fake.url });
  });
  afterAll(() => {
    configureShopping({ upstreamUrl: fake.url });
    store.remove();
  });

  // $36,708 for one = 230% of the 2026 guideline (15,960), the current guideline for 2026 dates.
  const body = (coverage_date: string) => shoppingBody(PLACES.kings, [self(40)], 36_708, { year: 2026, coverage_date });

  it("March 2026: under the 250% limit, the Essential Plan", async () => {
    const { status, body: answer } = await ask(body("2026-03-01"));
    expect(status).toBe(200);
    expect(answer).toMatchObject({ year: 2026, essential_plan: true, aptc: 0, csr: null });
  });

  it("September 2026: above the 200% limit, a credit priced on the 2025 guideline and the 2026 table", async () => {
    // Credit and CSR use the prior-year guideline: 36,708 / 15,650 = 234.5% → 234.
    // 2026 table (Rev. Proc. 2025-25), 200–250%: 6.60 + 34/50 × (8.44 − 6.60) = 7.8512 → 7.85%.
    // Contribution 0.0785 × 36,708 / 12 = 240.1315; benchmark 905.74 (same rates); aptc 665.6085 → 665.61.
    const { body: answer } = await ask(body("2026-09-01"));
    expect(answer).toMatchObject({
      year: 2026,
      essential_plan: false,
      fpl_percent: 234.5,
      benchmark_premium: 905.74,
      aptc: 665.61,
      csr: "73",
    });
  });
});

describe("errors", () => {
  it.each([
    [{ income: -1 }, "income"],
    [{ income: "50000" }, "income"],
    [{ household: { people: [] } }, "household.people"],
    [{ household: { people: [{ age: "forty" }] } }, "household.people.0.age"],
    [{ household: { people: [{ age: 40, relationship: "cousin" }] } }, "household.people.0.relationship"],
    [{ household: { size: 1, people: [self(40), spouse(40)] } }, "household.size"],
    [{ place: { state: "NY", county_fips: "36047", zip: "1120" } }, "place.zip"],
    [{ place: { state: "New York", county_fips: "36047", zip: "11201" } }, "place.state"],
    [{ year: 2027.5 }, "year"],
    [{ coverage_date: "1 Jan 2027" }, "coverage_date"],
    [{ extra: true }, "(body)"],
  ])("%j → 400 naming %s", async (patch, field) => {
    const { status, body } = await ask({ ...shoppingBody(PLACES.kings, [self(40)], 47_880), ...patch });
    expect(status).toBe(400);
    expect(body.error.code).toBe("validation_failed");
    expect(Object.keys(body.error.fields)).toContain(field);
  });

  it("a coverage date outside the plan year, or not on the calendar, is a 400 naming coverage_date (not a 500)", async () => {
    for (const coverage_date of ["2026-12-01", "2027-02-30"]) {
      const { status, body } = await ask(shoppingBody(PLACES.kings, [self(40)], 47_880, { coverage_date }));
      expect(status).toBe(400);
      expect(Object.keys(body.error.fields)).toEqual(["coverage_date"]);
    }
    const ok = await ask(shoppingBody(PLACES.kings, [self(40)], 47_880, { coverage_date: "2027-06-01" }));
    expect(ok.status).toBe(200);
  });

  it("a county that does not contain the ZIP is a 400 naming place.county_fips", async () => {
    const { status, body } = await ask(
      shoppingBody({ state: "NY", county_fips: "36047", zip: "10001" }, [self(40)], 47_880),
    );
    expect(status).toBe(400);
    expect(body.error.fields["place.county_fips"]).toContain("36061");
  });

  it("a state-based-exchange state is a 409 pointing to its marketplace", async () => {
    const { status, body } = await ask(
      shoppingBody({ state: "CA", county_fips: "06037", zip: "90210" }, [self(40)], 47_880),
    );
    expect(status).toBe(409);
    expect(body.error.code).toBe("state_based_marketplace");
    expect(body.error.message).toContain("Covered California");
    expect(fake.calls).toHaveLength(0);
  });

  it("a year without data is a 404 naming the year", async () => {
    const { status, body } = await ask(shoppingBody(PLACES.kings, [self(40)], 47_880, { year: 2031 }));
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ code: "year_not_available" });
    expect(body.error.message).toContain("2031");
  });

  it("wrong method and wrong content type", async () => {
    const get = await eligibility.loader({
      request: new Request("http://localhost/api/eligibility"),
      params: {},
      context: {},
    });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const text = await eligibility.action({
      request: new Request("http://localhost/api/eligibility", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "{}",
      }),
      params: {},
      context: {},
    });
    expect(text.status).toBe(415);
  });
});
