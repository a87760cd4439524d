import { readdirSync } from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import * as openapiRoute from "../../../app/routes/api.openapi[.json]";
import { PlanSort, PlansRequest, PricedPlan, ShoppingRequest } from "../../../app/schemas/shopping";
import { openApiDocument } from "../../../app/server/platform/openapi.server";
import { DrugCoveredBody } from "../../../app/server/upstream/requests.server";
import { WaitlistInput } from "../../../app/server/intake/write-store.server";
import { REPO_ROOT } from "../../helpers/server";

/**
 * GET /api/openapi.json: a valid OpenAPI 3 document that lists every /api
 * route with the methods it really allows, and whose request schemas are the
 * routes' own zod schemas.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;
const doc = openApiDocument() as Doc;

/** Route files of the app and the path each serves ("api.drugs.autocomplete.ts" → /api/drugs/autocomplete). */
function apiRouteFiles(): Array<{ file: string; path: string }> {
  return readdirSync(path.join(REPO_ROOT, "app", "routes"))
    .filter((f) => f.startsWith("api.") && f.endsWith(".ts") && f !== "api.$.ts")
    .map((file) => {
      const segments = file
        .replace(/\.ts$/, "")
        .replace(/\[\.json\]$/, "__DOT_JSON__")
        .split(".")
        .map((s) => (s.startsWith("$") ? `{${s.slice(1)}}` : s));
      return { file, path: `/${segments.join("/").replace("__DOT_JSON__", ".json")}` };
    });
}

describe("the document", () => {
  it("validates as OpenAPI 3 (swagger-parser)", async () => {
    const validated = (await SwaggerParser.validate(structuredClone(doc))) as Doc;
    expect(validated.openapi).toMatch(/^3\./);
  });

  it("lists every /api route file, with exactly the methods the route answers", async () => {
    const routes = apiRouteFiles();
    expect(routes.length).toBeGreaterThanOrEqual(15);
    expect(Object.keys(doc.paths).sort()).toEqual(routes.map((r) => r.path).sort());
    for (const route of routes) {
      const mod = (await import(path.join(REPO_ROOT, "app", "routes", route.file))) as {
        action: (args: unknown) => Promise<Response>;
      };
      // Every /api route answers an unknown method with 405 and the methods it has in Allow.
      const response = await mod.action({
        request: new Request("http://localhost/x", { method: "PATCH" }),
        params: {},
        context: {},
      });
      expect(response.status, route.file).toBe(405);
      const allowed = (response.headers.get("allow") ?? "")
        .split(",")
        .map((m) => m.trim().toLowerCase())
        .filter((m) => m && m !== "head");
      const documented = Object.keys(doc.paths[route.path]).filter((k) => k !== "parameters");
      expect(documented.sort(), route.path).toEqual(allowed.sort());
    }
  });

  it("request bodies are the routes' zod schemas (fields, required fields, enums)", () => {
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.ShoppingRequest.properties).sort()).toEqual(Object.keys(ShoppingRequest.shape).sort());
    expect(Object.keys(schemas.PlansRequest.properties).sort()).toEqual(Object.keys(PlansRequest.shape).sort());
    // Defaulted fields are optional on input; income, household and place are required.
    expect(schemas.PlansRequest.required.sort()).toEqual(["household", "income", "place"]);
    expect(schemas.PlansRequest.properties.sort.enum).toEqual(PlanSort.options);
    expect(schemas.PlansRequest.additionalProperties).toBe(false);
    expect(schemas.ShoppingRequest.properties.place.properties.zip.pattern).toBe("^\\d{5}$");
    expect(schemas.ShoppingRequest.properties.household.properties.people.items.properties.relationship.enum).toEqual([
      "self",
      "spouse",
      "child",
      "other",
    ]);
    expect(Object.keys(schemas.DrugCoveredRequest.properties).sort()).toEqual(
      Object.keys(DrugCoveredBody.shape).sort(),
    );
    expect(schemas.WaitlistRequest.properties.interest.enum).toEqual(WaitlistInput.shape.interest.options);
    expect(schemas.EnrollmentApplicationRequest.properties.place).toEqual(schemas.ShoppingRequest.properties.place);
  });

  it("every body-taking route names its request schema, and every answer a response schema", () => {
    for (const [p, item] of Object.entries(doc.paths as Record<string, Doc>)) {
      for (const [method, op] of Object.entries(item as Record<string, Doc>)) {
        if (method === "parameters") continue;
        if (method === "post" && p !== "/api/unsubscribe") {
          const content = op.requestBody.content;
          const schema = (content["application/json"] ?? content["multipart/form-data"]).schema;
          expect(JSON.stringify(schema), `${method} ${p}`).toMatch(/#\/components\/schemas\//);
        }
        const errors = Object.entries(op.responses as Record<string, Doc>).filter(([status]) => Number(status) >= 400);
        for (const [status, response] of errors) {
          expect(response.content["application/json"].schema, `${method} ${p} ${status}`).toEqual({
            $ref: "#/components/schemas/Error",
          });
        }
      }
    }
  });

  it("the counties query parameters come from CountiesQuery", () => {
    const params = doc.paths["/api/counties"].get.parameters;
    expect(params.map((p: Doc) => [p.name, p.in, p.required])).toEqual([
      ["zip", "query", true],
      ["state", "query", false],
      ["year", "query", false],
    ]);
  });

  it("the plan in the answer documents every field /api/plans sends", () => {
    expect(Object.keys(doc.components.schemas.PlansResponse.properties.plans.items.properties).sort()).toEqual(
      Object.keys(PricedPlan.shape).sort(),
    );
  });
});

describe("GET /api/openapi.json", () => {
  it("answers the document, cacheable for five minutes", async () => {
    const response = await openapiRoute.loader({
      request: new Request("http://localhost/api/openapi.json"),
      params: {},
      context: {},
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    const body = await response.json();
    expect(body).toEqual(JSON.parse(JSON.stringify(doc)));
    await expect(SwaggerParser.validate(body)).resolves.toBeTruthy();
  });

  it("POST → 405 with Allow", async () => {
    const response = await openapiRoute.action({
      request: new Request("http://localhost/api/openapi.json", { method: "POST" }),
      params: {},
      context: {},
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });
});
