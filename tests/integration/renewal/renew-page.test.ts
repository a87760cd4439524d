/**
 * GET /renew's data (app/server/renewal/renew-page.server.ts) over the sample
 * store: the form as filled, the plan list once the ZIP is known, the answer
 * (POST /api/renewal's) or the fields to fix. The browser test with
 * JavaScript off is tests/e2e/renew.test.ts.
 */
import { describe, expect, it } from "vitest";
import { renewPage } from "../../../app/server/renewal/renew-page.server";
import { pagesOverFakeUpstream } from "../../helpers/in-process-pages";

pagesOverFakeUpstream("renew-page-key");
const page = (query: string) => renewPage(new URL(`http://localhost/renew?${query}`));

describe("the /renew page's data", () => {
  it("without a query: the empty form, this year and next", async () => {
    const shown = await page("");
    expect(shown.asked).toBe(false);
    expect(shown.years).toEqual({ current: 2026, next: 2027 });
    expect(shown.answer).toBeNull();
    expect(shown.errors).toEqual({});
  });

  it("a ZIP alone: the 2026 plans of its state to pick from, nothing called missing yet", async () => {
    const shown = await page("zip=75201");
    expect(shown.form.county).toBe("48113");
    expect(shown.planChoices.map((p) => p.id)).toContain("50102TX0010001");
    expect(shown.planChoices.every((p) => p.state === "TX")).toBe(true);
    expect(shown.errors).toEqual({});
    expect((await page("zip=7520")).errors.zip?.key).toBe("zip");
  });

  it("a plan without household or income: those fields are named", async () => {
    const shown = await page("zip=75201&plan=10101TX0019001");
    expect(Object.keys(shown.errors).sort()).toEqual(["ages", "income"]);
  });

  it("a picked plan, household and a drug: the answer, with the drug resolved by name", async () => {
    const shown = await page("zip=75201&plan=&pick=10101TX0019001&ages=40&income=38%2C000&drugs=atorvastatin,zzzz");
    expect(shown.errors).toEqual({});
    expect(shown.answer?.outcome).toBe("renewed");
    expect(shown.answer?.next?.plan.name).toBe("Bluebonnet Bronze Essential");
    expect(shown.answer?.drugs).toHaveLength(1);
    expect(shown.drugsNotFound).toEqual(["zzzz"]);
  });

  it("an unknown plan ID: the plan field says so", async () => {
    const shown = await page("zip=75201&plan=99999TX0019999&ages=40&income=38000");
    expect(shown.answer).toBeNull();
    expect(shown.errors.plan?.key).toBe("planUnknown");
  });

  it("a ZIP in several counties asks for the county", async () => {
    const shown = await page("zip=75007&plan=10101TX0019001&ages=40&income=38000");
    expect(shown.counties.length).toBeGreaterThan(1);
    expect(shown.errors.county?.key).toBe("countyChoose");
  });
});
