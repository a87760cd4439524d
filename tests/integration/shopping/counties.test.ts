import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as counties from "../../../app/routes/api.counties";
import { CountiesResponse } from "../../../app/schemas/shopping";
import path from "node:path";
import { startFakeUpstream, type FakeUpstream } from "../../../mocks/cms-api/index";
import { REPO_ROOT } from "../../helpers/server";
import { configureShopping, getJson, UPSTREAM_KEY, upstreamCalls } from "./helpers";

// GET /api/counties against the test plan store (seed/sample) and a fake
// upstream over real HTTP, called as the Remix resource route. The fake
// serves the upstream fixture, whose ZIP file holds ZIPs the sample lacks
// (75002 Collin County TX, 85004 Maricopa County AZ).
let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream({
    apiKey: UPSTREAM_KEY,
    dataDir: path.join(REPO_ROOT, "tests", "fixtures", "upstream"),
  });
  configureShopping({ upstreamUrl: fake.url });
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  await fake.setMode("normal");
});

const lookUp = (query: string) => getJson(counties, `/api/counties?${query}`);

describe("own data", () => {
  it("returns every county of a multi-county ZIP, largest share first, without asking upstream", async () => {
    const { status, body } = await lookUp("zip=75007&year=2027");
    expect(status).toBe(200);
    // seed/sample/zip-county-hud.csv: 75007 → Denton 0.8978, Dallas 0.0764, Collin 0.0259.
    expect(body.counties.map((c: { fips: string; share: number }) => [c.fips, c.share])).toEqual([
      ["48121", 0.8978],
      ["48113", 0.0764],
      ["48085", 0.0259],
    ]);
    expect(body).toMatchObject({ zip: "75007", year: 2027, source: "own", sbeRedirect: null });
    expect(body.counties.every((c: { owned_data: boolean; state: string }) => c.owned_data && c.state === "TX")).toBe(
      true,
    );
    expect(upstreamCalls(fake, "/counties")).toHaveLength(0);
    expect(() => CountiesResponse.parse(body)).not.toThrow();
  });

  it("returns both states of a ZIP across a state line; state narrows it", async () => {
    const both = await lookUp("zip=42223&year=2027");
    expect(both.status).toBe(200);
    // 42223 Fort Campbell: Montgomery County TN 0.682, Christian County KY 0.318.
    expect(both.body.counties.map((c: { fips: string; state: string }) => `${c.state}:${c.fips}`)).toEqual([
      "TN:47125",
      "KY:21047",
    ]);
    // KY runs kynect: its county carries the redirect, TN's does not, so the ZIP as a whole is not redirected.
    expect(both.body.counties[0].sbeRedirect).toBeNull();
    expect(both.body.counties[1].sbeRedirect).toEqual({
      state: "KY",
      marketplace_name: "kynect",
      marketplace_url: "https://kynect.ky.gov",
    });
    expect(both.body.sbeRedirect).toBeNull();

    const tn = await lookUp("zip=42223&state=TN&year=2027");
    expect(tn.body.counties.map((c: { fips: string }) => c.fips)).toEqual(["47125"]);
    const ky = await lookUp("zip=42223&state=ky&year=2027");
    expect(ky.body.counties.map((c: { fips: string }) => c.fips)).toEqual(["21047"]);
    expect(ky.body.sbeRedirect).toMatchObject({ state: "KY", marketplace_name: "kynect" });
    expect(upstreamCalls(fake, "/counties")).toHaveLength(0);
  });

  it.each([
    ["90210", "CA", "Covered California", "https://www.coveredca.com"],
    ["19103", "PA", "Pennie", "https://pennie.com"],
    ["07030", "NJ", "Get Covered New Jersey", "https://www.nj.gov/getcoverednj"],
    ["30341", "GA", "Georgia Access", "https://georgiaaccess.gov"],
  ])(
    "ZIP %s in state-based-exchange state %s carries sbeRedirect with the marketplace's name and URL",
    async (zip, state, name, url) => {
      const { status, body } = await lookUp(`zip=${zip}&year=2027`);
      expect(status).toBe(200);
      expect(body.sbeRedirect).toEqual({ state, marketplace_name: name, marketplace_url: url });
      expect(body.counties.length).toBeGreaterThan(0);
      for (const county of body.counties) {
        expect(county.owned_data).toBe(false);
        expect(county.sbeRedirect).toEqual(body.sbeRedirect);
      }
      expect(upstreamCalls(fake, "/counties")).toHaveLength(0);
    },
  );

  it("never redirects NY: it runs its own marketplace but the service prices it from own data", async () => {
    const { body } = await lookUp("zip=11201&year=2027");
    expect(body.counties).toEqual([
      { fips: "36047", name: "Kings County", state: "NY", share: 1, owned_data: true, sbeRedirect: null },
    ]);
    expect(body.sbeRedirect).toBeNull();
  });

  it("keeps answering own ZIPs while the upstream is down", async () => {
    await fake.setMode("refuse");
    const { status, body } = await lookUp("zip=75201&year=2027");
    expect(status).toBe(200);
    expect(body.counties.map((c: { fips: string }) => c.fips)).toEqual(["48113"]);
  });
});

describe("ZIPs absent from own data", () => {
  it("go to the upstream look-up, answered in the same shape (share unknown)", async () => {
    const { status, body } = await lookUp("zip=85004&year=2027");
    expect(status).toBe(200);
    expect(body).toEqual({
      zip: "85004",
      year: 2027,
      source: "upstream",
      counties: [
        { fips: "04013", name: "Maricopa County", state: "AZ", share: null, owned_data: true, sbeRedirect: null },
      ],
      sbeRedirect: null,
      zip_prefix_state: null,
    });
    expect(() => CountiesResponse.parse(body)).not.toThrow();
    const calls = upstreamCalls(fake, "/counties/by/zip/");
    expect(calls.map((c) => c.path)).toEqual(["/api/v1/counties/by/zip/85004"]);
  });

  it("are asked once (cached); a ZIP nobody knows (its 3-digit prefix unassigned) answers an empty list", async () => {
    const unknown = await lookUp("zip=00199&year=2027");
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({
      zip: "00199",
      source: "upstream",
      counties: [],
      sbeRedirect: null,
      zip_prefix_state: null,
    });
    const calls = upstreamCalls(fake, "/counties/by/zip/00199");
    expect(calls).toHaveLength(1);
    expect(calls[0].query).toMatchObject({ year: "2027", apikey: expect.any(String) });
    await lookUp("zip=00199&year=2027");
    expect(upstreamCalls(fake, "/counties/by/zip/00199")).toHaveLength(1);
  });

  it("answer 503 county_lookup_unavailable when the upstream is down", async () => {
    await fake.setMode("503");
    const { status, body } = await lookUp("zip=99998&year=2027");
    expect(status).toBe(503);
    expect(body.error.code).toBe("county_lookup_unavailable");
    expect(body.error.message).toMatch(/try again/i);
  });
});

describe("bad input", () => {
  it.each([
    ["zip=7520", "zip"],
    ["zip=75201-1234", "zip"],
    ["zip=abcde", "zip"],
    ["", "zip"],
    ["zip=75201&state=Texas", "state"],
    ["zip=75201&year=twenty", "year"],
    ["zip=75201&county=48113", "(body)"],
  ])("?%s → 400 naming %s", async (query, field) => {
    const { status, body } = await lookUp(query);
    expect(status).toBe(400);
    expect(body.error.code).toBe("validation_failed");
    expect(Object.keys(body.error.fields)).toContain(field);
    expect(fake.calls).toHaveLength(0);
  });

  it("a year without data → 404 naming the year", async () => {
    const { status, body } = await lookUp("zip=75201&year=2031");
    expect(status).toBe(404);
    expect(body.error.code).toBe("year_not_available");
    expect(body.error.message).toContain("2031");
    expect(body.error.fields.year).toContain("2027");
  });

  it("POST → 405 with Allow", async () => {
    const response = await counties.action({
      request: new Request("http://localhost/api/counties?zip=75201", { method: "POST" }),
      params: {},
      context: {},
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });
});
