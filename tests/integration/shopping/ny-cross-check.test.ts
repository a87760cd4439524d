import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as eligibilityRoute from "../../../app/routes/api.eligibility";
import * as plansRoute from "../../../app/routes/api.plans";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import {
  applicablePercent2027,
  cents,
  child,
  guideline2026,
  postJson,
  sampleEhbShare,
  self,
  spouse,
  startShoppingFake,
  type Body,
  type PersonIn,
} from "./helpers";

/**
 * The "done when": for every NY sample county and a spread of
 * households, /api/eligibility's `aptc` equals, to the cent,
 *   max(0, second-lowest silver `ehb_premium` of /api/plans − pct × income / 12)
 * with pct taken by hand from the 2027 bands (Rev. Proc. 2026-26), not from the service.
 */
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startShoppingFake();
});
afterAll(() => fake.close());

// Every NY county of the sample (zip-county-hud.csv), with 10038 for a second Manhattan/Brooklyn ZIP.
const NY_PLACES = [
  { name: "Kings (Brooklyn)", place: { state: "NY", county_fips: "36047", zip: "11201" } },
  { name: "Kings, the Brooklyn share of 10038", place: { state: "NY", county_fips: "36047", zip: "10038" } },
  { name: "New York (Manhattan)", place: { state: "NY", county_fips: "36061", zip: "10001" } },
  { name: "Queens", place: { state: "NY", county_fips: "36081", zip: "11375" } },
  { name: "Albany", place: { state: "NY", county_fips: "36001", zip: "12203" } },
];

const HOUSEHOLDS: Array<{ name: string; people: PersonIn[]; size?: number }> = [
  { name: "single, 30", people: [self(30)] },
  { name: "couple, 50 and 48", people: [self(50), spouse(48)] },
  { name: "one adult, two children", people: [self(36), child(11), child(4)] },
  { name: "family of four", people: [self(44), spouse(41), child(15), child(13)] },
  { name: "family of five", people: [self(39), spouse(37), child(9), child(6), child(1)] },
  { name: "one applicant in a tax household of three", people: [self(52)], size: 3 },
];

// Income as a percent of the household's guideline, with odd cents so nothing lands on a round number.
const PERCENTS = [150, 175, 199, 201, 230, 262, 300, 351, 399];

describe.each(NY_PLACES)("$name", ({ place }) => {
  it.each(HOUSEHOLDS)(
    "$name: aptc = second-lowest silver ehb_premium − pct × income / 12, to the cent",
    async ({ people, size }) => {
      const household = size ? { size, people } : { people };
      const g = guideline2026(size ?? people.length); // 15,960 + 5,680 × (n − 1): 2026 guideline for 2027 coverage
      for (const percent of PERCENTS) {
        const income = cents((percent * g) / 100 + 0.37);
        // The plan list at the same income: who is priced (the credit's coverage family) depends on it.
        const plans = await postJson(plansRoute, "/api/plans", { income, household, place, year: 2027 });
        expect(plans.status).toBe(200);
        const silver: number[] = plans.body.plans
          .filter((p: Body) => p.metal_level === "Silver")
          .map((p: Body) => p.ehb_premium);
        expect(silver.length).toBeGreaterThanOrEqual(2);
        const benchmark = [...silver].sort((a, b) => a - b)[1];
        const { status, body } = await postJson(eligibilityRoute, "/api/eligibility", {
          income,
          household,
          place,
          year: 2027,
        });
        expect(status).toBe(200);
        expect(body.benchmark_premium).toBe(benchmark);
        const fpl = Math.floor(Math.round(income * 100) / g);
        expect(body.fpl_percent).toBe(Math.floor((Math.round(income * 100) * 10) / g) / 10);
        if (percent <= 199) {
          // At or below 200% of the guideline New Yorkers go to the Essential Plan ($0), not a credit.
          expect(body, `${percent}%`).toMatchObject({ essential_plan: true, aptc: 0, csr: null });
          continue;
        }
        const pct = applicablePercent2027(fpl)!;
        expect(body.aptc, `${percent}% (${income})`).toBe(cents(Math.max(0, benchmark - (pct * income) / 12)));
        expect(body.csr).toBe(percent <= 250 ? "73" : null);
        expect(body.essential_plan).toBe(false);

        // /api/plans prices with the very same estimate.
        const priced = await postJson(plansRoute, "/api/plans", {
          income,
          household,
          place,
          year: 2027,
          filters: { metal_levels: ["Silver"] },
        });
        expect(priced.body.eligibility).toEqual(body);
        for (const plan of priced.body.plans as Body[]) {
          // No tobacco rating in NY: premium − min(aptc, premium × EHB share).
          expect(plan.premium_w_credit, plan.id).toBe(
            cents(plan.premium - Math.min(body.aptc, plan.premium * sampleEhbShare(plan.id))),
          );
        }
      }
    },
  );
});

it("the hand table of the 2027 applicable percentage agrees with the published band edges", () => {
  // Band starts and ends (Rev. Proc. 2026-26 §3.01): a typo in the test's own table would show here.
  expect([132, 133, 150, 200, 250, 300, 400].map((f) => applicablePercent2027(f))).toEqual([
    0.0215, 0.0323, 0.043, 0.0678, 0.0866, 0.1022, 0.1022,
  ]);
  expect(applicablePercent2027(149)).toBe(0.0424); // 3.23 + 16/17 × 1.07 = 4.2371 → 4.24
  expect(applicablePercent2027(225)).toBe(0.0772); // 6.78 + 25/50 × 1.88 = 7.72 (eligibility-rules.md §9)
  expect(applicablePercent2027(401)).toBeNull();
});
