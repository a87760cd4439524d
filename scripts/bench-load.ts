/**
 * The load generator of `npm run bench`, run as its own process so that the
 * server and the load generator never share an event loop:
 *
 *   node --import tsx scripts/bench-load.ts '<json spec>'
 *
 * spec: { url, method?, headers?, body?, connections, warmupSeconds, seconds }
 *
 * Runs autocannon for `warmupSeconds` (discarded: JIT, SQLite page cache and
 * connection set-up), then for `seconds` with the same connections, and prints
 * one JSON line with the measured run's figures.
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
type AutocannonOptions = {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
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
  connections: number;
  warmupSeconds: number;
  seconds: number;
};

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
};

function run(spec: LoadSpec, seconds: number): Promise<AutocannonResult> {
  return autocannon({
    url: spec.url,
    method: spec.method ?? "GET",
    headers: spec.headers,
    body: spec.body,
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
};
console.log(JSON.stringify(result));
