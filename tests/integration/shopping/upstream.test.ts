import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as eligibilityRoute from "../../../app/routes/api.eligibility";
import * as plansRoute from "../../../app/routes/api.plans";
import { eligibilityDrift } from "../../../app/server/shopping/eligibility-fallback.server";
import { startFakeUpstream } from "../../../mocks/cms-api/index";
import { EligibilityResponse, PlansResponse } from "../../../app/schemas/shopping";
import type { FakeUpstreamMode } from "../../../mocks/cms-api/index";
import {
  cents,
  configureShopping,
  editedStoreCopy,
  PLACES,
  postJson,
  SAMPLE_DIR,
  sampleEhbShare,
  sampleRate,
  self,
  shoppingBody,
  withShoppingFake,
  upstreamCalls,
  UPSTREAM_KEY,
  type Body,
} from "./helpers";

/**
 * The federal-state branch: TX eligibility from the upstream estimate (a fake
 * CMS Marketplace API over real HTTP, serving the same sample files), its
 * outage, and the upstream plan-search branch.
 */
const upstream = withShoppingFake();

const eligibility = (body: unknown) => postJson(eligibilityRoute, "/api/eligibility", body);
const plans = (body: unknown) => postJson(plansRoute, "/api/plans", body);

describe("TX eligibility from upstream", () => {
  it("the specification's scenario: Dallas, single, 35, $36,000 → csr 73 and a non-zero aptc", async () => {
    const { status, body } = await eligibility(shoppingBody(PLACES.dallas, [self(35)], 36_000));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      year: 2027,
      csr: "73",
      is_medicaid_chip: false,
      in_coverage_gap: false,
      source: "upstream",
    });
    expect(body.aptc).toBeGreaterThan(0);
    // Upstream's hardship exemption is not surfaced; NY's essential_plan is not sent for TX.
    expect(body).not.toHaveProperty("hardship_exemption");
    expect(body).not.toHaveProperty("essential_plan");
    expect(() => EligibilityResponse.parse(body)).not.toThrow();

    // The fake computes as CMS does; by hand: FPL = 36,000 / 15,960 = 225% → 6.78 + 25/50 × 1.88 = 7.72%,
    // contribution 0.0772 × 36,000 / 12 = 231.60; benchmark = second-lowest (age-35 rate × EHB share)
    // of Dallas silver plans; the service rounds upstream's unrounded credit to cents.
    const dallasSilver = [
      "10101TX0010004",
      "10101TX0010005",
      "10202TX0020003",
      "10202TX0030004",
      "10303TX0030003",
      "10303TX0030004",
      "10404TX0010002",
      "10404TX0040003",
      "10505TX0010003",
    ];
    const ehb = dallasSilver.map((id) => sampleRate(id, 8, "35") * sampleEhbShare(id)).sort((a, b) => a - b);
    expect(body.aptc).toBe(cents(ehb[1] - 231.6));

    const [call] = upstreamCalls(upstream.fake, "/households/eligibility/estimates");
    expect(call.query.year).toBe("2027");
    expect(call.body).toMatchObject({
      year: 2027,
      market: "Individual",
      place: { countyfips: "48113", state: "TX", zipcode: "75201" },
      household: {
        income: 36_000,
        people: [{ age: 35, aptc_eligible: true, relationship: "Self", uses_tobacco: false }],
      },
    });
  });

  it.each([
    {
      income: 15_959,
      gap: true,
      csr: null,
      why: "$1 under 100% in a non-expansion state: the coverage gap, no credit",
    },
    { income: 15_960, gap: false, csr: "94", why: "at 100%: credit and CSR 94" },
    { income: 15_961, gap: false, csr: "94", why: "$1 over 100%" },
    { income: 23_940, gap: false, csr: "94", why: "at 150%: still 94" },
    { income: 23_941, gap: false, csr: "87", why: "$1 over 150%: 87" },
    { income: 39_900, gap: false, csr: "73", why: "at 250%: 73" },
    { income: 39_901, gap: false, csr: null, why: "$1 over 250%: no CSR" },
  ])("single in Dallas, $income: $why", async ({ income, gap, csr }) => {
    const { body } = await eligibility(shoppingBody(PLACES.dallas, [self(35)], income));
    expect(body).toMatchObject({ in_coverage_gap: gap, csr, is_medicaid_chip: false });
    if (gap) expect(body.aptc).toBe(0);
    else expect(body.aptc).toBeGreaterThan(0);
  });

  it("$1 over 400% gets no credit", async () => {
    const { body } = await eligibility(shoppingBody(PLACES.dallas, [self(35)], 63_841));
    expect(body).toMatchObject({ aptc: 0, csr: null });
  });

  it("a tax household larger than the people applying is sent to upstream with the others as covered elsewhere", async () => {
    // $36,000 for three: 36,000 / (15,960 + 2 × 5,680 = 27,320) = 131% → CSR 94 (for one it would be 73).
    const { body } = await eligibility({
      ...shoppingBody(PLACES.dallas, [self(35)], 36_000),
      household: { size: 3, people: [self(35)] },
    });
    expect(body.csr).toBe("94");
    const [call] = upstreamCalls(upstream.fake, "/households/eligibility/estimates");
    const people = (call.body as Body).household.people;
    expect(people).toHaveLength(3);
    expect(people.slice(1)).toEqual([
      { age: 35, relationship: "Other Relative", aptc_eligible: false, has_mec: true },
      { age: 35, relationship: "Other Relative", aptc_eligible: false, has_mec: true },
    ]);
  });

  it("/api/plans prices TX plans with the upstream estimate", async () => {
    const estimate = await eligibility(shoppingBody(PLACES.dallas, [self(35)], 36_000));
    const { body } = await plans(shoppingBody(PLACES.dallas, [self(35)], 36_000));
    expect(body.source).toBe("own");
    expect(body.eligibility).toEqual(estimate.body);
    const silver = body.plans.find((p: Body) => p.id === "10101TX0010004");
    // 10101TX0010004, age 35: 494.09 × 1.222 = 603.778 → 603.78; EHB 603.78 × 0.9935; the credit is below it.
    expect(silver.premium).toBe(603.78);
    expect(silver.premium_w_credit).toBe(cents(603.78 - Math.min(estimate.body.aptc, 603.78 * 0.9935)));
    expect(silver).toMatchObject({ csr_variant: "73", variant_id: "10101TX0010004-04" });
  });
});

describe("upstream down", () => {
  const outages: FakeUpstreamMode[] = ["refuse", "500", "503", "429", "malformed"];
  afterEach(() => upstream.fake.setMode("normal"));

  // Hand calculation (the spec scenario above): FPL 225% → 7.72 %, contribution 231.60 a month;
  // benchmark = second-lowest age-35 EHB premium of Dallas's silver plans.
  const DALLAS_SILVER = [
    "10101TX0010004",
    "10101TX0010005",
    "10202TX0020003",
    "10202TX0030004",
    "10303TX0030003",
    "10303TX0030004",
    "10404TX0010002",
    "10404TX0040003",
    "10505TX0010003",
  ];
  const handAptc = () => {
    const ehb = DALLAS_SILVER.map((id) => sampleRate(id, 8, "35") * sampleEhbShare(id)).sort((a, b) => a - b);
    return cents(ehb[1] - 231.6);
  };

  it.each(outages)("%s: /api/eligibility answers 200 with our own estimate, saying so", async (mode) => {
    await upstream.fake.setMode(mode);
    const { status, body } = await eligibility(shoppingBody(PLACES.dallas, [self(35)], 36_000));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      source: "own",
      upstream: mode === "429" ? "busy" : "unavailable",
      csr: "73",
      is_medicaid_chip: false,
      fpl_percent: 225.5, // 36,000 / 15,960 = 225.56…, truncated to one decimal
      expected_contribution: 231.6,
    });
    expect(body.aptc).toBe(handAptc());
    expect(body.note).toMatch(/our own estimate/);
    expect(() => EligibilityResponse.parse(body)).not.toThrow();
  });

  it.each(outages)("%s: /api/plans prices with our own estimate, saying so", async (mode) => {
    await upstream.fake.setMode(mode);
    const { status, body } = await plans(shoppingBody(PLACES.dallas, [self(35)], 36_000));
    expect(status).toBe(200);
    expect(body.eligibility).toMatchObject({ source: "own", csr: "73", aptc: handAptc() });
    expect(body.eligibility_unavailable).toBeNull();
    // 32 Dallas plans less the 2 catastrophic ones, which a 35-year-old cannot buy (decision 313).
    expect(body.plans).toHaveLength(30);
    const silver = body.plans.find((p: Body) => p.id === "10101TX0010004");
    expect(silver.premium).toBe(603.78);
    expect(silver.premium_w_credit).toBe(cents(603.78 - Math.min(handAptc(), 603.78 * 0.9935)));
    expect(silver).toMatchObject({ csr_variant: "73" });
    expect(() => PlansResponse.parse(body)).not.toThrow();
  });

  it("a key upstream rejects, or a year it has not published: our own estimate, with the reason", async () => {
    await upstream.fake.setMode("key_rejected");
    const rejected = await eligibility(shoppingBody(PLACES.dallas, [self(35)], 36_000));
    expect(rejected.body).toMatchObject({ source: "own", upstream: "key_rejected", csr: "73" });
    await upstream.fake.setMode("normal");
    // A fake that has not published 2027: the year is not asked at all, and our own estimate answers.
    const early = await startFakeUpstream({ apiKey: UPSTREAM_KEY, dataDir: SAMPLE_DIR, years: [2026] });
    try {
      configureShopping({ upstreamUrl: early.url });
      const { status, body } = await eligibility(shoppingBody(PLACES.dallas, [self(35)], 36_000));
      expect(status).toBe(200);
      expect(body).toMatchObject({ source: "own", upstream: "year_not_served", csr: "73" });
      expect(body.note).toMatch(/has not published this plan year/);
      expect(early.calls).toHaveLength(0);
    } finally {
      await early.close();
      configureShopping({ upstreamUrl: upstream.fake.url });
    }
  });

  it("upstream black hole: Dallas, single, 35, $36,000 answers 200 within 6 s from our own calculation", async () => {
    await upstream.fake.setMode("blackhole");
    const started = performance.now();
    const { status, body } = await eligibility(shoppingBody(PLACES.dallas, [self(35)], 36_000));
    const ms = performance.now() - started;
    expect(status).toBe(200);
    expect(body).toMatchObject({ source: "own", upstream: "unavailable", csr: "73", aptc: handAptc() });
    expect(ms).toBeLessThan(6_000);
  });

  it("a household estimated before the outage keeps the federal estimate; a new one gets ours", async () => {
    const before = await eligibility(shoppingBody(PLACES.dallas, [self(35)], 36_000));
    expect(before.status).toBe(200);
    await upstream.fake.setMode("503");
    const again = await plans(shoppingBody(PLACES.dallas, [self(35)], 36_000));
    expect(again.status).toBe(200);
    expect(again.body.eligibility).toEqual(before.body);
    expect(again.body.eligibility_unavailable).toBeNull();
    const other = await eligibility(shoppingBody(PLACES.dallas, [self(36)], 36_000));
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ source: "own", upstream: "unavailable" });
  });

  it("where both answer, the difference is kept as a metric", async () => {
    const before = eligibilityDrift().compared;
    await eligibility(shoppingBody(PLACES.dallas, [self(44)], 36_000));
    const after = eligibilityDrift();
    expect(after.compared).toBe(before + 1);
    // The fake and our own code follow the same rules: no drift in the credit beyond a cent's rounding.
    expect(after.maxAbsAptc).toBeLessThanOrEqual(0.01);
    expect(after.csrDiffers).toBe(0);
  });

  it("NY keeps working and never asks upstream", async () => {
    await upstream.fake.setMode("refuse");
    const { status, body } = await eligibility(shoppingBody(PLACES.kings, [self(40)], 47_880));
    expect(status).toBe(200);
    expect(body.aptc).toBe(497.96);
    const priced = await plans(shoppingBody(PLACES.kings, [self(40)], 47_880));
    expect(priced.body.eligibility.aptc).toBe(497.96);
    await upstream.fake.setMode("normal");
    expect(upstream.fake.calls).toHaveLength(0);
  });

  it("upstream refusing the place (no rating area) is a 422 with the place's own code, and plans are full price", async () => {
    // 33139 Miami Beach: FL is an owned-data state, but the sample has no FL plans or rating areas.
    const place = { state: "FL", county_fips: "12086", zip: "33139" };
    const estimate = await eligibility(shoppingBody(place, [self(35)], 36_000));
    expect(estimate.status).toBe(422);
    expect(estimate.body.error.code).toBe("upstream_bad_place");
    expect(estimate.body.error.message).toMatch(/Check the state, county and ZIP code/);
    expect(Object.keys(estimate.body.error.fields)).toContain("place");
    const { status, body } = await plans(shoppingBody(place, [self(35)], 36_000));
    expect(status).toBe(200);
    expect(body).toMatchObject({ plans: [], total_plan_count: 0, eligibility: null, place: { rating_area: null } });
  });
});

describe("the upstream plan-search branch (a state that is neither owned nor state-based)", () => {
  // No such state exists in the 2027 states table (every HealthCare.gov state is owned), so the
  // branch is reached with a private copy of the store where TX is not an owned-data state.
  let store: { file: string; remove(): void };
  beforeAll(() => {
    store = editedStoreCopy((db) => db.prepare("UPDATE states SET owned_data = 0 WHERE code = 'TX'").run());
    configureShopping({ planStore: store.file, upstreamUrl: upstream.fake.url });
  });
  afterAll(() => {
    configureShopping({ upstreamUrl: upstream.fake.url });
    store.remove();
  });
  afterEach(() => upstream.fake.setMode("normal"));

  it("asks upstream plan search, every page of 10 until total, and maps plans to the same shape", async () => {
    const estimate = await eligibility(shoppingBody(PLACES.dallas, [self(40)], 36_000));
    upstream.fake.reset();
    // With a hardship exemption, so the catastrophic plans are listed (and priced without the credit) too.
    const { status, body } = await plans(shoppingBody(PLACES.dallas, [self(40)], 36_000, { hardship_exemption: true }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ source: "upstream", year: 2027, place: { rating_area: null } });
    expect(body.catastrophic_reason).toBe("hardship_exemption");
    expect(body.eligibility).toEqual(estimate.body);
    // The fake prices the same 32 Dallas plans: pages at offsets 0, 10, 20 and 30.
    const searches = upstreamCalls(upstream.fake, "/plans/search");
    expect(searches.map((c) => (c.body as Body).offset).sort((a: number, b: number) => a - b)).toEqual([0, 10, 20, 30]);
    expect(body.plans).toHaveLength(32);
    expect(new Set(body.plans.map((p: Body) => p.id)).size).toBe(32);
    // Priced with the estimate this answer reports.
    expect((searches[0].body as Body).aptc_override).toBe(estimate.body.aptc);
    expect((searches[0].body as Body).csr_override).toBe("CSR73");

    for (const plan of body.plans as Body[]) {
      // Upstream's premium for a 40-year-old is the plan's age-40 rate, as in the own branch.
      expect(plan.premium, plan.id).toBe(sampleRate(plan.id, 8, "40"));
      const credit = plan.metal_level === "Catastrophic" ? 0 : estimate.body.aptc;
      expect(plan.premium_w_credit, plan.id).toBe(cents(Math.max(0, plan.premium - credit)));
      expect(plan.credit_applied).toBe(cents(plan.premium - plan.premium_w_credit));
      expect(plan.deductible.individual).toEqual(expect.any(Number));
      expect(plan).not.toHaveProperty("urls"); // documents are on the plan page (docs/decisions/136)
    }
    const bronzeHsa = body.plans.find((p: Body) => p.id === "10101TX0010002");
    expect(bronzeHsa).toMatchObject({
      hsa_eligible: true,
      issuer: { id: "10101", name: "Bluebonnet Health Plans" },
      metal_level: "Bronze",
      type: "HMO",
    });
    expect(() => PlansResponse.parse(body)).not.toThrow();
  });

  it("applies the same filters and sorts", async () => {
    const { body } = await plans(
      shoppingBody(PLACES.dallas, [self(40)], 36_000, {
        filters: { metal_levels: ["Gold"] },
        sort: "premium",
        order: "desc",
      }),
    );
    expect(body.plans.length).toBeGreaterThan(0);
    expect(body.plans.every((p: Body) => p.metal_level === "Gold")).toBe(true);
    const premiums = body.plans.map((p: Body) => p.premium_w_credit);
    expect(premiums).toEqual([...premiums].sort((a, b) => b - a));
    // 32 less the 2 catastrophic plans a 40-year-old without an exemption cannot buy.
    expect(body.total_plan_count).toBe(30);
  });

  it("upstream down → 503 plans_unavailable", async () => {
    await upstream.fake.setMode("503");
    const { status, body } = await plans(shoppingBody(PLACES.dallas, [self(40)], 36_000));
    expect(status).toBe(503);
    expect(body.error.code).toBe("plans_unavailable");
  });
});
