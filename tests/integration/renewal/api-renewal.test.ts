/**
 * POST /api/renewal over the sample store (2026 and 2027 with the 2026→2027
 * Plan ID Crosswalk) and the CMS API fake, in process: every answer is
 * compared with the crosswalk rows read straight from the store and with
 * POST /api/plans' prices for each year (the same engine).
 */
import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as plansRoute from "../../../app/routes/api.plans";
import * as renewalRoute from "../../../app/routes/api.renewal";
import { pagesOverFakeUpstream } from "../../helpers/in-process-pages";
import { REPO_ROOT, TEST_PLAN_STORE } from "../../helpers/server";

pagesOverFakeUpstream("renewal-key");

type Args = { request: Request; params: Record<string, string | undefined>; context: unknown };
type Route = { action?: (a: Args) => Promise<Response> | Response };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

async function post(route: Route, url: string, body: unknown): Promise<{ status: number; body: Body }> {
  const request = new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const response = await route.action!({ request, params: {}, context: {} });
  return { status: response.status, body: await response.json() };
}

const DALLAS = { state: "TX", county_fips: "48113", zip: "75201" };
const household = { people: [{ age: 40 }] };

function crosswalkRow(planId: string, county: string) {
  const db = new Database(TEST_PLAN_STORE, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT level, reason, to_plan_id AS toPlanId FROM plan_crosswalk WHERE from_year = 2026 AND from_plan_id = ? AND county_fips = ? AND zip IS NULL",
      )
      .get(planId, county) as { level: number; reason: number; toPlanId: string | null } | undefined;
  } finally {
    db.close();
  }
}

async function planPriced(year: number, id: string, income: number, people = household.people) {
  const { body } = await post(plansRoute, "/api/plans", {
    income,
    household: { people },
    place: DALLAS,
    year,
    limit: 500,
  });
  return { plan: body.plans.find((p: Body) => p.id === id), aptc: body.aptc_applied };
}

async function renewal(body: Record<string, unknown>) {
  return post(renewalRoute, "/api/renewal", { income: 38_000, household, place: DALLAS, ...body });
}

describe("POST /api/renewal", () => {
  it("renewed within its insurer: names the crosswalk's 2027 plan, both years priced as /api/plans prices them", async () => {
    const row = crosswalkRow("10101TX0019001", "48113");
    expect(row).toEqual({ level: 1, reason: 2, toPlanId: "10101TX0010001" });
    const { status, body } = await renewal({ current_plan_id: "10101TX0019001" });
    expect(status).toBe(200);
    expect(body.outcome).toBe("renewed");
    expect(body.crosswalk).toMatchObject({ from_year: 2026, to_year: 2027, level: 1, reason: 2, zip: null });
    expect(body.next.plan.id).toBe(row!.toPlanId);
    expect(body.next.plan.name).toBe("Bluebonnet Bronze Essential");
    expect(body.current.plan.name).toBe("Bluebonnet Bronze Value");
    const now = await planPriced(2026, "10101TX0019001", 38_000);
    const next = await planPriced(2027, "10101TX0010001", 38_000);
    expect(body.current.plan).toEqual(now.plan);
    expect(body.next.plan).toEqual(next.plan);
    expect(body.current.aptc).toBe(now.aptc);
    expect(body.next.aptc).toBe(next.aptc);
    // The changes are next minus this year, to the cent.
    const diff = (a: number, b: number) => Math.round((b - a) * 100) / 100;
    expect(body.changes.premium_w_credit).toEqual({
      from: now.plan.premium_w_credit,
      to: next.plan.premium_w_credit,
      change: diff(now.plan.premium_w_credit, next.plan.premium_w_credit),
    });
    expect(body.changes.deductible.change).toBe(diff(now.plan.deductible.individual, next.plan.deductible.individual));
    expect(body.changes.moop.change).toBe(diff(now.plan.moop.individual, next.plan.moop.individual));
  });

  it("prices 2026 from 2026's Rate PUF: a 21-year-old with no credit pays the file's age-21 rate", async () => {
    // Hand calculation: income $200,000 for one person is far above 400 % of the 2025 guideline
    // ($15,650 × 4 = $62,600), where the credit ends again in 2026 (the ARPA/IRA enhancement
    // expired 31 Dec 2025), so premium_w_credit = premium = the Rate PUF's IndividualRate for
    // plan 10101TX0019001, Rating Area 8 (Dallas), Age 21, in seed/sample/2026/rate-puf.csv.
    const rates = readFileSync(path.join(REPO_ROOT, "seed/sample/2026/rate-puf.csv"), "utf8").split("\n");
    const header = rates[0].split(",");
    const col = (name: string) => header.indexOf(name);
    const line = rates
      .map((l) => l.split(","))
      .find(
        (f) =>
          f[col("PlanId")] === "10101TX0019001" && f[col("RatingAreaId")] === "Rating Area 8" && f[col("Age")] === "21",
      );
    const rate = Number(line![col("IndividualRate")]);
    const { body } = await renewal({
      current_plan_id: "10101TX0019001",
      income: 200_000,
      household: { people: [{ age: 21 }] },
    });
    expect(body.current.aptc ?? 0).toBe(0);
    expect(body.current.plan.premium).toBe(rate);
    expect(body.current.plan.premium_w_credit).toBe(rate);
  });

  it("accepts the plan ID with a variant suffix, lower case and spaces", async () => {
    const { status, body } = await renewal({ current_plan_id: " 10101tx0019001-01 " });
    expect(status).toBe(200);
    expect(body.plan_id).toBe("10101TX0019001");
    expect(body.variant_suffix).toBe("01");
    expect(body.next.plan.id).toBe("10101TX0010001");
  });

  it("a discontinued plan mapped to another insurer's plan names that plan and says so", async () => {
    const row = crosswalkRow("50102TX0010001", "48113");
    expect(row).toEqual({ level: 1, reason: 8, toPlanId: "10505TX0010003" });
    const { status, body } = await renewal({ current_plan_id: "50102TX0010001" });
    expect(status).toBe(200);
    expect(body.outcome).toBe("other_issuer");
    expect(body.crosswalk.reason_words).toMatch(/different insurer/);
    expect(body.next.plan.id).toBe("10505TX0010003");
    expect(body.next.plan.issuer.id).not.toBe(body.current.plan.issuer.id);
    expect(body.words).toMatch(/another insurer/);
  });

  it("a plan without a successor says so and lists the lowest-cost plans", async () => {
    const row = crosswalkRow("10202TX0029002", "48113");
    expect(row).toEqual({ level: 4, reason: 5, toPlanId: null });
    const { status, body } = await renewal({ current_plan_id: "10202TX0029002", alternatives: 3 });
    expect(status).toBe(200);
    expect(body.outcome).toBe("no_successor");
    expect(body.next).toBeNull();
    expect(body.changes).toBeNull();
    expect(body.words).toMatch(/names no plan/);
    expect(body.alternatives).toHaveLength(3);
    const costs = body.alternatives.map((a: Body) => a.yearly_cost);
    expect([...costs].sort((a, b) => a - b)).toEqual(costs);
    // The lowest yearly costs of the whole 2027 list for this household.
    const { body: list } = await post(plansRoute, "/api/plans", {
      income: 38_000,
      household,
      place: DALLAS,
      year: 2027,
      limit: 500,
    });
    const cost = (p: Body) => p.my_yearly_cost?.typical ?? p.estimated_yearly_cost;
    const lowest = list.plans.map(cost).sort((a: number, b: number) => a - b);
    expect(costs).toEqual(lowest.slice(0, 3));
  });

  it("alternatives beat the mapped plan on yearly cost, with why", async () => {
    const { body } = await renewal({ current_plan_id: "10101TX0019001", alternatives: 5 });
    for (const a of body.alternatives) {
      expect(a.yearly_cost).toBeLessThan(body.next.yearly_cost);
      expect(a.saves_per_year).toBe(Math.round((body.next.yearly_cost - a.yearly_cost) * 100) / 100);
      expect(a.why[0]).toMatch(/less a year/);
      expect(a.plan.id).not.toBe(body.next.plan.id);
    }
  });

  it("reports each drug's and doctor's coverage in both years", async () => {
    const db = new Database(TEST_PLAN_STORE, { readonly: true });
    const drug = db
      .prepare("SELECT rxcui FROM formulary WHERE plan_year = 2026 AND plan_id = '10101TX0019001' LIMIT 1")
      .get() as { rxcui: string };
    const doctor = db
      .prepare("SELECT npi FROM provider_network WHERE plan_year = 2026 AND plan_id = '10101TX0019001' LIMIT 1")
      .get() as { npi: string };
    db.close();
    const { body } = await renewal({
      current_plan_id: "10101TX0019001",
      drugs: [{ rxcui: drug.rxcui, name: "a drug" }],
      doctors: [{ npi: doctor.npi }],
    });
    expect(body.drugs).toHaveLength(1);
    expect(body.drugs[0]).toMatchObject({ rxcui: drug.rxcui, name: "a drug" });
    expect(["Covered", "PartialCovered"]).toContain(body.drugs[0].current.coverage);
    expect(body.drugs[0].next).not.toBeNull();
    expect(["Covered", "PartialCovered"]).toContain(body.doctors[0].current.coverage);
    expect(body.doctors[0].next.coverage).not.toBe("NotCovered");
  });

  it("an unknown plan is a 404 naming current_plan_id", async () => {
    const { status, body } = await renewal({ current_plan_id: "99999TX0019999" });
    expect(status).toBe(404);
    expect(body.error.code).toBe("plan_not_found");
    expect(Object.keys(body.error.fields)).toEqual(["current_plan_id"]);
    const later = await renewal({ current_plan_id: "10101TX0010001" });
    expect(later.status).toBe(404);
    expect(later.body.error.fields.current_plan_id).toMatch(/is a 2027 plan/);
  });

  it("takes next year as `year` like /api/plans; a year without data is a 404 naming year", async () => {
    const asked = await renewal({ current_plan_id: "10101TX0019001", year: 2027 });
    expect(asked.status).toBe(200);
    expect(asked.body.next.year).toBe(2027);
    const missing = await renewal({ current_plan_id: "10101TX0019001", year: 2029 });
    expect(missing.status).toBe(404);
    expect(Object.keys(missing.body.error.fields)).toEqual(["year"]);
    // 2026 as next year: this year would be 2025, which has no plans.
    const early = await renewal({ current_plan_id: "10101TX0019001", year: 2026 });
    expect(early.status).toBe(404);
    expect(early.body.error.fields.current_plan_id).toMatch(/no 2025 plans/);
  });

  it("a malformed plan ID is a 400 naming current_plan_id", async () => {
    const { status, body } = await renewal({ current_plan_id: "not a plan" });
    expect(status).toBe(400);
    expect(Object.keys(body.error.fields)).toContain("current_plan_id");
  });
});
