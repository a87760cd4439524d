import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as plansRoute from "../../../app/routes/plans._index";
import * as planRoute from "../../../app/routes/plans.$planId";
import * as compareRoute from "../../../app/routes/plans.compare";
import * as apiPlans from "../../../app/routes/api.plans";
import { resetEnvForTests } from "../../../app/server/platform/env.server";
import { resetPlanStoreForTests } from "../../../app/server/plan-store/plan-store.server";
import { resetUpstreamClientForTests } from "../../../app/server/upstream/client.server";
import { forgetEligibilityAnswers } from "../../../app/server/shopping/eligibility.server";
import type { ComparePage } from "../../../app/server/pages/compare-page.server";
import type { PlanDetailModel } from "../../../app/server/pages/plan-detail-page.server";
import type { ShoppingPage } from "../../../app/server/pages/shopping-page.server";
import { BENEFIT_TABLE_PART } from "../../../app/components/plans/benefit-table";
import { benefitRowsFromText } from "../../../app/lib/benefit-rows-text";
import { startFakeUpstream, type FakeUpstream } from "../../../mocks/cms-api/index";
import { TEST_PLAN_STORE } from "../../helpers/server";

/**
 * The page loaders, called the way Remix calls them (a real Request), over
 * the sample plan store and the fake upstream on loopback: they answer with
 * the same numbers as POST /api/plans because they call the same modules.
 */

const KEY = "pages-loader-test-key-0123456789";
const DALLAS = "zip=75201&county=48113&state=TX";
const SINGLE_35 = `${DALLAS}&income=36000&age=35&tobacco=no&pregnant=no&rel=self`;
let fake: FakeUpstream;

type Loader = (args: { request: Request; params: Record<string, string>; context: object }) => Promise<unknown>;

/** Call a loader; a `data()` answer comes back as {status, body}, a thrown Response or data() as the same. */
async function load<T>(route: { loader: unknown }, path: string, params: Record<string, string> = {}) {
  let answer: unknown;
  try {
    answer = await (route.loader as Loader)({ request: new Request(`http://localhost${path}`), params, context: {} });
  } catch (thrown) {
    answer = thrown;
  }
  if (answer instanceof Response)
    return { status: answer.status, location: answer.headers.get("location"), body: undefined as T };
  const wrapped = answer as { type?: string; data: T; init?: { status?: number } };
  if (wrapped?.type === "DataWithResponseInit")
    return { status: wrapped.init?.status ?? 200, location: null, body: wrapped.data };
  return { status: 200, location: null, body: answer as T };
}

beforeAll(async () => {
  fake = await startFakeUpstream({ apiKey: KEY });
  Object.assign(process.env, {
    PLAN_STORE_PATH: TEST_PLAN_STORE,
    MARKETPLACE_API_KEY: KEY,
    MARKETPLACE_API_BASE_URL: fake.url,
    UPSTREAM_IS_SAMPLE: "1",
    LOG_LEVEL: "silent",
  });
  resetEnvForTests();
  resetPlanStoreForTests();
});

beforeEach(async () => {
  await fake.setMode("normal");
  fake.reset();
  resetUpstreamClientForTests();
});

afterAll(async () => {
  resetPlanStoreForTests();
  await fake.close();
});

describe("/plans: one route, the step chosen by the URL", () => {
  it("asks for a ZIP, then says what is wrong with a bad one (400)", async () => {
    expect((await load<ShoppingPage>(plansRoute, "/plans")).body).toEqual({ step: "zip", zip: "", error: null });
    // 001 is a 3-digit prefix USPS never assigned (app/domain/zip-prefix.ts): no such ZIP.
    const bad = await load<ShoppingPage>(plansRoute, "/plans?zip=00199");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      step: "zip",
      zip: "00199",
      error: "We could not find ZIP code 00199. Check the number and try again.",
    });
  });

  it("offers the counties of a ZIP in several, largest share first", async () => {
    const page = (await load<ShoppingPage>(plansRoute, "/plans?zip=75007")).body;
    expect(page.step).toBe("county");
    if (page.step !== "county") return;
    expect(page.counties.map((c) => `${c.name} ${c.fips}`)).toEqual([
      "Denton County 48121",
      "Dallas County 48113",
      "Collin County 48085",
    ]);
  });

  it("answers the county form sent without a choice with the field error 'Choose a county' (400)", async () => {
    const first = await load<ShoppingPage>(plansRoute, "/plans?zip=75007");
    expect(first.status).toBe(200);
    expect(first.body.step === "county" && first.body.error).toBe(null);
    const skipped = await load<ShoppingPage>(plansRoute, "/plans?zip=75007&county_form=1");
    expect(skipped.status).toBe(400);
    expect(skipped.body.step === "county" && skipped.body.error).toBe("Choose a county");
    const chosen = (await load<ShoppingPage>(plansRoute, "/plans?zip=75007&county_form=1&county=48113")).body;
    expect(chosen.step).toBe("household");
  });

  it("hands a state-based-exchange ZIP to its marketplace", async () => {
    const page = (await load<ShoppingPage>(plansRoute, "/plans?zip=19103")).body;
    expect(page.step).toBe("sbe");
    if (page.step !== "sbe") return;
    expect(page.redirect.state).toBe("PA");
    expect(page.redirect.marketplace_url).toMatch(/^https:\/\//);
  });

  it("goes straight to the household for a one-county ZIP, with the county and state filled in", async () => {
    const page = (await load<ShoppingPage>(plansRoute, "/plans?zip=75201")).body;
    expect(page.step).toBe("household");
    if (page.step !== "household") return;
    expect(page.state.county).toBe("48113");
    expect(page.state.state).toBe("TX");
    expect(page.errors).toEqual({});
  });

  it("prices the household exactly as POST /api/plans does", async () => {
    const page = (await load<ShoppingPage>(plansRoute, `/plans?${SINGLE_35}`)).body;
    expect(page.step).toBe("results");
    if (page.step !== "results") return;
    const api = await apiPlans.action({
      request: new Request("http://localhost/api/plans", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          income: 36000,
          household: { people: [{ age: 35 }] },
          place: { state: "TX", county_fips: "48113", zip: "75201" },
          // The page shows the list's first page: the API's first 10 (docs/decisions/250).
          limit: 10,
        }),
      }),
      params: {},
      context: {},
    });
    const body = (await (api as Response).json()) as {
      plans: Array<{ id: string; premium_w_credit: number }>;
      plan_count: number;
    };
    expect(page.results.plan_count).toBe(body.plan_count);
    expect(page.results.plans.map((p) => [p.id, p.premium_w_credit])).toEqual(
      body.plans.map((p) => [p.id, p.premium_w_credit]),
    );
    // By hand: Trinity Crest Bronze Value, rate-puf.csv Rating Area 8, age 35 = $428.35 a month;
    // the fake upstream's credit for this household is $345.40 (less than the plan's EHB premium
    // $425.99, so all of it applies): 428.35 − 345.40 = $82.95.
    const bronze = page.results.plans.find((p) => p.id === "10303TX0030001")!;
    expect(page.results.eligibility?.aptc).toBe(345.4);
    expect(bronze.premium).toBe(428.35);
    expect(bronze.premium_w_credit).toBe(82.95);
  });

  it("turns the household form's one-shot edits into redirects to the canonical URL", async () => {
    const add = await load(plansRoute, `/plans?${SINGLE_35}&add_person=1`);
    expect(add.status).toBe(302);
    expect(add.location).toBe(`/plans?${SINGLE_35}&age=&tobacco=no&pregnant=no&rel=&step=household#person-1`);
    const remove = await load(plansRoute, `/plans?${SINGLE_35}&age=4&tobacco=no&pregnant=no&rel=child&remove_person=1`);
    expect(remove.location).toBe(`/plans?${SINGLE_35}&step=household`);
    const chip = await load(
      plansRoute,
      `/plans?${SINGLE_35}&drug=617318%3ALipitor&drug=861007%3Ametformin&remove_drug=617318`,
    );
    expect(chip.location).toBe(`/plans?${SINGLE_35}&drug=861007%3Ametformin#drugs`);
  });

  it("searches drugs without JavaScript and checks the chosen drug on every plan shown", async () => {
    const page = (
      await load<ShoppingPage>(
        plansRoute,
        `/plans?${SINGLE_35}&metal=Silver&drug=617318%3ALipitor%2020%20mg&drugq=lipi`,
      )
    ).body;
    if (page.step !== "results") throw new Error(page.step);
    expect(page.drugSearch?.answer?.drugs.map((d) => d.rxcui)).toEqual(["617318"]);
    const silverIds = page.results.plans.map((p) => p.id);
    expect(page.results.plans.every((p) => p.metal_level === "Silver")).toBe(true);
    expect(page.drugCoverage?.upstream).toBe("ok");
    expect(page.drugCoverage?.results.map((r) => r.plan_id).sort()).toEqual([...silverIds].sort());
    const short = (await load<ShoppingPage>(plansRoute, `/plans?${SINGLE_35}&drugq=li`)).body;
    expect(short.step === "results" && short.drugSearch?.error).toBe("Type at least 3 letters of the drug's name.");
  });

  it("keeps prices when the upstream is down: our own estimate says so, search and coverage say upstream is unavailable", async () => {
    await fake.setMode("refuse");
    forgetEligibilityAnswers(); // this household's estimate from an earlier test is kept ten minutes (docs/decisions/120)
    const page = (await load<ShoppingPage>(plansRoute, `/plans?${SINGLE_35}&drug=617318%3ALipitor&drugq=metf`)).body;
    if (page.step !== "results") throw new Error(page.step);
    expect(page.results.eligibility).toMatchObject({ source: "own", upstream: "unavailable", csr: "73" });
    expect(page.results.eligibility?.note).toMatch(/our own estimate/);
    expect(page.results.eligibility_unavailable).toBeNull();
    // Dallas's 32 plans less the 2 catastrophic ones, which a 35-year-old cannot buy (decision 313).
    expect(page.results.plan_count).toBe(30);
    for (const plan of page.results.plans) expect(plan.premium_w_credit).toBeLessThanOrEqual(plan.premium);
    expect(page.drugSearch?.answer?.upstream).toBe("unavailable");
    // Own drug names still answer "metf" while upstream is down.
    expect(page.drugSearch?.answer?.drugs.map((d) => d.rxcui)).toContain("861007");
    expect(page.drugCoverage?.upstream).toBe("unavailable");
  });
});

describe("/plans/<planId>", () => {
  it("answers 404 for an unknown plan id", async () => {
    const missing = await load<{ planId: string }>(planRoute, `/plans/99999TX9999999?${SINGLE_35}`, {
      planId: "99999TX9999999",
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ planId: "99999TX9999999" });
    expect((await load(planRoute, "/plans/not-a-plan", { planId: "not-a-plan" })).status).toBe(404);
  });

  it("shows a 73% household the silver plan's 73% variant, and a higher-income household the standard plan", async () => {
    const csr = (
      await load<PlanDetailModel>(planRoute, `/plans/10303TX0030003?${SINGLE_35}`, { planId: "10303TX0030003" })
    ).body;
    expect(csr.csr).toBe("73");
    expect(csr.plan.variantId).toBe("10303TX0030003-04");
    expect(csr.deductible.individual).toBe(4300);
    // SBC example, having a baby: the 73% variant's member share is $6,936 of the fixed $12,700 total,
    // so the plan pays 12,700 − 6,936 = $5,764.
    expect(csr.scenarios[0]).toMatchObject({ key: "havingABaby", totalCost: 12700, youPay: 6936, planPays: 5764 });
    const standard = (
      await load<PlanDetailModel>(planRoute, `/plans/10303TX0030003?${DALLAS}&income=150000&age=35`, {
        planId: "10303TX0030003",
      })
    ).body;
    expect(standard.csr).toBeNull();
    expect(standard.plan.variantId).toBe("10303TX0030003-01");
    expect(standard.deductible.individual).not.toBe(4300);
    expect(benefitRowsFromText(standard.benefits.rowsText).length).toBeGreaterThan(40);
    expect(standard.benefits.caption).toBe("What you pay for each service");
    expect(csr.benefits.caption).toBe("What you pay for each service at your savings level");
    // Another household looking at the same variant gets the same rows, made once.
    const again = (
      await load<PlanDetailModel>(planRoute, `/plans/10303TX0030003?${DALLAS}&income=160000&age=50`, {
        planId: "10303TX0030003",
      })
    ).body;
    expect(again.plan.variantId).toBe("10303TX0030003-01");
    expect(again.benefits).toBe(standard.benefits);
  });

  it("leaves the benefit table's markup for the document in the request's context, not in the page's data", async () => {
    const prerendered: Record<string, string> = {};
    const answer = (await (planRoute.loader as Loader)({
      request: new Request(`http://localhost/plans/10303TX0030003?${DALLAS}&income=150000&age=35`),
      params: { planId: "10303TX0030003" },
      context: { prerendered },
    })) as { data: PlanDetailModel };
    const html = prerendered[BENEFIT_TABLE_PART];
    expect(html.match(/<tr>/g)).toHaveLength(benefitRowsFromText(answer.data.benefits.rowsText).length + 1); // and the heading row
    expect(html).toContain(`<caption>${answer.data.benefits.caption}</caption>`);
    expect(JSON.stringify(answer.data)).not.toContain("<table");
  });

  it("without a household in the URL, shows the plan with a note instead of a price", async () => {
    const page = (await load<PlanDetailModel>(planRoute, "/plans/10303TX0030001", { planId: "10303TX0030001" })).body;
    expect(page.price).toBeNull();
    expect(page.priceNote).toBe("Enter your ZIP code and household to see what this plan would cost you.");
    expect(page.quality?.overall).toBe(2);
    expect(page.documents.map((d) => d.label)).toContain("Summary of Benefits and Coverage");
  });
});

describe("/plans/compare", () => {
  it("puts 2 or 3 plans side by side with the drug's coverage for each", async () => {
    const ids = ["10303TX0030001", "10303TX0030003", "10101TX0010001"];
    const page = (
      await load<ComparePage>(
        compareRoute,
        `/plans/compare?${SINGLE_35}&drug=617318%3ALipitor&${ids.map((id) => `compare=${id}`).join("&")}`,
      )
    ).body;
    if (!page.ok) throw new Error(page.message);
    expect(page.plans.map((p) => p.plan.id)).toEqual(ids);
    expect(page.plans.map((p) => p.scenarios.length)).toEqual([3, 3, 3]);
    expect(page.drugCoverage?.results.map((r) => [r.plan_id, r.coverage])).toEqual([
      ["10303TX0030001", "PartialCovered"],
      ["10303TX0030003", "PartialCovered"],
      ["10101TX0010001", "PartialCovered"],
    ]);
  });

  it("asks for 2 or 3 plans (400) and names a plan not sold there (404)", async () => {
    const one = await load<ComparePage>(compareRoute, `/plans/compare?${SINGLE_35}&compare=10303TX0030001`);
    expect(one.status).toBe(400);
    expect(one.body.ok ? null : one.body.message).toBe("Choose 2 or 3 plans to compare. You chose 1.");
    const four = await load<ComparePage>(compareRoute, `/plans/compare?${SINGLE_35}&compare=A,B,C,D`);
    expect(four.body.ok ? null : four.body.message).toBe("Choose at most 3 plans to compare. You chose 4.");
    const unknown = await load<ComparePage>(
      compareRoute,
      `/plans/compare?${SINGLE_35}&compare=10303TX0030001,99999TX9999999`,
    );
    expect(unknown.status).toBe(404);
  });
});
