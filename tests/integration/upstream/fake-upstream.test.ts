import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fakeCoverageQuirk, startFakeUpstream, type FakeUpstream } from "../../../mocks/cms-api/index";
import { DALLAS_PLANS, FIXTURE_DIR, TEST_KEY } from "./helpers";

// The fake upstream over real HTTP: the real API's shapes, its key and
// plan-id rules, and the failure modes tests switch on.
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream({ apiKey: TEST_KEY, dataDir: FIXTURE_DIR });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function get(pathAndQuery: string, key: string | null = TEST_KEY) {
  const sep = pathAndQuery.includes("?") ? "&" : "?";
  const response = await fetch(`${fake.url}${pathAndQuery}${key === null ? "" : `${sep}apikey=${key}`}`);
  return { status: response.status, body: JSON.parse(await response.text()) };
}
async function post(path: string, body: unknown) {
  const response = await fetch(`${fake.url}${path}?apikey=${TEST_KEY}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: JSON.parse(await response.text()) };
}

describe("fake upstream: keys and limits", () => {
  it("rejects a missing key and a wrong key with 401", async () => {
    expect(await get("/drugs/autocomplete?q=lipitor", null)).toEqual({
      status: 401,
      body: { message: "Invalid authentication credentials" },
    });
    expect((await get("/drugs/autocomplete?q=lipitor", "not-the-key")).status).toBe(401);
  });

  it("rejects more than 10 plan ids with 400, on both coverage endpoints", async () => {
    const eleven = [...DALLAS_PLANS.slice(0, 11)].join(",");
    const drugs = await get(`/drugs/covered?drugs=617318&planids=${eleven}`);
    expect(drugs.status).toBe(400);
    expect(drugs.body.message).toMatch(/between 1 and 10/);
    expect((await get(`/providers/covered?providerids=1000000004&planids=${eleven}`)).status).toBe(400);
    expect((await get(`/drugs/covered?drugs=617318&planids=${DALLAS_PLANS.slice(0, 10).join(",")}`)).status).toBe(200);
  });

  it("answers 400 for a state it does not serve (NY runs its own marketplace)", async () => {
    const answer = await post("/households/eligibility/estimates", {
      household: { income: 36_000, people: [{ age: 35 }] },
      place: { countyfips: "36061", state: "NY", zipcode: "10001" },
      year: 2027,
    });
    expect(answer).toMatchObject({ status: 400, body: { message: "state is not a valid marketplace state" } });
  });
});

describe("fake upstream: as strict as the real API", () => {
  it("answers 400 {message: Invalid market year} for a year it does not serve, on every endpoint", async () => {
    for (const path of [
      "/drugs/autocomplete?q=lipit&year=2031",
      "/drugs/covered?drugs=617318&planids=11111TX0010001&year=2031",
      "/providers/covered?providerids=1000000004&planids=11111TX0010001&year=2031",
      "/counties/by/zip/75001?year=2031",
      "/plans/11111TX0010001?year=2031",
    ]) {
      expect(await get(path), path).toEqual({ status: 400, body: { message: "Invalid market year" } });
    }
    const search = await post("/plans/search", {
      place: { countyfips: "48113", state: "TX", zipcode: "75001" },
      market: "Individual",
      year: 2031,
    });
    expect(search).toEqual({ status: 400, body: { message: "Invalid market year" } });
    expect(await get("/market-years")).toEqual({ status: 200, body: { current: 2027, supported: [2027] } });
  });

  it("answers a past plan year it has no data for (2019) with DataNotProvided across the board, as live", async () => {
    const drugs = await get(
      `/drugs/covered?drugs=617318,262095&planids=${DALLAS_PLANS.slice(0, 2).join(",")}&year=2019`,
    );
    expect(drugs.status).toBe(200);
    expect(drugs.body.coverage).toHaveLength(4);
    expect(drugs.body.coverage.every((row: { coverage: string }) => row.coverage === "DataNotProvided")).toBe(true);
    const providers = await get(`/providers/covered?providerids=1000000004&planids=${DALLAS_PLANS[0]}&year=2019`);
    expect(providers).toEqual({
      status: 200,
      body: {
        coverage: [
          {
            npi: "1000000004",
            plan_id: DALLAS_PLANS[0],
            coverage: "DataNotProvided",
            accepting: "unknown",
            addresses: [],
          },
        ],
      },
    });
  });

  it("sends provider_type only (no type), and at most 10 drug suggestions", async () => {
    const providers = (await get("/providers/autocomplete?q=aver&zipcode=75001&type=Individual")).body;
    expect(providers.length).toBeGreaterThan(0);
    for (const p of providers) expect(Object.keys(p)).not.toContain("type");
    const searched = (await get("/providers/search?q=aver&zipcode=75001&type=Individual")).body;
    expect(searched.providers.length).toBeGreaterThan(0);
    for (const n of searched.providers) expect(Object.keys(n.provider)).not.toContain("type");
    const drugs = (await get("/drugs/autocomplete?q=metformin")).body;
    expect(drugs.length).toBeLessThanOrEqual(10);
  });

  it("answers DataNotProvided for a plan it has no data for, not NotCovered", async () => {
    const { body } = await get("/drugs/covered?drugs=617318&planids=99999TX0000001&year=2027");
    expect(body).toEqual({ coverage: [{ rxcui: "617318", plan_id: "99999TX0000001", coverage: "DataNotProvided" }] });
  });
});

describe("fake upstream: the real shapes", () => {
  it("answers drug autocomplete with a bare array of RxNorm names, ordered by RxCUI as live", async () => {
    const { status, body } = await get("/drugs/autocomplete?q=lipit");
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((d: { rxcui: string }) => d.rxcui)).toEqual(["262095", "617318"]);
    expect(body[1]).toEqual({
      rxcui: "617318",
      name: "Lipitor",
      strength: "20 mg",
      route: "Oral Pill",
      full_name: "atorvastatin 20 MG Oral Tablet [Lipitor]",
      rxterms_dose_form: "Tab",
      rxnorm_dose_form: "Oral Tablet",
    });
  });

  it("answers provider search with each provider's address nearest the ZIP (spec NearbyProvider), Individual and Facility only", async () => {
    const { status, body } = await get("/providers/search?q=aver&zipcode=75201&type=Individual");
    expect(status).toBe(200);
    // Averill Stone has offices in 75201 and 75007: 75201's comes first and is the one sent.
    expect(body.providers.map((n: { provider: { npi: string } }) => n.provider.npi)).toEqual([
      "1000000012",
      "1000000004",
      "1000000020",
    ]);
    expect(body.providers[0].address).toMatchObject({ city: "Dallas", state: "TX", zipcode: "75201" });
    expect(body.providers[0].provider).toMatchObject({ accepting: "accepting in some locations" });
    expect(body.providers[2].address).toMatchObject({ city: "Phoenix", state: "AZ" });
    expect((await get("/providers/search?q=aver&zipcode=75201&type=Group")).status).toBe(400);
  });

  it("answers provider autocomplete per type: Individual, Facility and Group", async () => {
    const types = await Promise.all(
      ["Individual", "Facility", "Group"].map(
        async (type) => (await get(`/providers/autocomplete?q=aver&zipcode=75001&type=${type}`)).body,
      ),
    );
    expect(types[0].map((p: { npi: string }) => p.npi)).toEqual(["1000000004", "1000000012", "1000000020"]);
    expect(types[0].every((p: { provider_type: string }) => p.provider_type === "Individual")).toBe(true);
    expect(types[1].map((p: { npi: string; provider_type: string }) => [p.npi, p.provider_type])).toEqual([
      ["1000000046", "Facility"],
      ["1000000038", "Facility"],
    ]);
    expect(types[2].map((p: { npi: string; provider_type: string }) => [p.npi, p.provider_type])).toEqual([
      ["1000000046", "Group"],
    ]);
  });

  it("answers drug coverage as {coverage}, with DataNotProvided and left-out plans, never tiers or PartialCovered", async () => {
    const plans = DALLAS_PLANS.slice(0, 10);
    const { body } = await get(`/drugs/covered?drugs=617318,262095&planids=${plans.join(",")}&year=2027`);
    const rows = body.coverage as Array<Record<string, string>>;
    const answered = new Set(rows.map((r) => r.plan_id));
    for (const planId of plans) {
      const quirk = fakeCoverageQuirk(planId);
      if (quirk === "omitted") expect(answered.has(planId)).toBe(false);
      if (quirk === "data_not_provided")
        expect(rows.filter((r) => r.plan_id === planId).map((r) => r.coverage)).toEqual([
          "DataNotProvided",
          "DataNotProvided",
        ]);
    }
    expect(plans.some((id) => fakeCoverageQuirk(id) === "omitted")).toBe(true);
    expect(plans.some((id) => fakeCoverageQuirk(id) === "data_not_provided")).toBe(true);
    expect(rows.find((r) => r.rxcui === "617318" && r.plan_id === "11111TX0010001")?.coverage).toBe("Covered");
    // Lipitor 80 is not on 11111's formulary but its generic (atorvastatin 80, 259255) is.
    expect(rows.find((r) => r.rxcui === "262095" && r.plan_id === "11111TX0010001")).toEqual({
      rxcui: "262095",
      plan_id: "11111TX0010001",
      coverage: "GenericCovered",
      generic_rxcui: "259255",
    });
    for (const row of rows) {
      expect(Object.keys(row).some((k) => k.includes("tier"))).toBe(false);
      expect(["Covered", "NotCovered", "DataNotProvided", "GenericCovered"]).toContain(row.coverage);
    }
  });

  it("answers provider coverage with accepting and addresses, NotCovered off network", async () => {
    const { body } = await get(
      "/providers/covered?providerids=1000000012&planids=11111TX0010001,11111TX0010006&year=2027",
    );
    expect(body.coverage).toHaveLength(2);
    expect(body.coverage[0]).toMatchObject({
      npi: "1000000012",
      plan_id: "11111TX0010001",
      coverage: "Covered",
      accepting: "accepting in some locations",
    });
    expect(body.coverage[0].addresses[0]).toEqual({
      street_1: "200 Heart Way",
      street_2: "",
      city: "Dallas",
      state: "TX",
      zipcode: "75201",
      countyfips: "48113",
    });
    expect(body.coverage[1]).toEqual({
      npi: "1000000012",
      plan_id: "11111TX0010006",
      coverage: "NotCovered",
      accepting: "unknown",
      addresses: [],
    });
  });

  it("answers counties by ZIP, every county of a multi-county ZIP, largest share first", async () => {
    const { body } = await get("/counties/by/zip/75007");
    expect(body.counties.map((c: { fips: string }) => c.fips)).toEqual(["48121", "48113", "48085"]);
    expect(body.counties[1]).toEqual({ fips: "48113", name: "Dallas County", state: "TX", zipcode: "75007" });
    expect((await get("/counties/by/zip/99999")).body).toEqual({ counties: [] });
  });

  it("answers eligibility estimates per person, csr text only when there is a CSR", async () => {
    const { body } = await post("/households/eligibility/estimates", {
      household: { income: 36_000, people: [{ age: 35, aptc_eligible: true }] },
      place: { countyfips: "48113", state: "TX", zipcode: "75001" },
      year: 2027,
      market: "Individual",
    });
    expect(body.estimates).toHaveLength(1);
    expect(body.estimates[0].csr).toBe("73% AV Level Silver Plan CSR");
    expect(body.estimates[0].aptc).toBeCloseTo(251.09, 6); // 482.69 − 36,000 × 7.72% / 12 (fake-rules.test.ts)
    const high = await post("/households/eligibility/estimates", {
      household: { income: 60_000, people: [{ age: 35 }] },
      place: { countyfips: "48113", state: "TX", zipcode: "75001" },
      year: 2027,
    });
    expect("csr" in high.body.estimates[0]).toBe(false);
  });

  it("pages plan search by 10 with the total, whatever limit says", async () => {
    const request = {
      household: { income: 36_000, people: [{ age: 35 }] },
      place: { countyfips: "48113", state: "TX", zipcode: "75001" },
      market: "Individual",
      year: 2027,
      limit: 50,
    };
    const first = await post("/plans/search", { ...request, offset: 0 });
    const second = await post("/plans/search", { ...request, offset: 10 });
    expect(first.body.total).toBe(13);
    expect(first.body.plans).toHaveLength(10);
    expect(second.body.plans).toHaveLength(3);
    const ids = [...first.body.plans, ...second.body.plans].map((plan: { id: string }) => plan.id);
    expect(new Set(ids)).toEqual(new Set(DALLAS_PLANS));
    expect(first.body.rate_area).toEqual({ state: "TX", area: 8 });
    // Sorted by premium after credit: 22222TX0020001 at 35 costs 482.69 − 251.09 = 231.60.
    const benchmark = [...first.body.plans, ...second.body.plans].find(
      (plan: { id: string }) => plan.id === "22222TX0020001",
    );
    expect(benchmark.premium).toBe(482.69);
    expect(benchmark.premium_w_credit).toBe(231.6);
  });
});

describe("fake upstream: failure modes", () => {
  it("refuses connections, then listens again on the same port", async () => {
    await fake.setMode("refuse");
    const refused = await fetch(`${fake.url}/drugs/autocomplete?q=lipitor&apikey=${TEST_KEY}`).catch((error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error & { cause?: { code?: string } }).cause?.code).toBe("ECONNREFUSED");
    await fake.setMode("normal");
    expect((await get("/drugs/autocomplete?q=lipitor")).status).toBe(200);
  });

  it("answers 500, 503 and 429 (with rate-limit headers), and a body that is not JSON", async () => {
    for (const mode of ["500", "503", "429"] as const) {
      await fake.setMode(mode);
      const response = await fetch(`${fake.url}/drugs/autocomplete?q=lipitor&apikey=${TEST_KEY}`);
      expect(response.status).toBe(Number(mode));
      if (mode === "429") expect(response.headers.get("retry-after")).toBe("1");
      await response.text();
    }
    await fake.setMode("malformed");
    const response = await fetch(`${fake.url}/drugs/autocomplete?q=lipitor&apikey=${TEST_KEY}`);
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
  });

  it("can fail only the calls a test picks", async () => {
    await fake.setMode("503", { only: (call) => call.query.type === "Group" });
    expect((await get("/providers/autocomplete?q=aver&zipcode=75001&type=Group")).status).toBe(503);
    expect((await get("/providers/autocomplete?q=aver&zipcode=75001&type=Facility")).status).toBe(200);
  });

  it("records every call with its path and query", async () => {
    await get("/drugs/covered?drugs=617318&planids=11111TX0010001,22222TX0020001");
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({
      method: "GET",
      path: "/api/v1/drugs/covered",
      query: { drugs: "617318", planids: "11111TX0010001,22222TX0020001", apikey: TEST_KEY },
      status: 200,
    });
  });
});
