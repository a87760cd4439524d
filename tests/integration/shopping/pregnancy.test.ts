import { describe, expect, it } from "vitest";
import * as eligibilityRoute from "../../../app/routes/api.eligibility";
import * as plansRoute from "../../../app/routes/api.plans";
import { EligibilityResponse } from "../../../app/schemas/shopping";
import {
  cents,
  PLACES,
  postJson,
  self,
  shoppingBody,
  spouse,
  withShoppingFake,
  upstreamCalls,
  type Body,
} from "./helpers";

/**
 * Issue 25 item 4: a pregnant person is decided against the state's pregnancy Medicaid/CHIP line
 * (TX 203%), her expected babies counted in her own household (42 CFR 435.603(b)), through the fake
 * upstream and through our own estimate when the upstream is down. 2027 coverage: Medicaid uses the
 * 2026 guideline (15,960 + 5,680 a person); the credit the same 2026 guideline (prior year).
 */
const upstream = withShoppingFake();

const eligibility = (body: unknown) => postJson(eligibilityRoute, "/api/eligibility", body);
const plans = (body: unknown) => postJson(plansRoute, "/api/plans", body);
const pregnant = (age: number, extra: object = {}) => ({ ...self(age), is_pregnant: true, ...extra });

describe("a pregnant 28-year-old in Dallas at $28,000", () => {
  // Her household: herself + 1 baby = 2 → 21,640; 203% × 21,640 = 43,929.20 ≥ 28,000: Medicaid.
  const body = shoppingBody(PLACES.dallas, [pregnant(28)], 28_000);

  for (const mode of ["normal", "503"] as const) {
    it(`is on Medicaid with no credit (upstream ${mode === "normal" ? "up: the fake" : "down: our own estimate"})`, async () => {
      await upstream.fake.setMode(mode);
      const { status, body: answer } = await eligibility(body);
      expect(status).toBe(200);
      expect(answer).toMatchObject({
        aptc: 0,
        csr: null,
        is_medicaid_chip: true,
        medicaid_chip_members: [0],
        coverage_family_members: [],
      });
      expect(() => EligibilityResponse.parse(answer)).not.toThrow();

      const list = await plans(body);
      expect(list.status).toBe(200);
      expect(list.body.eligibility).toMatchObject({ aptc: 0, medicaid_chip_members: [0] });
      // No credit: every premium after credit is the premium itself.
      expect(list.body.plans.length).toBeGreaterThan(0);
      for (const plan of list.body.plans as Body[]) expect(plan.premium_w_credit).toBe(plan.premium);
    });
  }

  it("not pregnant, the same woman gets the credit (28,000 / 15,960 = 175.4%: TX has no adult Medicaid)", async () => {
    const { body: answer } = await eligibility(shoppingBody(PLACES.dallas, [self(28)], 28_000));
    expect(answer.medicaid_chip_members).toEqual([]);
    expect(answer.aptc).toBeGreaterThan(0);
  });
});

describe("through the fake: she is sent as pregnant, her husband is credited", () => {
  it("a couple at $28,000: she on Medicaid, he in the coverage family; the fake gets is_pregnant and pregnant_with", async () => {
    // She: 203% × 27,320 (2 + 1 baby) = 55,459.60 ≥ 28,000. He: TX has no adult Medicaid, 28,000 / 21,640
    // = 129.3% ≥ 100%: credited, CSR 94 (at most 150%).
    const { status, body: answer } = await eligibility(shoppingBody(PLACES.dallas, [pregnant(30), spouse(32)], 28_000));
    expect(status).toBe(200);
    expect(answer).toMatchObject({ medicaid_chip_members: [0], coverage_family_members: [1], csr: "94" });
    expect(answer.aptc).toBeGreaterThan(0);
    const sent = upstreamCalls(upstream.fake, "eligibility/estimates")[0]?.body as Body;
    expect(sent.household.people[0]).toMatchObject({ is_pregnant: true, pregnant_with: 1, aptc_eligible: false });
    expect(sent.household.people[1]).toMatchObject({ aptc_eligible: true });
  });

  it("twins: expected_babies 2 moves her line", async () => {
    // $45,000 alone: one baby 203% × 21,640 = 43,929.20 < 45,000 (credited); twins 203% × 27,320 = 55,459.60.
    const one = await eligibility(shoppingBody(PLACES.dallas, [pregnant(30)], 45_000));
    const twins = await eligibility(shoppingBody(PLACES.dallas, [pregnant(30, { expected_babies: 2 })], 45_000));
    expect(one.body.medicaid_chip_members).toEqual([]);
    expect(one.body.aptc).toBeGreaterThan(0);
    expect(twins.body.medicaid_chip_members).toEqual([0]);
    expect(twins.body.aptc).toBe(0);
    expect(cents(twins.body.aptc)).toBe(0);
  });

  it("expected_babies without is_pregnant is a 400 naming the field", async () => {
    const notPregnant = { ...self(30), expected_babies: 2 };
    const { status, body } = await eligibility(shoppingBody(PLACES.dallas, [notPregnant], 30_000));
    expect(status).toBe(400);
    expect(Object.keys(body.error.fields), JSON.stringify(body.error)).toContain("household.people.0.expected_babies");
  });
});
