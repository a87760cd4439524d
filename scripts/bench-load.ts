/**
 * The load generator of `npm run bench`, run as its own process so that the
 * server and the load generator never share an event loop:
 *
 *   node --import tsx scripts/bench-load.ts '<json spec>'
 *
 * spec: { url, method?, headers?, body?, fresh?, connections, warmupSeconds, seconds }
 *
 * Runs autocannon for `warmupSeconds` (discarded: JIT, SQLite page cache and
 * connection set-up), then for `seconds` with the same connections, and prints
 * one JSON line with the measured run's figures.
 *
 * With `fresh` (docs/decisions/403) every request carries a new household: the JSON body's income
 * is `from + (start + n) % span` dollars for this process's n-th request (warm-up included, so
 * no body is sent twice), written in autocannon's setupRequest; each answer's Server-Timing is
 * read to count kept answers (`answer-cache`) and priced ones (`pricing`).
 */
import { createRequire } from "node:module";

/** The part of autocannon's result read here (the package ships no types). */
type AutocannonResult = {
  requests: { total: number; average: number };
  latency: { p50: number; p97_5: number; p99: number; average: number; max: number };
  throughput: { total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
};
/** One of autocannon's `requests`: the raw request is rebuilt by setupRequest before each send. */
type AutocannonRequest = {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: { body?: string }, context: object) => { body?: string };
  onResponse?: (status: number, body: string, context: object, headers: Record<string, string | string[]>) => void;
};
type AutocannonOptions = {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: AutocannonRequest[];
  connections: number;
  duration: number;
  pipelining: number;
};
const autocannon = createRequire(import.meta.url)("autocannon") as (
  options: AutocannonOptions,
) => Promise<AutocannonResult>;

export type LoadSpec = {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** A new household every request: the body's income changes (the body is the template). */
  fresh?: FreshIncome;
  connections: number;
  warmupSeconds: number;
  seconds: number;
};

/** Incomes `from + (start + n) % span` dollars, n counting this process's requests from 0. */
export type FreshIncome = { from: number; span: number; start: number };

export type LoadResult = {
  requests: number;
  /** Mean requests per second over the measured run. */
  rps: number;
  latencyMs: { p50: number; p97_5: number; p99: number; mean: number; max: number };
  /** Bytes read per response (headers and body, as sent on the wire). */
  bytesPerResponse: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** With `fresh`: bodies built (warm-up included: the next run starts after them), and the measured run's answers by kind. */
  fresh?: { bodies: number; firstIncome: number; lastIncome: number; kept: number; priced: number; other: number };
};

/** With `fresh`: the bodies built so far and the answers of the current run, by Server-Timing. */
const freshCount = { bodies: 0, firstIncome: NaN, lastIncome: NaN, kept: 0, priced: 0, other: 0 };

function headerOf(headers: Record<string, string | string[]>, name: string): string {
  for (const key in headers) if (key.toLowerCase() === name) return String(headers[key]);
  return "";
}

function freshRequests(spec: LoadSpec & { fresh: FreshIncome }): AutocannonRequest[] {
  const template = JSON.parse(spec.body ?? "{}") as Record<string, unknown>;
  const { from, span, start } = spec.fresh;
  return [
    {
      method: spec.method ?? "POST",
      headers: spec.headers,
      setupRequest(request) {
        const income = from + ((start + freshCount.bodies++) % span);
        if (Number.isNaN(freshCount.firstIncome)) freshCount.firstIncome = income;
        freshCount.lastIncome = income;
        request.body = JSON.stringify({ ...template, income });
        return request;
      },
      onResponse(_status, _body, _context, headers) {
        const timing = headerOf(headers, "server-timing");
        if (/(^|,)\s*answer-cache\b/.test(timing)) freshCount.kept++;
        else if (/(^|,)\s*pricing\b/.test(timing)) freshCount.priced++;
        else freshCount.other++;
      },
    },
  ];
}

function run(spec: LoadSpec, seconds: number): Promise<AutocannonResult> {
  freshCount.kept = freshCount.priced = freshCount.other = 0;
  return autocannon({
    url: spec.url,
    method: spec.method ?? "GET",
    headers: spec.headers,
    body: spec.fresh ? undefined : spec.body,
    ...(spec.fresh ? { requests: freshRequests({ ...spec, fresh: spec.fresh }) } : {}),
    connections: spec.connections,
    duration: seconds,
    // One pipelined request per connection: a browser does not pipeline.
    pipelining: 1,
  });
}

const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;
if (!spec.url) {
  console.error("usage: node --import tsx scripts/bench-load.ts '<json spec>'");
  process.exit(2);
}
if (spec.warmupSeconds > 0) await run(spec, spec.warmupSeconds);
const r = await run(spec, spec.seconds);
const result: LoadResult = {
  requests: r.requests.total,
  rps: r.requests.average,
  latencyMs: {
    p50: r.latency.p50,
    p97_5: r.latency.p97_5,
    p99: r.latency.p99,
    mean: r.latency.average,
    max: r.latency.max,
  },
  bytesPerResponse: r.requests.total > 0 ? Math.round(r.throughput.total / r.requests.total) : 0,
  non2xx: r.non2xx,
  errors: r.errors,
  timeouts: r.timeouts,
  ...(spec.fresh ? { fresh: { ...freshCount } } : {}),
};
console.log(JSON.stringify(result));
