/**
 * npm run seed:synth -- [--scale sample|national] [--out DIR] [--seed TEXT] [--fraction F] [--json]
 *
 *   --scale sample    (default) rewrites seed/sample/, the bundled made-up data set
 *   --scale national  writes seed/national/ (gitignored): 30 states, ~20,000 plan
 *                     variants, ~2.5 M rate rows, ~5 M formulary rows, ~10 M
 *                     provider-network rows
 *   --fraction F      national only: scale every target by F (e.g. 0.01 for a quick run)
 *
 * Prints the files written with row counts and sizes, and the wall time.
 */
import { join, resolve } from "node:path";
import { generate } from "./generate/index";
import { REPO_ROOT } from "./generate/reference";

type Args = { scale: "sample" | "national"; out?: string; seed?: string; fraction?: number; json: boolean };

function parseArgs(argv: string[]): Args {
  const args: Args = { scale: "sample", json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    if (a === "--scale") {
      const v = value();
      if (v !== "sample" && v !== "national") usage(`--scale must be sample or national, not ${v}`);
      args.scale = v;
    } else if (a === "--out") args.out = value();
    else if (a === "--seed") args.seed = value();
    else if (a === "--fraction") {
      const f = Number(value());
      if (!(f > 0 && f <= 1)) usage("--fraction must be in (0, 1]");
      args.fraction = f;
    } else if (a === "--json") args.json = true;
    else if (a === "--help" || a === "-h") usage();
    else usage(`unknown argument ${a}`);
  }
  return args;
}

function usage(message?: string): never {
  if (message) console.error(message);
  console.error(
    "usage: npm run seed:synth -- [--scale sample|national] [--out DIR] [--seed TEXT] [--fraction F] [--json]",
  );
  process.exit(message ? 2 : 0);
}

const args = parseArgs(process.argv.slice(2));
const outDir = resolve(args.out ?? join(REPO_ROOT, "seed", args.scale));
const started = process.hrtime.bigint();
const summary = generate({ scale: args.scale, outDir, seed: args.seed, fraction: args.fraction });
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);

if (args.json) {
  console.log(JSON.stringify({ ...summary, seconds, peakRssMb }, null, 2));
} else {
  const mb = (b: number) => (b / 1048576).toFixed(b < 1048576 ? 3 : 1);
  let total = 0;
  const shown = summary.files.filter((f) => !f.file.startsWith("mr") || summary.files.length < 60);
  for (const f of shown)
    console.log(`${f.file.padEnd(40)} ${String(f.rows).padStart(10)} rows ${mb(f.bytes).padStart(9)} MB`);
  for (const f of summary.files) total += f.bytes;
  const mrFiles = summary.files.filter((f) => f.file.startsWith("mr"));
  if (shown.length < summary.files.length) {
    console.log(`mr/<issuer>/*.json: ${mrFiles.length} files, ${mb(mrFiles.reduce((s, f) => s + f.bytes, 0))} MB`);
  }
  console.log(`total ${mb(total)} MB in ${summary.outDir}`);
  console.log(JSON.stringify(summary.counts));
  console.log(`generated in ${seconds.toFixed(1)} s, peak RSS ${peakRssMb} MB`);
}
