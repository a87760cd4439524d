/**
 * Drives a reader over a file: streams it, parses each row, hands good rows to
 * a sink and counts what was read, loaded, skipped and rejected (with reasons
 * and the first few line numbers), plus the file's SHA-256 and size.
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { HeaderMap, csvRecordBatches, sniffDelimiterOf } from "./csv";
import { contentSize } from "./zip";
import { JsonStreamError, jsonArrayElementBatches } from "./json-stream";
import type { JsonFormat } from "./machine-readable";
import { SourceFormatError, type CsvFormat, type Parsed, type ReaderOptions, type SkippedPlan } from "./types";

export type RejectReason = { count: number; lines: number[] };

export type FileReport = {
  /** Path relative to the source directory, "/"-separated. */
  file: string;
  format: string;
  planYear: number | null;
  bytes: number;
  checksum: string;
  rowsRead: number;
  rowsLoaded: number;
  rowsSkipped: number;
  rowsRejected: number;
  skipReasons: Record<string, number>;
  rejectReasons: Record<string, RejectReason>;
  /** Rows loaded with a remark (a field recorded as missing, a county code mapped …), by remark. */
  notes: Record<string, number>;
};

/** What a sink says about a parsed row: loaded (undefined), or skipped / rejected with a reason. */
export type SinkResult = void | { skip: string } | { reject: string } | { note: string };

export type FileProgress = { file: string; bytesRead: number; totalBytes: number; rowsRead: number };

export type RunOptions = ReaderOptions & {
  /** Name recorded in the report (relative path). */
  label?: string;
  onProgress?: (progress: FileProgress) => void;
  /** Read a file without rows of `year` as empty instead of refusing it (several years in one directory). */
  yearMayBeAbsent?: boolean;
  /** Called for whole-plan skips (SHOP, dental-only) named by a reader. */
  onSkippedPlan?: (plan: SkippedPlan) => void;
};

const MAX_LINES_PER_REASON = 10;

export class FileCounter {
  readonly report: FileReport;
  constructor(file: string, format: string, planYear: number | null, bytes: number) {
    this.report = {
      file,
      format,
      planYear,
      bytes,
      checksum: "",
      rowsRead: 0,
      rowsLoaded: 0,
      rowsSkipped: 0,
      rowsRejected: 0,
      skipReasons: {},
      rejectReasons: {},
      notes: {},
    };
  }
  noted(remark: string, n = 1): void {
    this.report.notes[remark] = (this.report.notes[remark] ?? 0) + n;
  }
  read(): void {
    this.report.rowsRead++;
  }
  loaded(n = 1): void {
    this.report.rowsLoaded += n;
  }
  skipped(reason: string): void {
    this.report.rowsSkipped++;
    this.report.skipReasons[reason] = (this.report.skipReasons[reason] ?? 0) + 1;
  }
  rejected(reason: string, line: number): void {
    this.report.rowsRejected++;
    const r = (this.report.rejectReasons[reason] ??= { count: 0, lines: [] });
    r.count++;
    if (r.lines.length < MAX_LINES_PER_REASON) r.lines.push(line);
  }
  /** Moves rows counted as loaded to a skip reason (e.g. duplicates removed after insert). */
  reclassifyLoaded(reason: string, n: number): void {
    if (n <= 0) return;
    this.report.rowsLoaded -= n;
    this.report.rowsSkipped += n;
    this.report.skipReasons[reason] = (this.report.skipReasons[reason] ?? 0) + n;
  }
}

function apply<T>(
  counter: FileCounter,
  parsed: Parsed<T>,
  line: number,
  sink: (value: T, line: number) => SinkResult,
  options: RunOptions,
): void {
  counter.read();
  if (parsed.kind === "row") {
    const result = sink(parsed.value, line);
    if (!result || "note" in result) {
      counter.loaded();
      if (parsed.note) counter.noted(parsed.note);
      if (result) counter.noted(result.note);
    } else if ("skip" in result) counter.skipped(result.skip);
    else counter.rejected(result.reject, line);
  } else if (parsed.kind === "skip") {
    counter.skipped(parsed.reason);
    if (parsed.subject) options.onSkippedPlan?.(parsed.subject);
  } else {
    counter.rejected(parsed.reason, line);
  }
}

function throttle(fn: ((p: FileProgress) => void) | undefined): (p: FileProgress, force?: boolean) => void {
  let last = 0;
  return (p, force) => {
    if (!fn) return;
    const now = Date.now();
    if (force || now - last >= 250) {
      last = now;
      fn(p);
    }
  };
}

/** Reads a CSV file with `format`, calling `sink` for every good row. */
export async function runCsv<T>(
  path: string,
  format: CsvFormat<T>,
  options: RunOptions,
  sink: (value: T, line: number) => SinkResult,
): Promise<FileReport> {
  const label = options.label ?? path;
  // Progress runs over the content read (a .zip's data entry uncompressed); the report keeps the file's size.
  const size = await contentSize(path);
  const counter = new FileCounter(label, format.name, options.year ?? null, statSync(path).size);
  const hash = createHash("sha256");
  const delimiter = !format.delimiter || format.delimiter === "auto" ? await sniffDelimiterOf(path) : format.delimiter;
  let bytesRead = 0;
  const progress = throttle(options.onProgress);
  let parseRow: ((fields: string[]) => Parsed<T> | Parsed<T>[]) | null = null;
  let width = 0;
  const yearsSeen = new Map<number, number>();
  for await (const batch of csvRecordBatches(path, { delimiter, hash, onBytes: (b) => (bytesRead += b) })) {
    for (const record of batch) {
      let dataInFirst = false;
      if (parseRow === null) {
        const synthesized = format.headerless?.(record.fields) ?? null;
        dataInFirst = synthesized !== null;
        const header = new HeaderMap(synthesized ?? record.fields);
        const missing = format.required.filter((aliases) => !header.has(...aliases)).map((aliases) => aliases[0]);
        if (missing.length)
          throw new SourceFormatError(label, `not a ${format.name} file: missing column(s) ${missing.join(", ")}`);
        try {
          parseRow = format.create(header, { ...options, yearsSeen });
        } catch (error) {
          throw new SourceFormatError(label, error instanceof Error ? error.message : String(error));
        }
        width = Math.max(record.fields.length, synthesized?.length ?? 0);
        if (!dataInFirst) continue;
      }
      if (record.malformed) {
        counter.read();
        counter.rejected(record.malformed, record.line);
        continue;
      }
      if (record.fields.length > width && record.fields.slice(width).some((v) => v.trim() !== "")) {
        counter.read();
        counter.rejected("more fields than the header", record.line);
        continue;
      }
      const parsed = parseRow(record.fields);
      if (Array.isArray(parsed)) for (const p of parsed) apply(counter, p, record.line, sink, options);
      else apply(counter, parsed, record.line, sink, options);
    }
    progress({ file: label, bytesRead, totalBytes: size, rowsRead: counter.report.rowsRead });
  }
  if (parseRow === null) throw new SourceFormatError(label, "empty file (no header row)");
  // A file of another plan year than the one asked for is refused, not loaded as "no rows".
  if (options.year !== undefined && !options.yearMayBeAbsent && yearsSeen.size > 0 && !yearsSeen.has(options.year)) {
    const found = [...yearsSeen.keys()].sort((a, b) => a - b);
    throw new SourceFormatError(
      label,
      `no rows of plan year ${options.year}: its rows are of plan year${found.length === 1 ? "" : "s"} ${found.join(", ")}`,
    );
  }
  progress({ file: label, bytesRead, totalBytes: size, rowsRead: counter.report.rowsRead }, true);
  counter.report.checksum = hash.digest("hex");
  return counter.report;
}

/**
 * Reads a JSON array file with `format`. A file that is not a JSON array is
 * recorded as one rejected row (issuer files are often broken; one bad issuer
 * file must not stop the load); the row number is the element index + 1.
 */
export async function runJson<T>(
  path: string,
  format: JsonFormat<T>,
  options: RunOptions,
  sink: (value: T, line: number) => SinkResult,
): Promise<FileReport> {
  const label = options.label ?? path;
  const size = statSync(path).size;
  const counter = new FileCounter(label, format.name, options.year ?? null, size);
  const hash = createHash("sha256");
  let bytesRead = 0;
  const progress = throttle(options.onProgress);
  try {
    for await (const batch of jsonArrayElementBatches(path, { hash, onBytes: (b) => (bytesRead += b) })) {
      for (const element of batch) {
        if (element.error) {
          counter.read();
          counter.rejected(element.error, element.index + 1);
          continue;
        }
        const results = format.parse(element.value, options);
        if (results.length === 0) {
          counter.read();
          counter.skipped("entry without plans");
        }
        for (const parsed of results) apply(counter, parsed, element.index + 1, sink, options);
      }
      progress({ file: label, bytesRead, totalBytes: size, rowsRead: counter.report.rowsRead });
    }
  } catch (error) {
    if (!(error instanceof JsonStreamError)) throw error;
    counter.read();
    counter.rejected(`unreadable file: ${error.message}`, 0);
  }
  progress({ file: label, bytesRead, totalBytes: size, rowsRead: counter.report.rowsRead }, true);
  counter.report.checksum = bytesRead === size ? hash.digest("hex") : await fileChecksum(path);
  return counter.report;
}

async function fileChecksum(path: string): Promise<string> {
  const { createReadStream } = await import("node:fs");
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Every parsed row of a CSV file, for tests and small files: { rows, skips, rejects, report }. */
export async function collectCsv<T>(path: string, format: CsvFormat<T>, options: RunOptions = {}) {
  const rows: Array<{ line: number; value: T }> = [];
  const report = await runCsv(path, format, options, (value, line) => {
    rows.push({ line, value });
  });
  return { rows: rows.map((r) => r.value), lines: rows.map((r) => r.line), report };
}

export async function collectJson<T>(path: string, format: JsonFormat<T>, options: RunOptions = {}) {
  const rows: T[] = [];
  const report = await runJson(path, format, options, (value) => {
    rows.push(value);
  });
  return { rows, report };
}
