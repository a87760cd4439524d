/**
 * Streaming CSV / pipe-delimited reader. Reads a file in chunks, so memory
 * does not grow with file size; handles a UTF-8 BOM, CRLF line ends, quoted
 * fields with delimiters, doubled quotes and line breaks inside them, and
 * Latin-1 files (older PUFs), detected from the first 64 KB.
 *
 * A record longer than MAX_RECORD_CHARS (an unterminated quote, most likely)
 * is reported as malformed and reading resumes at the next line, so one bad
 * quote can neither swallow the rest of the file nor exhaust memory.
 */
import { openSync, readSync, closeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { Hash } from "node:crypto";
import { headBytes, openBytes } from "./zip";

export type CsvRecord = {
  /** 1-based physical line on which the record starts (the header is line 1). */
  line: number;
  fields: string[];
  /** Set when the record could not be parsed (e.g. an unterminated quote). */
  malformed?: string;
};

export type CsvReadOptions = {
  delimiter?: string;
  /** Called with the byte count of each chunk as it is read. */
  onBytes?: (bytes: number) => void;
  /** Updated with every raw byte (for the data-version checksum). */
  hash?: Hash;
  chunkSize?: number;
};

export const MAX_RECORD_CHARS = 1_000_000;
const QUOTE = 34;

/** "utf8" unless the first 64 KB are not valid UTF-8, then "latin1". */
export function sniffEncoding(path: string): "utf8" | "latin1" {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(65536);
    return encodingOf(buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)));
  } finally {
    closeSync(fd);
  }
}

/** "utf8" unless `head` (a file's first bytes) is not valid UTF-8, then "latin1". */
export function encodingOf(head: Buffer): "utf8" | "latin1" {
  let slice = head;
  // Do not judge a multi-byte sequence cut at the end of the sample.
  let cut = 0;
  while (cut < 3 && slice.length - cut > 0 && (slice[slice.length - 1 - cut] & 0xc0) === 0x80) cut++;
  if (slice.length - cut > 0 && slice[slice.length - 1 - cut] >= 0xc0)
    slice = slice.subarray(0, slice.length - 1 - cut);
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(slice);
    return "utf8";
  } catch {
    return "latin1";
  }
}

type ParseResult = { fields: string[]; next: number; newlines: number } | null;

/**
 * Parses one record that contains a quote, starting at `start`. Returns null
 * when the buffer ends before the record does (and `eof` is false).
 */
function parseQuotedRecord(s: string, start: number, delim: string, eof: boolean): ParseResult {
  const fields: string[] = [];
  let i = start;
  let newlines = 0;
  const n = s.length;
  for (;;) {
    if (i < n && s.charCodeAt(i) === QUOTE) {
      // Quoted field.
      let value = "";
      let k = i + 1;
      for (;;) {
        const q = s.indexOf('"', k);
        if (q === -1) {
          if (!eof) return null;
          // Unterminated quote at end of file.
          value += s.slice(k);
          newlines += countNewlines(s, k, n);
          fields.push(value);
          return { fields, next: n, newlines: -1 - newlines };
        }
        newlines += countNewlines(s, k, q);
        value += s.slice(k, q);
        if (q + 1 < n && s.charCodeAt(q + 1) === QUOTE) {
          value += '"';
          k = q + 2;
          continue;
        }
        if (q + 1 >= n && !eof) return null; // might be a doubled quote split by the chunk
        i = q + 1;
        break;
      }
      // Text after the closing quote up to the delimiter is kept (lenient).
      let j = i;
      while (j < n) {
        const c = s[j];
        if (c === delim || c === "\n" || c === "\r") break;
        j++;
      }
      if (j > i) value += s.slice(i, j);
      fields.push(value);
      i = j;
    } else {
      let j = i;
      while (j < n) {
        const c = s[j];
        if (c === delim || c === "\n" || c === "\r") break;
        j++;
      }
      fields.push(s.slice(i, j));
      i = j;
    }
    if (i >= n) {
      if (!eof) return null;
      return { fields, next: n, newlines };
    }
    const c = s[i];
    if (c === delim) {
      i++;
      if (i >= n && !eof) return null;
      if (i >= n) {
        fields.push("");
        return { fields, next: n, newlines };
      }
      continue;
    }
    // End of record: \n, \r\n or a lone \r.
    if (c === "\r") {
      if (i + 1 >= n && !eof) return null;
      if (i + 1 < n && s[i + 1] === "\n") i++;
    }
    return { fields, next: i + 1, newlines: newlines + 1 };
  }
}

function countNewlines(s: string, from: number, to: number): number {
  let count = 0;
  let p = s.indexOf("\n", from);
  while (p !== -1 && p < to) {
    count++;
    p = s.indexOf("\n", p + 1);
  }
  return count;
}

/**
 * Yields the file's records in batches (one batch per chunk read), the header
 * record included as the first record. Blank lines are skipped.
 */
export async function* csvRecordBatches(path: string, options: CsvReadOptions = {}): AsyncGenerator<CsvRecord[]> {
  const delim = options.delimiter ?? ",";
  const encoding = encodingOf(await headBytes(path, 65536));
  const decoder = new StringDecoder(encoding);
  // A .zip is read through its data entry (zip.ts), as CMS publishes the PUFs.
  const stream = await openBytes(path, options.chunkSize ?? 1 << 20);
  let carry = "";
  let line = 1;
  let first = true;

  const parse = function (text: string, eof: boolean): CsvRecord[] {
    const out: CsvRecord[] = [];
    let s = carry + text;
    if (first && s.length > 0) {
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      first = false;
    }
    let pos = 0;
    const n = s.length;
    // Position of the next quote at or after pos (-1: none left); searched
    // again only once pos has passed it, so quote-free files stay linear.
    let quote = s.indexOf('"');
    while (pos < n) {
      const nl = s.indexOf("\n", pos);
      const lineEnd = nl === -1 ? n : nl;
      if (nl === -1 && !eof) break;
      if (quote !== -1 && quote < pos) quote = s.indexOf('"', pos);
      if (quote === -1 || quote > lineEnd) {
        // Fast path: no quote in this line.
        let end = lineEnd;
        if (end > pos && s.charCodeAt(end - 1) === 13) end--;
        if (end > pos) out.push({ line, fields: s.slice(pos, end).split(delim) });
        pos = nl === -1 ? n : nl + 1;
        line++;
        continue;
      }
      const result = parseQuotedRecord(s, pos, delim, eof);
      if (result === null) {
        if (n - pos > MAX_RECORD_CHARS) {
          // Runaway quote: report it and resynchronise at the next line.
          out.push({ line, fields: [], malformed: "unterminated quoted field" });
          pos = lineEnd === n ? n : lineEnd + 1;
          line++;
          continue;
        }
        break;
      }
      if (result.newlines < 0) {
        out.push({ line, fields: result.fields, malformed: "unterminated quoted field" });
        line += -1 - result.newlines;
      } else {
        out.push({ line, fields: result.fields });
        line += result.newlines;
      }
      pos = result.next;
    }
    carry = pos < n ? s.slice(pos) : "";
    return out;
  };

  for await (const chunk of stream) {
    const buf = chunk as Buffer;
    options.hash?.update(buf);
    options.onBytes?.(buf.length);
    const batch = parse(decoder.write(buf), false);
    if (batch.length) yield batch;
  }
  const rest = decoder.end();
  const last = parse(rest, true);
  if (last.length) yield last;
}

/** One record at a time (convenience for small files and tests). */
export async function* csvRecords(path: string, options: CsvReadOptions = {}): AsyncGenerator<CsvRecord> {
  for await (const batch of csvRecordBatches(path, options)) yield* batch;
}

/** Header lookup by name, case-insensitively and ignoring spaces, underscores and punctuation. */
export function normalizeHeader(name: string): string {
  return name
    .replace(/^\uFEFF/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

export class HeaderMap {
  private readonly index = new Map<string, number>();
  constructor(public readonly names: string[]) {
    names.forEach((name, i) => {
      const key = normalizeHeader(name);
      if (!this.index.has(key)) this.index.set(key, i);
    });
  }
  /** Index of the first of `aliases` present, or -1. */
  find(...aliases: string[]): number {
    for (const alias of aliases) {
      const i = this.index.get(normalizeHeader(alias));
      if (i !== undefined) return i;
    }
    return -1;
  }
  has(...aliases: string[]): boolean {
    return this.find(...aliases) !== -1;
  }
}

/** The delimiter of a file's header line: "|", tab or ",". */
export function sniffDelimiter(path: string): string {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(8192);
    return delimiterOf(buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)));
  } finally {
    closeSync(fd);
  }
}

/** sniffDelimiter for any source file, a .zip included. */
export async function sniffDelimiterOf(path: string): Promise<string> {
  return delimiterOf(await headBytes(path, 8192));
}

/** The delimiter of the first line of `head`: "|", tab or ",". */
export function delimiterOf(head: Buffer): string {
  const text = head.toString("latin1");
  const end = text.indexOf("\n");
  const first = end === -1 ? text : text.slice(0, end);
  const count = (ch: string) => first.split(ch).length - 1;
  const pipes = count("|");
  const tabs = count("\t");
  const commas = count(",");
  if (pipes > commas && pipes >= tabs) return "|";
  if (tabs > commas) return "\t";
  return ",";
}
