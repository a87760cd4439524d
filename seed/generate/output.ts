/**
 * Streaming output for the generator: files are written in chunks as rows
 * are produced, so memory stays flat however large the file (the national
 * provider files run to gigabytes). Also the value formats of the real
 * public files (money as "$6,000", family amounts as "$12000 per group",
 * Rate PUF amounts as plain decimals).
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";

const FLUSH_AT = 1 << 20; // characters buffered before a write

export class ChunkedFileWriter {
  private fd: number;
  private parts: string[] = [];
  private pending = 0;
  bytes = 0;
  lines = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, "w");
  }

  write(text: string): void {
    this.parts.push(text);
    this.pending += text.length;
    if (this.pending >= FLUSH_AT) this.flush();
  }

  line(text: string): void {
    this.write(text + "\n");
    this.lines++;
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    const buf = Buffer.from(this.parts.join(""), "utf8");
    this.parts = [];
    this.pending = 0;
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
    this.bytes += buf.length;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** RFC 4180 quoting: only when the value needs it, as the CMS files do. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A CSV file with a fixed header list. Rows are given as column → value maps
 * (unknown column names throw, so a typo cannot silently drop a value) or as
 * arrays already in header order (the fast path for millions of rows).
 */
export class CsvFile {
  private index = new Map<string, number>();
  private out: ChunkedFileWriter;
  rows = 0;

  constructor(
    path: string,
    readonly headers: readonly string[],
    options: { delimiter?: string; bom?: boolean } = {},
  ) {
    this.delimiter = options.delimiter ?? ",";
    headers.forEach((h, i) => this.index.set(h, i));
    this.out = new ChunkedFileWriter(path);
    this.out.line((options.bom ? "\uFEFF" : "") + headers.map((h) => this.field(h)).join(this.delimiter));
  }

  private readonly delimiter: string;

  private field(value: string): string {
    return this.delimiter === "," ? csvField(value) : value;
  }

  record(values: Readonly<Record<string, string | number>>): void {
    const row = new Array<string>(this.headers.length).fill("");
    for (const [key, value] of Object.entries(values)) {
      const i = this.index.get(key);
      if (i === undefined) throw new Error(`${this.out.path}: no column named ${key}`);
      row[i] = String(value);
    }
    this.array(row);
  }

  array(values: readonly string[]): void {
    if (values.length !== this.headers.length) {
      throw new Error(`${this.out.path}: row has ${values.length} values for ${this.headers.length} columns`);
    }
    this.out.line(values.map((v) => this.field(v)).join(this.delimiter));
    this.rows++;
  }

  close(): { path: string; rows: number; bytes: number } {
    this.out.close();
    return { path: this.out.path, rows: this.rows, bytes: this.out.bytes };
  }
}

/**
 * A JSON array written one element per line: valid JSON, streamable, and
 * small (real issuer files are minified; one element per line keeps a diff
 * of the committed sample readable).
 */
export class JsonArrayFile {
  private out: ChunkedFileWriter;
  items = 0;

  constructor(path: string) {
    this.out = new ChunkedFileWriter(path);
    this.out.write("[");
  }

  push(item: unknown): void {
    this.out.write((this.items === 0 ? "\n" : ",\n") + JSON.stringify(item));
    this.items++;
  }

  close(): { path: string; items: number; bytes: number } {
    this.out.write(this.items === 0 ? "]\n" : "\n]\n");
    this.out.close();
    return { path: this.out.path, items: this.items, bytes: this.out.bytes };
  }
}

// ---------------------------------------------------------------------------
// Value formats of the PY2026 public-use files (puf-formats.md §3–§5).

/** "$6,000" — individual amounts in Plan Attributes, SBC values, copays. */
export function dollars(amount: number): string {
  const whole = Math.round(amount * 100) / 100;
  const [int, frac] = whole.toFixed(2).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac === "00" ? `$${grouped}` : `$${grouped}.${frac}`;
}

/** "$12000 per person" / "$24000 per group" — family amounts, no comma. */
export function familyAmount(amount: number, unit: "person" | "group"): string {
  return `$${Math.round(amount)} per ${unit}`;
}

/** "30.00%" */
export function percent(value: number): string {
  return `${value.toFixed(2)}%`;
}

/**
 * A Rate PUF amount from integer cents: plain decimal, no "$", trailing zero
 * dropped but at least one decimal kept ("298.4", "65.0", "503.92"), as the
 * published rows look.
 */
export function rateAmount(cents: number): string {
  const whole = Math.floor(cents / 100);
  const frac = cents % 100;
  if (frac === 0) return `${whole}.0`;
  if (frac % 10 === 0) return `${whole}.${frac / 10}`;
  return `${whole}.${String(frac).padStart(2, "0")}`;
}

/** Round half up of (cents × milli / 1000) in integers, so no float drift. */
export function mulMilliCents(cents: number, milli: number): number {
  return Math.floor((cents * milli + 500) / 1000);
}
