import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as drugsAutocomplete from "../../../app/routes/api.drugs.autocomplete";
import * as drugsCovered from "../../../app/routes/api.drugs.covered";
import * as providersAutocomplete from "../../../app/routes/api.providers.autocomplete";
import * as providersCovered from "../../../app/routes/api.providers.covered";
import { setOwnDataSourceForTests } from "../../../app/server/upstream/lookups.server";
import { fakeCoverageQuirk, type FakeUpstream } from "../../../mocks/cms-api/index";
import {
  callRoute,
  configureService,
  DALLAS_PLANS,
  jsonPost,
  ownRowsFrom,
  startConfiguredFake,
  TEST_KEY,
} from "./helpers";

// The four drug and doctor routes, called as Remix resource routes, against
// the fake upstream over real HTTP; own rows injected through the seam.
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startConfiguredFake();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  await fake.setMode("normal");
  configureService({ MARKETPLACE_API_BASE_URL: fake.url, MARKETPLACE_API_KEY: TEST_KEY });
  ownRowsFrom({});
});
afterEach(() => setOwnDataSourceForTests(undefined));

const row = (
  rxcui: string,
  planId: string,
  drugTier: string,
  flags: { priorAuth?: boolean; stepTherapy?: boolean; quantityLimit?: boolean } = {},
) => ({
  rxcui,
  planId,
  drugTier,
  priorAuth: flags.priorAuth ?? false,
  stepTherapy: flags.stepTherapy ?? false,
  quantityLimit: flags.quantityLimit ?? false,
});

describe("request validation", () => {
  it.each([
    { route: drugsAutocomplete, path: "/api/drugs/autocomplete", body: { query: "li" }, field: "query" },
    { route: drugsAutocomplete, path: "/api/drugs/autocomplete", body: {}, field: "query" },
    {
      route: drugsAutocomplete,
      path: "/api/drugs/autocomplete",
      body: { query: "lipitor", year: "2027" },
      field: "year",
    },
    { route: providersAutocomplete, path: "/api/providers/autocomplete", body: { query: "avery" }, field: "zip" },
    {
      route: providersAutocomplete,
      path: "/api/providers/autocomplete",
      body: { query: "  av ", zip: "75001" },
      field: "query",
    },
    {
      route: drugsCovered,
      path: "/api/drugs/covered",
      body: { rxcuis: ["lipitor"], plan_ids: ["11111TX0010001"] },
      field: "rxcuis.0",
    },
    { route: drugsCovered, path: "/api/drugs/covered", body: { rxcuis: ["617318"], plan_ids: [] }, field: "plan_ids" },
    {
      route: drugsCovered,
      path: "/api/drugs/covered",
      body: { rxcuis: ["617318"], plan_ids: Array(501).fill("11111TX0010001") },
      field: "plan_ids",
    },
    {
      route: providersCovered,
      path: "/api/providers/covered",
      body: { npis: ["123"], plan_ids: ["11111TX0010001"] },
      field: "npis.0",
    },
    {
      route: providersCovered,
      path: "/api/providers/covered",
      body: { npis: ["1000000004"], plan_ids: ["not-a-plan"] },
      field: "plan_ids.0",
    },
  ])("$path → 400 naming $field", async ({ route, path, body, field }) => {
    const { status, body: answer } = await callRoute(route, jsonPost(path, body));
    expect(status).toBe(400);
    expect(answer.error.code).toBe("validation_failed");
    expect(Object.keys(answer.error.fields)).toContain(field);
    expect(fake.calls).toHaveLength(0);
  });

  it("answers 405 with Allow for GET and 415 for a body that is not JSON", async () => {
    const get = await drugsAutocomplete.loader({
      request: new Request("http://localhost/api/drugs/autocomplete"),
      params: {},
      context: {},
    });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const form = await callRoute(
      drugsCovered,
      new Request("http://localhost/api/drugs/covered", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "x",
      }),
    );
    expect(form.status).toBe(415);
  });
});

describe("POST /api/drugs/autocomplete", () => {
  it("answers drug names with RxCUIs, and the same letters again from the cache", async () => {
    const { status, body } = await callRoute(
      drugsAutocomplete,
      jsonPost("/api/drugs/autocomplete", { query: "lipit" }),
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      // Upstream sends them by RxCUI; ranked by name, the lower strength comes first.
      drugs: [
        {
          rxcui: "617318",
          name: "Lipitor",
          strength: "20 mg",
          route: "Oral Pill",
          full_name: "atorvastatin 20 MG Oral Tablet [Lipitor]",
        },
        {
          rxcui: "262095",
          name: "Lipitor",
          strength: "80 mg",
          route: "Oral Pill",
          full_name: "atorvastatin 80 MG Oral Tablet [Lipitor]",
        },
      ],
      upstream: "ok",
      sample: false,
    });
    await callRoute(drugsAutocomplete, jsonPost("/api/drugs/autocomplete", { query: "Lipit" }));
    expect(fake.calls).toHaveLength(1);
  });

  it("says when answers come from the sample upstream", async () => {
    configureService({ MARKETPLACE_API_BASE_URL: fake.url, MARKETPLACE_API_KEY: TEST_KEY, UPSTREAM_IS_SAMPLE: "1" });
    const { body } = await callRoute(drugsAutocomplete, jsonPost("/api/drugs/autocomplete", { query: "lisinopril" }));
    expect(body.sample).toBe(true);
    expect(body.drugs.map((d: { rxcui: string }) => d.rxcui)).toEqual(["314077"]);
  });
});

describe("POST /api/providers/autocomplete", () => {
  it("makes three concurrent calls and merges Individual, Facility, Group without repeating an NPI, in the ZIP's state only", async () => {
    const { status, body } = await callRoute(
      providersAutocomplete,
      jsonPost("/api/providers/autocomplete", { query: "aver", zip: "75001" }),
    );
    expect(status).toBe(200);
    expect(body.upstream).toBe("ok");
    expect(body.failedTypes).toBeUndefined();
    // Jordan Avery (1000000020) practises in Phoenix: not offered for a Texas ZIP. Nearest first
    // (decision 381): upstream's search answers in its own order, each with its distance in miles.
    const list = body.providers.map((p: { type: string; npi: string; distance: number | null }) => [
      p.type,
      p.npi,
      p.distance,
    ]);
    expect(list.map(([type, npi]: [string, string]) => [type, npi])).toEqual([
      ["Individual", "1000000004"],
      ["Facility", "1000000046"], // also answered as a Group: listed once
      ["Individual", "1000000012"],
      ["Facility", "1000000038"],
    ]);
    const miles = list.map(([, , distance]: [string, string, number]) => distance);
    expect(miles).toEqual([...miles].sort((a, b) => a - b));
    expect(miles[0]).toBe(0);
    expect(body.paging).toEqual({ offset: 0, page_size: 25, total: 5 });
    expect(body.providers[0]).toEqual({
      npi: "1000000004",
      name: "Avery Example",
      type: "Individual",
      specialties: ["Family Medicine"],
      accepting: "accepting",
      gender: "Female",
      languages: ["English", "Spanish"],
      facility_types: [],
      address: { street: "100 Example St", city: "Addison", state: "TX", zip: "75001" },
      distance: 0,
    });
    // Averill Stone practises in Dallas and Carrollton: the address nearest 75001 is shown.
    const averill = body.providers.find((p: { npi: string }) => p.npi === "1000000012");
    expect(averill).toMatchObject({ accepting: "accepting in some locations" });
    expect(averill.address).toMatchObject({ state: "TX" });
    // Search (with addresses) for doctors and facilities; autocomplete for groups, which search does not take.
    const search = fake.calls.filter((c) => c.path.endsWith("/providers/search"));
    const autocomplete = fake.calls.filter((c) => c.path.endsWith("/providers/autocomplete"));
    expect(search.map((c) => c.query.type).sort()).toEqual(["Facility", "Individual"]);
    expect(autocomplete.map((c) => c.query.type)).toEqual(["Group"]);
    expect([...search, ...autocomplete].every((c) => c.query.zipcode === "75001" && c.query.q === "aver")).toBe(true);
  });

  it("pages on with offset: upstream's search gets it, groups (autocomplete, no pages) are on the first page only", async () => {
    const { status, body } = await callRoute(
      providersAutocomplete,
      jsonPost("/api/providers/autocomplete", { query: "aver", zip: "75001", offset: 25 }),
    );
    expect(status).toBe(200);
    expect(body.paging).toEqual({ offset: 25, page_size: 25, total: 5 });
    expect(body.providers).toEqual([]);
    const search = fake.calls.filter((c) => c.path.endsWith("/providers/search"));
    expect(search.map((c) => c.query.offset)).toEqual(["25", "25"]);
    expect(fake.calls.filter((c) => c.path.endsWith("/providers/autocomplete"))).toEqual([]);
  });

  it("still answers from the other two types when one fails", async () => {
    await fake.setMode("503", { only: (call) => call.query.type === "Facility" });
    const { status, body } = await callRoute(
      providersAutocomplete,
      jsonPost("/api/providers/autocomplete", { query: "aver", zip: "75001" }),
    );
    expect(status).toBe(200);
    expect(body.upstream).toBe("partial");
    expect(body.failedTypes).toEqual(["Facility"]);
    expect(body.providers.map((p: { type: string; npi: string }) => [p.type, p.npi])).toEqual([
      ["Individual", "1000000004"],
      ["Individual", "1000000012"],
      ["Group", "1000000046"],
    ]);
  });
});

describe("POST /api/drugs/covered", () => {
  it("answers one result per (rxcui, plan): upstream primary, tiers and PartialCovered from own rows, unknown never NotCovered", async () => {
    const plans = ["11111TX0010001", "11111TX0010002", "11111TX0010003", "11111TX0010004", "22222TX0020002"];
    // What the fake does with each plan (mocks/cms-api/handlers.ts fakeCoverageQuirk).
    expect(plans.map(fakeCoverageQuirk)).toEqual(["answer", "omitted", "answer", "data_not_provided", "answer"]);
    const own = ownRowsFrom({
      formulary: [
        row("617318", "11111TX0010001", "PREFERRED-BRAND", { priorAuth: true }),
        row("617318", "11111TX0010002", "NON-PREFERRED-BRAND"),
        row("617310", "11111TX0010003", "GENERIC"),
        row("617318", "22222TX0020002", "PREFERRED-BRAND"),
      ],
    });
    const { status, body } = await callRoute(
      drugsCovered,
      jsonPost("/api/drugs/covered", { rxcuis: ["617318", "197361"], plan_ids: plans, year: 2027 }),
    );
    expect(status).toBe(200);
    expect(body.upstream).toBe("ok");
    expect(body.year).toBe(2027);
    const byKey = Object.fromEntries(
      body.coverage.map((r: { rxcui: string; plan_id: string }) => [`${r.rxcui}@${r.plan_id}`, r]),
    );
    expect(body.coverage).toHaveLength(10);
    // Upstream Covered + own row with prior authorization.
    expect(byKey["617318@11111TX0010001"]).toEqual({
      rxcui: "617318",
      plan_id: "11111TX0010001",
      coverage: "PartialCovered",
      drug_tier: "PREFERRED-BRAND",
      restrictions: { prior_authorization: true, step_therapy: false, quantity_limit: false },
      source: "upstream",
    });
    // Plan left out of upstream's answer: own row answers.
    expect(byKey["617318@11111TX0010002"]).toMatchObject({
      coverage: "Covered",
      drug_tier: "NON-PREFERRED-BRAND",
      source: "own_data",
    });
    // Brand not listed, generic is: GenericCovered with the generic's tier.
    expect(byKey["617318@11111TX0010003"]).toMatchObject({
      coverage: "GenericCovered",
      generic_rxcui: "617310",
      drug_tier: "GENERIC",
      source: "upstream",
    });
    // DataNotProvided and no own row: unknown.
    expect(byKey["617318@11111TX0010004"]).toMatchObject({
      coverage: "DataNotProvided",
      drug_tier: null,
      source: "none",
    });
    // Upstream Covered without a tier: tier gap-filled.
    expect(byKey["617318@22222TX0020002"]).toMatchObject({
      coverage: "Covered",
      drug_tier: "PREFERRED-BRAND",
      source: "upstream",
    });
    // Amlodipine is on no 11111 formulary: NotCovered only where upstream answered.
    expect(byKey["197361@11111TX0010001"]).toMatchObject({ coverage: "NotCovered", source: "upstream" });
    expect(byKey["197361@11111TX0010002"].coverage).toBe("DataNotProvided");
    expect(byKey["197361@11111TX0010004"].coverage).toBe("DataNotProvided");
    // The own rows were asked for the requested drugs and the generic upstream named, for the year.
    expect(own.queries[0]).toMatchObject({ kind: "formulary", year: 2027, planIds: plans });
    expect((own.queries[0] as { rxcuis: string[] }).rxcuis.sort()).toEqual(["197361", "617310", "617318"]);
  });

  it("batches 25 plans into 3 upstream calls and answers every pair", async () => {
    const synthetic = Array.from({ length: 12 }, (_, i) => `99999TX${String(i).padStart(7, "0")}`);
    const plans = [...DALLAS_PLANS, ...synthetic];
    const { body } = await callRoute(
      drugsCovered,
      jsonPost("/api/drugs/covered", { rxcuis: ["617318"], plan_ids: plans, year: 2027 }),
    );
    expect(fake.calls.filter((c) => c.path.endsWith("/drugs/covered"))).toHaveLength(3);
    expect(body.coverage.map((r: { plan_id: string }) => r.plan_id)).toEqual(plans);
    // Plans upstream has never heard of are unknown, not "not covered".
    expect(
      body.coverage
        .filter((r: { plan_id: string }) => synthetic.includes(r.plan_id))
        .every((r: { coverage: string }) => r.coverage === "DataNotProvided"),
    ).toBe(true);
  });

  it("marks a partly failed fan-out as partial and the failed plans as unknown", async () => {
    await fake.setMode("500", { only: (call) => call.query.planids?.split(",").includes("22222TX0020002") });
    const { status, body } = await callRoute(
      drugsCovered,
      jsonPost("/api/drugs/covered", { rxcuis: ["617318"], plan_ids: DALLAS_PLANS, year: 2027 }),
    );
    expect(status).toBe(200);
    expect(body.upstream).toBe("partial");
    expect(body.coverage).toHaveLength(13);
    expect(body.coverage.slice(10).map((r: { coverage: string }) => r.coverage)).toEqual([
      "DataNotProvided",
      "DataNotProvided",
      "DataNotProvided",
    ]);
    expect(body.coverage[0]).toMatchObject({ plan_id: "11111TX0010001", coverage: "Covered", source: "upstream" });
  });
});

describe("POST /api/providers/covered", () => {
  it("fills network_tier from own rows and reports PartialCovered for 'accepting in some locations'", async () => {
    ownRowsFrom({
      network: [
        { npi: "1000000004", planId: "11111TX0010001", networkTier: "PREFERRED" },
        { npi: "1000000012", planId: "11111TX0010001", networkTier: "NON-PREFERRED" },
        { npi: "1000000012", planId: "11111TX0010001", networkTier: "PREFERRED" },
      ],
    });
    const { status, body } = await callRoute(
      providersCovered,
      jsonPost("/api/providers/covered", {
        npis: ["1000000004", "1000000012"],
        plan_ids: ["11111TX0010001", "11111TX0010004", "11111TX0010008"],
        year: 2027,
      }),
    );
    expect(status).toBe(200);
    expect(body.upstream).toBe("ok");
    expect(body.coverage).toEqual([
      {
        npi: "1000000004",
        plan_id: "11111TX0010001",
        coverage: "Covered",
        network_tier: "PREFERRED",
        accepting: "accepting",
        source: "upstream",
      },
      {
        npi: "1000000004",
        plan_id: "11111TX0010004",
        coverage: "DataNotProvided",
        network_tier: null,
        accepting: "unknown",
        source: "none",
      },
      {
        npi: "1000000004",
        plan_id: "11111TX0010008",
        coverage: "NotCovered",
        network_tier: null,
        accepting: "unknown",
        source: "upstream",
      },
      {
        npi: "1000000012",
        plan_id: "11111TX0010001",
        coverage: "PartialCovered",
        network_tier: "PREFERRED",
        accepting: "accepting in some locations",
        source: "upstream",
      },
      {
        npi: "1000000012",
        plan_id: "11111TX0010004",
        coverage: "DataNotProvided",
        network_tier: null,
        accepting: "unknown",
        source: "none",
      },
      {
        npi: "1000000012",
        plan_id: "11111TX0010008",
        coverage: "NotCovered",
        network_tier: null,
        accepting: "unknown",
        source: "upstream",
      },
    ]);
    expect(fake.calls[0].query).toMatchObject({
      providerids: "1000000004,1000000012",
      planids: "11111TX0010001,11111TX0010004,11111TX0010008",
      year: "2027",
    });
  });

  it("still answers upstream's coverage when the plan store cannot (tiers left empty)", async () => {
    setOwnDataSourceForTests({
      formularyRows: () => {
        throw new Error("plan store missing");
      },
      networkRows: () => {
        throw new Error("plan store missing");
      },
    });
    const { status, body } = await callRoute(
      providersCovered,
      jsonPost("/api/providers/covered", { npis: ["1000000004"], plan_ids: ["11111TX0010001"], year: 2027 }),
    );
    expect(status).toBe(200);
    expect(body.coverage).toEqual([
      {
        npi: "1000000004",
        plan_id: "11111TX0010001",
        coverage: "Covered",
        network_tier: null,
        accepting: "accepting",
        source: "upstream",
      },
    ]);
  });
});
