import { readFileSync } from "node:fs";
import http from "node:http";
import fc from "fast-check";
import type { FuzzRequest } from "./generators";

/**
 * Sending a fuzz request (in process to a route module, or over HTTP to the
 * built server) and judging the answer: never a 5xx, every 4xx in the one
 * error shape {"error":{"code","message","fields"?}}, valid input answered 2xx.
 */

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** The seed every fuzz property runs with; FUZZ_SEED=<n> replays another. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261121);

/** Scale every run count (FUZZ_SCALE=5 for a long soak; the default keeps the suite under a minute). */
export const FUZZ_SCALE = Number(process.env.FUZZ_SCALE ?? 1);

export function runs(n: number): number {
  return Math.max(1, Math.round(n * FUZZ_SCALE));
}

function describe(request: FuzzRequest): string {
  const body = request.body ? Buffer.from(request.body) : null;
  const shown = body
    ? JSON.stringify(body.subarray(0, 300).toString("utf8")) + (body.length > 300 ? ` …(${body.length} bytes)` : "")
    : "none";
  const path =
    request.path.length > 200 ? `${request.path.slice(0, 200)}…(${request.path.length} chars)` : request.path;
  return `${request.kind}${request.chunked ? " (chunked)" : ""} ${request.method} ${path} content-type=${JSON.stringify(request.contentType)} headers=${JSON.stringify(request.headers ?? {}).slice(0, 200)} body=${shown}`;
}

function fail(request: FuzzRequest, answer: Answer, why: string): never {
  throw new Error(`${why}\n  request: ${describe(request)}\n  answer: ${answer.status} ${answer.text.slice(0, 500)}`);
}

/**
 * fc.assert with the fixed seed, and a failure message cut to a readable size
 * (a counterexample can hold a 100 KB body). The seed and path to replay stay.
 */
export async function assertProperty<T>(property: fc.IAsyncProperty<[T]>, numRuns: number): Promise<void> {
  try {
    await fc.assert(property, { seed: FUZZ_SEED, numRuns });
  } catch (error) {
    const shorten = (text: string) =>
      text
        .split("\n")
        .map((line) => (line.length > 2_000 ? `${line.slice(0, 2_000)}…(${line.length} chars)` : line))
        .join("\n");
    const cause = (error as { cause?: unknown }).cause;
    const message =
      shorten((error as Error).message) + (cause instanceof Error ? `\nCaused by: ${shorten(cause.message)}` : "");
    throw new Error(message);
  }
}

/** Statuses a route may answer with a body other than JSON. */
const NO_BODY = new Set([204, 303, 304]);

/**
 * The judgement of one answer. `allowRedirect` for the unsubscribe GET (303 to
 * the confirmation page).
 */
export function checkAnswer(request: FuzzRequest, answer: Answer, options: { allowRedirect?: boolean } = {}): void {
  const { status } = answer;
  if (!Number.isInteger(status) || status < 200 || status > 599) fail(request, answer, `not an HTTP status: ${status}`);
  if (status >= 500) fail(request, answer, `server error ${status}`);
  if (status >= 300 && status < 400) {
    if (!options.allowRedirect || status !== 303 || !answer.headers.location)
      fail(request, answer, `unexpected redirect ${status}`);
  }
  if (request.kind === "valid" && status >= 300 && !(options.allowRedirect && status === 303)) {
    fail(request, answer, `a valid request was refused with ${status}`);
  }
  if (request.method === "HEAD" || NO_BODY.has(status)) return;
  const type = answer.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type))
    fail(request, answer, `answer is not JSON (content-type ${JSON.stringify(type)})`);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    fail(request, answer, "answer body does not parse as JSON");
  }
  if (status >= 400) checkErrorShape(request, answer, body);
  else if (body === null || typeof body !== "object") fail(request, answer, "a 2xx body is not a JSON object");
}

function checkErrorShape(request: FuzzRequest, answer: Answer, body: unknown): void {
  const error = (body as { error?: unknown } | null)?.error as
    { code?: unknown; message?: unknown; fields?: unknown } | undefined;
  if (!error || typeof error !== "object") fail(request, answer, "error answer has no error object");
  if (typeof error.code !== "string" || error.code.length === 0)
    fail(request, answer, "error.code is not a non-empty string");
  if (typeof error.message !== "string" || error.message.length === 0)
    fail(request, answer, "error.message is not a non-empty string");
  const extra = Object.keys(body as object).filter((k) => k !== "error");
  if (extra.length) fail(request, answer, `error answer has keys besides "error": ${extra.join(", ")}`);
  const allowed = new Set(["code", "message", "fields"]);
  const unknown = Object.keys(error).filter((k) => !allowed.has(k));
  if (unknown.length) fail(request, answer, `error object has unknown keys: ${unknown.join(", ")}`);
  if (error.fields !== undefined) {
    if (!error.fields || typeof error.fields !== "object" || Array.isArray(error.fields))
      fail(request, answer, "error.fields is not an object");
    for (const [k, v] of Object.entries(error.fields as Record<string, unknown>)) {
      if (typeof v !== "string") fail(request, answer, `error.fields[${JSON.stringify(k)}] is not a string`);
    }
  }
}

/** Per-route tally of statuses, for the log line each property prints. */
export class Tally {
  readonly counts = new Map<string, number>();
  add(request: FuzzRequest, status: number): void {
    const key = `${request.kind}:${status}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
  byStatus(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [key, n] of this.counts) {
      const status = key.split(":")[1]!;
      out[status] = (out[status] ?? 0) + n;
    }
    return out;
  }
  count(kind: string, predicate: (status: number) => boolean): number {
    let n = 0;
    for (const [key, c] of this.counts) {
      const [k, s] = key.split(":");
      if (k === kind && predicate(Number(s))) n += c;
    }
    return n;
  }
}

// ------------------------------------------------------------------ in process

type Handler = (args: { request: Request; params: Record<string, string | undefined>; context: unknown }) => unknown;
export interface RouteModule {
  loader: Handler;
  action: Handler;
}

/**
 * Call a route module the way Remix does: loader for GET/HEAD, action
 * otherwise. A thrown error that is not a Response is a crash: it is
 * reported as a 599 so the property fails on it.
 */
export async function callInProcess(route: RouteModule, request: FuzzRequest): Promise<Answer> {
  const headers = new Headers(request.headers ?? {});
  if (request.contentType !== null) headers.set("content-type", request.contentType);
  const hasBody = request.body !== null && request.method !== "GET" && request.method !== "HEAD";
  const req = new Request(`http://localhost${request.path}`, {
    method: request.method,
    headers,
    body: hasBody ? Buffer.from(request.body!) : undefined,
  });
  const handler = request.method === "GET" || request.method === "HEAD" ? route.loader : route.action;
  let result: unknown;
  try {
    result = await handler({ request: req, params: request.params ?? {}, context: { clientIp: "203.0.113.9" } });
  } catch (thrown) {
    if (thrown instanceof Response) result = thrown;
    else
      return { status: 599, headers: {}, text: `thrown: ${thrown instanceof Error ? thrown.stack : String(thrown)}` };
  }
  if (!(result instanceof Response))
    return { status: 599, headers: {}, text: `route returned a non-Response: ${String(result)}` };
  return { status: result.status, headers: Object.fromEntries(result.headers), text: await result.text() };
}

// ------------------------------------------------------------------ over HTTP

export const keepAliveAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/**
 * One request over a keep-alive connection with node:http, so that the raw
 * path (broken percent-encoding included), the exact headers and the body
 * bytes reach the server as given. No answer within `timeoutMs` is a failure.
 */
/** Requests re-sent because a kept-alive connection was closed by the server just as it was reused. */
export const staleConnectionRetries = { count: 0 };

/**
 * Send over a keep-alive connection; a request that fails with a reset on a
 * reused socket (the server closed it as idle at that moment, a race every
 * keep-alive client has) is sent once more on a new connection. A reset on a
 * fresh connection is a failure.
 */
export async function sendHttp(baseUrl: string, request: FuzzRequest, timeoutMs = 10_000): Promise<Answer> {
  try {
    return await sendHttpOnce(baseUrl, request, timeoutMs);
  } catch (error) {
    if (!(error as { staleSocket?: boolean }).staleSocket) throw error;
    staleConnectionRetries.count++;
    return sendHttpOnce(baseUrl, request, timeoutMs);
  }
}

function sendHttpOnce(baseUrl: string, request: FuzzRequest, timeoutMs: number): Promise<Answer> {
  const url = new URL(baseUrl);
  const headers: Record<string, string | number> = { ...(request.headers ?? {}) };
  if (request.contentType !== null) headers["content-type"] = request.contentType;
  const body = request.body && request.method !== "GET" && request.method !== "HEAD" ? Buffer.from(request.body) : null;
  if (body && !request.chunked) headers["content-length"] = body.length;
  // Node sends GET/DELETE/OPTIONS bodies unframed unless told: say chunked explicitly.
  if (body && request.chunked) headers["transfer-encoding"] = "chunked";
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers,
        agent: keepAliveAgent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          answered = true;
          const flat: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(", ") : v;
          resolve({ status: res.statusCode ?? 0, headers: flat, text: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", (e) => {
          if (!answered) reject(e);
        });
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", (e: Error & { code?: string }) => {
      if (answered) return;
      const failure = new Error(`request failed: ${e.message}\n  request: ${describe(request)}`);
      if (req.reusedSocket && (e.code === "ECONNRESET" || e.code === "EPIPE"))
        Object.assign(failure, { staleSocket: true });
      reject(failure);
    });
    if (body && request.chunked) {
      // Several chunks, so the server cannot know the size up front.
      const step = Math.max(1, Math.ceil(body.length / 3));
      for (let i = 0; i < body.length; i += step) req.write(body.subarray(i, i + step));
      req.end();
    } else {
      req.end(body ?? undefined);
    }
  });
}

/** Resident set size of a process in bytes, from /proc/<pid>/status (VmRSS). */
export function rssBytes(pid: number): number {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(text);
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}
