/**
 * What the benchmark scripts share (scripts/bench.ts, scripts/bench-compare.ts): their
 * directories and settings, child processes (the server, the fake upstream, the floor server, the
 * load generator), HTTP probes, the load run, the machine and commit, and number formats.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { emptyState, type ShoppingState } from "../app/lib/shopping-url";
import { ROOT, type Scenario } from "./bench-data";
import type { LoadResult, LoadSpec } from "./bench-load";

export const BENCH_DIR = join(ROOT, "data", "bench");
export const BUILD_DIR = join(BENCH_DIR, "build");
export const SOURCE_DIR = join(ROOT, "seed", "national");
export const STORE_FILE = join(BENCH_DIR, "plan-store-national.sqlite");
export const UPSTREAM_DIR = join(BENCH_DIR, "upstream");
export const UPSTREAM_KEY = "bench-upstream-key-0123456789";
export const DOC = join(ROOT, "docs", "benchmarks.md");
export const RUNS_END = "<!-- bench:runs-end (npm run bench appends its runs above this line) -->";
export const ACCEPT_ENCODING = "gzip, deflate, br";

/** Issue 29 item 3 (after issue 9 part 2): shares of the floor and of /api/health, latencies, memory, start. */
export const TARGETS = {
  healthShareOfFloor: 0.45,
  countiesShareOfHealth: 0.85,
  plansShareOfHealth: 0.4,
  plansP99Ms: 40,
  planPageShareOfHealth: 0.25,
  planPageP99Ms: 60,
  rssMb: 512,
  firstAnswerMs: 1000,
};

// ---------------------------------------------------------------- processes

export const children = new Set<ChildProcess>();
export function stopChildren(): void {
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
export function startUntil(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  timeoutMs: number,
  nodeOptions: string[] = [],
  cwd: string = ROOT,
) {
  // TypeScript runs through tsx; the compiled server (a .js file) runs as it is.
  const loader = script.endsWith(".ts") ? ["--import", "tsx"] : [];
  const child = spawn(process.execPath, [...nodeOptions, ...loader, script, ...args], {
    cwd,
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

export function stop(child: ChildProcess): Promise<void> {
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
export function serverPids(pid: number): number[] {
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
export function rssSampler(pid: number) {
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
  // Unref'd: a run that fails half-way still exits (stopChildren runs on exit).
  const timer = setInterval(read, 100).unref();
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
export function startOptions(): string[] {
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

export type Probe = { status: number; headers: http.IncomingHttpHeaders; wireBytes: number; body: string; ms: number };

/** One request with the bench's headers: status, headers, body size on the wire and decoded body. */
export function probe(base: string, method: string, path: string, body?: string): Promise<Probe> {
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
export async function firstAnswer(base: () => string | null, since: number, timeoutMs: number): Promise<number> {
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

export function serverTimingOf(header: string | string[] | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of String(header ?? "").split(",")) {
    const m = /^\s*([\w-]+)\s*(?:;.*?dur=([\d.]+))?/.exec(part);
    if (m && m[2] !== undefined) out[m[1]] = Number(m[2]);
  }
  return out;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Median Server-Timing entries and wall time over `n` sequential requests (a function: a new body each). */
export async function serverTimings(
  base: string,
  method: string,
  path: string,
  body: string | undefined | (() => string),
  n: number,
) {
  const samples: Array<Record<string, number>> = [];
  const wall: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await probe(base, method, path, typeof body === "function" ? body() : body);
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

export function load(spec: LoadSpec): Promise<LoadResult> {
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

export type Endpoint = {
  key: string;
  label: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
  /** Another server than the one under test (the floor). */
  base?: string;
  /** A new household each request: `body` with a new income every time (decision 403). */
  fresh?: boolean;
};
export type Measured = Endpoint & { result: LoadResult; rssMb: number; wireBytes: number; jsonBytes: number };

// ---------------------------------------------------------------- machine and commit

export function git(args: string[]): string | null {
  try {
    return execFileSync("git", args, { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

export function machine() {
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

export const f0 = (n: number) => Math.round(n).toLocaleString("en-US");
export const f1 = (n: number) => n.toFixed(1);
export const kb = (n: number) =>
  n >= 10_240 ? `${f0(n / 1024)} KB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`;

export function householdBody(s: Scenario): string {
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

export function shoppingState(s: Scenario): ShoppingState {
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

// ---------------------------------------------------------------- builds, servers and the floor

/** The steps of `npm run build` for the checkout at `cwd`, into `buildDir`; seconds taken. */
export function buildInto(cwd: string, buildDir: string): number {
  const t = performance.now();
  const env = { ...process.env, BUILD_DIR: buildDir };
  execFileSync(join(cwd, "node_modules", ".bin", "remix"), ["vite:build"], {
    cwd,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd, env, stdio: ["ignore", "ignore", "inherit"] });
  execFileSync(process.execPath, ["scripts/record-build-info.mjs"], { cwd, env, stdio: "ignore" });
  return (performance.now() - t) / 1000;
}

/** The production server's environment in a benchmark (scratch: a directory for its write store and uploads). */
export function serverEnvironment(
  buildDir: string,
  upstreamUrl: string,
  scratch: string,
  workers: number,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    DEPLOY_ENV: "bench",
    BUILD_DIR: buildDir,
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
    // The upstream call budget (decision 201, sized for the real API's 1,000 calls a minute) would
    // cap a new household each request (decision 403: each is a new eligibility estimate) at ~15 a
    // second, whatever the server's speed; the fake upstream has no limit of its own.
    UPSTREAM_CALLS_PER_MINUTE: "1000000000",
    UPSTREAM_CALLS_PER_SECOND: "1000000000",
    WORKERS: String(workers),
  };
  delete env.REDIS_URL;
  delete env.POSTHOG_API_KEY;
  return env;
}

/**
 * The floor (issue 29): a bare Express "hello" (scripts/bench-floor.mjs) in its own process, driven
 * by the same load generator with the same settings; every route is reported as a share of it.
 */
export async function startFloor(): Promise<{ child: ChildProcess; url: string }> {
  const floor = startUntil("scripts/bench-floor.mjs", [], process.env, /floor listening on (\S+)/, 30_000, [
    ...startOptions(),
  ]);
  return { child: floor.child, url: (await floor.matched)[1] };
}

export const FLOOR_PATH = "/hello";
