/**
 * npm run bench -- --workers N (scripts/bench.ts): the whole measurement twice, the server with
 * WORKERS=1 and then WORKERS=N (node:cluster, decision 192), and a comparison table.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ROOT } from "./bench-data";
import { DOC, f0, f1, machine, RUNS_END, TARGETS } from "./bench-lib";

type Args = {
  build: boolean;
  write: boolean;
  seconds: number;
  warmup: number;
  connections: number;
  only: string[] | null;
  workers: number;
};

// ---------------------------------------------------------------- 1 vs N workers

export type WorkerPass = {
  workers: number;
  loadAverage: number;
  commit: string;
  peakWorkerRssMb: number;
  firstAnswerMs: number;
  endpoints: Array<{ key: string; label: string; rps: number; p50: number; p97_5: number; p99: number }>;
};

/** Build and data once, then one child bench per worker count, then the comparison. */
export async function compareWorkers(args: Args): Promise<void> {
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
