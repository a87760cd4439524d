import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PlansRequest } from "../../../app/schemas/shopping";
import { determineEligibility, pricePlans } from "../../../app/server/shopping.server";
import type { FakeUpstream } from "../../fakes/upstream";
import { child, PLACES, self, shoppingBody, spouse, startShoppingFake, upstreamCalls } from "../shopping/helpers";

/**
 * Identical upstream eligibility questions in flight share one call
 * (docs/decisions/114); a settled answer is never reused (decision 043 keeps
 * eligibility out of every cache).
 */
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startShoppingFake();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.calls.length = 0;
});

const ESTIMATES = "/households/eligibility/estimates";
const family = () => PlansRequest.parse(shoppingBody(PLACES.dallas, [self(40), spouse(38), child(10), child(7)], 90_000));

describe("eligibility questions in flight", () => {
  it("two concurrent identical questions make one upstream call and get equal, separate answers", async () => {
    const [a, b] = await Promise.all([determineEligibility(family()), determineEligibility(family())]);
    expect(upstreamCalls(fake, ESTIMATES)).toHaveLength(1);
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    expect(a.reasons).not.toBe(b.reasons); // one caller changing its answer cannot change the other's
    expect(a.aptc).toBeGreaterThan(0);
  });

  it("concurrent list requests for the same household share the call too", async () => {
    const answers = await Promise.all([pricePlans(family()), pricePlans(family()), pricePlans(family())]);
    expect(upstreamCalls(fake, ESTIMATES)).toHaveLength(1);
    expect(answers[1].eligibility).toEqual(answers[0].eligibility);
  });

  it("asks again once the answer has settled", async () => {
    await determineEligibility(family());
    await determineEligibility(family());
    expect(upstreamCalls(fake, ESTIMATES)).toHaveLength(2);
  });

  it("does not share between different questions", async () => {
    const other = PlansRequest.parse(shoppingBody(PLACES.dallas, [self(40), spouse(38), child(10), child(7)], 91_000));
    await Promise.all([determineEligibility(family()), determineEligibility(other)]);
    const calls = upstreamCalls(fake, ESTIMATES);
    expect(calls).toHaveLength(2);
  });
});
