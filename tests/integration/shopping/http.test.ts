import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";
import { applicablePercent2027, cents, type Body } from "./helpers";

/**
 * The shopping routes over real HTTP, through server.ts and the production
 * build (BUILD_DIR, default ./build). No upstream key is configured, so the
 * server answers upstream calls from its bundled fake, as a fresh checkout does.
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

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("over HTTP", () => {
  it("GET /api/openapi.json is a valid OpenAPI 3 document, cacheable for five minutes", async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    const doc = await response.json();
    await expect(SwaggerParser.validate(doc)).resolves.toMatchObject({ openapi: expect.stringMatching(/^3\./) });
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/counties", "/api/eligibility", "/api/plans", "/api/openapi.json"]),
    );
  });

  it("GET /api/counties narrows a ZIP across a state line", async () => {
    const response = await fetch(`${server.url}/api/counties?zip=42223&state=TN&year=2027`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.counties.map((c: Body) => c.fips)).toEqual(["47125"]);
  });

  it("POST /api/eligibility: the TX scenario (Dallas, single, 35, $36,000) → csr 73 and a non-zero aptc", async () => {
    const response = await post("/api/eligibility", {
      income: 36_000,
      household: { people: [{ age: 35 }] },
      place: { state: "TX", county_fips: "48113", zip: "75201" },
      year: 2027,
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ csr: "73", source: "upstream", is_medicaid_chip: false, in_coverage_gap: false });
    expect(body.aptc).toBeGreaterThan(0);
  });

  it("POST /api/eligibility and /api/plans agree for NY: aptc from the plans' silver ehb_premium", async () => {
    const household = { people: [{ age: 33 }, { age: 31, relationship: "spouse" }] };
    const place = { state: "NY", county_fips: "36081", zip: "11375" };
    // Couple, $55,000: guideline 15,960 + 5,680 = 21,640 → 254% FPL → 8.66 + 4/50 × 1.56 = 8.7848 → 8.78%.
    const income = 55_000;
    expect(applicablePercent2027(254)).toBe(0.0878);
    const plans = await (await post("/api/plans", { income, household, place, year: 2027 })).json();
    const silver = plans.plans
      .filter((p: Body) => p.metal_level === "Silver")
      .map((p: Body) => p.ehb_premium)
      .sort((a: number, b: number) => a - b);
    const eligibility = await (await post("/api/eligibility", { income, household, place, year: 2027 })).json();
    expect(eligibility.fpl_percent).toBe(254.1); // 55,000 / 21,640 = 254.158…, truncated to one decimal
    expect(eligibility.aptc).toBe(cents(Math.max(0, silver[1] - (0.0878 * income) / 12)));
    expect(plans.eligibility.aptc).toBe(eligibility.aptc);
  });

  it("bad input is a 400 in the one error shape, never a 500", async () => {
    const malformed = await fetch(`${server.url}/api/plans`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe("malformed_json");
    const invalid = await post("/api/eligibility", {
      income: 1,
      household: { people: [{ age: 40 }] },
      place: { state: "NY", county_fips: "36047", zip: "11201" },
      coverage_date: "2026-01-01",
      year: 2027,
    });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error.fields).toHaveProperty("coverage_date");
  });
});
