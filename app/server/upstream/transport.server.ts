import { createRequire } from "node:module";
import type * as Undici from "undici";
import type { Agent, Dispatcher } from "undici";
import type { ZodType } from "zod";
import { env, sanitizeSecret } from "../platform/env.server";
import { forgetSingleton, processSingleton } from "../platform/lifecycle.server";
import { logger } from "../platform/logger.server";
import { budgetFor, BudgetSpentError, type BudgetPriority, forgetBudgets, retryAfterMs } from "./budget.server";
import {
  type OutageReason,
  type UpstreamOperation,
  UpstreamRejectedError,
  UpstreamUnavailableError,
} from "./errors.server";
import { ErrorBodySchema } from "./schemas.server";

/**
 * One upstream HTTP call, with everything every call shares:
 * - the key in the `apikey` query parameter, sanitised (spec README decision 5);
 * - the call budget of the key (budget.server.ts), by the operation's priority;
 * - at most UPSTREAM_MAX_CONCURRENCY calls in flight process-wide;
 * - one deadline (UPSTREAM_TIMEOUT_MS from when the call was asked for, so time
 *   waiting for budget or a slot counts);
 * - the answer checked against the real shape; 4xx bodies read for `message`;
 * - one structured log line per call (never the query text, ZIP, household or
 *   key), except a rejected key, which is logged at most once a minute.
 */

export const DEFAULT_UPSTREAM_BASE_URL = "https://marketplace.api.healthcare.gov/api/v1";
/** A rejected key is logged at most this often, however many calls fail on it. */
const KEY_REJECTED_LOG_INTERVAL_MS = 60_000;
/** Less time than this left before the deadline, a queued call is not started (see acquireSlot). */
const MIN_USEFUL_CALL_MS = 25;

const PRIORITY: Record<UpstreamOperation, BudgetPriority> = {
  "eligibility.estimates": "eligibility",
  "plans.search": "eligibility",
  "counties.by_zip": "eligibility",
  market_years: "eligibility",
  "drugs.covered": "coverage",
  "providers.covered": "coverage",
  "drugs.autocomplete": "autocomplete",
  "providers.autocomplete": "autocomplete",
  "providers.search": "autocomplete",
};

/**
 * The most bytes of one answer the service reads, by operation (docs/decisions/514). An answer is
 * parsed whole on the event loop and may be kept in a cache, and one 60 MB answer of the right shape
 * exhausted the 256 MB heap and killed the process. Real answers are far smaller: a plan search page
 * holds 10 plans (upstream-api.md §5), a coverage call at most 10 plan ids, an autocomplete at most
 * 10 names; the fake's largest page is 17 KB. Larger answers are cut off unread ("too_large").
 */
export const ANSWER_MAX_BYTES: Record<UpstreamOperation, number> = {
  "eligibility.estimates": 256 * 1024,
  "plans.search": 1024 * 1024,
  "counties.by_zip": 64 * 1024,
  market_years: 16 * 1024,
  "drugs.covered": 1024 * 1024,
  "providers.covered": 1024 * 1024,
  "drugs.autocomplete": 256 * 1024,
  "providers.autocomplete": 256 * 1024,
  // Providers with every address they practise at (a large group can list hundreds).
  "providers.search": 1024 * 1024,
};

/**
 * Bytes that the answers of several calls share: the pages of one plan search (decision 528). Each
 * chunk read is taken from it, and every call sharing it gives up ("too_large") once it is spent.
 */
export interface SharedByteBudget {
  remaining: number;
}

/** Thrown by readAnswer when an answer passes its operation's ANSWER_MAX_BYTES, or spends a shared budget. */
class AnswerTooLarge extends Error {}

/**
 * The answer's text, read as it arrives and given up (its connection closed) as soon as it passes
 * `maxBytes` or spends `shared`, or at once when its Content-Length says it will.
 */
async function readAnswer(
  response: Dispatcher.ResponseData,
  maxBytes: number,
  shared?: SharedByteBudget,
): Promise<string> {
  const giveUp = () => {
    // undici reports the destroyed body as aborted: expected here, so not an unhandled 'error'.
    response.body.on("error", () => undefined);
    response.body.destroy();
    return new AnswerTooLarge();
  };
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > Math.min(maxBytes, shared?.remaining ?? maxBytes)) throw giveUp();
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (shared) shared.remaining -= chunk.length;
    if (bytes > maxBytes || (shared && shared.remaining < 0)) throw giveUp();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, bytes).toString("utf8");
}

/**
 * The connections upstream calls go over, kept open between calls (docs/decisions/450). undici's
 * default drops a connection whose server announces `Keep-Alive: timeout=2` or less (its safety margin
 * is 2 s), so every call against such a server paid a new TCP connection on both ends. With a 1 s
 * margin a connection is reused while the server's announced idle time has at least a second left.
 */
const KEEP_ALIVE_MARGIN_MS = 1_000;
let upstreamAgent: Agent | undefined;
function agent(): Agent {
  upstreamAgent ??= new (undici().Agent)({ keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS });
  return upstreamAgent;
}

let undiciModule: typeof Undici | undefined;
/**
 * The undici package, loaded on the first upstream call, not at start (~30 ms of a start, issue 29,
 * docs/decisions/460); server.ts loads it right after its first answer (the same module: Node's
 * require cache), so no visitor's call waits for it.
 */
function undici(): typeof Undici {
  return (undiciModule ??= createRequire(import.meta.url)("undici") as typeof Undici);
}

interface Waiter {
  grant(): void;
}
export interface UpstreamCallRecord {
  operation: UpstreamOperation;
  status: number | null;
  durationMs: number;
  outcome: "ok" | "rejected" | OutageReason;
}
interface TransportState {
  active: number;
  queue: Waiter[];
  observers: Set<(record: UpstreamCallRecord) => void>;
  lastOutage: { at: string; operation: UpstreamOperation; reason: OutageReason } | null;
  lastSuccessAt: string | null;
  /** Epoch ms of the last 401/403, and of its last log line. */
  keyRejectedAt: number | null;
  keyRejectedLoggedAt: number | null;
  keyRejectedSinceLog: number;
  calls: number;
  failures: number;
}

const STATE = "upstream-transport";
export function transportState(): TransportState {
  return processSingleton<TransportState>(STATE, () => ({
    active: 0,
    queue: [],
    observers: new Set(),
    lastOutage: null,
    lastSuccessAt: null,
    keyRejectedAt: null,
    keyRejectedLoggedAt: null,
    keyRejectedSinceLog: 0,
    calls: 0,
    failures: 0,
  }));
}

/** Tests only: forget counters, observers and budgets. */
export function resetTransportForTests(): void {
  forgetSingleton(STATE);
  forgetBudgets();
}

/** Be told about every upstream call (metrics, tests). Returns the unsubscribe function. */
export function observeUpstreamCalls(observer: (record: UpstreamCallRecord) => void): () => void {
  const observers = transportState().observers;
  observers.add(observer);
  return () => observers.delete(observer);
}

export interface ClientConfig {
  baseUrl: string;
  key: string | undefined;
  timeoutMs: number;
  maxConcurrency: number;
  perMinute: number;
  perSecond: number;
}

export function clientConfig(): ClientConfig {
  const e = env();
  return {
    baseUrl: (e.MARKETPLACE_API_BASE_URL ?? DEFAULT_UPSTREAM_BASE_URL).replace(/(?<!\/)\/+$/, ""),
    // Sanitised again here: a key with a trailing literal "\n" must never reach the wire.
    key: sanitizeSecret(e.MARKETPLACE_API_KEY) || undefined,
    timeoutMs: e.UPSTREAM_TIMEOUT_MS,
    maxConcurrency: e.UPSTREAM_MAX_CONCURRENCY,
    perMinute: e.UPSTREAM_CALLS_PER_MINUTE,
    perSecond: e.UPSTREAM_CALLS_PER_SECOND,
  };
}

/** The budget of the configured key (null without a key). */
export function currentBudget() {
  const config = clientConfig();
  return config.key ? budgetFor(config.key, { perMinute: config.perMinute, perSecond: config.perSecond }) : null;
}

function acquireSlot(operation: UpstreamOperation, deadline: number, max: number): Promise<() => void> {
  const s = transportState();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    s.active--;
    s.queue.shift()?.grant();
  };
  if (s.active < max) {
    s.active++;
    return Promise.resolve(release);
  }
  return new Promise((resolve, reject) => {
    const waiter: Waiter = {
      grant() {
        clearTimeout(timer);
        if (deadline - Date.now() < MIN_USEFUL_CALL_MS) {
          // Freed too close to this caller's deadline for a call to finish: it gives up as busy
          // (as its own timer would have a moment later) and the slot goes to the next in line
          // (docs/decisions/137).
          s.queue.shift()?.grant();
          reject(new UpstreamUnavailableError(operation, "busy"));
          return;
        }
        s.active++;
        resolve(release);
      },
    };
    const timer = setTimeout(
      () => {
        const i = s.queue.indexOf(waiter);
        if (i >= 0) s.queue.splice(i, 1);
        reject(new UpstreamUnavailableError(operation, "busy"));
      },
      Math.max(0, deadline - Date.now()),
    );
    s.queue.push(waiter);
  });
}

export interface CallSpec {
  operation: UpstreamOperation;
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Epoch ms by which the answer must be complete (default: now + timeout). */
  deadline?: number;
  /** For the log line: how many ids or items the call carried. */
  batchSize?: number;
  /** Bytes this call's answer shares with others' (the pages of one search). */
  sharedBytes?: SharedByteBudget;
}

/** Query string with literal commas: the API takes comma-joined id lists. */
function queryString(params: Record<string, string | number | undefined>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== "")
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v)).replace(/%2C/gi, ",")}`)
    .join("&");
}

function logKeyRejected(s: TransportState, status: number | null): void {
  const now = Date.now();
  s.keyRejectedAt = now;
  s.keyRejectedSinceLog++;
  if (s.keyRejectedLoggedAt !== null && now - s.keyRejectedLoggedAt < KEY_REJECTED_LOG_INTERVAL_MS) return;
  logger().error(
    { event: "upstream_key_rejected", status, rejectedCalls: s.keyRejectedSinceLog },
    "the federal Marketplace API rejected our key (401/403): renew MARKETPLACE_API_KEY (keys expire every 60 days)",
  );
  s.keyRejectedLoggedAt = now;
  s.keyRejectedSinceLog = 0;
}

function record(spec: CallSpec, status: number | null, started: number, outcome: UpstreamCallRecord["outcome"]): void {
  const s = transportState();
  const durationMs = Math.round(performance.now() - started);
  s.calls++;
  if (outcome === "ok") {
    s.lastSuccessAt = new Date().toISOString();
    s.keyRejectedAt = null;
  } else if (outcome !== "rejected") {
    s.failures++;
    s.lastOutage = { at: new Date().toISOString(), operation: spec.operation, reason: outcome };
  }
  const line = {
    event: "upstream_call",
    operation: spec.operation,
    status,
    durationMs,
    outcome,
    ...(spec.batchSize ? { batchSize: spec.batchSize } : {}),
  };
  if (outcome === "unauthorized") logKeyRejected(s, status);
  else if (outcome === "ok") logger().info(line, "upstream call");
  else logger().warn(line, "upstream call failed");
  for (const observer of s.observers) {
    try {
      observer({ operation: spec.operation, status, durationMs, outcome });
    } catch {
      // An observer must never break a call.
    }
  }
}

export async function callUpstream<T>(spec: CallSpec, schema: ZodType<T>): Promise<T> {
  const config = clientConfig();
  const started = performance.now();
  const fail = (error: UpstreamUnavailableError | UpstreamRejectedError, status: number | null): never => {
    record(spec, status, started, error instanceof UpstreamRejectedError ? "rejected" : error.reason);
    throw error;
  };
  if (!config.key) fail(new UpstreamUnavailableError(spec.operation, "not_configured"), null);
  // Another call sharing its bytes has spent them (before this one's turn, or while it waited for
  // a connection): its answer would be given up too, so it is not asked for.
  const sharedSpent = () => spec.sharedBytes !== undefined && spec.sharedBytes.remaining <= 0;
  if (sharedSpent()) fail(new UpstreamUnavailableError(spec.operation, "too_large"), null);
  const deadline = spec.deadline ?? Date.now() + config.timeoutMs;
  const budget = budgetFor(config.key!, { perMinute: config.perMinute, perSecond: config.perSecond });
  try {
    await budget.take(PRIORITY[spec.operation], deadline);
  } catch (error) {
    if (error instanceof BudgetSpentError) return fail(new UpstreamUnavailableError(spec.operation, "busy"), null);
    throw error;
  }

  let release: () => void;
  try {
    release = await acquireSlot(spec.operation, deadline, config.maxConcurrency);
  } catch (error) {
    return fail(error as UpstreamUnavailableError, null);
  }
  if (sharedSpent()) {
    release();
    return fail(new UpstreamUnavailableError(spec.operation, "too_large"), null);
  }

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now()));
  let status: number | null = null;
  /** The connection of a call asked again, closed once its answer is read. */
  let once: Agent | undefined;
  try {
    const url = new URL(`${config.baseUrl}${spec.path}?${queryString({ ...spec.query, apikey: config.key })}`);
    const payload = spec.body !== undefined ? JSON.stringify(spec.body) : undefined;
    // Assigned whenever `status` is (an error page too large to read goes on with its headers).
    let response!: Dispatcher.ResponseData;
    let text: string;
    // undici's own request rather than fetch: no WHATWG Request, Response and streams made per call
    // (decision 450); the answer is read whole, as before.
    const send = (dispatcher: Agent) =>
      dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: spec.method,
        headers: {
          accept: "application/json",
          ...(payload !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: payload,
        signal: controller.signal,
      });
    try {
      try {
        response = await send(agent());
      } catch (error) {
        // A kept connection the server closed as the call went out (decision 450): sent once more
        // on a connection of its own (the other kept ones may be as stale), when no answer came and
        // the deadline leaves room. Every call is a read (estimates, searches, coverage), so asking
        // again changes nothing upstream.
        if (controller.signal.aborted || !closedUnderUs(error) || deadline - Date.now() < MIN_USEFUL_CALL_MS)
          throw error;
        once = new (undici().Agent)({ pipelining: 0 });
        response = await send(once);
      }
      status = response.statusCode;
      // The body is read under the same deadline: a stalled body is a timeout too.
      text = await readAnswer(response, ANSWER_MAX_BYTES[spec.operation], spec.sharedBytes);
    } catch (error) {
      // An error page too large to read still says what its status says (below); only an answer is "too_large".
      if (error instanceof AnswerTooLarge && status !== null && status >= 300) text = "";
      else {
        const reason =
          error instanceof AnswerTooLarge ? "too_large" : controller.signal.aborted ? "timeout" : "connection";
        return fail(new UpstreamUnavailableError(spec.operation, reason, status ?? undefined), status);
      }
    }
    if (status === 429) {
      // Upstream's own limit: every call of this key waits out its Retry-After.
      await budget.pauseFor(retryAfterMs(headersOf(response.headers)));
      return fail(new UpstreamUnavailableError(spec.operation, "rate_limited", status), status);
    }
    if (status >= 500) return fail(new UpstreamUnavailableError(spec.operation, "server_error", status), status);
    if (status === 401 || status === 403)
      return fail(new UpstreamUnavailableError(spec.operation, "unauthorized", status), status);
    if (status >= 400) {
      const parsed = ErrorBodySchema.safeParse(safeJson(text));
      const body = parsed.success ? parsed.data : {};
      return fail(
        new UpstreamRejectedError(
          spec.operation,
          status,
          body.code ?? null,
          body.message ?? body.error ?? body.msg ?? body.err ?? `HTTP ${status}`,
          typeof spec.query?.year === "number" ? spec.query.year : undefined,
        ),
        status,
      );
    }
    const parsed = schema.safeParse(safeJson(text));
    if (!parsed.success) return fail(new UpstreamUnavailableError(spec.operation, "malformed", status), status);
    record(spec, status, started, "ok");
    return parsed.data;
  } finally {
    if (once) void once.close().catch(() => undefined);
    clearTimeout(timer);
    release();
  }
}

/** A failure because the connection was closed by the other side (not refused, not timed out). */
function closedUnderUs(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  return [e?.code, e?.cause?.code].some(
    (code) => code === "UND_ERR_SOCKET" || code === "ECONNRESET" || code === "EPIPE",
  );
}

/** undici's answer headers (lower-case names, repeated ones as arrays) as web Headers. */
function headersOf(raw: Dispatcher.ResponseData["headers"]): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  return headers;
}

const NOT_JSON = Symbol("not json");
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
