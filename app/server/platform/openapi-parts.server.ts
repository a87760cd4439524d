import { z } from "zod";

/** The building blocks of the OpenAPI document (./openapi.server.ts puts the operations together). */

export type Json = Record<string, unknown>;

/** Component schemas of one side: requests as accepted (defaults optional), responses as sent. */
export function componentSchemas(schemas: Record<string, z.ZodType>, io: "input" | "output"): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    out[name] = withoutSafeIntegerBounds(
      z.toJSONSchema(schema, { target: "openapi-3.0", io, unrepresentable: "any" }),
    ) as Json;
  }
  return out;
}

/** `z.number().int()` says "between ±(2^53 − 1)": true of every JSON integer, so only noise to a reader. */
function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (
      (key === "minimum" && value === Number.MIN_SAFE_INTEGER) ||
      (key === "maximum" && value === Number.MAX_SAFE_INTEGER)
    )
      continue;
    out[key] = withoutSafeIntegerBounds(value);
  }
  return out;
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (name: string, description: string, example?: unknown) => ({
  description,
  content: { "application/json": { schema: ref(name), ...(example !== undefined ? { example } : {}) } },
});
export const error = (description: string) => json("Error", description);
export const jsonBody = (name: string, example?: unknown) => ({
  required: true,
  content: { "application/json": { schema: ref(name), ...(example !== undefined ? { example } : {}) } },
});

/** Errors every JSON-body route can answer before its own logic runs. */
export const BODY_ERRORS = {
  "400": error("Malformed JSON (malformed_json) or invalid fields (validation_failed, with `fields`)"),
  "405": error("Wrong method (method_not_allowed), with an Allow header"),
  "413": error("Body over 100 KB (payload_too_large)"),
  "415": error("Body not sent as application/json (unsupported_media_type)"),
};

export const SHOPPING_EXAMPLE = {
  income: 36000,
  household: { people: [{ age: 35, uses_tobacco: false, relationship: "self" }] },
  place: { state: "TX", county_fips: "48113", zip: "75201" },
  year: 2027,
};

/** Query parameters from CountiesQuery, so the document and the route read the same rules. */
export function queryParameters(schema: Json): Json[] {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: "query", required: required.has(name), schema: rest, ...(description ? { description } : {}) };
  });
}
