// Reordering the people never changes a money figure or a flag: /api/plans end to end (NY from our own
// data, TX through the fake federal estimate), on random households (issue 15).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { householdProblems } from "../../../app/domain/eligibility/household";
import * as plansRoute from "../../../app/routes/api.plans";
import { forgetEligibilityAnswers } from "../../../app/server/shopping/eligibility.server";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import { PLACES, postJson, startShoppingFake, type Body } from "./helpers";

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startShoppingFake();
});
afterAll(() => fake.close());

const person = fc.record(
  {
    age: fc.integer({ min: 0, max: 90 }),
    relationship: fc.constantFrom("self", "spouse", "child", "other"),
    medicare_eligible: fc.boolean(),
    uses_tobacco: fc.boolean(),
  },
  { requiredKeys: ["age"] },
);

const households = fc
  .record({
    people: fc.array(person, { minLength: 1, maxLength: 10 }),
    income: fc.integer({ min: 0, max: 25_000_000 }).map((c) => c / 100),
    place: fc.constantFrom(PLACES.kings, PLACES.albany, PLACES.dallas),
    keys: fc.array(fc.double({ noNaN: true }), { minLength: 10, maxLength: 10 }),
  })
  .filter((h) => householdProblems(h.people).length === 0);

/** The money and flags of an answer, with member indexes mapped back to the original order. */
function figures(body: Body, order: number[]) {
  const back = (list: number[]) => list.map((j) => order[j]).sort((a, b) => a - b);
  const e = body.eligibility;
  return {
    plans: Object.fromEntries(
      body.plans.map((p: Body) => [
        p.id,
        [
          p.premium,
          p.premium_w_credit,
          p.credit_applied,
          p.ehb_premium,
          p.tobacco_surcharge,
          p.csr_variant,
          p.estimated_yearly_cost,
        ],
      ]),
    ),
    eligibility: e && {
      ...e,
      reasons: undefined,
      medicaid_chip_members: back(e.medicaid_chip_members),
      essential_plan_members: back(e.essential_plan_members),
      medicare_members: back(e.medicare_members),
      coverage_family_members: back(e.coverage_family_members),
    },
    lines: body.income_lines,
    fpl: body.fpl_percent,
    priced: back(body.coverage_family_members),
  };
}

describe("/api/plans for a household in any order", () => {
  it("gives the same premiums, credits, CSR, flags and lines", async () => {
    await fc.assert(
      fc.asyncProperty(households, async (h) => {
        forgetEligibilityAnswers();
        const identity = h.people.map((_, i) => i);
        const order = [...identity].sort((a, b) => h.keys[a] - h.keys[b] || a - b);
        const ask = (people: object[]) =>
          postJson(plansRoute, "/api/plans", {
            income: h.income,
            household: { people },
            place: h.place,
            year: 2027,
            limit: 500,
          });
        const a = await ask(h.people);
        const b = await ask(order.map((i) => h.people[i]));
        expect(a.status).toBe(200);
        expect(b.status).toBe(200);
        expect(figures(b.body, order)).toEqual(figures(a.body, identity));
      }),
      { numRuns: 60, seed: 15 },
    );
  });
});
