/**
 * npm run bench:parsers -- [--source seed/national] [--rounds 2] [--issuers 20]
 *
 * Same-run comparison of the seed's hand-written readers (seed/readers/csv.ts,
 * json-stream.ts) with the maintained streaming parsers (csv-parse,
 * stream-json) on the national synthetic set (`npm run seed:synth -- --scale
 * national`): each parser turns the same files into the same records (CSV
 * fields; JSON array elements as objects) and nothing else, alternating A, B,
 * A, B so that both see the same machine load. Prints records/s and MB/s per
 * parser and file kind, and the ratio. Decision 174 records the result.
 */
import { parse as csvParse } from "csv-parse";
import { createReadStream, readdirSync, statSync } from "node:fs";
import path from "node:path";
import chain from "stream-chain";
import { parser as jsonParser } from "stream-json";
import { streamArray } from "stream-json/streamers/stream-array.js";
import { csvRecordBatches } from "./readers/csv";
import { jsonArrayElementBatches } from "./readers/json-stream";

type Args = { source: string; rounds: number; issuers: number };

function parseArgs(argv: string[]): Args {
  const args: Args = { source: path.resolve("seed/national"), rounds: 2, issuers: 20 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--source") args.source = path.resolve(argv[++i] ?? "");
    else if (a === "--rounds") args.rounds = Number(argv[++i]);
    else if (a === "--issuers") args.issuers = Number(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

type Measure = { records: number; bytes: number; seconds: number };

async function timed(files: string[], count: (file: string) => Promise<number>): Promise<Measure> {
  const started = process.hrtime.bigint();
  let records = 0;
  let bytes = 0;
  for (const f of files) {
    records += await count(f);
    bytes += statSync(f).size;
  }
  return { records, bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

async function handCsv(file: string): Promise<number> {
  let n = 0;
  let width = 0;
  for await (const batch of csvRecordBatches(file, { delimiter: "," }))
    for (const r of batch) {
      n++;
      width += r.fields.length;
    }
  return width > 0 ? n : 0;
}

async function csvParseCount(file: string): Promise<number> {
  // The options the seed would need: BOM, CRLF, a stray quote or short row tolerated.
  const records = createReadStream(file, { highWaterMark: 1 << 20 }).pipe(
    csvParse({ bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true }),
  );
  let n = 0;
  let width = 0;
  for await (const r of records as AsyncIterable<string[]>) {
    n++;
    width += r.length;
  }
  return width > 0 ? n : 0;
}

async function handJson(file: string): Promise<number> {
  let n = 0;
  for await (const batch of jsonArrayElementBatches(file)) for (const e of batch) if (e.value !== undefined) n++;
  return n;
}

async function streamJsonCount(file: string): Promise<number> {
  const pipeline = chain([createReadStream(file, { highWaterMark: 1 << 20 }), jsonParser(), streamArray()]);
  let n = 0;
  for await (const item of pipeline as AsyncIterable<{ key: number; value: unknown }>)
    if (item.value !== undefined) n++;
  return n;
}

function line(kind: string, name: string, m: Measure): string {
  const mb = m.bytes / 1048576;
  return `${kind.padEnd(6)} ${name.padEnd(12)} ${m.records.toLocaleString("en-US").padStart(11)} records ${mb.toFixed(0).padStart(6)} MB ${m.seconds.toFixed(1).padStart(7)} s ${Math.round(
    m.records / m.seconds,
  )
    .toLocaleString("en-US")
    .padStart(10)} rec/s ${(mb / m.seconds).toFixed(1).padStart(6)} MB/s`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const csvFiles = ["rate-puf.csv", "benefits-and-cost-sharing-puf.csv"].map((f) => path.join(args.source, f));
  const issuers = readdirSync(path.join(args.source, "mr")).sort().slice(0, args.issuers);
  const jsonFiles = issuers.flatMap((i) =>
    ["drugs.json", "providers.json"].map((f) => path.join(args.source, "mr", i, f)),
  );
  const contenders = [
    { kind: "csv", name: "hand-written", files: csvFiles, run: handCsv },
    { kind: "csv", name: "csv-parse", files: csvFiles, run: csvParseCount },
    { kind: "json", name: "hand-written", files: jsonFiles, run: handJson },
    { kind: "json", name: "stream-json", files: jsonFiles, run: streamJsonCount },
  ];
  const totals = new Map<string, Measure>();
  for (let round = 1; round <= args.rounds; round++) {
    for (const c of contenders) {
      const m = await timed(c.files, c.run);
      console.log(`round ${round} ${line(c.kind, c.name, m)}`);
      const key = `${c.kind}|${c.name}`;
      const t = totals.get(key) ?? { records: 0, bytes: 0, seconds: 0 };
      totals.set(key, { records: t.records + m.records, bytes: t.bytes + m.bytes, seconds: t.seconds + m.seconds });
    }
  }
  console.log("\ntotals over all rounds");
  for (const [key, m] of totals) {
    const [kind, name] = key.split("|");
    console.log(line(kind, name, m));
  }
  for (const [kind, hand, lib] of [
    ["csv", "hand-written", "csv-parse"],
    ["json", "hand-written", "stream-json"],
  ]) {
    const a = totals.get(`${kind}|${hand}`)!;
    const b = totals.get(`${kind}|${lib}`)!;
    if (a.records !== b.records) console.log(`${kind}: record counts differ (${a.records} vs ${b.records})`);
    console.log(
      `${kind}: hand-written is ${(a.records / a.seconds / (b.records / b.seconds)).toFixed(2)}x the speed of ${lib}`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
