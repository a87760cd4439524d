import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";
import { applicablePercent2027, cents, sampleEhbShare, sampleFamilyOptionRate, type Body } from "./helpers";

/**
 * Issue 15's six examples, over real HTTP through the production build, each beside its hand
 * calculation (rules: docs/reference/eligibility-rules.md; children's limits:
 * aca-parameters.json medicaidChipLines). 2027 coverage: the credit and CSR use the
 * 2026 guideline ($15,960 + $5,680 a person); Medicaid, CHIP and the Essential Plan the current one,
 * still 2026's at enrollment. Outside NY the credit is the (bundled fake) federal estimate.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    env: { MARKETPLACE_API_KEY: undefined, MARKETPLACE_API_BASE_URL: undefined, RATE_LIMIT_MAX: "100000" },
  });
});
afterAll(async () => {
  await server?.stop();
});

const post = async (path: string, body: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
};

const KINGS = { state: "NY", county_fips: "36047", zip: "11201" };
const ALBANY = { state: "NY", county_fips: "36001", zip: "12203" };
const DALLAS = { state: "TX", county_fips: "48113", zip: "75201" };
/**
 * People by age as a client sends them after issue 25: the first and every child under 19 without a
 * relationship (the first is the subscriber, children stay children), the second adult as "spouse",
 * any further adult as "other" (an adult after the first without one is a 400, decision 312).
 */
const people = (...ages: number[]) => {
  let adults = 0;
  return ages.map((age, i) => {
    if (i === 0 || age < 19) return { age };
    return { age, relationship: adults++ === 0 ? ("spouse" as const) : ("other" as const) };
  });
};
const ask = (place: object, persons: object[], income: number, extra: object = {}) => ({
  income,
  household: { people: persons },
  place,
  year: 2027,
  ...extra,
});
const secondLowestSilver = (plans: Body[]) =>
  plans
    .filter((p) => p.metal_level === "Silver")
    .map((p) => p.ehb_premium as number)
    .sort((a, b) => a - b)[1];

// Kings (Rating Area 4) silver single-adult rates × tier factor → cents, × EHB share → cents; second-lowest.
const KINGS_SILVER = ["20101NY0010002", "20202NY0010002", "20303NY0030002"];
const kingsBenchmark = (factor: number) =>
  KINGS_SILVER.map((id) => cents(cents(sampleFamilyOptionRate(id, 4) * factor) * sampleEhbShare(id))).sort(
    (a, b) => a - b,
  )[1];

describe("1. relationships: a family of four is a family, and children are children", () => {
  it("Kings, 40, 38, 10, 7 at $82,500 without relationships: a 400 naming the second adult's relationship", async () => {
    // An adult after the first without a relationship is asked, never guessed (decision 312).
    const { status, body } = await post(
      "/api/eligibility",
      ask(
        KINGS,
        [40, 38, 10, 7].map((age) => ({ age })),
        82_500,
      ),
    );
    expect(status).toBe(400);
    expect(Object.keys(body.error.fields)).toEqual(["household.people.1.relationship"]);
  });

  it("Kings, 40, 38 (spouse), 10, 7 at $82,500, children without relationships: the parents credited as a couple, the children on Child Health Plus", async () => {
    // 82,500 / 33,000 = 250%. Children: NY's limit is 405% (133,650): Medicaid/CHP, outside the
    // coverage family. Adults: above the Essential Plan's 200% (66,000): a QHP with the credit.
    // 40 is the subscriber, 38 the spouse, 10 and 7 (no relationship) are children. The coverage
    // family is the two adults: tier 2.00.
    //   20101: 911.67 × 2 = 1823.34 × 0.9935 = 1811.49 · 20202: 1801.26 · 20303: 2018.53 → 1811.49
    // 250% → 8.66%: contribution 82,500 × 0.0866 / 12 = 595.375; aptc = 1811.49 − 595.375 = 1216.115 → 1216.12.
    // (The issue's $1,986.00 priced the children in the credit at 2.85×; they are CHP-eligible, which
    // rules them out of the credit, 26 CFR 1.36B-2(c)(2).) 250% is CSR 73 (≤ 250%).
    expect(kingsBenchmark(2)).toBe(1811.49);
    const { status, body } = await post("/api/eligibility", ask(KINGS, people(40, 38, 10, 7), 82_500));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      aptc: cents(1811.49 - (0.0866 * 82_500) / 12),
      csr: "73",
      benchmark_premium: 1811.49,
      medicaid_chip_members: [2, 3],
      coverage_family_members: [0, 1],
      essential_plan: false,
      fpl_percent: 250,
    });
    expect(body.aptc).toBe(1216.12);
    // Sent with relationships, in another order: the same money.
    const marked = await post(
      "/api/plans",
      ask(
        KINGS,
        [
          { age: 7, relationship: "child" },
          { age: 38, relationship: "spouse" },
          { age: 10, relationship: "child" },
          { age: 40, relationship: "self" },
        ],
        82_500,
      ),
    );
    expect(marked.body.eligibility.aptc).toBe(1216.12);
    expect(marked.body.coverage_family_members).toEqual([1, 3]);
  });

  it("Kings, 40, 38, 10 at $90,000: credit for the couple; above the children's line the family is 2.85×, not 3.0×", async () => {
    // 90,000 / 27,320 = 329.4%: the child (≤ 405% = 110,646) is on CHP; couple benchmark 1811.49.
    // 329% → 10.22%: 90,000 × 0.1022 / 12 = 766.50; aptc = 1811.49 − 766.50 = 1044.99.
    const low = await post("/api/eligibility", ask(KINGS, people(40, 38, 10), 90_000));
    expect(low.body).toMatchObject({ aptc: 1044.99, medicaid_chip_members: [2], coverage_family_members: [0, 1] });
    // $115,000 = 420.9%: no credit, and the child is above the CHP line, so all three are priced:
    // two adults with children, 2.85 × the single rate (the 728.88 × 2.85 = 2077.308 → 2077.31).
    const high = await post("/api/plans", ask(KINGS, people(40, 38, 10), 115_000, { limit: 500 }));
    expect(high.body.coverage_family_members).toEqual([0, 1, 2]);
    expect(high.body.eligibility.aptc).toBe(0);
    for (const id of KINGS_SILVER) {
      const plan = high.body.plans.find((p: Body) => p.id === id);
      expect(plan.premium, id).toBe(cents(sampleFamilyOptionRate(id, 4) * 2.85));
    }
    const premiums = high.body.plans.map((p: Body) => p.premium);
    expect(premiums).toContain(2077.31);
    expect(premiums).not.toContain(2186.64);
  });

  it("Albany, 35, 5, 3: the adult credited alone at $90,000; 1.7× at $115,000", async () => {
    // Albany silver: 20101 837.81 × 0.9935 = 832.36 (second-lowest); 329% → 766.50; aptc 832.36 − 766.50 = 65.86.
    const low = await post("/api/eligibility", ask(ALBANY, people(35, 5, 3), 90_000));
    expect(low.body).toMatchObject({ aptc: 65.86, benchmark_premium: 832.36, medicaid_chip_members: [1, 2] });
    // At $115,000 one adult with children: 1.70 × 645.75 = 1097.775 → 1097.78 (not 3.0× = 1937.25).
    const high = await post("/api/plans", ask(ALBANY, people(35, 5, 3), 115_000, { limit: 500 }));
    const premiums = high.body.plans.map((p: Body) => p.premium);
    expect(premiums).toContain(1097.78);
    expect(premiums).not.toContain(1937.25);
  });

  it("TX, 40, 38 (spouse), 15, 12, 10, 8 (children without relationships): the fourth child under 21 pays nothing", async () => {
    // $100,000 = 225% of 44,360: above TX's children's line (206% = 91,381.60), so all are priced.
    // 45 CFR 147.102(c)(1): 40, 38 and the three oldest children (15, 12, 10) are rated; 8 is free.
    const answer = await post("/api/plans", ask(DALLAS, people(40, 38, 15, 12, 10, 8), 100_000, { limit: 500 }));
    expect(answer.status).toBe(200);
    const plan = answer.body.plans.find((p: Body) => p.id === "10303TX0030001");
    expect(plan.premium).toBe(1713.05);
    const five = await post("/api/plans", ask(DALLAS, people(40, 38, 15, 12, 10), 100_000, { limit: 500 }));
    expect(five.body.plans.find((p: Body) => p.id === "10303TX0030001").premium).toBe(1713.05);
  });

  it("a second self or spouse, a spouse under 14 and a household without an adult are 400s naming the field", async () => {
    const twoSelves = await post(
      "/api/plans",
      ask(
        DALLAS,
        [
          { age: 40, relationship: "self" },
          { age: 38, relationship: "self" },
        ],
        50_000,
      ),
    );
    expect(twoSelves.status).toBe(400);
    expect(twoSelves.body.error.fields).toHaveProperty(["household.people.1.relationship"]);
    const youngSpouse = await post(
      "/api/eligibility",
      ask(KINGS, [{ age: 40 }, { age: 12, relationship: "spouse" }], 50_000),
    );
    expect(youngSpouse.status).toBe(400);
    expect(youngSpouse.body.error.fields).toHaveProperty(["household.people.1.relationship"]);
    const noAdult = await post("/api/eligibility", ask(KINGS, people(12, 9), 50_000));
    expect(noAdult.status).toBe(400);
    expect(noAdult.body.error.fields).toHaveProperty(["household.people"]);
  });
});

describe("2. the Essential Plan is decided per person, whatever the order", () => {
  it("NY, a child of 10 and an adult of 40 at $32,460: the adult to the Essential Plan, in either order", async () => {
    // 32,460 / 21,640 = 150%: adult above Medicaid (138% = 29,863.20), at or below the EP's 200% (43,280);
    // the child under 405%: Medicaid/CHP. Nobody is left for the credit: aptc 0, no CSR.
    for (const [persons, child, adult] of [
      [
        [
          { age: 10, relationship: "child" },
          { age: 40, relationship: "self" },
        ],
        0,
        1,
      ],
      [
        [
          { age: 40, relationship: "self" },
          { age: 10, relationship: "child" },
        ],
        1,
        0,
      ],
    ] as const) {
      const { body } = await post("/api/eligibility", ask(KINGS, [...persons], 32_460));
      expect(body).toMatchObject({
        essential_plan: true,
        aptc: 0,
        csr: null,
        essential_plan_members: [adult],
        medicaid_chip_members: [child],
        coverage_family_members: [],
        fpl_percent: 150,
      });
    }
  });
});

describe("3. incomes are whole cents and lines are compared exactly", () => {
  it("Kings single at 400%: $63,840.00 has a credit, $63,840.01 none, $63,840.004 is a 400 naming income", async () => {
    // 4 × 15,960 = 63,840. At the line: 10.22%: 63,840 × 0.1022 / 12 = 543.704; aptc = 905.74 − 543.704 = 362.036 → 362.04.
    const at = await post("/api/eligibility", ask(KINGS, people(40), 63_840));
    expect(at.body.aptc).toBe(cents(905.74 - (applicablePercent2027(400)! * 63_840) / 12));
    expect(at.body.aptc).toBe(362.04);
    const over = await post("/api/eligibility", ask(KINGS, people(40), 63_840.01));
    expect(over.body.aptc).toBe(0);
    const fraction = await post("/api/eligibility", ask(KINGS, people(40), 63_840.004));
    expect(fraction.status).toBe(400);
    expect(fraction.body.error.fields).toHaveProperty(["income"]);
  });
});

describe("4. Medicare", () => {
  it("TX couple aged 64 and 66 at $60,000: the 66-year-old on Medicare, the 64-year-old priced and credited alone", async () => {
    // 60,000 / 21,640 = 277.3% → 277: 8.66 + 27/50 × 1.56 = 9.5024 → 9.50%: contribution 475.00.
    // The plan list is priced for the 64-year-old only; aptc = its second-lowest silver EHB premium − 475.
    expect(applicablePercent2027(277)).toBe(0.095);
    const { body } = await post("/api/plans", ask(DALLAS, people(64, 66), 60_000, { limit: 500 }));
    expect(body.eligibility).toMatchObject({ medicare_members: [1], coverage_family_members: [0] });
    expect(body.coverage_family_members).toEqual([0]);
    expect(body.eligibility.aptc).toBe(cents(secondLowestSilver(body.plans) - 475));
    // Told the 66-year-old has no premium-free Part A: both are priced and credited.
    const both = await post(
      "/api/plans",
      ask(DALLAS, [{ age: 64 }, { age: 66, relationship: "spouse", medicare_eligible: false }], 60_000, {
        limit: 500,
      }),
    );
    expect(both.body.eligibility.medicare_members).toEqual([]);
    expect(both.body.eligibility.aptc).toBe(cents(secondLowestSilver(both.body.plans) - 475));
    expect(both.body.eligibility.aptc).toBeGreaterThan(body.eligibility.aptc);
  });
});

describe("5. income lines in dollars, for every owned-data state", () => {
  it("TX couple: the coverage-gap floor at $21,640 and the credit line at $86,560, with the FPL percent", async () => {
    // 100% of 21,640 = 21,640 (below it: the gap); 400% = 86,560.
    const gap = await post("/api/eligibility", ask(DALLAS, people(40, 38), 21_639));
    expect(gap.body).toMatchObject({ in_coverage_gap: true, aptc: 0, fpl_percent: 99.9 });
    const lines = gap.body.income_lines as Body[];
    expect(lines[0]).toMatchObject({ kind: "coverage_gap", amount: 21_640, side: "below", guideline_year: 2026 });
    expect(lines.find((l) => l.kind === "premium_tax_credit")).toMatchObject({ amount: 86_560, side: "at_or_below" });
    expect(lines.map((l) => l.kind)).toEqual(["coverage_gap", "csr_94", "csr_87", "csr_73", "premium_tax_credit"]);
    // $1 more: a credit. 100% → 2.15%: 21,640 × 0.0215 / 12 = 38.7717; aptc = couple benchmark − 38.7717.
    const credit = await post("/api/plans", ask(DALLAS, people(40, 38), 21_640, { limit: 500 }));
    expect(credit.body.eligibility).toMatchObject({ in_coverage_gap: false, csr: "94", fpl_percent: 100 });
    expect(credit.body.eligibility.aptc).toBe(cents(secondLowestSilver(credit.body.plans) - (0.0215 * 21_640) / 12));
    expect(credit.body.income_lines).toEqual(gap.body.income_lines);
  });

  it("TX single aged 60 at the 400% line: a credit at $63,840.00, none a cent above, and the line in dollars", async () => {
    const at = await post("/api/plans", ask(DALLAS, people(60), 63_840, { limit: 500 }));
    // 10.22% × 63,840 / 12 = 543.704; aptc = the 60-year-old's benchmark − 543.704.
    expect(at.body.eligibility.aptc).toBe(cents(secondLowestSilver(at.body.plans) - 543.704));
    expect(at.body.eligibility.aptc).toBeGreaterThan(0);
    expect(at.body.income_lines.find((l: Body) => l.kind === "premium_tax_credit")).toMatchObject({ amount: 63_840 });
    const over = await post("/api/eligibility", ask(DALLAS, people(60), 63_840.01));
    expect(over.body.aptc).toBe(0);
    expect(over.body.fpl_percent).toBe(400);
  });
});
