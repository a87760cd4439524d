import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { englishFound } from "../../helpers/english-scan";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Issue 21: the shopping journey rendered in Spanish by the built server over HTTP (as a browser
 * without JavaScript sees it), every page state scanned for the English catalogue's sentences.
 */

const TX = "zip=75201&county=48113&state=TX";
const HOUSEHOLD = "income=36000&age=35&tobacco=no&pregnant=no&rel=self";
const DRUG = "drug=617318:Lipitor%2020%20mg";
const DOCTOR = "npi=1480000003:Tobias%20Pembrook";

let server: RunningServer;
let planIds: string[] = [];

beforeAll(async () => {
  server = await startServer();
  const html = await (await fetch(`${server.url}/plans?${TX}&${HOUSEHOLD}&lang=en`)).text();
  planIds = [...new Set([...html.matchAll(/data-plan-id="([^"]+)"/g)].map((m) => m[1]))];
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function spanish(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { headers });
  return { status: res.status, html: await res.text() };
}

function expectSpanish(html: string) {
  expect(html).toContain('<html lang="es">');
  expect(englishFound(html)).toEqual([]);
}

describe("the shopping journey in Spanish", () => {
  it("found Texas plans to look at, and the scan finds English on the English results page", async () => {
    expect(planIds.length).toBeGreaterThan(3);
    const { html } = await spanish(`/plans?${TX}&${HOUSEHOLD}&${DRUG}&lang=en`);
    expect(html).toContain('<html lang="en">');
    expect(englishFound(html).length).toBeGreaterThan(30);
  });

  it("the plan page priced for a household, with drugs and doctors: Spanish words, dollars as $1,234.56", async () => {
    const { status, html } = await spanish(`/plans/${planIds[0]}?${TX}&${HOUSEHOLD}&${DRUG}&${DOCTOR}&lang=es`);
    expect(status).toBe(200);
    expectSpanish(html);
    expect(html).toContain("Lo que le cuesta a usted");
    expect(html).toContain("Deducible y desembolso máximo");
    expect(html).toContain("Sus medicamentos y médicos");
    expect(html).toContain("Lipitor 20 mg");
    expect(html).toMatch(/\$\d{1,3}(,\d{3})*\.\d{2}<!-- -->?\s*<\/span>|\$\d+\.\d{2}/);
    // The hand-off (issue 28): the plan taken to HealthCare.gov, the credit warning beside the insurer's link.
    expect(html).toMatch(/Lleve este plan a HealthCare\.gov/);
    expect(html).toContain("si se inscribe en el sitio de la aseguradora pierde su crédito fiscal");
    // The benefit table in Spanish: standard benefit names and cost-share words.
    expect(html).toContain("Consulta con un especialista");
    expect(html).toMatch(/copago de \$\d+|coseguro del \d+%|Sin cargo/);
    // Limit units in Spanish too ("20 consulta(s) por período de beneficios").
    expect(html).not.toMatch(/Visit\(s\) per|Item\(s\) per/);
  });

  it("the plan page for a silver plan at a low income shows the savings level in Spanish", async () => {
    const low = "income=22000&age=35&tobacco=no&pregnant=no&rel=self";
    const results = await (await fetch(`${server.url}/plans?${TX}&${low}&metal=Silver&lang=en`)).text();
    const silver = /data-plan-id="([^"]+)"/.exec(results)?.[1];
    expect(silver).toBeDefined();
    const { html } = await spanish(`/plans/${silver}?${TX}&${low}&lang=es`);
    expectSpanish(html);
    expect(html).toContain("Su nivel de ahorro se aplica a este plan de plata");
    expect(html).toContain("reducciones de costos compartidos");
  });

  for (const [name, query, words] of [
    ["without a household", "lang=es", "Escriba su código postal y los datos de su hogar"],
    ["with an incomplete household", `${TX}&income=&age=35&lang=es`, "Faltan datos de su hogar"],
  ] as const) {
    it(`the plan page ${name}`, async () => {
      const { status, html } = await spanish(`/plans/${planIds[1]}?${query}`);
      expect(status).toBe(200);
      expectSpanish(html);
      expect(html).toContain(words);
    });
  }

  it("a plan that does not exist: 404 in Spanish", async () => {
    const { status, html } = await spanish(`/plans/99999TX9999999?${TX}&${HOUSEHOLD}&lang=es`);
    expect(status).toBe(404);
    expectSpanish(html);
    expect(html).toContain("No encontramos ese plan");
  });

  it("the plan page by Accept-Language alone, no lang in the address", async () => {
    const { html } = await spanish(`/plans/${planIds[0]}?${TX}&${HOUSEHOLD}`, { "Accept-Language": "es-MX,es;q=0.9" });
    expectSpanish(html);
  });

  it("the compare page: two and three plans, with drugs, in Spanish; links keep lang", async () => {
    for (const ids of [planIds.slice(0, 2), planIds.slice(0, 3)]) {
      const compare = ids.map((id) => `compare=${id}`).join("&");
      const { status, html } = await spanish(`/plans/compare?${TX}&${HOUSEHOLD}&${DRUG}&${compare}&lang=es`);
      expect(status).toBe(200);
      expectSpanish(html);
      expect(html).toContain(`Comparar ${ids.length} planes`);
      expect(html).toContain("Prima mensual después del crédito");
      expect(html).toMatch(/href="\/plans\/[^"]*lang=es/);
    }
  });

  for (const [name, query, status, words] of [
    ["one plan chosen", `${TX}&${HOUSEHOLD}&compare=P1`, 400, "Elija 2 o 3 planes para comparar. Eligió 1."],
    ["no household", "compare=A&compare=B", 400, "Primero escriba su código postal"],
    ["a plan not sold there", `${TX}&${HOUSEHOLD}&compare=NOPE1&compare=NOPE2`, 404, "No encontramos los planes"],
  ] as const) {
    it(`the compare page with ${name}: ${status} in Spanish`, async () => {
      const { status: got, html } = await spanish(`/plans/compare?${query}&lang=es`);
      expect(got).toBe(status);
      expectSpanish(html);
      expect(html).toContain(words);
    });
  }

  for (const [name, query, status, words] of [
    ["the ZIP step", "/plans?lang=es", 200, "Empiece con su código postal"],
    ["a ZIP that is not five digits", "/plans?zip=123&lang=es", 400, "Un código postal tiene 5 dígitos"],
    ["a ZIP that does not exist", "/plans?zip=00199&lang=es", 400, "Revise el número"],
    ["the county step", "/plans?zip=75007&lang=es", 200, "¿En qué condado vive?"],
    ["the county form sent without a choice", "/plans?zip=75007&county_form=1&lang=es", 400, "Elija un condado"],
    ["a state-based marketplace", "/plans?zip=90210&lang=es", 200, "Qué encontrará allí"],
    ["the household step", `/plans?${TX}&lang=es`, 200, "¿Quién necesita cobertura?"],
    [
      "a household with errors",
      `/plans?${TX}&income=lots&age=200&size=x&lang=es`,
      400,
      "Escriba una edad de 0 a 120, en años cumplidos.",
    ],
    [
      "a second person without a relationship",
      `/plans?${TX}&income=50000&age=40&rel=self&age=38&rel=&lang=es`,
      400,
      "Elija qué parentesco tiene con usted la persona 2.",
    ],
    ["the results", `/plans?${TX}&${HOUSEHOLD}&lang=es`, 200, "Planes en Dallas County, TX"],
    ["the results on page 2", `/plans?${TX}&${HOUSEHOLD}&page=2&lang=es`, 200, "Página"],
    [
      "results with a drug and a doctor",
      `/plans?${TX}&${HOUSEHOLD}&${DRUG}&${DOCTOR}&lang=es`,
      200,
      "Quitar Lipitor 20 mg",
    ],
    ["a drug search", `/plans?${TX}&${HOUSEHOLD}&drugq=lipi&lang=es`, 200, "Resultados para “lipi”"],
    ["a drug search too short", `/plans?${TX}&${HOUSEHOLD}&drugq=li&lang=es`, 200, "Escriba por lo menos 3 letras"],
    ["filters that match nothing", `/plans?${TX}&${HOUSEHOLD}&max_premium=1&lang=es`, 200, "Ningún plan coincide"],
    [
      "a low income: savings level and income lines",
      `/plans?${TX}&income=22000&age=35&lang=es`,
      200,
      "Dónde se ubican sus ingresos",
    ],
    ["a Texas coverage gap", `/plans?${TX}&income=9000&age=35&lang=es`, 200, "brecha de cobertura"],
    [
      "Medicaid for a child",
      `/plans?${TX}&income=30000&age=35&rel=self&age=8&rel=child&lang=es`,
      200,
      "Medicaid o CHIP",
    ],
    ["a Medicare-age person", `/plans?${TX}&income=40000&age=66&lang=es`, 200, "Medicare"],
    [
      "New York's Essential Plan",
      "/plans?zip=10001&county=36061&state=NY&income=20000&age=35&lang=es",
      200,
      "Plan Esencial",
    ],
  ] as const) {
    it(`/plans, ${name}: ${status} in Spanish`, async () => {
      const { status: got, html } = await spanish(query);
      expect(got).toBe(status);
      expectSpanish(html);
      expect(html).toContain(words);
    });
  }
});
