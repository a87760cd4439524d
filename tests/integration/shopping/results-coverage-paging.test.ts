import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { comparePage } from "../../../app/server/pages/compare-page.server";
import { planDetailPage } from "../../../app/server/pages/plan-detail-page.server";
import { shoppingPage } from "../../../app/server/pages/shopping-page.server";
import { forgetCoverageAnswers } from "../../../app/server/upstream/coverage.server";
import { resetPlanStoreForTests } from "../../../app/server/plan-store/plan-store.server";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import { startShoppingFake } from "./helpers";
import { coverageScore } from "../../../app/domain/coverage-order";

/**
 * Issue 16 item 2: the results page asks upstream drug and doctor coverage for
 * the plans on the page shown (10), not for the county's whole list (Dallas
 * County, 32 plans), and the next page asks for its own ten; pages already
 * seen, the plan page and the comparison of plans seen are answered from the
 * coverage kept (docs/decisions/202, 250). Counted at the fake CMS API over
 * real HTTP.
 */

// With a hardship exemption, so the whole county's 32 plans are listed, the 2 catastrophic ones too (decision 313).
const SEARCH =
  "zip=75201&county=48113&state=TX&income=36000&age=35&tobacco=no&pregnant=no&rel=self&hardship_exemption=yes" +
  "&drug=617318:Lipitor%2020%20mg&npi=1480000003:Dr%20Pembrook";
let fake: FakeUpstream;

beforeAll(async () => {
  fake = await startShoppingFake();
});
afterEach(() => {
  fake.reset();
  forgetCoverageAnswers();
});
afterAll(async () => {
  resetPlanStoreForTests();
  await fake.close();
});

/** A sort that does not read the drugs and doctors: with one, the page asks coverage for its own plans only. */
const PREMIUM = "&sort=premium";

async function results(extra = PREMIUM) {
  const page = await shoppingPage(new URL(`http://localhost/plans?${SEARCH}${extra}`));
  if (page.step !== "results") throw new Error(`expected results, got ${page.step}`);
  return page;
}

/** The plan ids each coverage call to the fake asked about, by operation. */
function coverageCalls() {
  const asked = (suffix: string) =>
    fake.calls.filter((c) => c.path.endsWith(suffix)).map((c) => c.query.planids.split(",").sort());
  return { drugs: asked("/drugs/covered"), doctors: asked("/providers/covered") };
}

describe("'Lowest cost for me' (issue 26): the sort once a drug or doctor is chosen", () => {
  it("is the default: coverage for the whole list once (4 + 4 calls for 32 plans), cards ordered by typical year; paging asks nothing", async () => {
    const first = await results("");
    expect(first.results.sort).toBe("my_yearly_cost");
    const calls = coverageCalls();
    // Every plan sold in Dallas County asked once, 10 plan ids a call, for the drug and for the doctor.
    for (const asked of [calls.drugs, calls.doctors]) {
      const ids = asked.flat();
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThanOrEqual(first.results.plan_count);
      expect(asked.length).toBe(Math.ceil(ids.length / 10));
    }
    const typical = first.results.plans.map((p) => p.my_yearly_cost.typical);
    expect(typical).toEqual([...typical].sort((a, b) => a - b));
    expect(first.results.plans.map((p) => p.ranking.position)).toEqual(first.results.plans.map((_, i) => i + 1));
    fake.reset();
    const second = await results("&page=2");
    expect(second.results.plans[0].ranking.position).toBe(11);
    expect(second.results.plans[0].my_yearly_cost.typical).toBeGreaterThanOrEqual(typical[9]);
    expect(coverageCalls()).toEqual({ drugs: [], doctors: [] });
  });
});

describe("coverage for the page of the list, not the county", () => {
  it("page 1 of 32 plans: one drug and one doctor call, for exactly the ten plans shown", async () => {
    const page = await results();
    expect(page.results.plan_count).toBe(32);
    expect(page.listPage).toMatchObject({ page: 1, pageCount: 4, first: 1, last: 10 });
    const shown = page.results.plans.map((p) => p.id).sort();
    expect(shown).toHaveLength(10);
    expect(coverageCalls()).toEqual({ drugs: [shown], doctors: [shown] });
    // Every plan shown has its coverage line; none for plans not shown.
    expect(new Set(page.drugCoverage!.results.map((r) => r.plan_id))).toEqual(new Set(shown));
    expect(new Set(page.doctorCoverage!.results.map((r) => r.plan_id))).toEqual(new Set(shown));
  });

  it("the next page asks for its own ten; coming back to page 1, its plan page and a comparison ask nothing", async () => {
    const first = await results();
    const second = await results(`${PREMIUM}&page=2`);
    expect(second.listPage).toMatchObject({ page: 2, first: 11, last: 20 });
    const firstIds = first.results.plans.map((p) => p.id).sort();
    const secondIds = second.results.plans.map((p) => p.id).sort();
    expect(secondIds.some((id) => firstIds.includes(id))).toBe(false);
    expect(coverageCalls()).toEqual({ drugs: [firstIds, secondIds], doctors: [firstIds, secondIds] });

    fake.reset();
    await results();
    const planId = second.results.plans[3].id;
    await planDetailPage(planId, new URL(`http://localhost/plans/${planId}?${SEARCH}&page=2`));
    const compared = first.results.plans.slice(0, 3).map((p) => `&compare=${p.id}`);
    const comparison = await comparePage(new URL(`http://localhost/plans/compare?${SEARCH}${compared.join("")}`));
    expect(comparison.ok).toBe(true);
    expect(coverageCalls()).toEqual({ drugs: [], doctors: [] });
  });

  it("a page past the end shows the last page (plans 31–32) and asks for those two only", async () => {
    const page = await results(`${PREMIUM}&page=7`);
    expect(page.listPage).toMatchObject({ page: 4, first: 31, last: 32 });
    const shown = page.results.plans.map((p) => p.id).sort();
    expect(shown).toHaveLength(2);
    expect(coverageCalls()).toEqual({ drugs: [shown], doctors: [shown] });
  });

  it("the plan page remembers the list's page for its Back link", async () => {
    const page = await results(`${PREMIUM}&page=3`);
    const planId = page.results.plans[0].id;
    const detail = await planDetailPage(planId, new URL(`http://localhost/plans/${planId}?${SEARCH}&page=3`));
    expect(detail.listPage).toBe(3);
  });

  it("'covers my drugs and doctors first' asks coverage for the whole list once (4 + 4 calls for 32 plans), then pages from what is kept", async () => {
    const first = await results("&sort=coverage");
    expect(first.ignored).toEqual([]);
    expect(first.state.sort).toBe("coverage");
    const calls = coverageCalls();
    // 32 plans in batches of 10: 10, 10, 10, 2 plan ids, for the drug and for the doctor.
    expect(calls.drugs.map((ids) => ids.length).sort()).toEqual([10, 10, 10, 2].sort());
    expect(calls.doctors.map((ids) => ids.length).sort()).toEqual([10, 10, 10, 2].sort());
    expect(new Set(calls.drugs.flat()).size).toBe(32);

    fake.reset();
    const pages = [first];
    for (let n = 2; n <= 4; n++) pages.push(await results(`&sort=coverage&page=${n}`));
    expect(coverageCalls()).toEqual({ drugs: [], doctors: [] });
    // Each plan's score from the coverage its page shows; the pages in order never get better.
    const scores = pages.flatMap((page) =>
      page.results.plans.map((plan) =>
        coverageScore(
          [...page.drugCoverage!.results, ...page.doctorCoverage!.results]
            .filter((r) => r.plan_id === plan.id)
            .map((r) => r.coverage),
        ),
      ),
    );
    expect(scores).toHaveLength(32);
    const covered = scores.map((s) => s.full + s.partial);
    expect(covered).toEqual([...covered].sort((a, b) => b - a));
    expect(covered[0]).toBeGreaterThan(covered[31]);
  });

  it("without a drug or doctor, 'coverage' is the premium order and asks nothing", async () => {
    const plain = await shoppingPage(
      new URL(
        "http://localhost/plans?zip=75201&county=48113&state=TX&income=36000&age=35&tobacco=no&pregnant=no&rel=self&sort=coverage",
      ),
    );
    if (plain.step !== "results") throw new Error(plain.step);
    const premiums = plain.results.plans.map((p) => p.premium_w_credit);
    expect(premiums).toEqual([...premiums].sort((a, b) => a - b));
    expect(fake.calls.filter((c) => c.path.includes("covered"))).toEqual([]);
  });
});
