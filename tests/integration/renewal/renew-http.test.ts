/**
 * /renew from the built server over HTTP, as a browser without JavaScript gets it: the answer in
 * the HTML in English and in Spanish (no English catalogue sentence on the Spanish page), and
 * POST /api/renewal's errors in the JSON error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { englishFound } from "../../helpers/english-scan";
import { startServer, type RunningServer } from "../../helpers/server";

describe("/renew over HTTP", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const query = "zip=75201&plan=10101TX0019001-01&ages=40&income=38000&drugs=atorvastatin";

  it("English: the plan it becomes, the deductible both years, the rules with their dates", async () => {
    const res = await fetch(`${server.url}/renew?lang=en&${query}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Your plan becomes Bluebonnet Bronze Essential from Bluebonnet Health Plans.");
    expect(html).toContain("Deductible $6,500.00 (was $6,200.00).");
    expect(html).toContain("Renewal rules for 2027 coverage");
    expect(html).toContain("22 August 2025");
  });

  it("Spanish: the same answer in Spanish, no English sentence left", async () => {
    const res = await fetch(`${server.url}/renew?lang=es&${query}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain("Su plan pasa a ser Bluebonnet Bronze Essential de Bluebonnet Health Plans.");
    expect(html).toContain("Deducible $6,500.00 (antes $6,200.00).");
    expect(englishFound(html)).toEqual([]);
  });

  it("POST /api/renewal: unknown plan 404 naming current_plan_id; wrong method 405", async () => {
    const res = await fetch(`${server.url}/api/renewal`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        current_plan_id: "99999TX0019999",
        income: 38000,
        household: { people: [{ age: 40 }] },
        place: { state: "TX", county_fips: "48113", zip: "75201" },
      }),
    });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.error.code).toBe("plan_not_found");
    expect(Object.keys(body.error.fields)).toEqual(["current_plan_id"]);
    expect((await fetch(`${server.url}/api/renewal`)).status).toBe(405);
  });
});
