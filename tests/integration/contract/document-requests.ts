import { createGeneratorSync } from "json-schema-faker";
import { utf8, type FuzzRequest } from "../fuzz/generators";
import type { Operation } from "./contract";

/**
 * Requests made from the served document alone (no route or field named):
 * for every operation, its documented example, bodies and query strings
 * json-schema-faker generates from its request schemas, and variants of those
 * that break one rule of the schema (a required field dropped, a wrong type,
 * an unknown field where the object is closed, surrounding spaces on a
 * patterned string, a number off its multipleOf or bounds).
 */

type Json = Record<string, unknown>;
type Schema = Json;

/** OpenAPI 3.0's `nullable` as JSON Schema, so the faker can also send null. */
function asJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asJsonSchema);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "nullable" || key === "example") continue;
    out[key] = asJsonSchema(value);
  }
  const schema = node as Json;
  if (schema.nullable === true && typeof schema.type === "string") out.type = [schema.type, "null"];
  return out;
}

/** One rule of the schema broken at `path` (a list of property names), or null when it has none to break. */
export function breakOne(value: unknown, schema: Schema, pick: number): unknown {
  if (schema.type === "object" && value && typeof value === "object" && !Array.isArray(value)) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = (schema.required ?? []) as string[];
    const present = Object.keys(value).filter((k) => properties[k]);
    const choice = pick % 4;
    const copy = { ...(value as Json) };
    if (choice === 0 && required.length) {
      delete copy[required[pick % required.length]!];
      return copy;
    }
    if (choice === 1 && schema.additionalProperties === false) {
      copy[`unexpected_${pick % 7}`] = pick % 2 ? "x" : 1;
      return copy;
    }
    if (present.length) {
      const name = present[pick % present.length]!;
      copy[name] = breakOne(copy[name], properties[name]!, Math.floor(pick / 3) + 1);
      return copy;
    }
    return [];
  }
  if (schema.type === "array" && Array.isArray(value) && value.length && schema.items && pick % 3 !== 0) {
    const copy = [...value];
    const at = pick % copy.length;
    copy[at] = breakOne(copy[at], schema.items as Schema, pick + 1);
    return copy;
  }
  if (schema.type === "string" && typeof value === "string") {
    switch (pick % 4) {
      case 0:
        return ` ${value} `;
      case 1:
        return `${value}\t`;
      case 2:
        return typeof schema.maxLength === "number" ? "a".repeat(schema.maxLength + 1) : 12345;
      default:
        return Array.isArray(schema.enum) ? `${String(value)}x` : 12345;
    }
  }
  if ((schema.type === "number" || schema.type === "integer") && typeof value === "number") {
    switch (pick % 4) {
      case 0:
        return typeof schema.multipleOf === "number" ? value + schema.multipleOf / 3 : value + 0.5;
      case 1:
        return typeof schema.maximum === "number" ? schema.maximum + 1 : String(value);
      case 2:
        return typeof schema.minimum === "number" ? schema.minimum - 1 : String(value);
      default:
        return String(value);
    }
  }
  if (schema.type === "boolean") return pick % 2 ? "true" : 1;
  return pick % 2 ? null : { value };
}

function jsonPost(operation: Operation, body: unknown, kind: FuzzRequest["kind"], path: string): FuzzRequest {
  return {
    kind,
    method: operation.method.toUpperCase(),
    path,
    contentType: "application/json",
    body: utf8(JSON.stringify(body)),
  };
}

/** A concrete path for a template, its parameters from their schemas. */
function concretePath(operation: Operation, generate: (schema: Schema) => unknown): string {
  return operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = parameters(operation).find((p) => p.in === "path" && p.name === name);
    return encodeURIComponent(String(parameter ? generate(parameter.schema as Schema) : "x"));
  });
}

function parameters(operation: Operation): Json[] {
  return [...((operation.pathItem.parameters ?? []) as Json[]), ...((operation.operation.parameters ?? []) as Json[])];
}

/** `count` generated requests per operation, half of them with one rule broken. */
export function requestsFromDocument(
  operations: readonly Operation[],
  schemas: Record<string, Schema>,
  count: number,
  seed: number,
): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  const generator = createGeneratorSync({ seed, optionalsProbability: 0.6 });
  const generate = (schema: Schema) => generator.generate(asJsonSchema(inline(schema, schemas)) as Json);
  for (const operation of operations) {
    const content = ((operation.operation.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
    const json = content["application/json"];
    const form = content["application/x-www-form-urlencoded"];
    const query = parameters(operation).filter((p) => p.in === "query");
    for (let i = 0; i < count; i++) {
      const path = concretePath(operation, generate);
      const broken = i % 2 === 1;
      if (json?.schema) {
        const schema = inline(json.schema, schemas) as Schema;
        const body = i === 0 && json.example !== undefined ? json.example : generate(schema);
        out.push(jsonPost(operation, broken ? breakOne(body, schema, i) : body, "plausible", path));
        continue;
      }
      const values: Record<string, string> = {};
      for (const parameter of query) {
        if (!parameter.required && i % 3 === 2) continue;
        let value = generate(parameter.schema as Schema);
        if (broken && i % 4 === 1) value = breakOne(value, inline(parameter.schema, schemas) as Schema, i);
        if (value !== undefined && value !== null) values[parameter.name as string] = String(value);
      }
      if (broken && i % 4 === 3 && query.some((p) => p.required))
        delete values[query.find((p) => p.required)!.name as string];
      const search = new URLSearchParams(values).toString();
      const url = search ? `${path}?${search}` : path;
      if (form?.schema && operation.method !== "get") {
        const fields = generate(form.schema as Schema) as Record<string, unknown>;
        const body = new URLSearchParams(
          Object.entries(fields ?? {}).map(([k, v]) => [k, String(v)] as [string, string]),
        ).toString();
        out.push({
          kind: "plausible",
          method: operation.method.toUpperCase(),
          path: url,
          contentType: "application/x-www-form-urlencoded",
          body: utf8(body),
        });
      } else if (!operation.operation.requestBody) {
        out.push({ kind: "query", method: operation.method.toUpperCase(), path: url, contentType: null, body: null });
      }
    }
  }
  return out;
}

/** A document schema as the faker reads it: references resolved, nullable as a type list. */
export function jsonSchemaOf(schema: unknown, schemas: Record<string, Schema>): unknown {
  return asJsonSchema(inline(schema, schemas));
}

/** Component references resolved in place (request schemas are self-contained components). */
function inline(node: unknown, schemas: Record<string, Schema>): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, schemas));
  if (!node || typeof node !== "object") return node;
  const ref = (node as Json).$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/"))
    return inline(schemas[ref.split("/").pop()!], schemas);
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = inline(value, schemas);
  return out;
}
