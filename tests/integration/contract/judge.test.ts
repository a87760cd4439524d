import { describe, expect, it } from "vitest";
import type { FuzzRequest } from "../fuzz/generators";
import { Contract } from "./contract";

/**
 * The judge itself, on a small document: the faults issue 31 found (an undeclared field, an undeclared
 * status, a nullable enum without null, a 405 without Allow, a schema-refused body accepted) are each
 * reported, and a conforming answer is not.
 */

const error = {
  description: "error",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};
const document = {
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: {
    "/api/thing": {
      post: {
        requestBody: {
          content: { "application/json": { schema: { $ref: "#/components/schemas/ThingRequest" } } },
        },
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
          },
          "400": error,
          "405": { ...error, headers: { Allow: { schema: { type: "string" } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Error: {
        type: "object",
        properties: { error: { type: "object", properties: { code: { type: "string" } }, required: ["code"] } },
        required: ["error"],
        additionalProperties: false,
      },
      ThingRequest: {
        type: "object",
        properties: { zip: { type: "string", pattern: "^\\d{5}$" }, income: { type: "number", multipleOf: 0.01 } },
        required: ["zip"],
        additionalProperties: false,
      },
      Thing: {
        type: "object",
        properties: { csr: { type: "string", enum: ["73", "87"], nullable: true } },
        required: ["csr"],
        additionalProperties: false,
      },
    },
  },
};

const body = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const request = (value: unknown, method = "POST"): FuzzRequest => ({
  kind: "valid",
  method,
  path: "/api/thing",
  contentType: "application/json",
  body: body(value),
});
const answer = (status: number, value: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", ...headers },
  text: JSON.stringify(value),
});

describe("the contract judge", () => {
  const contract = new Contract(document);

  it("passes a conforming answer", () => {
    expect(contract.judge(request({ zip: "75201", income: 36000.29 }), answer(200, { csr: "73" })).problems).toEqual(
      [],
    );
  });

  it("reports a field the schema does not declare", () => {
    const verdict = contract.judge(request({ zip: "75201" }), answer(200, { csr: "73", notice: "x" }));
    expect(verdict.problems.join()).toContain("must NOT have additional properties (notice)");
  });

  it("reports null for a nullable enum that leaves null out (OpenAPI 3.0.3)", () => {
    const verdict = contract.judge(request({ zip: "75201" }), answer(200, { csr: null }));
    expect(verdict.problems.join()).toContain("must be equal to one of the allowed values");
  });

  it("reports an undeclared status", () => {
    const verdict = contract.judge(request({ zip: "75201" }), answer(429, { error: { code: "rate_limited" } }));
    expect(verdict.problems.join()).toContain("status 429 is not declared");
  });

  it("reports a 405 without Allow, judged by the path's operation", () => {
    const verdict = contract.judge(request({}, "DELETE"), answer(405, { error: { code: "method_not_allowed" } }));
    expect(verdict.problems.join()).toContain("header Allow missing");
  });

  it("reports a body the request schema refuses but the service accepted", () => {
    for (const refused of [{ zip: "75201 " }, { zip: "75201", income: 63840.004 }, { zip: "75201", extra: 1 }]) {
      const verdict = contract.judge(request(refused), answer(200, { csr: "87" }));
      expect(verdict.requestSchemaValid).toBe(false);
      expect(verdict.problems.join()).toContain("a body the request schema refuses was accepted");
    }
  });
});
