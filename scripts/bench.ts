/**
 * npm run bench -- [--no-build] [--no-write] [--regenerate] [--keep-store] [--seconds N] [--warmup N] [--connections N] [--only KEYS] [--workers N] [--compare REF [--rounds N]]
 *
 * (--compare REF: the ref built in a git worktree under the system's temporary directory and the
 * working tree, both over the same store and fake upstream, driven alternately route by route,
 * printing both and their ratio (scripts/bench-compare.ts). --keep-store: use the loaded store even
 * when the loader code has changed since (a shared checkout where others edit seed/).)
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
 *     national store, and times the first 200 from /api/health after spawn; and the floor,
 *     a bare Express "hello" (scripts/bench-floor.mjs), with the same node options;
 *  4. drives the floor and each endpoint from a separate load-generator process
 *     (scripts/bench-load.ts, autocannon; 16 connections, warm-up, then a
 *     measured run), sampling the server's RSS from /proc throughout;
 *  5. prints requests per second, p50 / p97.5 / p99 latency, response size,
 *     each route's share of the floor and of /api/health in the same run,
 *     Server-Timing and RSS, checks the targets, and appends the run with
 *     date, machine and commit to docs/benchmarks.md (not with --no-write).
 *
 * The server runs with RATE_LIMIT_MAX raised to 1e9: the per-IP rule (2,000
 * requests / 5 min) would otherwise answer 429 within a second. Everything
 * else is the production configuration, request log included. Requests carry
 * the Accept-Encoding a browser sends. The machine is shared: compare the
 * figures within one run, not across runs.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { planHref } from "../app/lib/shopping-url";
import { MAX_PLAN_IDS_PER_COVERAGE_REQUEST } from "../app/server/upstream/requests.server";
import { ensureNationalSource, ensureStore, pickScenario, ROOT, saveMarker, writeUpstreamDir } from "./bench-data";
import {
  ACCEPT_ENCODING,
  BENCH_DIR,
  BUILD_DIR,
  buildInto,
  DOC,
  f0,
  f1,
  firstAnswer,
  FLOOR_PATH,
  householdBody,
  kb,
  machine,
  probe,
  rssSampler,
  RUNS_END,
  serverEnvironment,
  serverTimings,
  shoppingState,
  SOURCE_DIR,
  startFloor,
  startOptions,
  startUntil,
  stop,
  stopChildren,
  STORE_FILE,
  TARGETS,
  UPSTREAM_DIR,
  UPSTREAM_KEY,
  type Endpoint,
  type Measured,
} from "./bench-lib";
import { compareWithRef } from "./bench-compare";
import { freshBody, freshSaid, loadEndpoint, probeFresh } from "./bench-fresh";
import { compareWorkers, type WorkerPass } from "./bench-workers";

// ---------------------------------------------------------------- settings

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
  /** Use the loaded store whatever the loader code's fingerprint. */
  keepStore: boolean;
  /** A git ref to compare the working tree with (--compare), and the rounds of each route. */
  compare: string;
  rounds: number;
};

/** The endpoints of a run, for --only (floor and the drift checks run with what they measure against). */
const ENDPOINT_KEYS = ["floor", "health", "counties", "plans", "plansFresh", "planPage", "drugs", "health2", "floor2"];

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
    keepStore: false,
    compare: "",
    rounds: 2,
  };
  const usage =
    "usage: npm run bench -- [--no-build] [--no-write] [--regenerate] [--keep-store] [--seconds N] [--warmup N] [--connections N] [--only health,counties,plans,plansFresh,planPage,drugs] [--profile] [--server FILE] [--workers N] [--compare REF [--rounds N]]";
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
    else if (a === "--only") {
      args.only = (argv[++i] ?? "").split(",").filter(Boolean);
      const unknown = args.only.filter((k) => !ENDPOINT_KEYS.includes(k));
      if (unknown.length) throw new Error(`--only: no endpoint ${unknown.join(", ")}\n${usage}`);
    } else if (a === "--workers") args.workers = Math.max(2, Math.round(num()));
    else if (a === "--server-workers") args.serverWorkers = Math.max(1, Math.round(num()));
    else if (a === "--json") args.json = argv[++i] ?? "";
    else if (a === "--keep-store") args.keepStore = true;
    else if (a === "--compare") args.compare = argv[++i] ?? "";
    else if (a === "--rounds") args.rounds = Math.max(1, Math.round(num()));
    else throw new Error(`unknown argument ${a}\n${usage}`);
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.workers) return compareWorkers(args);
  if (args.compare) return compareWithRef(args);
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
    buildSeconds = buildInto(ROOT, BUILD_DIR);
  }

  // 2. Data.
  const generationSeconds = await ensureNationalSource(SOURCE_DIR, args.regenerate);
  const store = await ensureStore(SOURCE_DIR, STORE_FILE, args.keepStore);
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
  const serverEnv = serverEnvironment(BUILD_DIR, upstreamUrl, scratch, args.serverWorkers);
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
  const floor = await startFloor();
  console.log(
    `bench: server ${url}: first 200 from /api/health ${f0(firstAnswerMs)} ms after spawn, RSS ${startRssMb} MB`,
  );

  // 4. Requests: check each answers as it should before driving it.
  const plansBody = householdBody(scenario);
  // The driven request takes the default page (docs/decisions/119); the probe asks for every
  // plan. /api/drugs/covered is driven with as many of the county's plan ids as one request
  // may carry (100 since decision 375; it was all 478 before, so its figures are not comparable).
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
  const coveragePlanIds = planIds.slice(0, MAX_PLAN_IDS_PER_COVERAGE_REQUEST);
  const drugsBody = JSON.stringify({ rxcuis: scenario.rxcuis, plan_ids: coveragePlanIds, year: scenario.year });
  const planPath = planHref(planIds[0], shoppingState(scenario));

  const endpoints: Endpoint[] = [
    { key: "floor", label: "bare Express hello (floor)", method: "GET", path: FLOOR_PATH, base: floor.url },
    { key: "health", label: "GET /api/health", method: "GET", path: "/api/health" },
    { key: "counties", label: "GET /api/counties", method: "GET", path: `/api/counties?zip=${scenario.zip}` },
    { key: "plans", label: "POST /api/plans", method: "POST", path: "/api/plans", body: plansBody },
    // The same household with a new income every request: what a first visit costs (decision 403).
    {
      key: "plansFresh",
      label: "POST /api/plans, a new household each request",
      method: "POST",
      path: "/api/plans",
      body: plansBody,
      fresh: true,
    },
    { key: "planPage", label: "GET /plans/<planId>", method: "GET", path: planPath },
    { key: "drugs", label: "POST /api/drugs/covered", method: "POST", path: "/api/drugs/covered", body: drugsBody },
    { key: "health2", label: "GET /api/health (again, drift check)", method: "GET", path: "/api/health" },
    {
      key: "floor2",
      label: "bare Express hello (again, drift check)",
      method: "GET",
      path: FLOOR_PATH,
      base: floor.url,
    },
  ];
  const skipped: string[] = [];
  const ready: Array<Endpoint & { wireBytes: number; jsonBytes: number }> = [];
  for (const e of endpoints) {
    const always = e.key.startsWith("floor") || (e.key === "health2" && args.only?.includes("health"));
    if (args.only && !args.only.includes(e.key) && !always) continue;
    if (e.fresh) {
      const { first, said } = await probeFresh(url, e);
      console.log(`bench: ${e.label}: ${said}`);
      ready.push({ ...e, wireBytes: first.wireBytes, jsonBytes: Buffer.byteLength(first.body) });
      continue;
    }
    const r = await probe(e.base ?? url, e.method, e.path, e.body);
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
        `bench: drugs/covered answers ${answer.coverage.length} rows for ${scenario.rxcuis.length} drugs × ${coveragePlanIds.length} plans`,
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
    const result = await loadEndpoint(e, {
      url: `${e.base ?? url}${e.path}`,
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
  for (const e of ready.filter((x) => x.key === "plans" || x.key === "plansFresh" || x.key === "planPage")) {
    const body = e.fresh ? () => freshBody(e.body!) : e.body;
    timings.push({ label: e.label, ...(await serverTimings(url, e.method, e.path, body, 30)) });
  }
  const peakRssMb = rss.peakMb();
  const hwmMb = rss.hwmMb();
  rss.stop();
  await stop(server.child);
  await stop(upstream.child);
  await stop(floor.child);
  rmSync(scratch, { recursive: true, force: true });

  // 5. Targets.
  const by = (key: string) => measured.find((m) => m.key === key);
  const meanOf = (...keys: string[]) => {
    const runs = keys.map(by).filter((m): m is Measured => Boolean(m));
    return runs.reduce((s, m) => s + m.result.rps, 0) / runs.length;
  };
  const health = meanOf("health", "health2");
  const floorRps = meanOf("floor", "floor2");
  const verdicts: Array<{ target: string; required: string; measured: string; met: boolean | null }> = [];
  const share = (m: Measured | undefined, of = health) => (m ? m.result.rps / of : NaN);
  const counties = by("counties");
  const plans = by("plans");
  const planPage = by("planPage");
  const plansFresh = by("plansFresh");
  const shareRow = (target: string, m: Measured | undefined, required: number, of: number, ofName: string) =>
    verdicts.push({
      target,
      required: `≥ ${Math.round(required * 100)}%`,
      measured: `${f1(share(m, of) * 100)}% (${f0(m?.result.rps ?? 0)} / ${f0(of)} req/s ${ofName})`,
      met: m ? share(m, of) >= required : null,
    });
  verdicts.push({
    target: "Floor: GET /api/health throughput vs a bare Express hello (same load generator and settings)",
    required: `≥ ${TARGETS.healthShareOfFloor * 100}%`,
    measured: `${f1((health / floorRps) * 100)}% (${f0(health)} / ${f0(floorRps)} req/s)`,
    met: health / floorRps >= TARGETS.healthShareOfFloor,
  });
  shareRow("GET /api/counties throughput vs /api/health", counties, TARGETS.countiesShareOfHealth, health, "health");
  shareRow("POST /api/plans throughput vs /api/health", plans, TARGETS.plansShareOfHealth, health, "health");
  verdicts.push({
    target: `POST /api/plans p99 at ${args.connections} connections`,
    required: `< ${TARGETS.plansP99Ms} ms`,
    measured: `${f1(plans?.result.latencyMs.p99 ?? NaN)} ms`,
    met: (plans?.result.latencyMs.p99 ?? Infinity) < TARGETS.plansP99Ms,
  });
  shareRow("GET /plans/<planId> throughput vs /api/health", planPage, TARGETS.planPageShareOfHealth, health, "health");
  verdicts.push({
    target: "GET /plans/<planId> p99",
    required: `< ${TARGETS.planPageP99Ms} ms`,
    measured: planPage ? `${f1(planPage.result.latencyMs.p99)} ms` : "not measured",
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
    `Data: plan store ${(storeBytes / 1024 ** 3).toFixed(2)} GB (${store.kept ? "kept with --keep-store: loaded before the latest loader-code change" : store.reused ? "reused: same generator output and loader" : `loaded in ${f0(store.loadSeconds)} s`}${generationSeconds !== null ? `, generated in ${f0(generationSeconds)} s` : ""}); ${scenario.countyName}, ${scenario.state} (${scenario.countyFips}), ZIP ${scenario.zip}, plan year ${scenario.year}: ${planIds.length} plans priced for adults 40 and 38, children 10 and 7, income $90,000 (eligibility ${plansAnswer.eligibility ? "estimated" : "unavailable"}); drugs ${scenario.rxcuis.join(", ")} × ${coveragePlanIds.length} plans (one coverage request's most).`,
  );
  lines.push(
    `Server: \`node ${startOptions().join(" ")} build/server.js\` (the compiled server.ts) as npm start runs it. Load: ${args.connections} connections, ${args.warmup} s warm-up then ${args.seconds} s measured per endpoint, one autocannon process (the floor, a bare Express hello in its own process with the same node options, driven the same way first and last); requests send \`Accept-Encoding: ${ACCEPT_ENCODING}\`; server with RATE_LIMIT_MAX=1000000000 (the per-IP rule would throttle the load generator) and UPSTREAM_CALLS_PER_MINUTE and _PER_SECOND=1000000000 (the upstream call budget would cap new households at ~15 a second), request log on; fake upstream in its own process.${buildSeconds !== null ? ` Build ${f0(buildSeconds)} s.` : ""}`,
    "",
  );
  lines.push(
    "| Endpoint | req/s | ÷ floor | ÷ health | p50 ms | p97.5 ms | p99 ms | Response (wire / decoded) | Server RSS peak | non-2xx / errors |",
  );
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const m of measured) {
    const r = m.result;
    lines.push(
      `| ${m.label} | ${f0(r.rps)} | ${f1((r.rps / floorRps) * 100)}% | ${f1((r.rps / health) * 100)}% | ${f1(r.latencyMs.p50)} | ${f1(r.latencyMs.p97_5)} | ${f1(r.latencyMs.p99)} | ${kb(m.wireBytes)} / ${kb(m.jsonBytes)} | ${m.rssMb} MB | ${r.non2xx} / ${r.errors + r.timeouts} |`,
    );
  }
  for (const s of skipped) lines.push(`| ${s} | | | | | | | | | |`);
  lines.push("");
  if (plansFresh)
    lines.push(
      `POST /api/plans drives one household again and again: after its first request its answers are kept ones (decision 402). A new household each request: ${freshSaid(plansFresh.result)} (decision 403).`,
      "",
    );
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
  if (plansFresh)
    lines.push(
      "",
      `Not a target (a first visit, decision 403): POST /api/plans, a new household each request, ${f1(share(plansFresh) * 100)}% of health (${f0(plansFresh.result.rps)} / ${f0(health)} req/s), p99 ${f1(plansFresh.result.latencyMs.p99)} ms.`,
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

main()
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  })
  .finally(() => {
    stopChildren();
  });
