/**
 * What the plan store says about itself (store_meta, written by the seed
 * pipeline): when it was loaded, from which source, whether it passed the
 * completeness gate and, if not, what is missing. Read for /api/health and
 * the site status, once per store file (keyed by inode and change time), on
 * its own short read-only connection so that the plan-store reader stays as
 * it is.
 */
import Database from "better-sqlite3";
import { statSync } from "node:fs";
import { BoundedCache } from "../platform/cache.server";

export type StoreMetadata = {
  /** When the seed pipeline built the store (ISO 8601), if it recorded it. */
  loadedAt: string | null;
  /** The source directory's name, e.g. "sample" or "cms-2026". */
  source: string | null;
  planYears: number[];
  sample: boolean;
  /** False when the store failed the completeness gate and was loaded with --allow-incomplete. */
  complete: boolean;
  /** One line per failed gate condition (empty when complete). */
  problems: string[];
};

const cache = new BoundedCache<string, StoreMetadata | null>({ limit: 4 });
// Which file version is there, looked up (statSync) at most once a second: /api/health and every
// page ask, and the stat was ~3 % of a health check's server time. A store swapped in shows in its
// metadata within that second (docs/decisions/284).
const versions = new BoundedCache<string, string | null>({ limit: 4, ttlMs: 1_000 });

function fileVersion(file: string): string | null {
  const known = versions.get(file);
  if (known !== undefined) return known;
  let version: string | null;
  try {
    const s = statSync(file);
    version = `${file}|${s.dev}|${s.ino}|${s.mtimeMs}`;
  } catch {
    version = null;
  }
  versions.set(file, version);
  return version;
}

function parseJson<T>(text: string | undefined, fallback: T): T {
  if (text === undefined) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The metadata of the store file at `file`, or null when there is no readable store. */
export function storeMetadata(file: string): StoreMetadata | null {
  const key = fileVersion(file);
  if (key === null) return null;
  const known = cache.get(key);
  if (known !== undefined) return known;
  let meta: StoreMetadata | null;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare("SELECT key, value FROM store_meta").all() as Array<{ key: string; value: string }>;
      const m = new Map(rows.map((r) => [r.key, r.value]));
      const problems = parseJson<Array<{ message?: string }>>(m.get("problems"), []);
      meta = {
        loadedAt: m.get("loaded_at") ?? null,
        source: m.get("source") ?? null,
        planYears: parseJson<number[]>(m.get("plan_years"), []),
        sample: m.get("sample") === "1",
        // Stores built before the gate existed carry no flag: they are not known to be incomplete.
        complete: m.get("complete") !== "0",
        problems: problems.map((p) => String(p.message ?? p)),
      };
    } finally {
      db.close();
    }
  } catch {
    meta = null;
  }
  cache.set(key, meta);
  return meta;
}
