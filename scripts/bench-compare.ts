/**
 * npm run bench -- --compare <git-ref> [--rounds N] [--only KEYS] [--seconds N] [--warmup N] [--keep-store]
 *
 * Every change judged against its parent in one run (issue 29 item 2): the ref is checked out in
 * a git worktree under the system's temporary directory (node_modules linked to this checkout's),
 * built there once (kept for the next run), and run beside the working tree's build over the same
 * national store and the same fake upstream. Each route is then driven alternately, A B then B A
 * round after round (A: the working tree, B: the ref), with the same load generator and settings,
 * so both see the same machine at the same time. The first answer after spawn is timed the same
 * way, alternately. Prints both and the ratio A / B; appends the table to docs/benchmarks.md
 * unless --no-write or --only.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { planHref } from "../app/lib/shopping-url";
import { ensureNationalSource, ensureStore, pickScenario, ROOT, saveMarker, writeUpstreamDir } from "./bench-data";
import {
  ACCEPT_ENCODING,
  BUILD_DIR,
  buildInto,
  DOC,
  f0,
  f1,
  firstAnswer,
  FLOOR_PATH,
  householdBody,
  machine,
  probe,
  rssSampler,
  RUNS_END,
  serverEnvironment,
  shoppingState,
  SOURCE_DIR,
  startFloor,
  startOptions,
  startUntil,
  stop,
  STORE_FILE,
  UPSTREAM_DIR,
  UPSTREAM_KEY,
  type Endpoint,
} from "./bench-lib";
import { loadEndpoint, probeFresh } from "./bench-fresh";
import type { LoadResult } from "./bench-load";

export type CompareArgs = {
  build: boolean;
  write: boolean;
  regenerate: boolean;
  keepStore: boolean;
  seconds: number;
  warmup: number;
  connections: number;
  only: string[] | null;
  compare: string;
  rounds: number;
};

function git(args: string[], cwd = ROOT): string {
  return execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "inherit"] })
    .toString()
    .trim();
}

/** The ref's worktree, built: created and built on first use, reused afterwards (a commit never changes). */
function refCheckout(ref: string): { sha: string; dir: string; buildDir: string } {
  const sha = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  const dir = join(tmpdir(), `marketplace-bench-${sha.slice(0, 12)}`);
  if (!existsSync(join(dir, "package.json"))) {
    console.log(`bench: checking out ${ref} (${sha.slice(0, 12)}) into ${dir} ...`);
    rmSync(dir, { recursive: true, force: true });
    git(["worktree", "prune"]);
    git(["worktree", "add", "--detach", dir, sha]);
  }
  // The ref runs on this checkout's packages: a symlink, not a second install.
  if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  const buildDir = join(dir, "build");
  if (!existsSync(join(buildDir, "server.js")) || !existsSync(join(buildDir, "server", "index.js"))) {
    console.log(`bench: building ${ref} in ${dir} ...`);
    buildInto(dir, buildDir);
  }
  return { sha, dir, buildDir };
}

type Side = { name: string; label: string; cwd: string; buildDir: string };
type Running = { side: Side; child: ReturnType<typeof startUntil>["child"]; url: string; scratch: string };

async function startSide(side: Side, upstreamUrl: string): Promise<Running & { firstAnswerMs: number }> {
  const scratch = mkdtempSync(join(tmpdir(), `marketplace-bench-${side.name}-`));
  const spawnedAt = performance.now();
  const server = startUntil(
    join(side.buildDir, "server.js"),
    [],
    serverEnvironment(side.buildDir, upstreamUrl, scratch, 1),
    /listening on (http:\/\/[^\s"]+)/,
    60_000,
    startOptions(),
    side.cwd,
  );
  let base: string | null = null;
  void server.matched.then((m) => (base = m[1])).catch(() => undefined);
  const firstAnswerMs = await Promise.race([
    firstAnswer(() => base, spawnedAt, 30_000),
    server.matched.then(() => new Promise<never>(() => undefined)),
  ]);
  const url = (await server.matched)[1];
  return { side, child: server.child, url, scratch, firstAnswerMs };
}

async function stopSide(running: Running): Promise<void> {
  await stop(running.child);
  rmSync(running.scratch, { recursive: true, force: true });
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

export async function compareWithRef(args: CompareArgs): Promise<void> {
  const started = Date.now();
  const host = machine();
  const ref = refCheckout(args.compare);
  const a: Side = { name: "a", label: `working tree (${host.commit})`, cwd: ROOT, buildDir: BUILD_DIR };
  const b: Side = {
    name: "b",
    label: `${args.compare} (${ref.sha.slice(0, 12)})`,
    cwd: ref.dir,
    buildDir: ref.buildDir,
  };
  if (args.build || !existsSync(join(BUILD_DIR, "server.js"))) {
    console.log(`bench: building the working tree into ${relative(ROOT, BUILD_DIR)} ...`);
    buildInto(ROOT, BUILD_DIR);
  }
  await ensureNationalSource(SOURCE_DIR, args.regenerate);
  const store = await ensureStore(SOURCE_DIR, STORE_FILE, args.keepStore);
  let marker = store.marker;
  if (!marker.scenario || !marker.upstreamDir || !existsSync(join(marker.upstreamDir, "plan-attributes-puf.csv"))) {
    const scenario = pickScenario(STORE_FILE);
    await writeUpstreamDir(SOURCE_DIR, UPSTREAM_DIR, scenario);
    marker = { ...marker, scenario, upstreamDir: UPSTREAM_DIR };
    saveMarker(STORE_FILE, marker);
  }
  const scenario = marker.scenario!;
  const upstream = startUntil(
    "scripts/bench-upstream.ts",
    ["--data", marker.upstreamDir!, "--key", UPSTREAM_KEY],
    process.env,
    /upstream listening on (\S+)/,
    60_000,
  );
  const upstreamUrl = (await upstream.matched)[1];

  // First answer after spawn, alternately (each side started and stopped once a round).
  const firstAnswers: Record<string, number[]> = { a: [], b: [] };
  for (let round = 0; round < args.rounds; round++)
    for (const side of round % 2 === 0 ? [a, b] : [b, a]) {
      const running = await startSide(side, upstreamUrl);
      firstAnswers[side.name]!.push(running.firstAnswerMs);
      await stopSide(running);
    }

  const servers = { a: await startSide(a, upstreamUrl), b: await startSide(b, upstreamUrl) };
  const rss = { a: rssSampler(servers.a.child.pid!), b: rssSampler(servers.b.child.pid!) };
  const floor = await startFloor();
  const plansBody = householdBody(scenario);
  const priced = await probe(servers.a.url, "POST", "/api/plans", plansBody);
  const planIds = (JSON.parse(priced.body) as { plans?: Array<{ id: string }> }).plans?.map((p) => p.id) ?? [];
  if (planIds.length === 0) throw new Error(`POST /api/plans priced nothing: ${priced.body.slice(0, 300)}`);
  const endpoints: Endpoint[] = [
    {
      key: "floor",
      label: "bare Express hello (floor, same on both)",
      method: "GET",
      path: FLOOR_PATH,
      base: floor.url,
    },
    { key: "health", label: "GET /api/health", method: "GET", path: "/api/health" },
    { key: "counties", label: "GET /api/counties", method: "GET", path: `/api/counties?zip=${scenario.zip}` },
    { key: "plans", label: "POST /api/plans", method: "POST", path: "/api/plans", body: plansBody },
    {
      key: "plansFresh",
      label: "POST /api/plans, a new household each request",
      method: "POST",
      path: "/api/plans",
      body: plansBody,
      fresh: true,
    },
    {
      key: "planPage",
      label: "GET /plans/<planId>",
      method: "GET",
      path: planHref(planIds[0]!, shoppingState(scenario)),
    },
    {
      key: "drugs",
      label: "POST /api/drugs/covered",
      method: "POST",
      path: "/api/drugs/covered",
      body: JSON.stringify({ rxcuis: scenario.rxcuis, plan_ids: planIds.slice(0, 50), year: scenario.year }),
    },
  ];
  const rows: Array<{ e: Endpoint; a: LoadResult[]; b: LoadResult[] }> = [];
  const skipped: string[] = [];
  for (const e of endpoints) {
    if (args.only && !args.only.includes(e.key) && e.key !== "floor") continue;
    const answers = await Promise.all(
      [servers.a, servers.b].map((s) =>
        e.fresh
          ? // The working tree must price every new household; a ref that does not is skipped.
            probeFresh(s.url, e, s === servers.a).then(
              (r) => r.first,
              (error: unknown) => {
                if (s === servers.a) throw error;
                console.log(`bench: ${args.compare}: ${error instanceof Error ? error.message : String(error)}`);
                return { status: 0 };
              },
            )
          : probe(e.base ?? s.url, e.method, e.path, e.body),
      ),
    );
    if (answers.some((r) => r.status !== 200)) {
      skipped.push(`${e.label}: answered ${answers.map((r) => r.status).join(" / ")} (working tree / ref)`);
      continue;
    }
    const row = { e, a: [] as LoadResult[], b: [] as LoadResult[] };
    for (let round = 0; round < args.rounds; round++)
      for (const name of round % 2 === 0 ? (["a", "b"] as const) : (["b", "a"] as const)) {
        const result = await loadEndpoint(e, {
          url: `${e.base ?? servers[name].url}${e.path}`,
          method: e.method,
          headers: { "accept-encoding": ACCEPT_ENCODING, ...(e.body ? { "content-type": "application/json" } : {}) },
          body: e.body,
          connections: args.connections,
          warmupSeconds: args.warmup,
          seconds: args.seconds,
        });
        row[name].push(result);
        console.log(
          `bench: ${e.label.padEnd(40)} ${name === "a" ? "working tree" : "ref         "} ${f0(result.rps).padStart(6)} req/s  p99 ${f1(result.latencyMs.p99)} ms`,
        );
      }
    rows.push(row);
  }
  const peak = { a: rss.a.peakMb(), b: rss.b.peakMb() };
  rss.a.stop();
  rss.b.stop();
  await Promise.all([stopSide(servers.a), stopSide(servers.b), stop(floor.child), stop(upstream.child)]);

  const rps = (rs: LoadResult[]) => rs.map((r) => f0(r.rps)).join(" / ");
  const lines = [
    `#### ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC — same-run A/B: working tree (${host.commit}) vs ${args.compare} (${ref.sha.slice(0, 12)})`,
    "",
    `Machine: ${host.cpus} CPU (${host.cpu}), node ${host.node}; load average ${host.loadAverage.toFixed(2)} at start (shared machine). ${scenario.countyName}, ${scenario.state}: ${scenario.plansInCounty} plans (the list priced in full, answered 50 a page). Both builds over the same national store and fake upstream; ${args.connections} connections, ${args.warmup} s warm-up, ${args.seconds} s measured, ${args.rounds} rounds alternating (A B, then B A). A = working tree, B = ${args.compare}.`,
    "",
    "| Route | A req/s (rounds) | B req/s (rounds) | A / B | A p99 ms | B p99 ms |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.e.label} | ${rps(r.a)} | ${rps(r.b)} | ${(mean(r.a.map((x) => x.rps)) / mean(r.b.map((x) => x.rps))).toFixed(2)} | ${r.a.map((x) => f1(x.latencyMs.p99)).join(" / ")} | ${r.b.map((x) => f1(x.latencyMs.p99)).join(" / ")} |`,
    ),
    `| First answer after spawn (ms) | ${firstAnswers.a!.map(f0).join(" / ")} | ${firstAnswers.b!.map(f0).join(" / ")} | ${(mean(firstAnswers.a!) / mean(firstAnswers.b!)).toFixed(2)} (lower is better) | | |`,
    `| Peak RSS (MB) | ${peak.a} | ${peak.b} | | | |`,
    ...skipped.map((s) => `| ${s} | | | | | |`),
    "",
    `Whole run ${f0((Date.now() - started) / 1000)} s.`,
    "",
  ];
  const entry = lines.join("\n");
  console.log(`\n${entry}`);
  if (args.write && !args.only) {
    const doc = readFileSync(DOC, "utf8");
    writeFileSync(
      DOC,
      doc.includes(RUNS_END) ? doc.replace(RUNS_END, `${entry}\n${RUNS_END}`) : `${doc.trimEnd()}\n\n${entry}\n`,
    );
    console.log(`bench: appended to ${relative(ROOT, DOC)}`);
  }
}
