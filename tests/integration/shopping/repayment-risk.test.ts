import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as eligibility from "../../../app/routes/api.eligibility";
import * as plans from "../../../app/routes/api.plans";
import { EligibilityResponse, PlansResponse } from "../../../app/schemas/shopping";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import { cents, PLACES, postJson, self, shoppingBody, startShoppingFake, type Body } from "./helpers";

/**
 * Issue 25 item 5 through the routes: `repayment_risk` on POST /api/eligibility and POST /api/plans,
 * and `aptc_applied` moving every premium after credit (docs/decisions/320).
 */
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startShoppingFake();
});
afterAll(() => fake.close());

const askEligibility = (body: unknown) => postJson(eligibility, "/api/eligibility", body);
const askPlans = (body: unknown) => postJson(plans, "/api/plans", body);

// Kings County NY, single 40 at $40,000, plan year 2027 (eligibility-ny.test.ts works out the benchmark:
// the second-lowest silver single-adult premium, EHB share, = $905.74).
// 2027 credit guideline: 2026's $15,960. 40,000 / 15,960 = 250.6% → 250 → 8.66%:
// contribution 0.0866 × 40,000 / 12 = 288.6667; aptc = 905.74 − 288.6667 = 617.0733 → $617.07.
// Advance for the year: 12 × 617.07 = 7,404.84. 400% line: 4 × 15,960 = 63,840 → row at 63,841.
const KINGS_SINGLE_40 = shoppingBody(PLACES.kings, [self(40)], 40_000);
const CREDIT = 617.07;

describe("Kings County NY, single 40 at $40,000", () => {
  it("the eligibility answer carries repayment_risk by hand", async () => {
    const { status, body } = await askEligibility(KINGS_SINGLE_40);
    expect(status).toBe(200);
    expect(() => EligibilityResponse.parse(body)).not.toThrow();
    expect(body).toMatchObject({ aptc: CREDIT, aptc_applied: CREDIT, benchmark_premium: 905.74 });
    expect(body.repayment_risk).toEqual([
      // +10%: 44,000 → 275% → 8.66% + (25/50) × 1.56% = 9.44%: 0.0944 × 44,000 / 12 = 346.1333;
      // 905.74 − 346.1333 = 559.6067 → 559.61; × 12 = 6,715.32; 7,404.84 − 6,715.32 = 689.52.
      {
        scenario: "rise_10",
        income: 44_000,
        allowed_credit: 6715.32,
        advance_credit: 7404.84,
        repayment: 689.52,
        cap: null,
      },
      // +25%: 50,000 → 313% → 10.22%: 425.8333; 479.9067 → 479.91; × 12 = 5,758.92; repay 1,645.92.
      {
        scenario: "rise_25",
        income: 50_000,
        allowed_credit: 5758.92,
        advance_credit: 7404.84,
        repayment: 1645.92,
        cap: null,
      },
      // +50%: 60,000 → 375% → 10.22%: 511.00; 394.74; × 12 = 4,736.88; repay 2,667.96.
      {
        scenario: "rise_50",
        income: 60_000,
        allowed_credit: 4736.88,
        advance_credit: 7404.84,
        repayment: 2667.96,
        cap: null,
      },
      // 63,841 > 63,840: no credit in 2027, no cap (P.L. 119-21 s.71305): all 12 × 617.07 repaid.
      {
        scenario: "above_400_fpl",
        income: 63_841,
        allowed_credit: 0,
        advance_credit: 7404.84,
        repayment: 7404.84,
        cap: null,
      },
    ]);
    // Done when: every row above 400% FPL repays 12 × the monthly credit.
    const above = (body.repayment_risk as Body[]).filter((r) => r.income > 4 * 15_960);
    expect(above.length).toBeGreaterThan(0);
    for (const r of above) expect(r.repayment).toBe(cents(12 * body.aptc));
  });

  it("the plans answer carries the same rows, at the top and in its eligibility", async () => {
    const { status, body } = await askPlans(KINGS_SINGLE_40);
    expect(status).toBe(200);
    expect(() => PlansResponse.parse(body)).not.toThrow();
    const own = (await askEligibility(KINGS_SINGLE_40)).body;
    expect(body.aptc_applied).toBe(CREDIT);
    expect(body.repayment_risk).toEqual(own.repayment_risk);
    expect(body.eligibility.repayment_risk).toEqual(own.repayment_risk);
  });

  it("with aptc_applied at half the credit every premium after credit rises by the other half", async () => {
    const half = CREDIT / 2; // 308.535
    const full = (await askPlans({ ...KINGS_SINGLE_40, limit: 500 })).body;
    const { status, body } = await askPlans({ ...KINGS_SINGLE_40, limit: 500, aptc_applied: half });
    expect(status).toBe(200);
    expect(body.aptc_applied).toBe(half);
    expect(body.eligibility.aptc).toBe(CREDIT); // the credit itself is unchanged
    const before = new Map((full.plans as Body[]).map((p) => [p.id, p]));
    // Plans whose EHB premium covers the whole credit: full credit applied before, half of it now.
    const covering = (body.plans as Body[]).filter((p) => before.get(p.id).credit_applied === CREDIT);
    expect(covering.length).toBeGreaterThan(0);
    for (const p of covering) {
      const old = before.get(p.id);
      // premium − 308.535 rounded to the cent: the rise is 617.07 − 308.535 = 308.535 → 308.54 (half a cent up).
      expect(p.premium_w_credit).toBe(cents(p.premium - half));
      expect(cents(p.premium_w_credit - old.premium_w_credit)).toBe(308.54);
      expect(cents(p.premium_w_credit + p.credit_applied)).toBe(p.premium);
    }
    // An even credit splits exactly: $300.00 applied → every covering plan rises by 617.07 − 300 = 317.07.
    const three = (await askPlans({ ...KINGS_SINGLE_40, limit: 500, aptc_applied: 300 })).body;
    for (const p of three.plans as Body[]) {
      const old = before.get(p.id);
      if (old.credit_applied === CREDIT) expect(cents(p.premium_w_credit - old.premium_w_credit)).toBe(317.07);
    }
    // The risk follows the amount taken: 12 × 300 = 3,600.00 in advance; above 400% all of it is repaid,
    // at +10% nothing (3,600.00 < 6,715.32 allowed).
    const rows = three.repayment_risk as Body[];
    expect(rows.find((r) => r.scenario === "above_400_fpl").repayment).toBe(3600);
    expect(rows.find((r) => r.scenario === "rise_10").repayment).toBe(0);
  });

  it("refuses more than the credit with a 400 naming aptc_applied, and a negative amount too", async () => {
    for (const route of [askPlans, askEligibility]) {
      const over = await route({ ...KINGS_SINGLE_40, aptc_applied: 617.08 });
      expect(over.status).toBe(400);
      expect(over.body.error.fields).toHaveProperty("aptc_applied");
      const negative = await route({ ...KINGS_SINGLE_40, aptc_applied: -1 });
      expect(negative.status).toBe(400);
      expect(negative.body.error.fields).toHaveProperty("aptc_applied");
    }
    // Exactly the credit, and nothing, are fine.
    expect((await askPlans({ ...KINGS_SINGLE_40, aptc_applied: CREDIT })).status).toBe(200);
    const none = await askEligibility({ ...KINGS_SINGLE_40, aptc_applied: 0 });
    expect(none.status).toBe(200);
    for (const r of none.body.repayment_risk as Body[]) expect(r.repayment).toBe(0);
  });
});

describe("a federal estimate (Dallas TX, through the fake upstream)", () => {
  it("recomputes the allowed credit from the benchmark our rules give the federal credit", async () => {
    const { status, body } = await askEligibility(shoppingBody(PLACES.dallas, [self(40)], 40_000));
    expect(status).toBe(200);
    expect(body.source).toBe("upstream");
    expect(body.aptc).toBeGreaterThan(0);
    const rows = body.repayment_risk as Body[];
    expect(rows.map((r) => r.scenario)).toEqual(["rise_10", "rise_25", "rise_50", "above_400_fpl"]);
    // Implied benchmark = aptc + 288.6667 (as above); at +10% the credit is that − 346.1333.
    const rise10 = cents(12 * cents(body.aptc + (0.0866 * 40_000) / 12 - (0.0944 * 44_000) / 12));
    expect(rows[0].allowed_credit).toBe(rise10);
    expect(rows[0].repayment).toBe(cents(12 * body.aptc - rise10));
    expect(rows[3]).toMatchObject({ income: 63_841, allowed_credit: 0, repayment: cents(12 * body.aptc) });
  });
});
