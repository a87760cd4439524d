/**
 * npm run bench:edge -- [--rounds N]
 *
 * What one request costs the server's event loop at the edge (issue 30 item 6: under 20 ms each,
 * the 50,000-field form included). Starts the built server as `npm start` does (its node options
 * included) on the test plan store, sends every pathological request of
 * tests/fixtures/firewall/pathological-requests.ts one at a time, with nothing else running, and
 * reads the server's main-thread CPU (Linux schedstat, nanoseconds) before and after each answer.
 * The first round is discarded (JIT, lazy start-up); the others give each request's median and
 * worst. Prints a table and a summary line; nothing is written: copy the figures, with the date,
 * commit and machine, into docs/benchmarks.md. firewall-stall.test.ts only bounds stalls (250 ms),
 * because a test beside other suites measures its neighbours as well (docs/decisions/500).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathologicalRequests } from "../tests/fixtures/firewall/pathological-requests";
import { loopCpuMs } from "../tests/helpers/loop-cpu";
import { REPO_ROOT, startServer, TEST_PLAN_STORE } from "../tests/helpers/server";

const TARGET_MS = 20;
const args = process.argv.slice(2);
const roundsArg = args.indexOf("--rounds");
const rounds = roundsArg >= 0 ? Number(args[roundsArg + 1]) : 7;
if (!Number.isInteger(rounds) || rounds < 2) throw new Error("--rounds must be an integer of at least 2");

if (!existsSync(path.join(REPO_ROOT, "build", "server.js"))) throw new Error("no build: run `npm run build` first");
const planStore = existsSync(TEST_PLAN_STORE) ? TEST_PLAN_STORE : path.join(REPO_ROOT, "data", "plan-store.sqlite");
if (!existsSync(planStore))
  throw new Error(`no plan store at ${planStore}: run \`npm test\` or \`npm run seed\` first`);

// `npm start`'s node options, read from package.json so that the two cannot drift apart.
const startScript = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts.start!;
const nodeArgs = startScript.split(/\s+/).filter((word) => word.startsWith("--"));

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The process's resident memory (VmRSS), in MB. */
function residentMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}
let rssMb = NaN;

const server = await startServer({ nodeArgs, env: { PLAN_STORE_PATH: planStore } });
const pid = server.process.pid!;
const requests = pathologicalRequests();
const costs = new Map<string, { loop: number[]; wall: number[]; status: number }>();
try {
  for (let round = 0; round < rounds; round++) {
    for (const request of requests) {
      const started = performance.now();
      const cpu = loopCpuMs(pid);
      const res = await fetch(`${server.url}${request.path}`, {
        ...request.init,
        headers: { ...(request.init.headers as Record<string, string>), "x-forwarded-for": `203.0.113.${round + 1}` },
      });
      await res.arrayBuffer();
      const loop = loopCpuMs(pid) - cpu;
      const wall = performance.now() - started;
      if (round === 0) continue;
      const entry = costs.get(request.what) ?? { loop: [], wall: [], status: res.status };
      entry.loop.push(loop);
      entry.wall.push(wall);
      costs.set(request.what, entry);
    }
  }
  rssMb = residentMb(pid);
} finally {
  await server.stop();
}

const rows = [...costs].map(([what, c]) => ({
  what,
  status: c.status,
  loopMedian: median(c.loop),
  loopWorst: Math.max(...c.loop),
  wallMedian: median(c.wall),
}));
rows.sort((a, b) => b.loopMedian - a.loopMedian);
const commit = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: REPO_ROOT }).toString().trim();
console.log(
  `bench:edge ${new Date().toISOString()} commit ${commit}, ${os.cpus()[0]?.model ?? "?"} × ${os.cpus().length}, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, node ${nodeArgs.join(" ")}, ${rounds - 1} measured rounds`,
);
console.log("| Request | Status | Loop CPU median (ms) | Loop CPU worst (ms) | Wall median (ms) |");
console.log("|---|---|---|---|---|");
for (const r of rows)
  console.log(
    `| ${r.what.replaceAll("|", "\\|")} | ${r.status} | ${r.loopMedian.toFixed(1)} | ${r.loopWorst.toFixed(1)} | ${r.wallMedian.toFixed(1)} |`,
  );
const over = rows.filter((r) => r.loopMedian >= TARGET_MS);
console.log(
  `summary: ${rows.length} requests; slowest median ${rows[0]!.loopMedian.toFixed(1)} ms (${rows[0]!.what}); ` +
    `${over.length} at or over ${TARGET_MS} ms median${over.length ? `: ${over.map((r) => r.what).join("; ")}` : ""}; ` +
    `worst single ${Math.max(...rows.map((r) => r.loopWorst)).toFixed(1)} ms; server resident memory after ${rssMb.toFixed(0)} MB`,
);
