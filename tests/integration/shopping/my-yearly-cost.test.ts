import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as plansRoute from "../../../app/routes/api.plans";
import { PlansResponse } from "../../../app/schemas/shopping";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import {
  configureShopping,
  PLACES,
  postJson,
  self,
  shoppingBody,
  spouse,
  startShoppingFake,
  type Body,
} from "./helpers";
import { forgetCoverageAnswers } from "../../../app/server/upstream/coverage.server";

/**
 * Issue 26, done-when: a Dallas 35-year-old with Lipitor (RxCUI 617318, "atorvastatin 20 MG Oral
 * Tablet [Lipitor]" in seed/sample/mr/*\/drugs.json), metformin (861007, "metformin hydrochloride 500
 * MG Oral Tablet") and one doctor (NPI 1480000045, a cardiologist in issuer 10101's network), through
 * POST /api/plans over the fake upstream and the test plan store.
 */
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startShoppingFake();
});
afterAll(() => fake.close());

const LIPITOR = "617318";
const METFORMIN = "861007";
/** canagliflozin 100 MG Oral Tablet: a brand no generic stands in for, on 21 of Dallas's plans. */
const CANAGLIFLOZIN = "1373463";
const CARDIOLOGIST = "1480000045";

async function dallasPlans(extra: Record<string, unknown>) {
  const answer = await postJson(
    plansRoute,
    "/api/plans",
    shoppingBody(PLACES.dallas, [self(35)], 40000, { sort: "my_yearly_cost", limit: 500, ...extra }),
  );
  expect(answer.status).toBe(200);
  PlansResponse.parse(answer.body);
  return answer.body.plans as Body[];
}

type Year = {
  typical: number;
  bad_year: number;
  worst_case: number;
  parts: {
    drugs: Array<{ rxcui: string; coverage: string; tier: string | null; yearly_cost: number }>;
    doctors: Array<{ npi: string; in_network: boolean | null; yearly_cost: number }>;
    out_of_pocket_max: number;
    outside_max: number;
  };
};
const yearOf = (plan: Body) => plan.my_yearly_cost as Year;

describe("your year: Dallas, 35, Lipitor, metformin and a cardiologist", () => {
  it("every plan has the three figures in order, worst case = 12 × premium after credit + its maximum, sorted by typical, with reasons", async () => {
    const plans = await dallasPlans({
      drugs: [{ rxcui: LIPITOR }, { rxcui: METFORMIN }],
      doctors: [{ npi: CARDIOLOGIST, specialty: "Cardiology" }],
    });
    expect(plans.length).toBeGreaterThan(20);
    plans.forEach((plan, i) => {
      const year = yearOf(plan);
      expect(year.typical).toBeLessThanOrEqual(year.bad_year);
      expect(year.bad_year).toBeLessThanOrEqual(year.worst_case);
      // One person covered: the individual in-network maximum of the variant priced (the plan store's row).
      const moop = (plan.moop as { individual: number }).individual;
      expect(Math.abs(year.worst_case - (12 * (plan.premium_w_credit as number) + moop))).toBeLessThanOrEqual(1);
      expect(year.parts.drugs.map((d) => d.rxcui)).toEqual([LIPITOR, METFORMIN]);
      expect(year.parts.doctors.map((d) => d.npi)).toEqual([CARDIOLOGIST]);
      const ranking = plan.ranking as { position: number; reasons: string[] };
      expect(ranking.position).toBe(i + 1);
      expect(ranking.reasons.length).toBeGreaterThan(0);
      if (i > 0) {
        const before = yearOf(plans[i - 1]);
        expect(before.typical).toBeLessThanOrEqual(year.typical);
        if (before.typical === year.typical) expect(before.bad_year).toBeLessThanOrEqual(year.bad_year);
      }
    });
    expect((plans[0].ranking as { reasons: string[] }).reasons[0]).toMatch(
      /^Lowest typical yearly cost: \$[\d,]+ a year less/,
    );
  });

  it("an uncovered drug costs more for the year than the same drug covered at a copay", async () => {
    const plans = await dallasPlans({ drugs: [{ rxcui: LIPITOR }, { rxcui: METFORMIN }, { rxcui: CANAGLIFLOZIN }] });
    const part = (plan: Body) => yearOf(plan).parts.drugs.find((d) => d.rxcui === CANAGLIFLOZIN)!;
    const uncovered = plans.filter((p) => part(p).coverage === "NotCovered");
    // Covered: at the plan's tier, a copay or coinsurance of the $300 fill, before or after the deductible.
    const covered = plans.filter((p) => ["Covered", "PartialCovered"].includes(part(p).coverage));
    expect(uncovered.length).toBeGreaterThan(0);
    expect(covered.length).toBeGreaterThan(0);
    // Not covered: 12 fills × the $300 brand price = $3,600 (docs/yearly-cost.md, "Price of a fill").
    // The figures count it toward the plan's maximum (decision 332): less only where the year reached it.
    for (const p of uncovered) {
      const year = yearOf(p);
      if (part(p).yearly_cost !== 3600) expect(year.typical).toBe(year.worst_case);
      expect(year.parts.outside_max).toBeGreaterThanOrEqual(3600);
    }
    expect(uncovered.some((p) => part(p).yearly_cost === 3600)).toBe(true);
    // A covered fill never costs the member more than the fill's price, and a copay before the
    // deductible far less: every covered year ≤ $3,600, the cheapest well under it.
    for (const p of covered) expect(part(p).yearly_cost).toBeLessThanOrEqual(3600);
    expect(Math.min(...covered.map((p) => part(p).yearly_cost))).toBeLessThan(3600);
    // And the ranking warns where a cheaper plan covers it.
    const warned = uncovered.filter((p) =>
      (p.ranking as { warnings: string[] }).warnings.some((w) => w.includes(CANAGLIFLOZIN)),
    );
    expect(warned.length).toBeGreaterThan(0);
  });

  it("without drugs or doctors every plan still has its year and its reasons", async () => {
    const plans = await dallasPlans({});
    for (const plan of plans) {
      const year = yearOf(plan);
      expect(year.parts.drugs).toEqual([]);
      expect(year.typical).toBeLessThanOrEqual(year.bad_year);
      expect((plan.ranking as { reasons: string[] }).reasons.length).toBeGreaterThan(0);
    }
  });

  it("refuses a malformed drug or doctor with a 400 naming the field", async () => {
    const answer = await postJson(
      plansRoute,
      "/api/plans",
      shoppingBody(PLACES.dallas, [self(35)], 40000, { drugs: [{ rxcui: "lipitor" }] }),
    );
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("drugs");
    const doctor = await postJson(
      plansRoute,
      "/api/plans",
      shoppingBody(PLACES.dallas, [self(35)], 40000, { doctors: [{ npi: "123", visits_per_year: -1 }] }),
    );
    expect(doctor.status).toBe(400);
    expect(JSON.stringify(doctor.body)).toContain("doctors");
  });

  it("with the upstream unreachable, the plan store's own formulary rows give coverage and tiers", async () => {
    forgetCoverageAnswers();
    configureShopping({ upstreamUrl: "http://127.0.0.1:9" });
    try {
      const plans = await dallasPlans({ drugs: [{ rxcui: METFORMIN }] });
      // metformin 500 mg is on every Dallas formulary (seed/sample/mr/*/drugs.json): known from own rows.
      for (const plan of plans) {
        const part = yearOf(plan).parts.drugs[0];
        expect(["Covered", "PartialCovered"]).toContain(part.coverage);
        expect(part.tier).toMatch(/GENERIC/);
      }
    } finally {
      configureShopping({ upstreamUrl: fake.url });
    }
  });

  it("a CSR household: silver plans are priced at their CSR variant's own maximum; a couple at the family maximum", async () => {
    // $24,000 for one person is about 150% of the poverty line: the 94% silver variant.
    const csr = (
      await postJson(
        plansRoute,
        "/api/plans",
        shoppingBody(PLACES.dallas, [self(35)], 24000, { drugs: [{ rxcui: METFORMIN }], limit: 500 }),
      )
    ).body.plans as Body[];
    const silver = csr.filter((p) => p.csr_variant !== null);
    expect(silver.length).toBeGreaterThan(0);
    for (const plan of csr) {
      const year = yearOf(plan);
      const moop = (plan.moop as { individual: number }).individual; // the variant's, as the answer shows it
      expect(year.parts.out_of_pocket_max).toBe(moop);
      expect(Math.abs(year.worst_case - (12 * (plan.premium_w_credit as number) + moop))).toBeLessThanOrEqual(1);
    }
    // Two people: the family maximum (the plan's stated family amount).
    const couple = (
      await postJson(
        plansRoute,
        "/api/plans",
        shoppingBody(PLACES.dallas, [self(35), spouse(33)], 60000, { limit: 500 }),
      )
    ).body.plans as Body[];
    for (const plan of couple) {
      const family = (plan.moop as { family: number | null }).family;
      if (family === null) continue;
      const year = yearOf(plan);
      expect(year.parts.out_of_pocket_max).toBe(family);
      expect(Math.abs(year.worst_case - (12 * (plan.premium_w_credit as number) + family))).toBeLessThanOrEqual(1);
      expect(year.typical).toBeLessThanOrEqual(year.bad_year);
      expect(year.bad_year).toBeLessThanOrEqual(year.worst_case);
    }
  });

  it("words the ranking in Spanish for Accept-Language: es", async () => {
    const response = await plansRoute.action({
      request: new Request("http://localhost/api/plans", {
        method: "POST",
        headers: { "content-type": "application/json", "accept-language": "es-US,es;q=0.9" },
        body: JSON.stringify(
          shoppingBody(PLACES.dallas, [self(35)], 40000, { sort: "my_yearly_cost", drugs: [{ rxcui: LIPITOR }] }),
        ),
      }),
      params: {},
      context: {},
    });
    const body = (await response.json()) as { plans: Array<{ ranking: { reasons: string[] } }> };
    expect(body.plans[0].ranking.reasons[0]).toMatch(/^Menor costo anual típico: \$[\d,]+ al año menos/);
    expect(body.plans[1].ranking.reasons[0]).toMatch(/^Un año típico cuesta \$[\d,]+ más/);
  });
});
