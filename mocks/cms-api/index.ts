/**
 * A fake CMS Marketplace API: a real HTTP server on 127.0.0.1 that speaks the
 * real API's shapes (see docs/reference/upstream-api.md) for the data
 * in a source directory in the CMS formats (default seed/sample, falling back
 * to tests/fixtures/upstream while the sample is absent).
 *
 * Used by tests, end-to-end runs and local development; server.ts runs the
 * service against it with UPSTREAM=fake (which `npm start` sets outside
 * production when no MARKETPLACE_API_KEY is configured). As strict as
 * the real API where the service could trip (issue 16): a missing or wrong
 * key is 401, more than 10 plan ids 400, a year it does not serve
 * 400 `{"message":"Invalid market year"}` (GET /market-years says which it
 * serves), at most 10 drug suggestions ordered by RxCUI, DataNotProvided for
 * plans it has no data for, `provider_type` only, 4xx bodies of `{message}`,
 * and an optional rate limit of its own answering 429 with Retry-After.
 * A test can make it refuse connections, answer 500 / 503 / 429, reject the
 * key (401), answer after 6 seconds, never answer (black hole), or send a
 * body that is not JSON.
 *
 * Only Node built-ins here: `npm run build` compiles it to build/mocks/cms-api.js,
 * which the compiled server loads only with UPSTREAM=fake (docs/decisions/150).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { type FakeDataset, loadDataset } from "./dataset";
import {
  type FakeAnswer,
  countiesByZip,
  drugsAutocomplete,
  drugsCovered,
  eligibilityEstimates,
  marketYears,
  planById,
  providersAutocomplete,
  providersCovered,
  providersSearch,
  percentOfPoverty,
  searchPlans,
} from "./handlers";
import { FakeApiError } from "./rules";

export {
  AUTOCOMPLETE_LIMIT,
  fakeCoverageQuirk,
  INVALID_MARKET_YEAR,
  MAX_PLAN_IDS_PER_CALL,
  PLAN_SEARCH_PAGE_SIZE,
} from "./handlers";

export type FakeUpstreamMode =
  "normal" | "refuse" | "500" | "503" | "429" | "slow" | "blackhole" | "malformed" | "key_rejected";

/** The fake's own limit, in Kong's fixed clock windows as the real gateway counts (upstream-api.md §11). */
export interface FakeRateLimit {
  perMinute?: number;
  perSecond?: number;
}

export interface FakeUpstreamCall {
  method: string;
  /** Path below the host, e.g. `/api/v1/drugs/covered`. */
  path: string;
  /** Query parameters as received (the last value of a repeated name). */
  query: Record<string, string>;
  /** The query string exactly as received, without the `?`. */
  rawQuery: string;
  /** Parsed JSON body of a POST, when it parsed. */
  body?: unknown;
  /** Status the fake answered with (absent while in flight or when the client went away). */
  status?: number;
  /** Epoch ms the request arrived. */
  at: number;
}

export interface FakeUpstreamOptions {
  /** Key the fake accepts in `apikey`. Without it any non-empty key is accepted. */
  apiKey?: string;
  /** Port on 127.0.0.1 (default: any free port). */
  port?: number;
  /** Source directory in the CMS formats (default seed/sample). */
  dataDir?: string;
  /** Delay of the "slow" mode in ms (default 6000: past the service's 5 s limit). */
  slowMs?: number;
  /** Plan years served (default: the years of the data). Others answer 400 "Invalid market year". */
  years?: number[];
  /** A rate limit of its own (default none): over it, 429 with Retry-After. */
  rateLimit?: FakeRateLimit;
}

export interface FakeUpstream {
  /** Base URL, e.g. `http://127.0.0.1:40123/api/v1` (what MARKETPLACE_API_BASE_URL takes). */
  url: string;
  port: number;
  dataDir: string;
  /**
   * Switch the failure mode. `only` limits a failure to matching calls (the
   * others are answered normally). "refuse" closes the listening socket and
   * drops open connections; any other mode listens again on the same port.
   * The returned promise settles once the socket state matches the mode.
   */
  setMode(mode: FakeUpstreamMode, options?: { only?: (call: FakeUpstreamCall) => boolean }): Promise<void>;
  readonly mode: FakeUpstreamMode;
  /** Requests received, oldest first (the last 5,000), except GET /market-years (counted in `marketYearsCalls`). */
  calls: FakeUpstreamCall[];
  readonly marketYearsCalls: number;
  /** Calls answered 429 by the fake's own rate limit since the last reset. */
  readonly rateLimited: number;
  /** Change (or with undefined, lift) the fake's own rate limit; its windows start afresh. */
  setRateLimit(limit: FakeRateLimit | undefined): void;
  /** The most requests the fake has had in flight at once since the last reset. */
  readonly maxInFlight: number;
  /** Forget recorded calls and go back to "normal". */
  reset(): void;
  close(): Promise<void>;
}

const BASE_PATH = "/api/v1";
// Next to this file in the source tree (and from build/mocks/cms-api.js, two levels down too);
// from the working directory when compiled into another build directory.
const fromSource = (relative: string, fromRoot: string) => {
  const here = fileURLToPath(new URL(relative, import.meta.url));
  return existsSync(here) ? here : path.resolve(process.cwd(), fromRoot);
};
const SAMPLE_DIR = fromSource("../../seed/sample", "seed/sample");
const FIXTURE_DIR = fromSource("../../tests/fixtures/upstream", "tests/fixtures/upstream");
const MALFORMED_BODY = '{"coverage":[{"rxcui":"617318","plan_id":"1111';
const MAX_BODY_BYTES = 256 * 1024;
const MAX_RECORDED_CALLS = 5_000;

/** seed/sample once it holds the sample files; until then the fake's own tiny fixture. */
export function defaultFakeDataDir(): string {
  const ready = ["plan-attributes-puf.csv", "zip-county-hud.csv", "mr"].some((name) =>
    existsSync(path.join(SAMPLE_DIR, name)),
  );
  return ready ? SAMPLE_DIR : FIXTURE_DIR;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "x-version": "fake-upstream",
    ...headers,
  });
  res.end(text);
}

function route(ds: FakeDataset, method: string, path: string, query: URLSearchParams, body: unknown): FakeAnswer {
  if (!path.startsWith(`${BASE_PATH}/`)) throw new FakeApiError(404, "404", "no Route matched with those values");
  const p = path.slice(BASE_PATH.length);
  if (method === "GET") {
    if (p === "/drugs/autocomplete") return drugsAutocomplete(ds, query);
    if (p === "/drugs/covered") return drugsCovered(ds, query);
    if (p === "/providers/autocomplete") return providersAutocomplete(ds, query);
    if (p === "/providers/search") return providersSearch(ds, query);
    if (p === "/providers/covered") return providersCovered(ds, query);
    if (p === "/households/pcfpl") return percentOfPoverty(ds, query);
    const zip = /^\/counties\/by\/zip\/([^/]+)$/.exec(p);
    if (zip) return countiesByZip(ds, decodeURIComponent(zip[1]), query);
    if (p === "/market-years") return marketYears(ds);
    const plan = /^\/plans\/([^/]+)$/.exec(p);
    if (plan && plan[1] !== "search") return planById(ds, decodeURIComponent(plan[1]), query);
  }
  if (method === "POST") {
    const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
    if (p === "/households/eligibility/estimates") return eligibilityEstimates(ds, b, query);
    if (p === "/plans/search") return searchPlans(ds, b, query);
  }
  throw new FakeApiError(404, "404", "no Route matched with those values");
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new FakeApiError(413, "413", "request body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const dataDir = options.dataDir ?? defaultFakeDataDir();
  const loaded = loadDataset(dataDir);
  const ds: FakeDataset = options.years ? { ...loaded, years: [...options.years].sort((a, b) => a - b) } : loaded;
  let rateLimit = options.rateLimit;
  const windows = { minute: -1, minuteCount: 0, second: -1, secondCount: 0 };
  let rateLimited = 0;
  let marketYearsCalls = 0;
  /** Kong's fixed windows: the clock minute and second; null when the call is within the limit. */
  const overLimit = (): Record<string, string> | null => {
    if (!rateLimit) return null;
    const now = Date.now();
    const minute = Math.floor(now / 60_000);
    const second = Math.floor(now / 1_000);
    if (minute !== windows.minute) Object.assign(windows, { minute, minuteCount: 0 });
    if (second !== windows.second) Object.assign(windows, { second, secondCount: 0 });
    const perMinute = rateLimit.perMinute ?? Infinity;
    const perSecond = rateLimit.perSecond ?? Infinity;
    const headers = (remainingMinute: number, remainingSecond: number) => ({
      ...(Number.isFinite(perMinute)
        ? { "x-ratelimit-limit-minute": String(perMinute), "x-ratelimit-remaining-minute": String(remainingMinute) }
        : {}),
      ...(Number.isFinite(perSecond)
        ? { "x-ratelimit-limit-second": String(perSecond), "x-ratelimit-remaining-second": String(remainingSecond) }
        : {}),
    });
    if (windows.minuteCount >= perMinute) {
      return { ...headers(0, 0), "retry-after": String(Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000))) };
    }
    if (windows.secondCount >= perSecond) return { ...headers(0, 0), "retry-after": "1" };
    windows.minuteCount++;
    windows.secondCount++;
    return null;
  };
  const slowMs = options.slowMs ?? 6_000;
  const calls: FakeUpstreamCall[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let mode: FakeUpstreamMode = "normal";
  let only: ((call: FakeUpstreamCall) => boolean) | undefined;
  let inFlight = 0;
  let maxInFlight = 0;
  let listening = false;
  let closed = false;

  const answer = (
    res: http.ServerResponse,
    call: FakeUpstreamCall,
    result: FakeAnswer,
    headers?: Record<string, string>,
  ) => {
    call.status = result.status;
    sendJson(res, result.status, result.body, headers);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const call: FakeUpstreamCall = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      rawQuery: url.search.replace(/^\?/, ""),
      at: Date.now(),
    };
    // Bounded: under server.ts the fake runs for the life of the service.
    if (url.pathname === `${BASE_PATH}/market-years`) marketYearsCalls++;
    else {
      if (calls.length >= MAX_RECORDED_CALLS) calls.splice(0, calls.length - MAX_RECORDED_CALLS + 1);
      calls.push(call);
    }
    let body: unknown;
    try {
      const text = await readBody(req);
      if (text) {
        try {
          body = JSON.parse(text);
          call.body = body;
        } catch {
          return answer(res, call, { status: 400, body: { message: "invalid JSON body" } });
        }
      }
    } catch {
      return;
    }

    const failing = mode !== "normal" && mode !== "refuse" && (!only || only(call));
    if (failing && mode === "blackhole") return; // the socket stays open and nothing is ever sent
    if (failing && mode === "key_rejected") {
      return answer(res, call, { status: 401, body: { message: "Invalid authentication credentials" } });
    }
    const limited = overLimit();
    if (limited) {
      rateLimited++;
      return answer(res, call, { status: 429, body: { message: "API rate limit exceeded" } }, limited);
    }
    if (failing && mode === "500") {
      return answer(res, call, {
        status: 500,
        body: { code: "1000", status: "500", message: "Internal server error", error: "internal server error" },
      });
    }
    if (failing && mode === "503") {
      return answer(res, call, { status: 503, body: { message: "coverage data temporarily unavailable" } });
    }
    if (failing && mode === "429") {
      return answer(
        res,
        call,
        { status: 429, body: { message: "API rate limit exceeded" } },
        {
          "retry-after": "1",
          "x-ratelimit-limit-second": "200",
          "x-ratelimit-remaining-second": "0",
          "x-ratelimit-limit-minute": "1000",
          "x-ratelimit-remaining-minute": "0",
        },
      );
    }
    if (failing && mode === "malformed") {
      call.status = 200;
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end(MALFORMED_BODY);
      return;
    }

    const respond = () => {
      const key = url.searchParams.get("apikey");
      if (!key || (options.apiKey !== undefined && key !== options.apiKey)) {
        return answer(res, call, { status: 401, body: { message: "Invalid authentication credentials" } });
      }
      try {
        answer(res, call, route(ds, call.method, url.pathname, url.searchParams, body));
      } catch (error) {
        if (error instanceof FakeApiError) {
          const status = error.status;
          // Live 400 bodies are the gateway's bare `{message}`; the application's 404s carry its code.
          answer(res, call, {
            status,
            body:
              status === 400
                ? { message: error.message }
                : { code: error.code, status: String(status), message: error.message, error: error.message },
          });
        } else {
          answer(res, call, {
            status: 500,
            body: { code: "1000", status: "500", message: "Internal server error", error: String(error) },
          });
        }
      }
    };
    if (failing && mode === "slow") {
      const timer = setTimeout(() => {
        timers.delete(timer);
        respond();
      }, slowMs);
      timers.add(timer);
      return;
    }
    respond();
  };

  const server = http.createServer((req, res) => {
    void handle(req, res);
  });
  server.keepAliveTimeout = 2_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        listening = true;
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });

  await listen(options.port ?? 0);
  const port = (server.address() as AddressInfo).port;

  // Mode changes run one after another so that a refuse/normal pair cannot interleave.
  let transition: Promise<void> = Promise.resolve();
  const fake: FakeUpstream = {
    url: `http://127.0.0.1:${port}${BASE_PATH}`,
    port,
    dataDir,
    calls,
    get mode() {
      return mode;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get marketYearsCalls() {
      return marketYearsCalls;
    },
    get rateLimited() {
      return rateLimited;
    },
    setRateLimit(limit) {
      rateLimit = limit;
      Object.assign(windows, { minute: -1, minuteCount: 0, second: -1, secondCount: 0 });
    },
    setMode(next, opts) {
      mode = next;
      only = opts?.only;
      transition = transition
        .then(async () => {
          if (closed) return;
          if (mode === "refuse") await stopListening();
          else if (!listening) await listen(port);
        })
        .catch((error) => {
          console.error("fake upstream: could not change mode", error);
        });
      return transition;
    },
    reset() {
      calls.length = 0;
      marketYearsCalls = 0;
      rateLimited = 0;
      maxInFlight = inFlight;
      void fake.setMode("normal");
    },
    async close() {
      if (closed) return;
      closed = true;
      await transition;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await stopListening();
    },
  };
  return fake;
}
