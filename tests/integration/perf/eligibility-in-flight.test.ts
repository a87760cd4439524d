import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PlansRequest } from "../../../app/schemas/shopping";
import { determineEligibility, forgetEligibilityAnswers } from "../../../app/server/shopping/eligibility.server";
import { pricePlans } from "../../../app/server/shopping/priced-plans.server";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import { child, PLACES, self, shoppingBody, spouse, startShoppingFake, upstreamCalls } from "../shopping/helpers";

/**
 * Identical upstream eligibility questions in flight share one call
 * (docs/decisions/114), and a settled answer answers the same question for
 * ten minutes (docs/decisions/120); failures are never kept.
 */
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startShoppingFake();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.calls.length = 0;
  forgetEligibilityAnswers();
  await fake.setMode("normal");
});
afterEach(() => {
  vi.restoreAllMocks();
});

const ESTIMATES = "/households/eligibility/estimates";
const family = () =>
  PlansRequest.parse(shoppingBody(PLACES.dallas, [self(40), spouse(38), child(10), child(7)], 90_000));

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

  it("a settled answer answers the same question again without an upstream call, as a copy of its own", async () => {
    const first = await determineEligibility(family());
    const second = await determineEligibility(family());
    expect(upstreamCalls(fake, ESTIMATES)).toHaveLength(1);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    second.reasons.push("changed by one caller");
    expect((await determineEligibility(family())).reasons).toEqual(first.reasons);
  });

  it("asks upstream again once the kept answer is ten minutes old", async () => {
    const asked = Date.now();
    await determineEligibility(family());
    vi.spyOn(Date, "now").mockReturnValue(asked + 10 * 60_000 - 1_000);
    await determineEligibility(family());
    expect(upstreamCalls(fake, ESTIMATES)).toHaveLength(1);
    vi.spyOn(Date, "now").mockReturnValue(asked + 10 * 60_000 + 60_000);
    await determineEligibility(family());
    expect(upstreamCalls(fake, ESTIMATES)).toHaveLength(2);
  });

  it("a failure is not kept (nor our own estimate made in its place): the next question asks upstream again", async () => {
    await fake.setMode("503");
    await expect(determineEligibility(family())).resolves.toMatchObject({ source: "own", upstream: "unavailable" });
    await fake.setMode("normal");
    const answer = await determineEligibility(family());
    expect(answer.source).toBe("upstream");
    expect(answer.aptc).toBeGreaterThan(0);
    expect(upstreamCalls(fake, ESTIMATES).length).toBeGreaterThanOrEqual(2);
  });

  it("does not share between different questions", async () => {
    const other = PlansRequest.parse(shoppingBody(PLACES.dallas, [self(40), spouse(38), child(10), child(7)], 91_000));
    await Promise.all([determineEligibility(family()), determineEligibility(other)]);
    const calls = upstreamCalls(fake, ESTIMATES);
    expect(calls).toHaveLength(2);
  });
});
