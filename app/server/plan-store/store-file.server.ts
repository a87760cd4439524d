/**
 * The open store file and its swapping. A reseed renames a new file over the
 * old one; at most once per check interval the reader compares the file's
 * inode with the one it has open and, when they differ, opens the new file
 * and closes the old handle once no call is using it (a lease per call).
 * Every call therefore answers wholly from one store version
 * (docs/decisions/025).
 */
import Database from "better-sqlite3";
import { statSync } from "node:fs";
import path from "node:path";
import { drizzle } from "drizzle-orm/better-sqlite3";
import * as schema from "../../../db/plan-store";
import { PLAN_STORE_SCHEMA_VERSION } from "../../../db/plan-store";
import { StoreCache } from "./caches.server";
import { prepareQueries, type Queries } from "./queries.server";

/** The plan store file is missing or was built by an incompatible pipeline. */
export class PlanStoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlanStoreUnavailableError";
  }
}

/** One open store version: its connection, statements and caches, and the calls using it. */
export class StoreHandle {
  readonly sqlite: Database.Database;
  readonly queries: Queries;
  readonly sample: boolean;
  readonly cache = new StoreCache();
  leases = 0;
  retired = false;

  constructor(
    readonly file: string,
    readonly ino: number,
    readonly dev: number,
  ) {
    this.sqlite = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const db = drizzle(this.sqlite, { schema });
      this.queries = prepareQueries(db);
      const meta = new Map(this.queries.meta.all().map((r) => [r.key, r.value]));
      const version = Number(meta.get("schema_version"));
      if (version !== PLAN_STORE_SCHEMA_VERSION) {
        throw new PlanStoreUnavailableError(
          `plan store ${file} has schema version ${meta.get("schema_version") ?? "none"}, expected ${PLAN_STORE_SCHEMA_VERSION}: run npm run seed`,
        );
      }
      this.sample = meta.get("sample") === "1";
    } catch (error) {
      this.sqlite.close();
      if (error instanceof PlanStoreUnavailableError) throw error;
      throw new PlanStoreUnavailableError(
        `plan store ${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  close(): void {
    if (this.sqlite.open) this.sqlite.close();
  }
}

export type PlanStoreOptions = {
  /** How often, at most, to look for a swapped-in store file (ms). Default 1000. */
  checkIntervalMs?: number;
};

/** The store file at `path`, reopened when a reseed swapped in a new one. */
export class StoreFile {
  private current: StoreHandle | undefined;
  private lastCheck = 0;
  private closed = false;
  readonly path: string;
  private readonly checkIntervalMs: number;

  constructor(file: string, options: PlanStoreOptions = {}) {
    this.path = path.resolve(file);
    this.checkIntervalMs = options.checkIntervalMs ?? 1000;
  }

  /** The open handle, reopening when the file on disk was replaced (checked at most once per interval). */
  private handle(): StoreHandle {
    if (this.closed) throw new PlanStoreUnavailableError("plan store is closed");
    const now = Date.now();
    if (this.current && now - this.lastCheck < this.checkIntervalMs) return this.current;
    this.lastCheck = now;
    let stat: { ino: number; dev: number } | undefined;
    try {
      stat = statSync(this.path);
    } catch {
      stat = undefined;
    }
    if (!stat) {
      // Between unlink and rename nothing is missing (rename is atomic), so
      // a missing file means no store at all; keep serving an open one.
      if (this.current) return this.current;
      throw new PlanStoreUnavailableError(
        `plan store not found at ${this.path}: run npm run seed (or npm run seed:sample)`,
      );
    }
    if (!this.current || stat.ino !== this.current.ino || stat.dev !== this.current.dev) {
      let next: StoreHandle;
      try {
        next = new StoreHandle(this.path, stat.ino, stat.dev);
      } catch (error) {
        if (this.current) return this.current; // keep the working store
        throw error;
      }
      const old = this.current;
      this.current = next;
      if (old) this.retire(old);
    }
    return this.current;
  }

  private retire(h: StoreHandle): void {
    h.retired = true;
    if (h.leases === 0) h.close();
  }

  /** Runs `fn` on one store version; a swapped-out handle closes after its last user. */
  use<T>(fn: (q: Queries, h: StoreHandle) => T): T {
    const h = this.handle();
    h.leases++;
    try {
      return fn(h.queries, h);
    } finally {
      h.leases--;
      if (h.retired && h.leases === 0) h.close();
    }
  }

  /** Whether a readable store is present. */
  available(): boolean {
    try {
      this.handle();
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.closed = true;
    if (this.current) this.retire(this.current);
    this.current = undefined;
  }
}
