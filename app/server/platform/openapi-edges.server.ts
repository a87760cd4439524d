/**
 * The last pass over the OpenAPI document (./openapi.server.ts): the answers
 * every operation can get from the edge before its route runs (server/:
 * the HTTP parser, the request firewall, the rate rule, method dispatch), the
 * headers that go with them, and the 3.0.3 spelling of nullable enums.
 * docs/decisions/380-openapi-says-what-the-service-answers.md.
 */

type Json = Record<string, unknown>;

const ERROR_SCHEMA = { $ref: "#/components/schemas/Error" };

/** Response headers the document names (components.headers). */
export const HEADERS: Record<string, Json> = {
  RetryAfter: {
    description: "Seconds to wait before trying again",
    schema: { type: "integer", minimum: 0 },
  },
  Allow: {
    description: "The methods this path answers, e.g. `GET, HEAD`",
    schema: { type: "string" },
  },
  Location: {
    description: "Where the answer points",
    schema: { type: "string" },
  },
  IdempotentReplayed: {
    description:
      "`true` when the request's Idempotency-Key had already made a record: the answer is that record's, and nothing new was saved or sent",
    schema: { type: "string", enum: ["true"] },
  },
};

const header = (name: string, required = false) => ({ $ref: `#/components/headers/${name}`, ...(required ? {} : {}) });

function errorAnswer(description: string, headers?: Record<string, unknown>): Json {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { "application/json": { schema: ERROR_SCHEMA } },
  };
}

/**
 * Answers any operation can get whatever its own logic (status → answer). An
 * operation's own entry for a status wins; these fill the rest in.
 */
/** Paths the rate rule never counts (server.ts `exemptPaths`): the load balancer's health check. */
const RATE_RULE_EXEMPT = new Set(["/api/health"]);

function edgeAnswers(method: string, path: string): Record<string, Json> {
  return {
    "400": errorAnswer("The request could not be read as HTTP or its URL could not be decoded (bad_request)"),
    "403": errorAnswer(
      "Blocked by the request firewall because part of the request looks like an attack (forbidden); docs/firewall.md",
    ),
    "405": errorAnswer("Method not allowed on this path (method_not_allowed); Allow lists the methods it answers", {
      Allow: header("Allow"),
    }),
    "408": errorAnswer("The request took too long to arrive (request_timeout)"),
    "413": errorAnswer("Body, file or chunk extensions over the limit (payload_too_large)"),
    ...(method === "get"
      ? {}
      : { "415": errorAnswer("Body not sent in a media type this operation reads (unsupported_media_type)") }),
    ...(RATE_RULE_EXEMPT.has(path)
      ? {}
      : {
          "429": errorAnswer(
            "Too many requests from the client's address (rate_limited); Retry-After says when to retry",
            { "Retry-After": header("RetryAfter") },
          ),
        }),
    "431": errorAnswer("Request line or headers over 16 KB (headers_too_large)"),
    "500": errorAnswer("Our own failure (internal_error); the message never shows internals"),
    "503": errorAnswer(
      "A part the answer needs is unavailable, or the request could not be inspected in time; Retry-After when known",
      { "Retry-After": header("RetryAfter") },
    ),
  };
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** `/api/enroll/applications/{applicationId}` + post → `postEnrollApplicationsByApplicationId`. */
export function derivedOperationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, "")
    .split(/[/.]/)
    .filter(Boolean)
    .map((part) => (part.startsWith("{") ? `by-${part.slice(1, -1)}` : part))
    .flatMap((part) => part.split(/[-_]/))
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return method + words.join("");
}

/**
 * Every operation: an operationId and a description (from the summary when it
 * has none), the edge answers, Retry-After on each 429 and 503, Allow on 405.
 */
export function completeOperations(paths: Json): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = (item as Json)[method] as Json | undefined;
      if (!operation) continue;
      operation.operationId ??= derivedOperationId(method, path);
      operation.description ??= operation.summary;
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      for (const [status, answer] of Object.entries(edgeAnswers(method, path))) {
        if (!responses[status]) responses[status] = answer;
      }
      for (const [status, name] of [
        ["429", "RetryAfter"],
        ["503", "RetryAfter"],
        ["405", "Allow"],
      ] as const) {
        const answer = responses[status];
        if (!answer || answer.$ref) continue;
        const headerName = name === "RetryAfter" ? "Retry-After" : name;
        answer.headers = { ...((answer.headers as Json) ?? {}), [headerName]: header(name) };
      }
      operation.responses = Object.fromEntries(
        Object.entries(responses).sort(([a], [b]) => (a === "default" ? 1 : b === "default" ? -1 : a.localeCompare(b))),
      );
    }
  }
}

/**
 * OpenAPI 3.0.3 says `nullable: true` does not widen `enum`: a nullable enum
 * must list null itself, or `"csr": null` is invalid (issue 31 item 4).
 * zod's openapi-3.0 output leaves null out, so it is added here, everywhere.
 */
export function nullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) nullInNullableEnums(item);
    return;
  }
  if (!node || typeof node !== "object") return;
  const schema = node as Json;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...schema.enum, null];
  }
  for (const value of Object.values(schema)) nullInNullableEnums(value);
}
