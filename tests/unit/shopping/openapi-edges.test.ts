import { describe, expect, it } from "vitest";
import { derivedOperationId } from "../../../app/server/platform/openapi-edges.server";
import { openApiDocument } from "../../../app/server/platform/openapi.server";

/**
 * Issue 31 items 1-4 and 8 on the document itself: every operation declares the edge's answers with
 * their headers, has an operationId and a description, and no nullable enum leaves null out.
 */

type Json = Record<string, unknown>;
const doc = openApiDocument() as {
  info: Json;
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, unknown>; headers: Record<string, Json> };
};
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
    .map(([method, operation]) => ({ path, method, operation: operation as Json })),
);

describe("the OpenAPI document", () => {
  it("gives every operation a unique operationId and a description, and the document a contact", () => {
    const ids = operations.map((o) => o.operation.operationId);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of operations) expect(String(o.operation.description ?? "").length, o.path).toBeGreaterThan(10);
    expect(doc.info.contact).toMatchObject({ name: expect.any(String) });
  });

  it("declares the edge's answers on every operation, in the error shape, with Allow on 405 and Retry-After on 429 and 503", () => {
    for (const { path, method, operation } of operations) {
      const responses = operation.responses as Record<string, Json>;
      const edge = ["400", "403", "405", "408", "413", "431", "500", "503", ...(method === "get" ? [] : ["415"])];
      if (path !== "/api/health") edge.push("429");
      for (const status of edge) {
        expect(responses[status], `${method} ${path} ${status}`).toBeDefined();
        expect(JSON.stringify(responses[status]!.content ?? {}), `${method} ${path} ${status}`).toContain(
          "#/components/schemas/Error",
        );
      }
      expect(responses["405"]!.headers).toHaveProperty("Allow");
      expect(responses["503"]!.headers).toHaveProperty("Retry-After");
      if (responses["429"]) expect(responses["429"].headers).toHaveProperty("Retry-After");
    }
    // The rate rule never counts the load balancer's health check (server.ts exemptPaths).
    expect(doc.paths["/api/health"]!.get!.responses).not.toHaveProperty("429");
    expect(doc.components.headers.RetryAfter!.schema).toEqual({ type: "integer", minimum: 0 });
  });

  it("lists null in every nullable enum (OpenAPI 3.0.3), e.g. csr and csr_variant", () => {
    const offenders: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== "object") return;
      const schema = node as Json;
      if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) offenders.push(where);
      for (const [key, value] of Object.entries(schema)) walk(value, `${where}/${key}`);
    };
    walk(doc, "#");
    expect(offenders).toEqual([]);
    const eligibility = doc.components.schemas.EligibilityResponse as { properties: { csr: { enum: unknown[] } } };
    expect(eligibility.properties.csr.enum).toContain(null);
  });

  it("says a ZIP is exactly five digits wherever a request takes one", () => {
    const zips: unknown[] = [];
    const walk = (node: unknown, key: string) => {
      if (!node || typeof node !== "object") return;
      if (key === "zip") zips.push((node as Json).pattern);
      for (const [k, v] of Object.entries(node as Json)) walk(v, k);
    };
    for (const name of ["ShoppingRequest", "WaitlistRequest", "ProviderAutocompleteRequest"])
      walk(doc.components.schemas[name], name);
    expect(zips.length).toBeGreaterThanOrEqual(3);
    expect(new Set(zips)).toEqual(new Set(["^\\d{5}$"]));
  });

  it("derives an operationId for an operation added without one", () => {
    expect(derivedOperationId("post", "/api/renewal")).toBe("postRenewal");
    expect(derivedOperationId("get", "/api/enroll/applications/{applicationId}")).toBe(
      "getEnrollApplicationsByApplicationId",
    );
  });
});
