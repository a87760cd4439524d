import { describe, expect, it } from "vitest";
import { shoppingPage } from "../../../app/server/pages/shopping-page.server";
import { planDetailPage } from "../../../app/server/pages/plan-detail-page.server";
import { comparePage } from "../../../app/server/pages/compare-page.server";
import { pagesOverFakeUpstream } from "../../helpers/in-process-pages";

/**
 * Item 1 of issue 17: every plan the pages show carries an "Apply / enroll"
 * next step for its state's marketplace, and item 11: the standardized design.
 */

const KEY = "enroll-step-test-key-0123456789";
const HOUSEHOLD = "income=36000&age=35&tobacco=no&pregnant=no&rel=self";
pagesOverFakeUpstream(KEY);

/** Every page of the results list (10 plans a page), its plans and their extras put together. */
async function results(query: string) {
  const load = async (n: number) => {
    const page = await shoppingPage(new URL(`http://localhost/plans?${query}&${HOUSEHOLD}&page=${n}`));
    if (page.step !== "results") throw new Error(`expected results, got ${page.step}`);
    return page;
  };
  const first = await load(1);
  const plans = [...first.results.plans];
  const extras = { ...first.extras };
  for (let n = 2; n <= first.listPage.pageCount; n++) {
    const next = await load(n);
    plans.push(...next.results.plans);
    Object.assign(extras, next.extras);
  }
  expect(plans).toHaveLength(first.results.plan_count);
  return { ...first, results: { ...first.results, plans }, extras };
}

describe("the Apply / enroll next step", () => {
  it("gives every Texas plan card HealthCare.gov, plus the insurer's page where the data has one", async () => {
    const page = await results("zip=75201&county=48113&state=TX");
    expect(page.results.plans.length).toBeGreaterThan(0);
    for (const plan of page.results.plans) {
      const steps = page.extras[plan.id].enroll;
      expect(steps[0].label).toBe("Apply and enroll at HealthCare.gov");
      expect(steps[0].note).toContain(plan.id);
      for (const extra of steps.slice(1)) expect(extra.label).toBe(`Enroll or pay with ${plan.issuer.name}`);
    }
    const standardized = page.results.plans.filter((p) => page.extras[p.id].standardized).map((p) => p.name);
    expect(standardized).toContain("Bluebonnet Silver Standard");
    expect(standardized).not.toContain("Bluebonnet Bronze Essential");
  });

  it("sends New York plans to NY State of Health and none to HealthCare.gov", async () => {
    const page = await results("zip=10001&county=36061&state=NY");
    expect(page.results.plans.length).toBeGreaterThan(0);
    for (const plan of page.results.plans) {
      const steps = page.extras[plan.id].enroll;
      expect(steps[0].href).toBe("https://nystateofhealth.ny.gov");
      expect(steps.some((s) => s.href.includes("healthcare.gov"))).toBe(false);
    }
    const first = page.results.plans[0].id;
    const detail = await planDetailPage(
      first,
      new URL(`http://localhost/plans/${first}?zip=10001&county=36061&state=NY&${HOUSEHOLD}`),
    );
    expect(detail.extras.enroll[0].label).toBe("Apply and enroll at NY State of Health");
    expect(detail.documents.map((d) => d.label)).not.toContain("Enroll or pay with the insurer");
  });

  it("puts the step in the comparison for each plan", async () => {
    const page = await results("zip=75201&county=48113&state=TX");
    const ids = page.results.plans.slice(0, 2).map((p) => p.id);
    const compare = await comparePage(
      new URL(
        `http://localhost/plans/compare?zip=75201&county=48113&state=TX&${HOUSEHOLD}&compare=${ids[0]}&compare=${ids[1]}`,
      ),
    );
    if (!compare.ok) throw new Error(compare.message);
    expect(compare.plans.map((p) => p.extras.enroll[0].href)).toEqual([
      "https://www.healthcare.gov/apply-and-enroll/how-to-apply/",
      "https://www.healthcare.gov/apply-and-enroll/how-to-apply/",
    ]);
  });
});

describe("standardized plan designs (issue 17 item 11)", () => {
  it("are flagged in the API answer and kept alone by standardized=1 in the URL (filters.standardized)", async () => {
    const all = await results("zip=75201&county=48113&state=TX");
    const flagged = all.results.plans.filter((p) => p.standardized).map((p) => p.name);
    expect(flagged).toContain("Bluebonnet Silver Standard");
    expect(flagged.length).toBeLessThan(all.results.plans.length);
    const only = await results("zip=75201&county=48113&state=TX&standardized=1");
    expect(only.results.plans.map((p) => p.name).sort()).toEqual([...flagged].sort());
    expect(only.state.standardized).toBe(true);
  });
});
