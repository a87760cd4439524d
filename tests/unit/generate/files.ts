/**
 * Test helpers for reading generated files: a small, independent RFC 4180
 * parser (the generator's tests must not lean on the code under test), and
 * directory walking for byte comparisons.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export function parseDelimited(text: string, delimiter = ","): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export type Table = { headers: string[]; rows: Record<string, string>[] };

export function readTable(path: string, delimiter = ","): Table {
  const text = readFileSync(path, "utf8").replace(/^\uFEFF/, "");
  const [headers, ...body] = parseDelimited(text, delimiter);
  const rows = body.map((cells) => {
    if (cells.length !== headers.length)
      throw new Error(`${path}: row of ${cells.length} cells for ${headers.length} headers`);
    return Object.fromEntries(headers.map((h, i) => [h, cells[i]]));
  });
  return { headers, rows };
}

export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

/** "$6,000 " → 6000; "$12000 per group" → 12000; "Not Applicable" → null. */
export function money(text: string): number | null {
  const m = /^\$([0-9,]+(?:\.[0-9]+)?)/.exec(text.trim());
  return m ? Number(m[1].replace(/,/g, "")) : null;
}

/** Round half up to cents, in integers: (cents × thousandths) / 1000. */
export function centsTimesMilli(cents: number, milli: number): number {
  return Math.floor((cents * milli + 500) / 1000);
}

export function toCents(amount: string): number {
  return Math.round(Number(amount) * 100);
}
