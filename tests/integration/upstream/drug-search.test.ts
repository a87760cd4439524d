import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as drugsAutocomplete from "../../../app/routes/api.drugs.autocomplete";
import { planStore, resetPlanStoreForTests } from "../../../app/server/plan-store/plan-store.server";
import { searchOwnDrugNames } from "../../../app/server/plan-store/drug-names.server";
import { setOwnDataSourceForTests } from "../../../app/server/upstream/lookups.server";
import type { FakeUpstream } from "../../../mocks/cms-api/index";
import { TEST_PLAN_STORE } from "../../helpers/server";
import { callRoute, configureService, jsonPost, startConfiguredFake, TEST_KEY } from "./helpers";

// "metformin": the fake answers as live (10 items by RxCUI: combination
// products only, tests/fixtures/upstream/README.md); the own drug names come
// from the test plan store (seed/sample's formulary files, real RxCUIs).
let fake: FakeUpstream;
const configure = () =>
  configureService({
    MARKETPLACE_API_BASE_URL: fake.url,
    MARKETPLACE_API_KEY: TEST_KEY,
    PLAN_STORE_PATH: TEST_PLAN_STORE,
  });
beforeAll(async () => {
  fake = await startConfiguredFake();
  setOwnDataSourceForTests(undefined);
});
afterAll(async () => {
  await fake.close();
  resetPlanStoreForTests();
});
beforeEach(async () => {
  fake.reset();
  await fake.setMode("normal");
  configure();
  resetPlanStoreForTests();
});

const PLAIN_METFORMIN = ["861004", "861007"]; // 1000 mg and 500 mg tablets

describe("drug search: own names merged with upstream's", () => {
  it("the plan store's drug names are searched by prefix and by words", () => {
    const found = searchOwnDrugNames(planStore(), { year: 2027, text: "metf" }).map((d) => d.rxcui);
    expect(found).toEqual(expect.arrayContaining(["860975", "861004", "861007"]));
    expect(searchOwnDrugNames(planStore(), { year: 2027, text: "metformin 1000" }).map((d) => d.rxcui)).toEqual([
      "861004",
    ]);
    const atorva = searchOwnDrugNames(planStore(), { year: 2027, text: "atorvastatin" });
    expect(atorva.every((d) => d.plans > 0)).toBe(true);
  });

  it('"metformin" lists the plain 500 mg and 1000 mg tablets first, though upstream sent only combinations', async () => {
    const upstreamAnswer = await (
      await fetch(`${fake.url}/drugs/autocomplete?q=metformin&year=2027&apikey=${TEST_KEY}`)
    ).json();
    expect(upstreamAnswer).toHaveLength(10);
    expect(upstreamAnswer.some((d: { rxcui: string }) => PLAIN_METFORMIN.includes(d.rxcui))).toBe(false);

    const { status, body } = await callRoute(
      drugsAutocomplete,
      jsonPost("/api/drugs/autocomplete", { query: "metformin" }),
    );
    expect(status).toBe(200);
    expect(body.upstream).toBe("ok");
    const shown = body.drugs.map((d: { rxcui: string }) => d.rxcui);
    console.log(
      `"metformin" with upstream: ${body.drugs
        .map((d: { full_name: string }) => d.full_name)
        .slice(0, 4)
        .join("; ")}`,
    );
    expect(shown.slice(0, 2).sort()).toEqual(PLAIN_METFORMIN);
    expect(body.drugs[0]).toMatchObject({ name: "metformin hydrochloride", route: "Oral Pill" });
    // Upstream's combinations are still there, after the plain drug.
    expect(shown).toContain("1368001");
  });

  it('"metformin" lists the plain tablets first while upstream is down, saying so', async () => {
    await fake.setMode("refuse");
    const { status, body } = await callRoute(
      drugsAutocomplete,
      jsonPost("/api/drugs/autocomplete", { query: "metformin" }),
    );
    expect(status).toBe(200);
    expect(body.upstream).toBe("unavailable");
    expect(
      body.drugs
        .map((d: { rxcui: string }) => d.rxcui)
        .slice(0, 2)
        .sort(),
    ).toEqual(PLAIN_METFORMIN);
    expect(body.drugs.map((d: { rxcui: string }) => d.rxcui)).toContain("860975");
  });
});
