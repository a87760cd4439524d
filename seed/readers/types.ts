/**
 * The contract every source reader follows. A reader turns one source row
 * (a CSV record or a JSON array element) into zero or more typed records, or
 * says why it skipped the row (placeholder rate, SHOP, dental-only, other plan
 * year …) or rejected it (malformed). It never throws for a bad row; it throws
 * SourceFormatError only when the file as a whole is not the format (required
 * columns missing, not a JSON array).
 */
import type { HeaderMap } from "./csv";

export type Parsed<T> =
  | {
      kind: "row";
      value: T;
      /** Loaded, with a remark counted in the report (e.g. a field recorded as missing). */ note?: string;
    }
  | { kind: "skip"; reason: string; subject?: SkippedPlan }
  | { kind: "reject"; reason: string };

/** A plan the reader skipped as a whole, so that the loader skips its other rows alike. */
export type SkippedPlan = { planId: string; planClass: "shop" | "dental" };

export const row = <T>(value: T, note?: string): Parsed<T> =>
  note ? { kind: "row", value, note } : { kind: "row", value };
export const skip = (reason: string): Parsed<never> => ({ kind: "skip", reason });
export const reject = (reason: string): Parsed<never> => ({ kind: "reject", reason });

/** The file is not in the expected format at all; the load stops. */
export class SourceFormatError extends Error {
  constructor(
    public readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = "SourceFormatError";
  }
}

export type ReaderOptions = {
  /** The plan year being loaded; rows of another BusinessYear are skipped. */
  year?: number;
  /** Filled by yearCheck: how many rows carry each BusinessYear (runCsv refuses a file without `year`). */
  yearsSeen?: Map<number, number>;
};

/** A CSV format: which columns it needs and how to parse a record. */
export type CsvFormat<T> = {
  /** Short name recorded in the data-version table ("rate-puf", …). */
  name: string;
  delimiter?: string;
  /** Logical columns that must be present; each entry lists accepted header names. */
  required: string[][];
  /**
   * For files published with or without a header line: given the first
   * record, the column names to use when that record is data (no header), or
   * null when it is the header.
   */
  headerless?: (first: string[]) => string[] | null;
  /** Builds the row parser for a header (column positions resolved once). */
  create(header: HeaderMap, options: ReaderOptions): (fields: string[]) => Parsed<T> | Parsed<T>[];
};

/** Column accessor: returns "" for a column that is absent or a field missing at the row end. */
export function column(header: HeaderMap, ...aliases: string[]): (fields: string[]) => string {
  const i = header.find(...aliases);
  if (i === -1) return () => "";
  return (fields) => {
    const v = fields[i];
    return v === undefined ? "" : v.trim();
  };
}

/**
 * Like column(), over several columns that mean the same thing: the first
 * non-empty value. A merged file may carry both `DentalOnlyPlan` (PY2016+)
 * and `DentalOnly` (older years), one of them empty on each row.
 */
export function firstFilled(header: HeaderMap, ...aliases: string[]): (fields: string[]) => string {
  const getters = aliases.filter((a) => header.has(a)).map((a) => column(header, a));
  if (getters.length <= 1) return getters[0] ?? (() => "");
  return (fields) => {
    for (const g of getters) {
      const v = g(fields);
      if (v !== "") return v;
    }
    return "";
  };
}

/** Shared BusinessYear check: skip rows of another plan year than the one loaded. */
export function yearCheck(header: HeaderMap, options: ReaderOptions): (fields: string[]) => Parsed<never> | null {
  const get = column(header, "BusinessYear");
  if (options.year === undefined || !header.has("BusinessYear")) return () => null;
  const wanted = String(options.year);
  const seen = options.yearsSeen;
  return (fields) => {
    const y = get(fields);
    if (seen && /^[0-9]{4}$/.test(y)) seen.set(Number(y), (seen.get(Number(y)) ?? 0) + 1);
    if (y === wanted) return null;
    if (!/^[0-9]{4}$/.test(y)) return reject("malformed BusinessYear");
    return skip(`other plan year (${y})`);
  };
}

/** Skips SHOP and dental-only rows (puf-formats.md §0.6). */
export function marketCheck(header: HeaderMap): (fields: string[]) => Parsed<never> | null {
  const market = column(header, "MarketCoverage");
  const dental = firstFilled(header, "DentalOnlyPlan", "DentalOnly");
  return (fields) => {
    const m = market(fields).toLowerCase();
    if (m.startsWith("shop")) return skip("SHOP (small group) row");
    if (dental(fields).toLowerCase() === "yes") return skip("dental-only row");
    return null;
  };
}
