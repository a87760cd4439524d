import { loggableError } from "../../../db/write-store-errors";
import { apiFields, apiMessage } from "../../i18n/api-messages";
import { DEFAULT_LANGUAGE, type Language } from "../../i18n/i18n";
import { languageFromAcceptLanguage } from "../../i18n/language.server";
import { nestsDeeperThan, TOO_DEEP_MESSAGE } from "./json-nesting";
import type { ZodType } from "zod";

/**
 * The one JSON error shape of every /api route:
 *   {"error": {"code": "...", "message": "...", "fields": {"path": "why"}}}
 * and the helpers that let a route stay thin: method dispatch, body parsing
 * with size, syntax and schema checks.
 */

export type ErrorFields = Record<string, string>;

export interface ApiErrorBody {
  error: { code: string; message: string; fields?: ErrorFields };
}

export const JSON_BODY_LIMIT_BYTES = 100 * 1024;

/** The headers of a JSON answer that gives none of its own (copied by each Response). */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
});

/**
 * The JSON text a `jsonResponse` was made from, kept on the Response under a registered symbol
 * (server.ts's own bundle shares it): the API fast path (server/api-fast-path.ts) writes it as it
 * is instead of reading the body back through a web stream (decision 400).
 */
export const JSON_TEXT = Symbol.for("marketplace.jsonResponse.text");
/**
 * On a Response whose JSON_TEXT is a Buffer given again as the same object (a kept answer,
 * decision 402): the fast path lets compression keep its compressed copy with it.
 */
export const KEPT_ANSWER = Symbol.for("marketplace.jsonResponse.kept");

/**
 * A 200 JSON answer as text and headers, without a web Response: what a plain answer of the API
 * fast path is (app/server/platform/plain-answers.server.ts, docs/decisions/462). The same text and
 * headers as `jsonResponse(data)`; the headers object is shared and frozen.
 */
export interface PlainAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  text: string;
}

export function plainJsonAnswer(data: unknown): PlainAnswer {
  return { status: 200, headers: JSON_HEADERS, text: JSON.stringify(data) };
}

export function jsonResponse(data: unknown, init: ResponseInit = {}): Response {
  const text = JSON.stringify(data);
  let response: Response;
  // No headers of its own (most answers): the two defaults, without a Headers object made to be copied.
  if (init.headers === undefined) response = new Response(text, { ...init, headers: JSON_HEADERS });
  else {
    const headers = new Headers(init.headers);
    if (!headers.has("content-type")) headers.set("content-type", "application/json; charset=utf-8");
    if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
    response = new Response(text, { ...init, headers });
  }
  (response as Response & { [JSON_TEXT]?: string })[JSON_TEXT] = text;
  return response;
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  fields?: ErrorFields,
  headers?: HeadersInit,
): Response {
  const body: ApiErrorBody = { error: { code, message, ...(fields ? { fields } : {}) } };
  return jsonResponse(body, { status, headers });
}

/** Thrown inside a route; `apiRoute` turns it into the error shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: ErrorFields,
    readonly headers?: HeadersInit,
  ) {
    super(message);
  }
  toResponse(): Response {
    return errorResponse(this.status, this.code, this.message, this.fields, this.headers);
  }
}

export function badRequest(message: string, fields?: ErrorFields): ApiError {
  return new ApiError(400, "bad_request", message, fields);
}

/** Turn zod issues into {"household.people.0.age": "Expected number"}. */
export function fieldsFromIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): ErrorFields {
  const fields: ErrorFields = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "(body)";
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

export function parseWith<T>(schema: ZodType<T>, value: unknown, what = "request body"): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const fields = fieldsFromIssues(result.error.issues);
    const names = Object.keys(fields).slice(0, 5).join(", ");
    throw new ApiError(400, "validation_failed", `Invalid ${what}: check ${names}.`, fields);
  }
  return result.data;
}

/**
 * The body bytes the firewall already read, on a request the API fast path made
 * (server/api-fast-path.ts): read from them instead of a stream.
 */
export const REQUEST_BODY = Symbol.for("marketplace.request.body");

/** Read a request body as text, refusing more than `limit` bytes with 413. */
export async function readBodyText(request: Request, limit = JSON_BODY_LIMIT_BYTES): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const read = (request as Request & { [REQUEST_BODY]?: unknown })[REQUEST_BODY];
  if (Buffer.isBuffer(read)) {
    if (read.byteLength > limit) throw tooLarge(limit);
    return read.toString("utf8");
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, "payload_too_large", `Request body is larger than ${Math.round(limit / 1024)} KB.`);
}

/** Parse a JSON request body and validate it: 415, 413 or 400 on failure. */
export async function parseJsonBody<T>(request: Request, schema: ZodType<T>): Promise<T> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type.trim())) {
    throw new ApiError(415, "unsupported_media_type", "Send the body as JSON with Content-Type: application/json.");
  }
  const text = await readBodyText(request);
  if (nestsDeeperThan(text)) throw new ApiError(400, "malformed_json", TOO_DEEP_MESSAGE);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, "malformed_json", "The request body is not valid JSON.");
  }
  return parseWith(schema, value);
}

type Handler = (args: {
  request: Request;
  params: Record<string, string | undefined>;
  context: unknown;
}) => Promise<Response> | Response;

/**
 * Build a resource route's `loader` and `action` from per-method handlers, so
 * every /api route answers a wrong method with 405 + Allow and every thrown
 * error in the one JSON shape (never an HTML error page).
 */
export function apiRoute(handlers: Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Handler>>) {
  const allow = Object.keys(handlers);
  if (handlers.GET && !allow.includes("HEAD")) allow.push("HEAD");
  const dispatch: Handler = async (args) => {
    const method = args.request.method.toUpperCase();
    const handler = handlers[(method === "HEAD" ? "GET" : method) as keyof typeof handlers];
    if (!handler) {
      return errorResponse(405, "method_not_allowed", `Method ${method} is not allowed here.`, undefined, {
        allow: allow.join(", "),
      });
    }
    try {
      return await handler(args);
    } catch (error) {
      return toErrorResponse(error, languageFromAcceptLanguage(args.request.headers.get("Accept-Language")));
    }
  };
  return { loader: dispatch, action: dispatch };
}

/**
 * The error shape of a thrown error. `lang` (the request's Accept-Language, issue 21 item 4) words
 * the human-readable `message` and field messages the catalogue knows; codes and field names stay English.
 */
const INTERNAL = "Something went wrong on our side. Please try again.";

export function toErrorResponse(error: unknown, lang?: Language): Response {
  if (error instanceof ApiError) {
    if (!lang || lang === DEFAULT_LANGUAGE) return error.toResponse();
    return errorResponse(
      error.status,
      error.code,
      apiMessage({ code: error.code, message: error.message, fields: error.fields }, lang),
      apiFields(error.fields, lang),
      error.headers,
    );
  }
  if (error instanceof Response) return error;
  // Logged by the caller's request log; the body never leaks internals.
  console.error("unhandled API error", loggableError(error));
  return errorResponse(
    500,
    "internal_error",
    lang ? apiMessage({ code: "internal_error", message: "" }, lang) || INTERNAL : INTERNAL,
  );
}
