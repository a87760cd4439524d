import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as plansRoute from "../../../app/routes/api.plans";
import { registerStateProgram } from "../../../app/domain/state-programs";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import { flatFiftyIn } from "../../fixtures/state-programs/flat-fifty";
import { cents, PLACES, postJson, sampleEhbShare, self, shoppingBody, startShoppingFake, type Body } from "./helpers";

/**
 * POST /api/plans from own data (NY, our own estimate) with a made-up state programme registered in
 * one line (docs/decisions/315): every premium_w_credit is max(0, premium − federal applied − $50).
 * No state programme is registered in production; this one lives only in this test.
 */
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startShoppingFake();
});
afterAll(() => fake.close());

let unregister: (() => void) | null = null;
afterEach(() => {
  unregister?.();
  unregister = null;
});

const plansAt = async (income: number) => {
  const answer = await postJson(
    plansRoute,
    "/api/plans",
    shoppingBody(PLACES.kings, [self(40)], income, { hardship_exemption: true }),
  );
  expect(answer.status).toBe(200);
  return answer.body;
};

describe("a state's own subsidy in the plan list (test-only programme)", () => {
  it("Kings NY, single 40 at $60,000: every plan the credit buys costs $50 less after the federal credit", async () => {
    unregister = registerStateProgram(flatFiftyIn("NY", 2027));
    const answer = await plansAt(60_000);
    expect(answer.eligibility.source).toBe("own");
    expect(answer.eligibility.state_subsidy).toBe(50);
    const aptc: number = answer.aptc_applied;
    expect(aptc).toBeGreaterThan(0);
    let priced = 0;
    for (const plan of answer.plans as Body[]) {
      if (plan.metal_level === "Catastrophic") {
        // No credit on a catastrophic plan, and so no state help either.
        expect(plan.premium_w_credit, plan.id).toBe(plan.premium);
        continue;
      }
      // Hand calculation: federal applied = min(aptc, premium × EHB share) (no tobacco here); then
      // − $50 of state help, never below 0; premium = premium_w_credit + credit_applied.
      const applied = Math.min(aptc, plan.premium * sampleEhbShare(plan.id));
      expect(plan.premium_w_credit, plan.id).toBe(cents(Math.max(0, plan.premium - applied - 50)));
      expect(cents(plan.premium_w_credit + plan.credit_applied), plan.id).toBe(plan.premium);
      if (plan.premium_w_credit > 0) priced++;
    }
    expect(priced).toBeGreaterThan(0); // plans where the $50 shows in full
  });

  it("without the registration the answer carries no state_subsidy and the federal price alone", async () => {
    const answer = await plansAt(60_010);
    expect(answer.eligibility.state_subsidy).toBeUndefined();
    const aptc: number = answer.aptc_applied;
    for (const plan of answer.plans as Body[]) {
      if (plan.metal_level === "Catastrophic") continue;
      const applied = Math.min(aptc, plan.premium * sampleEhbShare(plan.id));
      expect(plan.premium_w_credit, plan.id).toBe(cents(Math.max(0, plan.premium - applied)));
    }
  });
});
