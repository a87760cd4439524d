import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { Answer } from "../fuzz/check";
import type { FuzzRequest } from "../fuzz/generators";

/**
 * The served OpenAPI document as a judge of answers (issue 31): every answer's
 * status must be declared on its operation, its body must validate (ajv,
 * additionalProperties as the document says) against the schema of its status
 * and media type, and the headers the document names for 405, 429, 201 and 303
 * must be there. A request body the document's request schema refuses must not
 * be answered 2xx (the schema is not stricter than the route). Nothing here
 * names a route or a field: operations, statuses and schemas come from the
 * document, so an operation or field added to it is checked as it stands.
 */

type Json = Record<string, unknown>;

export interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  operation: Json;
  pathItem: Json;
}

export interface Verdict {
  operation: Operation | null;
  problems: string[];
  /** The request body broke the operation's request schema (null: not a JSON body or no schema). */
  requestSchemaValid: boolean | null;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const DOC_ID = "openapi.json";

/** `#/components/...` → `openapi.json#/components/...`, so ajv resolves references inside the one document it holds. */
function anchored(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(anchored);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === "$ref" && typeof value === "string" && value.startsWith("#/") ? DOC_ID + value : anchored(value);
  }
  return out;
}

function templatePattern(template: string): RegExp {
  const escaped = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith("{") ? "[^/]+" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${escaped}$`);
}

export class Contract {
  readonly operations: Operation[] = [];
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    this.ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true, multipleOfPrecision: 4 });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: DOC_ID, components: anchored((document.components as Json) ?? {}) } as Json, DOC_ID);
    for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const method of METHODS) {
        const operation = item[method] as Json | undefined;
        if (operation) {
          this.operations.push({ method, template, pattern: templatePattern(template), operation, pathItem: item });
        }
      }
    }
  }

  private validator(key: string, schema: unknown): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(anchored(schema) as Json);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** The document's header object, following a $ref into components.headers. */
  private header(value: Json): Json {
    const ref = value.$ref as string | undefined;
    if (!ref) return value;
    const name = ref.split("/").pop()!;
    return ((this.document.components as Json).headers as Record<string, Json>)[name]!;
  }

  /** The operation a request reaches (HEAD reaches GET), or the path's operations when the method has none. */
  find(method: string, rawPath: string): { exact: Operation | null; onPath: Operation[] } {
    // A trailing slash reaches the same route (Remix matches /a/ as /a).
    const path = rawPath.split("?")[0]!.replace(/(.)\/+$/, "$1");
    const wanted = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
    const onPath = this.operations.filter((o) => o.pattern.test(path));
    return { exact: onPath.find((o) => o.method === wanted) ?? null, onPath };
  }

  /** Whether a JSON request body meets the operation's request schema (null when it has none, or the body is not JSON). */
  requestBodyValid(operation: Operation, request: FuzzRequest): boolean | null {
    const content = ((operation.operation.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
    const schema = content["application/json"]?.schema;
    if (!schema || !request.body) return null;
    if (!/^application\/json\s*(;|$)/i.test(request.contentType ?? "")) return null;
    if (request.headers && Object.keys(request.headers).some((h) => h.toLowerCase() === "content-encoding"))
      return null;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(request.body).toString("utf8"));
    } catch {
      return null;
    }
    return this.validator(`request ${operation.method} ${operation.template}`, schema)(value) as boolean;
  }

  judge(request: FuzzRequest, answer: Answer): Verdict {
    const problems: string[] = [];
    const { exact, onPath } = this.find(request.method, request.path);
    if (!exact && onPath.length === 0)
      return { operation: null, problems: ["no operation in the document"], requestSchemaValid: null };
    // A method the path does not answer is judged by the path's declared 405.
    const operation = exact ?? onPath[0]!;
    const responses = operation.operation.responses as Record<string, Json>;
    const key = String(answer.status);
    const declared = responses[key] ?? responses[`${key[0]}XX`] ?? responses.default;
    const requestSchemaValid = exact ? this.requestBodyValid(exact, request) : null;
    if (!exact && answer.status !== 405 && answer.status < 400)
      problems.push(`method ${request.method} has no operation but was answered ${answer.status}`);
    if (requestSchemaValid === false && answer.status < 300)
      problems.push(`a body the request schema refuses was accepted (${answer.status})`);
    if (!declared) {
      problems.push(
        `status ${answer.status} is not declared on ${operation.method.toUpperCase()} ${operation.template}`,
      );
      return { operation, problems, requestSchemaValid };
    }
    for (const [name, value] of Object.entries((declared.headers ?? {}) as Record<string, Json>)) {
      const spec = this.header(value);
      const given = answer.headers[name.toLowerCase()];
      const mustBeThere =
        spec.required === true ||
        ["Allow", "Location"].includes(name) ||
        (name === "Retry-After" && answer.status === 429);
      if (given === undefined) {
        if (mustBeThere) problems.push(`header ${name} missing on ${answer.status}`);
        continue;
      }
      const schema = spec.schema as Json | undefined;
      if (schema?.type === "integer" && !/^\d+$/.test(given))
        problems.push(`header ${name} is not an integer: ${given}`);
    }
    const content = declared.content as Record<string, Json> | undefined;
    if (request.method === "HEAD" || !content) {
      if (!content && answer.text.length > 0 && answer.status !== 303)
        problems.push(`status ${answer.status} is declared without a body but has one`);
      return { operation, problems, requestSchemaValid };
    }
    const type = (answer.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    const media = content[type];
    if (!media) {
      problems.push(
        `content-type ${type || "(none)"} is not declared for ${answer.status} (${Object.keys(content).join(", ")})`,
      );
      return { operation, problems, requestSchemaValid };
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      problems.push("the body does not parse as JSON");
      return { operation, problems, requestSchemaValid };
    }
    const validate = this.validator(`${operation.method} ${operation.template} ${key} ${type}`, media.schema ?? {});
    if (!validate(body)) {
      for (const error of (validate.errors ?? []).slice(0, 5)) {
        const extra = (error.params as { additionalProperty?: string }).additionalProperty;
        problems.push(`body ${error.instancePath || "/"} ${error.message}${extra ? ` (${extra})` : ""}`);
      }
    }
    return { operation, problems, requestSchemaValid };
  }
}

/** Counts per operation and status, and every problem with the request that showed it. */
export class ContractTally {
  readonly byOperation = new Map<string, Map<number, number>>();
  readonly problems: string[] = [];
  readonly milliseconds = new Map<string, number>();
  schemaRefusedBodies = 0;
  total = 0;

  add(request: FuzzRequest, answer: Answer, verdict: Verdict, ms = 0): void {
    this.total++;
    const name = verdict.operation
      ? `${verdict.operation.method.toUpperCase()} ${verdict.operation.template}`
      : `${request.method} ${request.path.split("?")[0]}`;
    const statuses = this.byOperation.get(name) ?? new Map<number, number>();
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    this.byOperation.set(name, statuses);
    this.milliseconds.set(name, (this.milliseconds.get(name) ?? 0) + ms);
    if (verdict.requestSchemaValid === false) this.schemaRefusedBodies++;
    if (verdict.problems.length && this.problems.length < 40) {
      const body = request.body ? Buffer.from(request.body).toString("utf8").slice(0, 300) : "";
      this.problems.push(
        `${request.method} ${request.path.slice(0, 120)} [${request.kind}] → ${answer.status}: ${verdict.problems.join("; ")}\n    body: ${body}\n    answer: ${answer.text.slice(0, 300)}`,
      );
    }
  }

  statuses(name: string): number[] {
    return [...(this.byOperation.get(name)?.keys() ?? [])].sort();
  }

  summary(): string {
    return [...this.byOperation.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([name, s]) =>
          `${name}: ${[...s.entries()].map(([status, n]) => `${status}×${n}`).join(" ")} (${Math.round(this.milliseconds.get(name) ?? 0)} ms)`,
      )
      .join("\n");
  }
}
