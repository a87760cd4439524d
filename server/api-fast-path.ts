/**
 * A few JSON API routes straight to their route module, past Remix's request handling
 * (docs/decisions/360 for the health check, 400 for the rest). Each route here is a resource route
 * built with `apiRoute` (app/server/platform/api.server.ts): it has no path parameters, reads
 * neither the load context nor the abort signal, turns every error into its JSON answer itself,
 * and reads only the request's URL, the headers listed and (POST) the body the firewall has
 * already read and judged (handed over as a FastRequest, not a web Request). For those, Remix's handling (route matching, the data-request
 * protocol, a Request with every header and an abort signal, the Response piped through a web
 * stream) was most of the answer's cost. Everything in front of Remix still runs for them
 * (security headers, Server-Timing, request log, rate rule, firewall, compression), and the answer
 * is the same module's. Anything else (HEAD, another method, a `_data` request, a body the
 * firewall did not read, a request URL that cannot be built) goes through Remix as before.
 *
 * A route with a plain answer in the build (app/server/platform/plain-answers.server.ts: the health
 * check) is answered with its JSON text and headers, no web Request or Response made at all
 * (docs/decisions/462).
 */
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { ServerBuild } from "@remix-run/node";
import { inspectedBody, refusedBody } from "./firewall/body";
import { KEPT_ANSWER as KEPT_ANSWER_LOCAL } from "./compression";

export interface FastApiRoute {
  method: "GET" | "POST";
  /** The route module's id in the server build. */
  routeId: string;
  /** The request headers the route reads (lower case); no other header reaches it. */
  headers: readonly string[];
}

/** The routes that qualify, by exact path (docs/decisions/400 says what a route must be to be added). */
export const FAST_API_ROUTES: Readonly<Record<string, FastApiRoute>> = {
  "/api/health": { method: "GET", routeId: "routes/api.health", headers: ["accept-language"] },
  "/api/counties": { method: "GET", routeId: "routes/api.counties", headers: ["accept-language"] },
  "/api/plans": {
    method: "POST",
    routeId: "routes/api.plans",
    headers: ["content-type", "content-length", "accept-language"],
  },
};

type RouteFunction = (args: { request: Request; params: Record<string, string>; context: unknown }) => Promise<unknown>;

interface Resolved {
  method: string;
  run: RouteFunction;
  headers: readonly string[];
  /** The route's plain answer (no web Response) for a request URL, when the build has one (docs/decisions/462). */
  plain?: (url: string) => PlainAnswer | Promise<PlainAnswer>;
}

/** app/server/platform/api.server.ts's PlainAnswer: a 200 JSON answer as text and headers. */
interface PlainAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  text: string;
}

/** The server build's plain answers by route id (app/server/platform/plain-answers.server.ts, re-exported by entry.server.tsx). */
function plainAnswersOf(build: ServerBuild): Readonly<Record<string, unknown>> {
  const answers = (build.entry?.module as { plainAnswers?: unknown } | undefined)?.plainAnswers;
  return typeof answers === "object" && answers !== null ? (answers as Record<string, unknown>) : {};
}

/** app/server/platform/api.server.ts's JSON_TEXT and KEPT_ANSWER (the same registered symbols: the two are built apart). */
const JSON_TEXT = Symbol.for("marketplace.jsonResponse.text");
const KEPT_ANSWER = Symbol.for("marketplace.jsonResponse.kept");

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_CONTEXT = Object.freeze({});

export function apiFastPath(build: ServerBuild, routes: Readonly<Record<string, FastApiRoute>> = FAST_API_ROUTES) {
  const byPath = new Map<string, Resolved>();
  const plainAnswers = plainAnswersOf(build);
  for (const [path, route] of Object.entries(routes)) {
    const module = build.routes[route.routeId]?.module as { loader?: unknown; action?: unknown } | undefined;
    const run = route.method === "GET" ? module?.loader : module?.action;
    const plain = route.method === "GET" ? plainAnswers[route.routeId] : undefined;
    if (typeof run === "function")
      byPath.set(path, {
        method: route.method,
        run: run as RouteFunction,
        headers: route.headers,
        plain: typeof plain === "function" ? (plain as NonNullable<Resolved["plain"]>) : undefined,
      });
  }
  return async function fastApi(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
    const route = byPath.get(req.path);
    if (!route || req.method !== route.method) return next();
    // A plain answer (the health check, counties): JSON text and headers, no web Request or Response.
    // One that throws is answered by the route module below, which words the error (decision 462).
    if (route.plain && plainTarget(req.originalUrl)) {
      let answer: PlainAnswer | undefined;
      try {
        const made = route.plain(`http://localhost${req.originalUrl}`);
        answer = made instanceof Promise ? await made : made;
      } catch {
        answer = undefined;
      }
      if (answer) {
        res.statusCode = answer.status;
        for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
        res.end(answer.text);
        return;
      }
    }
    const request = fastRequest(req, route);
    if (!request) return next();
    try {
      const response = await route.run({ request, params: NO_PARAMS, context: NO_CONTEXT });
      // Not a Response (a route that returns plain data): Remix knows what to do with it.
      if (!(response instanceof Response)) return next();
      // The JSON text the route's jsonResponse kept (a Response's body is read only once, and never
      // here when the text is kept); any other Response is read as bytes.
      const marked = response as Response & { [JSON_TEXT]?: unknown; [KEPT_ANSWER]?: unknown };
      const kept = marked[JSON_TEXT];
      const body =
        (typeof kept === "string" || Buffer.isBuffer(kept)) && !response.bodyUsed
          ? kept
          : Buffer.from(await response.arrayBuffer());
      // The same Buffer as last time: compression keeps its compressed copy (server/compression.ts).
      if (Buffer.isBuffer(body) && marked[KEPT_ANSWER] === true) res.locals[KEPT_ANSWER_LOCAL] = true;
      res.status(response.status);
      for (const [name, value] of response.headers) res.append(name, value);
      res.end(body);
    } catch (error) {
      next(error);
    }
  };
}

/** Whether a request for this target may skip Remix: an origin-form target, no Remix data request. */
function plainTarget(target: string): boolean {
  return target.startsWith("/") && !target.includes("_data=");
}

/** The Request the route is given, or undefined when Remix must take it (see the file's comment). */
function fastRequest(req: ExpressRequest, route: Resolved): Request | undefined {
  const target = req.originalUrl;
  if (!plainTarget(target)) return undefined;
  const headers: Record<string, string> = {};
  for (const name of route.headers) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
    else if (value !== undefined) return undefined; // a repeated header: Remix's way of joining it
  }
  let body: Buffer | null = null;
  if (route.method !== "GET") {
    const inspected = inspectedBody(req);
    if (inspected === undefined || refusedBody(req)) return undefined;
    body = inspected.byteLength > 0 ? inspected : null;
  }
  return new FastRequest(`http://localhost${target}`, route.method, headers, body) as unknown as Request;
}

/** app/server/platform/api.server.ts's REQUEST_BODY (the same registered symbol). */
const REQUEST_BODY = Symbol.for("marketplace.request.body");
/** Never aborted: these routes answer from memory, and the answer is written whole (decision 400). */
const NEVER_ABORTED = new AbortController().signal;

/**
 * What the routes here read of a Request — its URL, method, the listed headers (case-insensitive
 * `get`/`has`) and the body the firewall read (`text()`, `json()`, and REQUEST_BODY for
 * readBodyText) — without a web Request's headers list, abort signal and body stream, which were
 * a tenth of a health check (issue 29). A route added to FAST_API_ROUTES must read no more.
 */
class FastRequest {
  readonly signal = NEVER_ABORTED;
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
  readonly [REQUEST_BODY]: Buffer | null;

  constructor(
    readonly url: string,
    readonly method: string,
    sent: Record<string, string>,
    body: Buffer | null,
  ) {
    this.headers = {
      get: (name) => sent[name.toLowerCase()] ?? null,
      has: (name) => sent[name.toLowerCase()] !== undefined,
    };
    this[REQUEST_BODY] = body;
  }

  /** No stream: readBodyText and these read the bytes the firewall kept. */
  get body(): null {
    return null;
  }

  async text(): Promise<string> {
    return this[REQUEST_BODY]?.toString("utf8") ?? "";
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}
