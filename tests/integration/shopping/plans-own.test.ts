import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as plansRoute from "../../../app/routes/api.plans";
import { PlansResponse } from "../../../app/schemas/shopping";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import {
  cents,
  child,
  dollars,
  PLACES,
  postJson,
  sampleEhbShare,
  sampleFamilyOptionRate,
  sampleRate,
  sampleVariant,
  self,
  shoppingBody,
  spouse,
  startShoppingFake,
  type Body,
  type PersonIn,
} from "./helpers";

/**
 * POST /api/plans from own data: every plan offered at the place, priced for
 * the household and checked to the cent against a hand calculation from the
 * sample rates (seed/sample/rate-puf.csv) and the federal default age curve
 * (45 CFR 147.102(e); aca-parameters.json ageCurveFederalDefault). TX
 * eligibility comes from the fake upstream; NY's is computed here.
 */
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startShoppingFake();
});
afterAll(() => fake.close());

type Plan = Body;
const plansFor = async (
  place: (typeof PLACES)[keyof typeof PLACES],
  people: PersonIn[],
  income: number,
  extra: Record<string, unknown> = {},
) => {
  // With a hardship exemption, so every plan sold here is listed and priced, catastrophic ones too
  // (without one they are listed only for people under 30: tests/integration/shopping/catastrophic.test.ts).
  const body = shoppingBody(place, people, income, { hardship_exemption: true, ...extra });
  const answer = await postJson(plansRoute, "/api/plans", body);
  expect(answer.status).toBe(200);
  return answer.body;
};

// Federal default age curve, age 21 = 1.000 (eligibility-rules.md §8), the ages used below.
const FEDERAL_CURVE: Record<string, number> = {
  "0-14": 0.765,
  "15": 0.833,
  "16": 0.859,
  "17": 0.885,
  "21": 1.0,
  "22": 1.0,
  "35": 1.222,
  "38": 1.246,
  "40": 1.278,
  "50": 1.786,
  "64 and over": 3.0,
};
const band = (age: number) => (age <= 14 ? "0-14" : age >= 64 ? "64 and over" : String(age));
const DALLAS_AREA = 8; // rating-areas-by-county.csv: Dallas County 48113 → Rating Area 8

/** One member's monthly premium by hand: the plan's age-21 rate × the curve factor, in cents. */
const memberByHand = (planId: string, age: number) =>
  cents(sampleRate(planId, DALLAS_AREA, "21") * FEDERAL_CURVE[band(age)]);

/** What the credit leaves to pay (eligibility-rules.md §5): premium − min(aptc, (premium − surcharge) × EHB share). */
const afterCredit = (premium: number, surcharge: number, ehbShare: number, aptc: number) =>
  cents(premium - Math.min(aptc, (premium - surcharge) * ehbShare));

describe("TX (age-rated, federal curve), Dallas County", () => {
  it("single, 40: every plan is the age-21 rate × 1.278, and the row the Rate PUF gives for 40", async () => {
    const answer = await plansFor(PLACES.dallas, [self(40)], 60_000);
    expect(answer).toMatchObject({
      year: 2027,
      source: "own",
      household_size: 1,
      place: { rating_area: "Rating Area 8" },
    });
    // service-area-puf.csv: issuers 10101, 10202, 10303, 10404 and 10505 serve Dallas County (the
    // SHOP and dental rows are not individual medical plans): 32 plans.
    expect(answer.plans).toHaveLength(32);
    expect(answer.total_plan_count).toBe(32);
    for (const plan of answer.plans as Plan[]) {
      // e.g. 10101TX0010001: 391.09 × 1.278 = 499.813 → 499.81, the PUF's "40" row.
      const byHand = memberByHand(plan.id, 40);
      expect(plan.premium, plan.id).toBe(byHand);
      expect(plan.premium, plan.id).toBe(sampleRate(plan.id, DALLAS_AREA, "40"));
      expect(plan.tobacco_surcharge).toBe(0);
      expect(plan.ehb_premium, plan.id).toBe(cents(byHand * sampleEhbShare(plan.id)));
    }
    expect(() => PlansResponse.parse(answer)).not.toThrow();
  });

  it.each([
    { ages: [10], label: "a child alone, 10 (band 0-14, 0.765)" },
    { ages: [21], label: "21 (1.000)" },
    { ages: [40], label: "40 (1.278)" },
    { ages: [64], label: "64 (3.000)" },
    { ages: [65], label: "65: rated in the band '64 and over' (3.000)" },
  ])("age band: $label", async ({ ages }) => {
    const people = ages.length === 1 && ages[0] < 21 ? [child(ages[0])] : [self(ages[0])];
    // A child applies alone with a parent in the tax household (a household with no adult is a 400).
    const extra = people[0].relationship === "child" ? { household: { people, size: 2 } } : {};
    const answer = await plansFor(PLACES.dallas, people, 60_000, extra);
    const plan = answer.plans.find((p: Plan) => p.id === "10101TX0010004");
    expect(plan.premium).toBe(memberByHand("10101TX0010004", ages[0]));
  });

  it("a 65-year-old pays exactly what a 64-year-old pays", async () => {
    const at64 = await plansFor(PLACES.dallas, [self(64)], 60_000);
    const at65 = await plansFor(PLACES.dallas, [self(65)], 60_000);
    // 10101TX0010004: 494.09 × 3.000 = 1482.27 for both.
    expect(at65.plans.find((p: Plan) => p.id === "10101TX0010004").premium).toBe(1482.27);
    const premiums = (a: Body) => Object.fromEntries(a.plans.map((p: Plan) => [p.id, p.premium]));
    expect(premiums(at65)).toEqual(premiums(at64));
  });

  it("household of six with four children under 21: only the three oldest children are rated", async () => {
    // 45 CFR 147.102(c)(1): 40, 38 and the children 16, 12, 9 are rated; the 5-year-old adds nothing.
    // 10101TX0010004 (age-21 rate 494.09):
    //   40: 494.09 × 1.278 = 631.447 → 631.45
    //   38: 494.09 × 1.246 = 615.636 → 615.64
    //   16: 494.09 × 0.859 = 424.423 → 424.42
    //   12:  494.09 × 0.765 = 377.979 → 377.98
    //    9:  494.09 × 0.765 = 377.979 → 377.98
    //    5:  0
    //   total 2427.47
    const six = [self(40), spouse(38), child(16), child(12), child(9), child(5)];
    // $100,000 is 225% of the six-person guideline (44,360): above TX's 206% children's Medicaid/CHIP
    // line, so the children are in the coverage family and priced.
    const answer = await plansFor(PLACES.dallas, six, 100_000);
    expect(answer.household_size).toBe(6);
    expect(answer.plans.find((p: Plan) => p.id === "10101TX0010004").premium).toBe(2427.47);
    for (const plan of answer.plans as Plan[]) {
      const byHand = [40, 38, 16, 12, 9].reduce((sum, age) => sum + memberByHand(plan.id, age), 0);
      expect(plan.premium, plan.id).toBe(cents(byHand));
    }
    // Without the youngest child: the same premiums (the eligibility differs, so compare by plan).
    const five = await plansFor(PLACES.dallas, six.slice(0, 5), 100_000);
    const premiums = (a: Body) => Object.fromEntries(a.plans.map((p: Plan) => [p.id, p.premium]));
    expect(premiums(five)).toEqual(premiums(answer));
  });

  it("a child of 22 is rated as an adult and does not count among the three children", async () => {
    // Rated: 50, 22 (adult), and 17, 15, 12 (the three oldest under 21); the 10-year-old adds nothing.
    const people = [self(50), child(22), child(17), child(15), child(12), child(10)];
    // $100,000 = 225% of 44,360: above TX's 206% children's line, so the children are priced.
    const answer = await plansFor(PLACES.dallas, people, 100_000);
    for (const plan of answer.plans as Plan[]) {
      const byHand = [50, 22, 17, 15, 12].reduce((sum, age) => sum + memberByHand(plan.id, age), 0);
      expect(plan.premium, plan.id).toBe(cents(byHand));
    }
  });

  it("tobacco: the tobacco rate where the plan has one; the credit never pays the surcharge", async () => {
    // $20,000 single: 125% FPL, contribution 2.15%: a large credit, larger than some plans' EHB premiums.
    const answer = await plansFor(PLACES.dallas, [self(40, true)], 20_000);
    const aptc = answer.eligibility.aptc;
    expect(aptc).toBeGreaterThan(400);
    // 10101TX0010001 rates tobacco: 624.76 for a 40-year-old user against 499.81 → surcharge 124.95.
    const bluebonnet = answer.plans.find((p: Plan) => p.id === "10101TX0010001");
    expect(bluebonnet).toMatchObject({ premium: 624.76, tobacco_surcharge: 124.95 });
    // EHB premium without tobacco: 499.81 × 0.9945 = 497.061 → 497.06 (the credit's cap).
    expect(bluebonnet.ehb_premium).toBe(497.06);
    // aptc > 497.06, so the credit is capped: 624.76 − 497.0605 = 127.6995 → 127.70 ≥ the surcharge.
    expect(bluebonnet.premium_w_credit).toBe(127.7);
    expect(bluebonnet.premium_w_credit).toBeGreaterThanOrEqual(bluebonnet.tobacco_surcharge);
    // 10202TX0020001 does not rate tobacco (tobacco rate = rate): no surcharge.
    expect(answer.plans.find((p: Plan) => p.id === "10202TX0020001")).toMatchObject({
      premium: 531.35,
      tobacco_surcharge: 0,
    });

    for (const plan of answer.plans as Plan[]) {
      const premium = sampleRate(plan.id, DALLAS_AREA, "40", true);
      const noTobacco = sampleRate(plan.id, DALLAS_AREA, "40");
      expect(plan.premium, plan.id).toBe(premium);
      expect(plan.tobacco_surcharge, plan.id).toBe(cents(premium - noTobacco));
      const credit = plan.metal_level === "Catastrophic" ? 0 : aptc;
      expect(plan.premium_w_credit, plan.id).toBe(
        afterCredit(premium, premium - noTobacco, sampleEhbShare(plan.id), credit),
      );
      expect(plan.premium_w_credit).toBeGreaterThanOrEqual(plan.tobacco_surcharge);
      expect(cents(plan.premium_w_credit + plan.credit_applied)).toBe(plan.premium);
    }
  });

  it("the credit: premium_w_credit = premium − min(aptc, EHB premium), never below 0; catastrophic plans get none", async () => {
    const answer = await plansFor(PLACES.dallas, [self(40)], 36_000);
    const aptc = answer.eligibility.aptc;
    expect(aptc).toBeGreaterThan(0);
    for (const plan of answer.plans as Plan[]) {
      if (plan.metal_level === "Catastrophic") {
        expect(plan).toMatchObject({ credit_applied: 0, premium_w_credit: plan.premium });
        continue;
      }
      expect(plan.premium_w_credit, plan.id).toBe(afterCredit(plan.premium, 0, sampleEhbShare(plan.id), aptc));
      expect(plan.premium_w_credit).toBeGreaterThanOrEqual(0);
      expect(plan.credit_applied).toBe(cents(plan.premium - plan.premium_w_credit));
    }
    expect(answer.plans.some((p: Plan) => p.metal_level === "Catastrophic")).toBe(true);
  });

  it.each([
    { income: 36_000, csr: "73", suffix: "04", why: "225% FPL: (200, 250]" },
    { income: 28_000, csr: "87", suffix: "05", why: "175% FPL: (150, 200]" },
    { income: 20_000, csr: "94", suffix: "06", why: "125% FPL: [100, 150]" },
    { income: 60_000, csr: null, suffix: "01", why: "375% FPL: no CSR" },
  ])(
    "CSR $csr ($why): silver plans show that variant's deductible and MOOP, other metals their own",
    async ({ income, csr, suffix }) => {
      const answer = await plansFor(PLACES.dallas, [self(40)], income);
      expect(answer.eligibility.csr).toBe(csr);
      for (const plan of answer.plans as Plan[]) {
        const silver = plan.metal_level === "Silver";
        const variantId = `${plan.id}-${silver ? suffix : "01"}`;
        expect(plan.variant_id, plan.id).toBe(variantId);
        expect(plan.csr_variant).toBe(silver ? csr : null);
        const row = sampleVariant(variantId);
        // Integrated medical and drug plans fill the TEHB columns; the others MEHB.
        const deductible = dollars(row.tehbdedinntier1individual || row.mehbdedinntier1individual);
        const moop = dollars(row.tehbinntier1individualmoop || row.mehbinntier1individualmoop);
        expect(plan.deductible.individual, variantId).toBe(deductible);
        expect(plan.moop.individual, variantId).toBe(moop);
      }
    },
  );

  it("carries metal level, type, issuer, HSA, quality rating and document URLs from the data", async () => {
    const answer = await plansFor(PLACES.dallas, [self(40)], 60_000);
    const plan = answer.plans.find((p: Plan) => p.id === "10101TX0010002");
    // plan-attributes-puf.csv / quality-puf.csv for 10101TX0010002.
    expect(plan).toMatchObject({
      name: "Bluebonnet Bronze HSA",
      issuer: { id: "10101", name: "Bluebonnet Health Plans" },
      metal_level: "Bronze",
      type: "HMO",
      hsa_eligible: true,
      quality_rating: 2,
    });
    // A lean list (docs/decisions/136): the plan's documents are on its plan page, not in the list.
    expect(plan).not.toHaveProperty("urls");
    expect(plan.estimated_yearly_cost).toBeGreaterThanOrEqual(cents(plan.premium_w_credit * 12));
  });
});

describe("service areas", () => {
  it("a partial-county service area covers only its ZIP list (Travis County: Trinity Crest in 78701–78705 only)", async () => {
    const inList = await plansFor(PLACES.travisInList, [self(40)], 60_000);
    const outside = await plansFor(PLACES.travisOutside, [self(40)], 60_000);
    const issuers = (answer: Body) => new Set(answer.plans.map((p: Plan) => p.issuer.id));
    expect(issuers(inList).has("10303")).toBe(true);
    expect(issuers(outside).has("10303")).toBe(false);
    const trinity = inList.plans.filter((p: Plan) => p.issuer.id === "10303").length;
    expect(trinity).toBeGreaterThan(0);
    expect(inList.plans.length - outside.plans.length).toBe(trinity);
    // Travis County is Rating Area 3: 10101TX0010004 there is 525.72 × 1.278 = 671.870 → 671.87.
    expect(inList.place.rating_area).toBe("Rating Area 3");
    expect(inList.plans.find((p: Plan) => p.id === "10101TX0010004").premium).toBe(671.87);
  });
});

describe("NY (community rated, family tiers)", () => {
  it.each([
    { name: "single", people: [self(40)], factor: 1.0 },
    { name: "couple", people: [self(45), spouse(43)], factor: 2.0 },
    { name: "one adult with children", people: [self(38), child(10), child(7)], factor: 1.7 },
    { name: "two adults with children", people: [self(42), spouse(40), child(12), child(9)], factor: 2.85 },
    {
      name: "two adults with four children (tiers do not count children)",
      people: [self(42), spouse(40), child(12), child(9), child(6), child(3)],
      factor: 2.85,
    },
  ])("$name: single-adult rate × $factor, whatever the ages, no tobacco rating", async ({ people, factor }) => {
    const smokers = people.map((p) => ({ ...p, uses_tobacco: p.relationship !== "child" }));
    const answer = await plansFor(PLACES.kings, smokers, 500_000);
    // 14 plans in Kings County: issuers 20101, 20202, 20303 (service-area-puf.csv).
    expect(answer.plans).toHaveLength(14);
    for (const plan of answer.plans as Plan[]) {
      // e.g. 20101NY0010002: 911.67 × 2.85 = 2598.2595 → 2598.26.
      expect(plan.premium, plan.id).toBe(cents(sampleFamilyOptionRate(plan.id, 4) * factor));
      expect(plan.tobacco_surcharge).toBe(0);
      // $500,000 is far above 400%: no credit.
      expect(plan.premium_w_credit).toBe(plan.premium);
    }
  });
});

describe("filters and sorts", () => {
  let all: Plan[];
  beforeAll(async () => {
    all = (await plansFor(PLACES.dallas, [self(40)], 36_000)).plans;
  });
  const filtered = async (filters: Record<string, unknown>) => plansFor(PLACES.dallas, [self(40)], 36_000, { filters });
  const ids = (plans: Plan[]) => plans.map((p) => p.id).sort();

  it.each([
    { filters: { metal_levels: ["Silver", "Gold"] }, keep: (p: Plan) => ["Silver", "Gold"].includes(p.metal_level) },
    { filters: { metal_levels: ["Bronze"] }, keep: (p: Plan) => p.metal_level === "Bronze" },
    { filters: { types: ["PPO", "POS"] }, keep: (p: Plan) => ["PPO", "POS"].includes(p.type) },
    { filters: { issuers: ["Pecan Valley Health"] }, keep: (p: Plan) => p.issuer.id === "10202" },
    {
      filters: { issuers: ["10303", "longhorn mutual health"] },
      keep: (p: Plan) => ["10303", "10404"].includes(p.issuer.id),
    },
    { filters: { hsa_eligible: true }, keep: (p: Plan) => p.hsa_eligible },
    { filters: { max_premium: 200 }, keep: (p: Plan) => p.premium_w_credit <= 200 },
    {
      filters: { max_deductible: 2000 },
      keep: (p: Plan) => p.deductible.individual !== null && p.deductible.individual <= 2000,
    },
    {
      filters: { metal_levels: ["Silver"], max_deductible: 3500 },
      keep: (p: Plan) => p.metal_level === "Silver" && p.deductible.individual <= 3500,
    },
  ])("filter $filters", async ({ filters, keep }) => {
    const answer = await filtered(filters);
    const expectedIds = ids(all.filter(keep));
    expect(expectedIds.length).toBeGreaterThan(0);
    expect(expectedIds.length).toBeLessThan(all.length);
    expect(ids(answer.plans)).toEqual(expectedIds);
    expect(answer).toMatchObject({ total_plan_count: all.length, plan_count: expectedIds.length });
  });

  it("Bronze does not include Expanded Bronze (each is its own level)", async () => {
    const answer = await filtered({ metal_levels: ["Expanded Bronze"] });
    expect(answer.plans.length).toBeGreaterThan(0);
    expect(answer.plans.every((p: Plan) => p.metal_level === "Expanded Bronze")).toBe(true);
  });

  it.each([
    { sort: "premium", key: (p: Plan) => p.premium_w_credit },
    { sort: "deductible", key: (p: Plan) => p.deductible.individual },
    { sort: "moop", key: (p: Plan) => p.moop.individual },
    { sort: "yearly_cost", key: (p: Plan) => p.estimated_yearly_cost },
    { sort: "quality_rating", key: (p: Plan) => p.quality_rating },
  ])("sort by $sort, ascending and descending, unknowns last", async ({ sort, key }) => {
    for (const order of ["asc", "desc"] as const) {
      const answer = await plansFor(PLACES.dallas, [self(40)], 36_000, { sort, order });
      expect(answer).toMatchObject({ sort, order });
      const keys: Array<number | null> = answer.plans.map(key);
      const known = keys.filter((k): k is number => k !== null);
      const sorted = [...known].sort((a, b) => (order === "asc" ? a - b : b - a));
      expect(keys.slice(0, known.length)).toEqual(sorted);
      expect(keys.slice(known.length).every((k) => k === null)).toBe(true);
      expect(answer.plans).toHaveLength(all.length);
    }
  });

  it("equal premiums after credit are listed in plan-id order, ascending and descending", async () => {
    // $20,000 for one: a credit large enough to bring several plans to $0 a month, so there are ties.
    for (const order of ["asc", "desc"] as const) {
      const answer = await plansFor(PLACES.dallas, [self(40)], 20_000, { sort: "premium", order });
      const premiums = answer.plans.map((p: Plan) => p.premium_w_credit);
      expect(new Set(premiums).size).toBeLessThan(premiums.length); // ties exist
      const sign = order === "asc" ? 1 : -1;
      const reference = [...answer.plans].sort(
        (a: Plan, b: Plan) => sign * (a.premium_w_credit - b.premium_w_credit) || a.id.localeCompare(b.id),
      );
      expect(answer.plans.map((p: Plan) => p.id)).toEqual(reference.map((p: Plan) => p.id));
    }
  });

  it("quality ratings include unrated plans, listed last", async () => {
    const answer = await plansFor(PLACES.dallas, [self(40)], 36_000, { sort: "quality_rating", order: "desc" });
    expect(answer.plans[0].quality_rating).toBe(5);
    expect(answer.plans.at(-1).quality_rating).toBeNull();
  });

  it("usage changes the yearly estimate, not the premium", async () => {
    const low = await plansFor(PLACES.dallas, [self(40)], 36_000, { usage: "low" });
    const high = await plansFor(PLACES.dallas, [self(40)], 36_000, { usage: "high" });
    const plan = (answer: Body) => answer.plans.find((p: Plan) => p.id === "10101TX0010004");
    expect(plan(low).premium_w_credit).toBe(plan(high).premium_w_credit);
    expect(plan(high).estimated_yearly_cost).toBeGreaterThan(plan(low).estimated_yearly_cost);
  });

  it.each([
    [{ filters: { metal_levels: ["Tin"] } }, "filters.metal_levels.0"],
    [{ filters: { max_premium: -5 } }, "filters.max_premium"],
    [{ filters: { colour: "blue" } }, "filters"],
    [{ sort: "price" }, "sort"],
    [{ order: "up" }, "order"],
    [{ usage: "extreme" }, "usage"],
  ])("%j → 400 naming %s", async (patch, field) => {
    const { status, body } = await postJson(plansRoute, "/api/plans", {
      ...shoppingBody(PLACES.dallas, [self(40)], 36_000),
      ...patch,
    });
    expect(status).toBe(400);
    expect(Object.keys(body.error.fields)).toContain(field);
  });
});

describe("errors", () => {
  it("a year without data → 404 naming the year", async () => {
    const { status, body } = await postJson(
      plansRoute,
      "/api/plans",
      shoppingBody(PLACES.dallas, [self(40)], 36_000, { year: 2031 }),
    );
    expect(status).toBe(404);
    expect(body.error.message).toContain("2031");
  });

  it("a state-based marketplace → 409 with its name", async () => {
    const { status, body } = await postJson(
      plansRoute,
      "/api/plans",
      shoppingBody({ state: "PA", county_fips: "42101", zip: "19103" }, [self(40)], 36_000),
    );
    expect(status).toBe(409);
    expect(body.error.message).toContain("Pennie");
  });

  it("answers with a Server-Timing header and no-store", async () => {
    const { headers } = await postJson(plansRoute, "/api/plans", shoppingBody(PLACES.dallas, [self(40)], 36_000));
    expect(headers.get("cache-control")).toBe("no-store");
    expect(headers.get("server-timing")).toMatch(/store/);
  });
});
