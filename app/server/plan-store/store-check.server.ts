/**
 * Checks a plan store file before it replaces the live one, when it did not
 * come from this machine's seed pipeline (a downloaded published version,
 * decision 290; a file about to be published). The same conditions a reseed's
 * gate applies (seed/gate.ts), plus what a copy can get wrong on the way: the
 * bytes (sha256 and size against the version marker), SQLite's own structure
 * (quick_check) and the schema version this build reads.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { PLAN_STORE_SCHEMA_VERSION } from "../../../db/plan-store";
import { DEFAULT_MIN_RATIO, checkCompleteness, checkShrink } from "../../../seed/gate";

export interface StoreFacts {
  builtAt: string | null;
  years: number[];
  sample: boolean;
  complete: boolean;
  /** Row counts per table, from the seed report stored in the file. */
  counts: Record<string, number>;
}

export interface StoreCheckOptions {
  /** The live store to compare counts with (the gate's shrink check); none = not compared. */
  currentPath?: string;
  /** Skip the shrink check (the publisher accepted a smaller store on purpose). */
  shrinkAccepted?: boolean;
}

export interface StoreCheckResult {
  problems: string[];
  facts: StoreFacts | null;
}

function parseJson<T>(text: string | undefined, fallback: T): T {
  if (text === undefined) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/**
 * Problems that must keep `file` out of service (empty when none), and what it
 * says about itself. A store the publisher loaded with --allow-incomplete is
 * marked so and accepted as a local reseed would accept it; one that claims to
 * be complete and is not is refused.
 */
export function checkStoreFile(file: string, options: StoreCheckOptions = {}): StoreCheckResult {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    return { problems: [`cannot be opened: ${error instanceof Error ? error.message : String(error)}`], facts: null };
  }
  try {
    const integrity = db.pragma("quick_check", { simple: true });
    if (integrity !== "ok") return { problems: [`SQLite quick_check: ${String(integrity)}`], facts: null };
    const meta = new Map(
      (db.prepare("SELECT key, value FROM store_meta").all() as Array<{ key: string; value: string }>).map((r) => [
        r.key,
        r.value,
      ]),
    );
    const schemaVersion = Number(meta.get("schema_version"));
    if (schemaVersion !== PLAN_STORE_SCHEMA_VERSION)
      return {
        problems: [
          `schema version ${meta.get("schema_version") ?? "none"}, this build reads ${PLAN_STORE_SCHEMA_VERSION}`,
        ],
        facts: null,
      };
    const facts: StoreFacts = {
      builtAt: meta.get("loaded_at") ?? null,
      years: parseJson<number[]>(meta.get("plan_years"), []),
      sample: meta.get("sample") === "1",
      complete: meta.get("complete") !== "0",
      counts: parseJson<{ tables?: Record<string, number> }>(meta.get("report"), {}).tables ?? {},
    };
    const problems: string[] = [];
    if (facts.years.length === 0) problems.push("no plan years recorded (store_meta plan_years)");
    if (facts.complete) problems.push(...checkCompleteness(db, facts.years).map((p) => p.message));
    if (options.currentPath && !options.shrinkAccepted)
      problems.push(...checkShrink(db, options.currentPath, DEFAULT_MIN_RATIO).map((p) => p.message));
    return { problems, facts };
  } catch (error) {
    return { problems: [`cannot be read: ${error instanceof Error ? error.message : String(error)}`], facts: null };
  } finally {
    db.close();
  }
}

/** The sha256 (hex) and size of a file, read as a stream. */
export async function fileDigest(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), size };
}
