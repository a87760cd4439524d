/**
 * npm run bench:seed -- [--source DIR] [--out FILE] [--regenerate] [--keep]
 *
 * Load benchmark of the seed pipeline at national scale: generates
 * seed/national/ if it is missing (or with --regenerate), runs the loader
 * (`seed/cli.ts --source DIR --out FILE --quiet`) as a child process, and
 * prints wall time, peak RSS and the size of the database it wrote, with the
 * machine it ran on, as a row ready for docs/benchmarks.md.
 *
 * Peak RSS is the loader process's VmHWM (Linux /proc), read until it exits;
 * the loader runs as a single node process (node --import tsx), so that is
 * the whole load.
 */
import { spawn, execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, freemem, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

type Args = { source: string; out: string; regenerate: boolean; keep: boolean };

function parseArgs(argv: string[]): Args {
  const args: Args = {
    source: join(ROOT, "seed", "national"),
    out: "/tmp/bench-plan-store.sqlite",
    regenerate: false,
    keep: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--source") args.source = resolve(argv[++i] ?? "");
    else if (a === "--out") args.out = resolve(argv[++i] ?? "");
    else if (a === "--regenerate") args.regenerate = true;
    else if (a === "--keep") args.keep = true;
    else {
      console.error(
        `unknown argument ${a}\nusage: npm run bench:seed -- [--source DIR] [--out FILE] [--regenerate] [--keep]`,
      );
      process.exit(2);
    }
  }
  return args;
}

/** Runs a node script with tsx, sampling the process's peak RSS (VmHWM) until it exits. */
function runMeasured(
  script: string,
  scriptArgs: string[],
): Promise<{ code: number; seconds: number; peakRssMb: number; stdout: string }> {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ["--import", "tsx", script, ...scriptArgs], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      process.stdout.write(chunk);
    });
    let peakKb = 0;
    const sample = () => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
        const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      } catch {
        // The process has exited (or /proc is unavailable); keep the last reading.
      }
    };
    const timer = setInterval(sample, 100);
    child.on("error", fail);
    child.on("exit", (code) => {
      clearInterval(timer);
      done({
        code: code ?? 1,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        peakRssMb: Math.round(peakKb / 1024),
        stdout,
      });
    });
  });
}

function dirSize(dir: string): number {
  let total = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else total += s.size;
    }
  };
  walk(dir);
  return total;
}

function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return "uncommitted";
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const gb = (bytes: number) => (bytes / 1024 ** 3).toFixed(2);
  const machine = `${cpus().length} CPU (${cpus()[0]?.model.trim() ?? "unknown"}), ${gb(totalmem())} GB RAM (${gb(freemem())} GB free), node ${process.version}, commit ${commit()}`;
  console.log(`machine: ${machine}`);

  let generation: { seconds: number; peakRssMb: number } | null = null;
  if (args.regenerate || !existsSync(join(args.source, "plan-attributes-puf.csv"))) {
    console.log(`generating national-scale data into ${args.source} ...`);
    const g = await runMeasured("seed/synth.ts", ["--scale", "national", "--out", args.source]);
    if (g.code !== 0) throw new Error(`generator failed with exit status ${g.code}`);
    generation = g;
  }
  const sourceBytes = dirSize(args.source);
  console.log(`source: ${args.source} (${gb(sourceBytes)} GB)`);

  for (const suffix of ["", "-wal", "-shm"]) rmSync(args.out + suffix, { force: true });
  console.log(`loading into ${args.out} ...`);
  const load = await runMeasured("seed/cli.ts", ["--source", args.source, "--out", args.out, "--quiet"]);
  if (load.code !== 0) throw new Error(`loader failed with exit status ${load.code}`);
  const dbBytes = ["", "-wal", "-shm"].reduce(
    (s, suffix) => s + (existsSync(args.out + suffix) ? statSync(args.out + suffix).size : 0),
    0,
  );

  const date = new Date().toISOString().slice(0, 10);
  console.log("");
  if (generation)
    console.log(`generation: ${generation.seconds.toFixed(1)} s wall, peak RSS ${generation.peakRssMb} MB`);
  console.log(
    `load:       ${load.seconds.toFixed(1)} s wall, peak RSS ${load.peakRssMb} MB, database ${gb(dbBytes)} GB (${dbBytes} bytes)`,
  );
  console.log(
    `targets:    under 600 s and under 1536 MB peak RSS -> ${load.seconds < 600 && load.peakRssMb < 1536 ? "MET" : "NOT MET"}`,
  );
  console.log("");
  console.log("| Date | Machine | Source | Load wall time | Peak RSS | Database size |");
  console.log(
    `| ${date} | ${machine} | ${gb(sourceBytes)} GB | ${load.seconds.toFixed(1)} s | ${load.peakRssMb} MB | ${gb(dbBytes)} GB |`,
  );
  if (!args.keep) for (const suffix of ["", "-wal", "-shm"]) rmSync(args.out + suffix, { force: true });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
