/**
 * npm run seed -- --source <dir> [--year YYYY] [--out <file>] [--sample] [--quiet] [--json]
 *                  [--allow-incomplete] [--accept-shrink] [--min-ratio R] [--publish]
 *
 * Builds the plan store from a source directory (layout: docs/data.md) and
 * swaps it in atomically if it passes the completeness gate (seed/gate.ts).
 * The default output is the PLAN_STORE_PATH setting (data/plan-store.sqlite).
 * Exit status: 0 loaded, 1 failed (previous store kept), 2 bad arguments,
 * 3 refused by the gate (previous store kept; one line per failed condition).
 * --publish: after a successful build, publish the store to PLAN_STORE_URL for
 * every instance to follow (seed/publish.ts); exit 1 when that fails (the
 * local store is built and swapped in regardless).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildPlanStore, type LoadReport } from "./build-store";
import { StoreRefusedError } from "./gate";
import { progressPrinter } from "./progress";

export type CliArgs = {
  source: string;
  year?: number;
  out?: string;
  sample: boolean;
  quiet: boolean;
  json: boolean;
  allowIncomplete: boolean;
  acceptShrink: boolean;
  minRatio?: number;
  publish: boolean;
};

const USAGE =
  "usage: npm run seed -- --source <dir> [--year YYYY] [--out <file>] [--sample] [--quiet] [--json] [--allow-incomplete] [--accept-shrink] [--min-ratio R] [--publish]";

export function parseArgs(argv: string[]): CliArgs {
  const args: Partial<CliArgs> &
    Pick<CliArgs, "sample" | "quiet" | "json" | "allowIncomplete" | "acceptShrink" | "publish"> = {
    publish: false,
    sample: false,
    quiet: false,
    json: false,
    allowIncomplete: false,
    acceptShrink: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith("--")) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--source":
        args.source = value();
        break;
      case "--year": {
        const v = value();
        if (!/^[0-9]{4}$/.test(v)) throw new Error("--year must be a four-digit plan year");
        args.year = Number(v);
        break;
      }
      case "--out":
        args.out = value();
        break;
      case "--sample":
        args.sample = true;
        break;
      case "--quiet":
        args.quiet = true;
        break;
      case "--json":
        args.json = true;
        break;
      case "--allow-incomplete":
        args.allowIncomplete = true;
        break;
      case "--accept-shrink":
        args.acceptShrink = true;
        break;
      case "--publish":
        args.publish = true;
        break;
      case "--min-ratio": {
        const v = Number(value());
        if (!(v > 0 && v <= 1)) throw new Error("--min-ratio must be a fraction in (0, 1]");
        args.minRatio = v;
        break;
      }
      case "--help":
      case "-h":
        throw new Error(USAGE);
      default:
        throw new Error(`unknown argument ${a}`);
    }
  }
  if (!args.source) throw new Error("--source <dir> is required");
  return args as CliArgs;
}

export function summarize(report: LoadReport): string {
  const lines: string[] = [];
  lines.push(
    `plan store written to ${report.outPath} (${report.sample ? "SAMPLE data" : "real data"}, plan year${report.years.length === 1 ? "" : "s"} ${report.years.join(", ") || "none"}) in ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  for (const f of report.files) {
    lines.push(
      `  ${f.file}: read ${f.rowsRead}, loaded ${f.rowsLoaded}, skipped ${f.rowsSkipped}, rejected ${f.rowsRejected}`,
    );
    for (const [reason, n] of Object.entries(f.skipReasons)) lines.push(`      skipped ${n}: ${reason}`);
    for (const [remark, n] of Object.entries(f.notes ?? {})) lines.push(`      loaded ${n} with: ${remark}`);
    for (const [reason, r] of Object.entries(f.rejectReasons))
      lines.push(
        `      rejected ${r.count}: ${reason} (lines ${r.lines.join(", ")}${r.count > r.lines.length ? ", …" : ""})`,
      );
  }
  lines.push(
    `  tables: ${Object.entries(report.tables)
      .map(([t, n]) => `${t} ${n}`)
      .join(", ")}`,
  );
  for (const w of report.warnings) lines.push(`  warning: ${w}`);
  if (!report.complete) lines.push("  INCOMPLETE store (loaded with --allow-incomplete):");
  for (const p of report.problems) lines.push(`    ${p.message}`);
  return lines.join("\n");
}

/** --publish: the built store to PLAN_STORE_URL (seed/publish.ts). */
async function publishBuilt(file: string, shrinkAccepted: boolean): Promise<number> {
  const { publishPlanStore, publishSettings, publishedLine } = await import("./publish");
  try {
    const settings = await publishSettings();
    const marker = await publishPlanStore({ ...settings, file, shrinkAccepted });
    console.log(publishedLine(marker, settings.url));
    return 0;
  } catch (error) {
    console.error(
      `\nthe store was built but not published (the published version is unchanged): ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}

export async function main(argv: string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    if (!(error instanceof Error && error.message === USAGE)) console.error(USAGE);
    return 2;
  }
  let out = args.out;
  if (!out) {
    // Read the setting only when needed: the CLI must work without the server's other settings.
    const { env } = await import("../app/server/platform/env.server");
    try {
      out = env().PLAN_STORE_PATH;
    } catch (error) {
      console.error(error instanceof Error ? error.message : String(error));
      return 2;
    }
  }
  try {
    const report = await buildPlanStore({
      sourceDir: args.source,
      outPath: path.resolve(out),
      year: args.year,
      sample: args.sample,
      allowIncomplete: args.allowIncomplete,
      acceptShrink: args.acceptShrink,
      minRatio: args.minRatio,
      onProgress: args.quiet ? undefined : progressPrinter(process.stderr),
    });
    if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else console.log(summarize(report));
    if (args.publish) return await publishBuilt(report.outPath, args.acceptShrink);
    return 0;
  } catch (error) {
    if (error instanceof StoreRefusedError) {
      console.error(`\nseed refused: the new plan store is not swapped in; the current one (if any) keeps serving.`);
      for (const p of error.problems) console.error(`  ${p.message}`);
      console.error(error.hint);
      return 3;
    }
    console.error(
      `\nseed failed, the previous plan store (if any) is unchanged: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
