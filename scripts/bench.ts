/**
 * npm run bench -- [--no-build] [--no-write] [--regenerate] [--seconds N] [--warmup N] [--connections N] [--only KEYS] [--workers N]
 *
 * (--workers N: the whole measurement twice in one run, the server with WORKERS=1 and then with
 * WORKERS=N (node:cluster, decision 192), and a comparison table: throughput ratio, p99 and the
 * peak RSS of each worker. Each pass runs as a child bench with --server-workers K --json FILE.)
 *
 * (--only drives some endpoints, for trying a change; a partial run is never written to the doc.
 * --profile runs the server with --cpu-prof into data/bench/profiles/; --server FILE runs another entry
 * point (a .ts file runs through tsx) in place of the compiled server, to compare a change side by
 * side; neither kind of run is written either.)
 *
 * Speed at national scale (issue 9). In one run:
 *  1. builds the app into data/bench/build (not ./build, which others use);
 *  2. generates seed/national/ if it is missing and loads it into
 *     data/bench/plan-store-national.sqlite, unless a store loaded from the
 *     same generator output by the same loader is already there;
 *  3. starts the fake upstream in a process of its own (scripts/bench-upstream.ts)
 *     and the production server (node build/server.js, the compiled server.ts) over the
 *     national store, and times the first 200 from /api/health after spawn;
 *  4. drives each endpoint from a separate load-generator process
 *     (scripts/bench-load.ts, autocannon; 16 connections, warm-up, then a
 *     measured run), sampling the server's RSS from /proc throughout;
 *  5. prints requests per second, p50 / p97.5 / p99 latency, response size,
 *     Server-Timing and RSS, checks the targets, and appends the run with
 *     date, machine and commit to docs/benchmarks.md (not with --no-write).
 *
 * The server runs with RATE_LIMIT_MAX raised to 1e9: the per-IP rule (2,000
 * requests / 5 min) would otherwise answer 429 within a second. Everything
 * else is the production configuration, request log included. Requests carry
 * the Accept-Encoding a browser sends. The machine is shared: compare the
 * figures within one run, not across runs.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, relative } from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { emptyState, planHref, type ShoppingState } from "../app/lib/shopping-url";
import {
  ensureNationalSource,
  ensureStore,
  pickScenario,
  ROOT,
  saveMarker,
  writeUpstreamDir,
  type Scenario,
} from "./bench-data";
import type { LoadResult, LoadSpec } from "./bench-load";

// ---------------------------------------------------------------- settings

type Args = {
  build: boolean;
  write: boolean;
  regenerate: boolean;
  seconds: number;
  warmup: number;
  connections: number;
  only: string[] | null;
  profile: boolean;
  server: string;
  /** Compare 1 and this many workers (0: a plain run). */
  workers: number;
  /** WORKERS for the server in this run. */
  serverWorkers: number;
  /** Write the measured figures as JSON here (a pass of a --workers run). */
  json: string;
};

function parseArgs(argv: string[]): Args {
  const args: Args = {
    build: true,
    write: true,
    regenerate: false,
    seconds: 10,
    warmup: 3,
    connections: 16,
    only: null,
    profile: false,
    server: "",
    workers: 0,
    serverWorkers: 1,
    json: "",
  };
  const usage =
    "usage: npm run bench -- [--no-build] [--no-write] [--regenerate] [--seconds N] [--warmup N] [--connections N] [--only health,counties,plans,planPage,drugs] [--profile] [--server FILE] [--workers N]";
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const n = Number(argv[++i]);
      if (!Number.isFinite(n) || n < 0) throw new Error(`${a} needs a number\n${usage}`);
      return n;
    };
    if (a === "--no-build") args.build = false;
    else if (a === "--no-write") args.write = false;
    else if (a === "--regenerate") args.regenerate = true;
    else if (a === "--seconds") args.seconds = num();
    else if (a === "--warmup") args.warmup = num();
    else if (a === "--connections") args.connections = num();
    else if (a === "--profile") args.profile = true;
    else if (a === "--server") args.server = argv[++i] ?? "";
    else if (a === "--only") args.only = (argv[++i] ?? "").split(",").filter(Boolean);
    else if (a === "--workers") args.workers = Math.max(2, Math.round(num()));
    else if (a === "--server-workers") args.serverWorkers = Math.max(1, Math.round(num()));
    else if (a === "--json") args.json = argv[++i] ?? "";
    else throw new Error(`unknown argument ${a}\n${usage}`);
  }
  return args;
}

const BENCH_DIR = join(ROOT, "data", "bench");
const BUILD_DIR = join(BENCH_DIR, "build");
const SOURCE_DIR = join(ROOT, "seed", "national");
const STORE_FILE = join(BENCH_DIR, "plan-store-national.sqlite");
const UPSTREAM_DIR = join(BENCH_DIR, "upstream");
const UPSTREAM_KEY = "bench-upstream-key-0123456789";
const DOC = join(ROOT, "docs", "benchmarks.md");
const RUNS_END = "<!-- bench:runs-end (npm run bench appends its runs above this line) -->";
const ACCEPT_ENCODING = "gzip, deflate, br";

/** Issue 9 part 2. */
const TARGETS = {
  countiesShareOfHealth: 0.85,
  plansShareOfHealth: 0.25,
  plansP99Ms: 40,
  planPageP99Ms: 60,
  rssMb: 512,
  firstAnswerMs: 1000,
};

// ---------------------------------------------------------------- processes

const children = new Set<ChildProcess>();
function stopChildren(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
}
process.on("exit", stopChildren);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopChildren();
    process.exit(130);
  });
}

/** Spawns node with tsx and resolves once a line of its stdout matches. */
function startUntil(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  timeoutMs: number,
  nodeOptions: string[] = [],
) {
  // TypeScript runs through tsx; the compiled server (a .js file) runs as it is.
  const loader = script.endsWith(".ts") ? ["--import", "tsx"] : [];
  const child = spawn(process.execPath, [...nodeOptions, ...loader, script, ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.on("exit", () => children.delete(child));
  let output = "";
  let started = false;
  const matched = new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start within ${timeoutMs} ms:\n${output.slice(-4000)}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      // Once started, the output (the request log, megabytes of it) is read and dropped: this
      // process shares the machine's two cores with the server and the load generator.
      if (started) return;
      if (output.length < 64_000) output += chunk.toString();
      const m = ready.exec(output);
      if (m) {
        started = true;
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with status ${code} before it was ready:\n${output.slice(-4000)}`));
    });
  });
  return { child, matched, output: () => output };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** The server processes: with WORKERS > 1 the cluster primary's children (the workers), else the process. */
function serverPids(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return children.length ? children.map(Number) : [pid];
  } catch {
    return [pid];
  }
}

/**
 * Peak VmRSS of the server, sampled every 100 ms; `mark()` starts a new phase peak. With several
 * workers, the largest worker's RSS (each worker must stay under the single-process target).
 */
function rssSampler(pid: number) {
  let peakKb = 0;
  let phaseKb = 0;
  let lastKb = 0;
  let pids = serverPids(pid);
  let reads = 0;
  const read = () => {
    if (reads++ % 10 === 0) pids = serverPids(pid);
    let largest = 0;
    for (const p of pids) {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
        if (m) largest = Math.max(largest, Number(m[1]));
      } catch {
        // the process has gone; keep the last readings
      }
    }
    if (largest) {
      lastKb = largest;
      peakKb = Math.max(peakKb, lastKb);
      phaseKb = Math.max(phaseKb, lastKb);
    }
  };
  const timer = setInterval(read, 100);
  read();
  return {
    mark(): number {
      read();
      const p = phaseKb;
      phaseKb = lastKb;
      return Math.round(p / 1024);
    },
    peakMb: () => (read(), Math.round(peakKb / 1024)),
    hwmMb(): number | null {
      let largest: number | null = null;
      for (const p of serverPids(pid)) {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
          if (m) largest = Math.max(largest ?? 0, Math.round(Number(m[1]) / 1024));
        } catch {
          // gone
        }
      }
      return largest;
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * The node options of `npm start` (package.json), so the benchmark runs the
 * server exactly as production does: `node [options] build/server.js`, the
 * compiled server.ts (here from the benchmark's own build directory; npm start
 * reaches it through scripts/start.mjs, which only picks the upstream).
 */
function startOptions(): string[] {
  const script = String(
    (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts?: Record<string, string> }).scripts
      ?.start ?? "",
  );
  const words = script.trim().split(/\s+/);
  if (words[0] !== "node" || words.at(-1) !== "scripts/start.mjs")
    throw new Error(`bench: npm start is not "node … scripts/start.mjs": ${script}`);
  return words.slice(1, -1);
}

// ---------------------------------------------------------------- HTTP probes

type Probe = { status: number; headers: http.IncomingHttpHeaders; wireBytes: number; body: string; ms: number };

/** One request with the bench's headers: status, headers, body size on the wire and decoded body. */
function probe(base: string, method: string, path: string, body?: string): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      `${base}${path}`,
      {
        method,
        headers: {
          "accept-encoding": ACCEPT_ENCODING,
          ...(body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {}),
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const enc = res.headers["content-encoding"];
          const decoded =
            enc === "br"
              ? brotliDecompressSync(raw)
              : enc === "gzip"
                ? gunzipSync(raw)
                : enc === "deflate"
                  ? inflateSync(raw)
                  : raw;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            wireBytes: raw.length,
            body: decoded.toString("utf8"),
            ms: performance.now() - started,
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Milliseconds from `since` until /api/health first answers 200. */
async function firstAnswer(base: () => string | null, since: number, timeoutMs: number): Promise<number> {
  for (;;) {
    const now = performance.now();
    if (now - since > timeoutMs) throw new Error(`no 200 from /api/health within ${timeoutMs} ms`);
    const b = base();
    if (b) {
      try {
        const r = await probe(b, "GET", "/api/health");
        if (r.status === 200) return performance.now() - since;
      } catch {
        // not listening yet
      }
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

function serverTimingOf(header: string | string[] | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of String(header ?? "").split(",")) {
    const m = /^\s*([\w-]+)\s*(?:;.*?dur=([\d.]+))?/.exec(part);
    if (m && m[2] !== undefined) out[m[1]] = Number(m[2]);
  }
  return out;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Median Server-Timing entries and wall time over `n` sequential requests. */
async function serverTimings(base: string, method: string, path: string, body: string | undefined, n: number) {
  const samples: Array<Record<string, number>> = [];
  const wall: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await probe(base, method, path, body);
    samples.push(serverTimingOf(r.headers["server-timing"]));
    wall.push(r.ms);
  }
  const names = [...new Set(samples.flatMap((s) => Object.keys(s)))];
  return {
    entries: Object.fromEntries(names.map((name) => [name, median(samples.map((s) => s[name] ?? 0))])),
    wallMs: median(wall),
  };
}

// ---------------------------------------------------------------- load runs

function load(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench-load.ts", JSON.stringify(spec)], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.add(child);
    let out = "";
    child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      children.delete(child);
      if (code !== 0) return reject(new Error(`load generator exited with status ${code}`));
      try {
        resolve(JSON.parse(out.trim().split("\n").pop() ?? "") as LoadResult);
      } catch (error) {
        reject(new Error(`load generator printed no result: ${out}`, { cause: error }));
      }
    });
  });
}

type Endpoint = { key: string; label: string; method: "GET" | "POST"; path: string; body?: string };
type Measured = Endpoint & { result: LoadResult; rssMb: number; wireBytes: number; jsonBytes: number };

// ---------------------------------------------------------------- machine and commit

function git(args: string[]): string | null {
  try {
    return execFileSync("git", args, { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

function machine() {
  const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
  const head = git(["rev-parse", "HEAD"]);
  const dirty = head !== null && (git(["status", "--porcelain"]) ?? "") !== "";
  return {
    cpus: cpus().length,
    cpu,
    memoryGb: totalmem() / 1024 ** 3,
    node: process.version,
    kernel: (() => {
      try {
        return readFileSync("/proc/sys/kernel/osrelease", "utf8").trim();
      } catch {
        return process.platform;
      }
    })(),
    commit: head ? `${head.slice(0, 12)}${dirty ? " (dirty: uncommitted changes)" : ""}` : "not a git checkout",
    loadAverage: loadavg()[0],
  };
}

// ---------------------------------------------------------------- report

const f0 = (n: number) => Math.round(n).toLocaleString("en-US");
const f1 = (n: number) => n.toFixed(1);
const kb = (n: number) => (n >= 10_240 ? `${f0(n / 1024)} KB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`);

function householdBody(s: Scenario): string {
  return JSON.stringify({
    income: 90000,
    household: {
      people: [
        { age: 40, relationship: "self" },
        { age: 38, relationship: "spouse" },
        { age: 10, relationship: "child" },
        { age: 7, relationship: "child" },
      ],
    },
    place: { state: s.state, county_fips: s.countyFips, zip: s.zip },
    year: s.year,
  });
}

function shoppingState(s: Scenario): ShoppingState {
  return {
    ...emptyState(),
    zip: s.zip,
    county: s.countyFips,
    state: s.state,
    year: String(s.year),
    income: "90000",
    size: "4",
    people: [
      { age: "40", tobacco: false, pregnant: false, relationship: "self" },
      { age: "38", tobacco: false, pregnant: false, relationship: "spouse" },
      { age: "10", tobacco: false, pregnant: false, relationship: "child" },
      { age: "7", tobacco: false, pregnant: false, relationship: "child" },
    ],
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.workers) return compareWorkers(args);
  const started = Date.now();
  const host = machine();
  console.log(
    `bench: ${host.cpus} CPU (${host.cpu}), ${host.memoryGb.toFixed(1)} GB, node ${host.node}, commit ${host.commit}, load average ${host.loadAverage.toFixed(2)}`,
  );

  mkdirSync(BENCH_DIR, { recursive: true });

  // 1. Build.
  let buildSeconds: number | null = null;
  if (args.build || !existsSync(join(BUILD_DIR, "server", "index.js")) || !existsSync(join(BUILD_DIR, "server.js"))) {
    console.log(`bench: building into ${relative(ROOT, BUILD_DIR)} ...`);
    const t = performance.now();
    // The steps of `npm run build`, into the benchmark's own directory.
    execFileSync(join(ROOT, "node_modules", ".bin", "remix"), ["vite:build"], {
      cwd: ROOT,
      env: { ...process.env, BUILD_DIR },
      stdio: ["ignore", "ignore", "inherit"],
    });
    execFileSync(process.execPath, ["scripts/build-server.mjs"], {
      cwd: ROOT,
      env: { ...process.env, BUILD_DIR },
      stdio: ["ignore", "ignore", "inherit"],
    });
    execFileSync(process.execPath, ["scripts/record-build-info.mjs"], {
      cwd: ROOT,
      env: { ...process.env, BUILD_DIR },
      stdio: "ignore",
    });
    buildSeconds = (performance.now() - t) / 1000;
  }

  // 2. Data.
  const generationSeconds = await ensureNationalSource(SOURCE_DIR, args.regenerate);
  const store = await ensureStore(SOURCE_DIR, STORE_FILE);
  let marker = store.marker;
  if (!marker.scenario || !marker.upstreamDir || !existsSync(join(marker.upstreamDir, "plan-attributes-puf.csv"))) {
    console.log("bench: choosing the county with the most plans and writing the fake upstream's data ...");
    const scenario = pickScenario(STORE_FILE);
    await writeUpstreamDir(SOURCE_DIR, UPSTREAM_DIR, scenario);
    marker = { ...marker, scenario, upstreamDir: UPSTREAM_DIR };
    saveMarker(STORE_FILE, marker);
  }
  const scenario = marker.scenario!;
  const storeBytes = statSync(STORE_FILE).size;
  console.log(
    `bench: plan year ${scenario.year}, ${scenario.countyName} ${scenario.state} (${scenario.countyFips}), ZIP ${scenario.zip}, ${scenario.plansInCounty} plans offered; drugs ${scenario.rxcuis.join(", ")}`,
  );

  // 3. Upstream and server.
  const upstream = startUntil(
    "scripts/bench-upstream.ts",
    ["--data", marker.upstreamDir!, "--key", UPSTREAM_KEY],
    process.env,
    /upstream listening on (\S+)/,
    60_000,
  );
  const upstreamUrl = (await upstream.matched)[1];
  const scratch = mkdtempSync(join(tmpdir(), "marketplace-bench-"));
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    DEPLOY_ENV: "bench",
    BUILD_DIR,
    PLAN_STORE_PATH: STORE_FILE,
    DATABASE_URL: `file:${join(scratch, "app.db")}`,
    UPLOAD_LOCAL_DIR: join(scratch, "uploads"),
    UNSUBSCRIBE_TOKEN_SECRET: "bench-unsubscribe-secret-0123456789",
    RESEND_API_KEY: "re_bench_key",
    RESEND_BASE_URL: "http://127.0.0.1:9/unreachable",
    MARKETPLACE_API_KEY: UPSTREAM_KEY,
    MARKETPLACE_API_BASE_URL: upstreamUrl,
    // The per-IP rate rule would throttle one load generator within a second.
    RATE_LIMIT_MAX: "1000000000",
    WORKERS: String(args.serverWorkers),
  };
  delete serverEnv.REDIS_URL;
  delete serverEnv.POSTHOG_API_KEY;
  const spawnedAt = performance.now();
  const profileDir = join(BENCH_DIR, "profiles");
  const server = startUntil(
    args.server || join(BUILD_DIR, "server.js"),
    [],
    serverEnv,
    /listening on (http:\/\/[^\s"]+)/,
    60_000,
    [...startOptions(), ...(args.profile ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [])],
  );
  let base: string | null = null;
  void server.matched.then((m) => (base = m[1])).catch(() => undefined);
  const rss = rssSampler(server.child.pid!);
  const firstAnswerMs = await Promise.race([
    firstAnswer(() => base, spawnedAt, 30_000),
    server.matched.then(() => new Promise<never>(() => undefined)), // a failed start rejects below
  ]);
  await server.matched;
  const url = base!;
  const startRssMb = rss.mark();
  console.log(
    `bench: server ${url}: first 200 from /api/health ${f0(firstAnswerMs)} ms after spawn, RSS ${startRssMb} MB`,
  );

  // 4. Requests: check each answers as it should before driving it.
  const plansBody = householdBody(scenario);
  // The driven request takes the default page (docs/decisions/119); the probe asks for every
  // plan, so /api/drugs/covered is driven with all the county's plan ids as before.
  const firstPlans = await probe(url, "POST", "/api/plans", JSON.stringify({ ...JSON.parse(plansBody), limit: 500 }));
  if (firstPlans.status !== 200)
    throw new Error(`POST /api/plans answered ${firstPlans.status}: ${firstPlans.body.slice(0, 500)}`);
  const plansAnswer = JSON.parse(firstPlans.body) as {
    plan_count: number;
    plans: Array<{ id: string }>;
    eligibility: unknown;
    eligibility_unavailable: string | null;
  };
  const planIds = plansAnswer.plans.map((p) => p.id);
  if (planIds.length === 0) throw new Error("POST /api/plans priced no plans for the benchmark household");
  const drugsBody = JSON.stringify({ rxcuis: scenario.rxcuis, plan_ids: planIds, year: scenario.year });
  const planPath = planHref(planIds[0], shoppingState(scenario));

  const endpoints: Endpoint[] = [
    { key: "health", label: "GET /api/health", method: "GET", path: "/api/health" },
    { key: "counties", label: "GET /api/counties", method: "GET", path: `/api/counties?zip=${scenario.zip}` },
    { key: "plans", label: "POST /api/plans", method: "POST", path: "/api/plans", body: plansBody },
    { key: "planPage", label: "GET /plans/<planId>", method: "GET", path: planPath },
    { key: "drugs", label: "POST /api/drugs/covered", method: "POST", path: "/api/drugs/covered", body: drugsBody },
    { key: "health2", label: "GET /api/health (again, drift check)", method: "GET", path: "/api/health" },
  ];
  const skipped: string[] = [];
  const ready: Array<Endpoint & { wireBytes: number; jsonBytes: number }> = [];
  for (const e of endpoints) {
    if (args.only && !args.only.includes(e.key) && !(e.key === "health2" && args.only.includes("health"))) continue;
    const r = await probe(url, e.method, e.path, e.body);
    if (r.status !== 200) {
      if (e.key === "planPage" && r.status === 404) {
        skipped.push(`${e.label}: answered 404 (the plan page is not built yet)`);
        continue;
      }
      throw new Error(`${e.label} answered ${r.status}: ${r.body.slice(0, 500)}`);
    }
    if (e.key === "drugs") {
      const answer = JSON.parse(r.body) as { coverage: unknown[]; upstream: string };
      if (answer.upstream !== "ok") throw new Error(`POST /api/drugs/covered: upstream ${answer.upstream}`);
      console.log(
        `bench: drugs/covered answers ${answer.coverage.length} rows for ${scenario.rxcuis.length} drugs × ${planIds.length} plans`,
      );
    }
    ready.push({ ...e, wireBytes: r.wireBytes, jsonBytes: Buffer.byteLength(r.body) });
  }
  console.log(
    `bench: POST /api/plans prices ${planIds.length} plans, answers ${Math.min(planIds.length, 50)} a page (eligibility ${plansAnswer.eligibility ? "estimated" : `unavailable: ${plansAnswer.eligibility_unavailable}`})`,
  );

  const measured: Measured[] = [];
  for (const e of ready) {
    rss.mark();
    const result = await load({
      url: `${url}${e.path}`,
      method: e.method,
      headers: { "accept-encoding": ACCEPT_ENCODING, ...(e.body ? { "content-type": "application/json" } : {}) },
      body: e.body,
      connections: args.connections,
      warmupSeconds: args.warmup,
      seconds: args.seconds,
    });
    const m: Measured = { ...e, result, rssMb: rss.mark() };
    measured.push(m);
    console.log(
      `bench: ${e.label.padEnd(38)} ${f0(result.rps).padStart(6)} req/s  p50 ${f1(result.latencyMs.p50)}  p97.5 ${f1(result.latencyMs.p97_5)}  p99 ${f1(result.latencyMs.p99)} ms  ${kb(e.wireBytes)}  RSS ${m.rssMb} MB${result.non2xx || result.errors ? `  non-2xx ${result.non2xx} errors ${result.errors}` : ""}`,
    );
  }

  // Server-Timing, sequential (no queueing): where a request's time goes.
  const timings: Array<{ label: string; entries: Record<string, number>; wallMs: number }> = [];
  for (const e of ready.filter((x) => x.key === "plans" || x.key === "planPage")) {
    timings.push({ label: e.label, ...(await serverTimings(url, e.method, e.path, e.body, 30)) });
  }
  const peakRssMb = rss.peakMb();
  const hwmMb = rss.hwmMb();
  rss.stop();
  await stop(server.child);
  await stop(upstream.child);
  rmSync(scratch, { recursive: true, force: true });

  // 5. Targets.
  const by = (key: string) => measured.find((m) => m.key === key);
  const healthRuns = [by("health"), by("health2")].filter((m): m is Measured => Boolean(m));
  const floor = healthRuns.reduce((s, m) => s + m.result.rps, 0) / healthRuns.length;
  const verdicts: Array<{ target: string; required: string; measured: string; met: boolean | null }> = [];
  const share = (m: Measured | undefined) => (m ? m.result.rps / floor : NaN);
  const counties = by("counties");
  const plans = by("plans");
  const planPage = by("planPage");
  verdicts.push({
    target: "GET /api/counties throughput vs /api/health",
    required: `≥ ${TARGETS.countiesShareOfHealth * 100}%`,
    measured: `${f1(share(counties) * 100)}% (${f0(counties?.result.rps ?? 0)} / ${f0(floor)} req/s)`,
    met: share(counties) >= TARGETS.countiesShareOfHealth,
  });
  verdicts.push({
    target: "POST /api/plans throughput vs /api/health",
    required: `≥ ${TARGETS.plansShareOfHealth * 100}%`,
    measured: `${f1(share(plans) * 100)}% (${f0(plans?.result.rps ?? 0)} / ${f0(floor)} req/s)`,
    met: share(plans) >= TARGETS.plansShareOfHealth,
  });
  verdicts.push({
    target: `POST /api/plans p99 at ${args.connections} connections`,
    required: `< ${TARGETS.plansP99Ms} ms`,
    measured: `${f1(plans?.result.latencyMs.p99 ?? NaN)} ms`,
    met: (plans?.result.latencyMs.p99 ?? Infinity) < TARGETS.plansP99Ms,
  });
  verdicts.push({
    target: "GET /plans/<planId> p99",
    required: `< ${TARGETS.planPageP99Ms} ms`,
    measured: planPage ? `${f1(planPage.result.latencyMs.p99)} ms` : "not measured (no plan page yet)",
    met: planPage ? planPage.result.latencyMs.p99 < TARGETS.planPageP99Ms : null,
  });
  verdicts.push({
    target: "Server RSS with the national store loaded (peak over the run)",
    required: `< ${TARGETS.rssMb} MB`,
    measured: `${peakRssMb} MB${hwmMb !== null ? ` (VmHWM ${hwmMb} MB)` : ""}`,
    met: Math.max(peakRssMb, hwmMb ?? 0) < TARGETS.rssMb,
  });
  verdicts.push({
    target: "First answer after start (spawn → first 200 from /api/health)",
    required: `≤ ${TARGETS.firstAnswerMs} ms`,
    measured: `${f0(firstAnswerMs)} ms`,
    met: firstAnswerMs <= TARGETS.firstAnswerMs,
  });
  const allMet = verdicts.every((v) => v.met === true);

  // 6. Report.
  const now = new Date();
  const lines: string[] = [];
  lines.push(`#### ${now.toISOString().slice(0, 16).replace("T", " ")} UTC — commit ${host.commit}`, "");
  lines.push(
    `Machine: ${host.cpus} CPU (${host.cpu}), ${host.memoryGb.toFixed(1)} GB RAM, Linux ${host.kernel}, node ${host.node}; load average ${host.loadAverage.toFixed(2)} at start (shared machine).`,
  );
  lines.push(
    `Data: plan store ${(storeBytes / 1024 ** 3).toFixed(2)} GB (${store.reused ? "reused: same generator output and loader" : `loaded in ${f0(store.loadSeconds)} s`}${generationSeconds !== null ? `, generated in ${f0(generationSeconds)} s` : ""}); ${scenario.countyName}, ${scenario.state} (${scenario.countyFips}), ZIP ${scenario.zip}, plan year ${scenario.year}: ${planIds.length} plans priced for adults 40 and 38, children 10 and 7, income $90,000 (eligibility ${plansAnswer.eligibility ? "estimated" : "unavailable"}); drugs ${scenario.rxcuis.join(", ")} × ${planIds.length} plans.`,
  );
  lines.push(
    `Server: \`node ${startOptions().join(" ")} build/server.js\` (the compiled server.ts) as npm start runs it. Load: ${args.connections} connections, ${args.warmup} s warm-up then ${args.seconds} s measured per endpoint, one autocannon process; requests send \`Accept-Encoding: ${ACCEPT_ENCODING}\`; server with RATE_LIMIT_MAX=1000000000 (the per-IP rule would throttle the load generator), request log on; fake upstream in its own process.${buildSeconds !== null ? ` Build ${f0(buildSeconds)} s.` : ""}`,
    "",
  );
  lines.push(
    "| Endpoint | req/s | p50 ms | p97.5 ms | p99 ms | Response (wire / decoded) | Server RSS peak | non-2xx / errors |",
  );
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const m of measured) {
    const r = m.result;
    lines.push(
      `| ${m.label} | ${f0(r.rps)} | ${f1(r.latencyMs.p50)} | ${f1(r.latencyMs.p97_5)} | ${f1(r.latencyMs.p99)} | ${kb(m.wireBytes)} / ${kb(m.jsonBytes)} | ${m.rssMb} MB | ${r.non2xx} / ${r.errors + r.timeouts} |`,
    );
  }
  for (const s of skipped) lines.push(`| ${s} | | | | | | | |`);
  lines.push("");
  for (const t of timings) {
    const parts = Object.entries(t.entries).map(([name, ms]) => `${name} ${ms.toFixed(2)} ms`);
    lines.push(
      `Server-Timing, median of 30 sequential requests, ${t.label}: ${parts.join(", ") || "no header"}; wall ${t.wallMs.toFixed(1)} ms.`,
    );
  }
  lines.push(
    `Start: first 200 from /api/health ${f0(firstAnswerMs)} ms after spawn; RSS ${startRssMb} MB after start, ${peakRssMb} MB peak.`,
    "",
  );
  lines.push("| Target | Required | Measured | Met |", "|---|---|---|---|");
  for (const v of verdicts)
    lines.push(
      `| ${v.target} | ${v.required} | ${v.measured} | ${v.met === null ? "not measured" : v.met ? "yes" : "**no**"} |`,
    );
  lines.push(
    "",
    `${allMet ? "Every target met." : "Not every target met."} Whole run ${f0((Date.now() - started) / 1000)} s.`,
    "",
  );
  const entry = lines.join("\n");
  console.log(`\n${entry}`);

  if (args.profile) console.log(`bench: CPU profile of the server in ${relative(ROOT, profileDir)}/`);
  if (args.json) {
    const figures: WorkerPass = {
      workers: args.serverWorkers,
      loadAverage: host.loadAverage,
      commit: host.commit,
      peakWorkerRssMb: Math.max(peakRssMb, hwmMb ?? 0),
      firstAnswerMs,
      endpoints: measured.map((m) => ({ key: m.key, label: m.label, rps: m.result.rps, ...m.result.latencyMs })),
    };
    writeFileSync(args.json, JSON.stringify(figures));
    return;
  }
  if (args.write && !args.only && !args.profile && args.server === "") {
    const doc = existsSync(DOC) ? readFileSync(DOC, "utf8") : "# Benchmarks\n";
    const next = doc.includes(RUNS_END)
      ? doc.replace(RUNS_END, `${entry}\n${RUNS_END}`)
      : `${doc.trimEnd()}\n\n## Server throughput at national scale (\`npm run bench\`)\n\n### Runs\n\n${entry}\n${RUNS_END}\n`;
    writeFileSync(DOC, next);
    console.log(`bench: appended to ${relative(ROOT, DOC)}`);
  }
  process.exitCode = allMet ? 0 : 1;
}

// ---------------------------------------------------------------- 1 vs N workers

type WorkerPass = {
  workers: number;
  loadAverage: number;
  commit: string;
  peakWorkerRssMb: number;
  firstAnswerMs: number;
  endpoints: Array<{ key: string; label: string; rps: number; p50: number; p97_5: number; p99: number }>;
};

/** Build and data once, then one child bench per worker count, then the comparison. */
async function compareWorkers(args: Args): Promise<void> {
  const passes: WorkerPass[] = [];
  const scratch = mkdtempSync(join(tmpdir(), "marketplace-bench-workers-"));
  const passArgs = ["--seconds", String(args.seconds), "--warmup", String(args.warmup)];
  passArgs.push("--connections", String(args.connections));
  if (args.only) passArgs.push("--only", args.only.join(","));
  for (const [i, workers] of [1, args.workers].entries()) {
    const out = join(scratch, `pass-${workers}.json`);
    const build = i === 0 && args.build ? [] : ["--no-build"];
    console.log(`bench: pass ${i + 1} of 2, WORKERS=${workers}`);
    execFileSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "scripts/bench.ts",
        ...build,
        ...passArgs,
        "--server-workers",
        String(workers),
        "--json",
        out,
      ],
      { cwd: ROOT, stdio: "inherit" },
    );
    passes.push(JSON.parse(readFileSync(out, "utf8")) as WorkerPass);
  }
  rmSync(scratch, { recursive: true, force: true });
  const [one, many] = passes as [WorkerPass, WorkerPass];
  const host = machine();
  const lines: string[] = [];
  lines.push(
    `#### ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC — 1 vs ${many.workers} workers, commit ${one.commit}`,
    "",
    `Machine: ${host.cpus} CPU (${host.cpu}), node ${host.node}; load average ${one.loadAverage.toFixed(2)} / ${many.loadAverage.toFixed(2)} at the start of each pass; load generator on the same machine. ${args.connections} connections, ${args.warmup} s warm-up, ${args.seconds} s measured per endpoint.`,
    "",
    `| Endpoint | req/s, 1 worker | req/s, ${many.workers} workers | ratio | p99 ms, 1 | p99 ms, ${many.workers} |`,
    "|---|---:|---:|---:|---:|---:|",
  );
  for (const e of one.endpoints) {
    const m = many.endpoints.find((x) => x.key === e.key);
    if (!m) continue;
    lines.push(
      `| ${e.label} | ${f0(e.rps)} | ${f0(m.rps)} | ${(m.rps / e.rps).toFixed(2)} | ${f1(e.p99)} | ${f1(m.p99)} |`,
    );
  }
  lines.push(
    "",
    `Peak RSS of the largest worker: ${one.peakWorkerRssMb} MB with 1, ${many.peakWorkerRssMb} MB with ${many.workers} (target < ${TARGETS.rssMb} MB each). First 200 after spawn: ${f0(one.firstAnswerMs)} / ${f0(many.firstAnswerMs)} ms.`,
    "",
  );
  const entry = lines.join("\n");
  console.log(`\n${entry}`);
  // A comparison is only worth keeping from a machine that is not busy with other work.
  const busiest = Math.max(one.loadAverage, many.loadAverage);
  if (args.write && !args.only && busiest > host.cpus) {
    console.log(
      `bench: not recorded: load average ${busiest.toFixed(2)} on ${host.cpus} CPUs (other work on the machine skews the comparison)`,
    );
  } else if (args.write && !args.only) {
    const doc = existsSync(DOC) ? readFileSync(DOC, "utf8") : "# Benchmarks\n";
    const next = doc.includes(RUNS_END)
      ? doc.replace(RUNS_END, `${entry}\n${RUNS_END}`)
      : `${doc.trimEnd()}\n\n${entry}\n`;
    writeFileSync(DOC, next);
    console.log(`bench: appended to ${relative(ROOT, DOC)}`);
  }
}

main()
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  })
  .finally(() => {
    stopChildren();
  });
