import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./write-store";
import { BUSY_WAIT_MS, SqliteWriteStore, type WriteStoreDb } from "./write-store-sqlite";
import type { PostgresWriteStore } from "./write-store-postgres";
import { redactUrl } from "./write-store-url";
import type { WriteStoreOps } from "./write-store-ops";

/**
 * Opening the write store: which engine and where (from the DATABASE_URL
 * setting), the SQLite pragmas that make an acknowledged row survive a crash,
 * and the migrations of either engine. No configuration or logging here;
 * app/server/intake/write-store.server.ts wraps this with the settings and
 * the process-wide handle.
 */

export const DEFAULT_DATABASE_URL = "file:./data/app.db";

export type { WriteStoreDb };
/** The store on either engine. */
export type WriteStore = WriteStoreOps;
/** The SQLite store (tests reach its raw connection). */
export type WriteStoreHandle = SqliteWriteStore;

export type WriteStoreLocation =
  | { ok: true; dialect: "sqlite"; file: string }
  | { ok: true; dialect: "postgres"; url: string; display: string }
  | { ok: false; problem: string };

/**
 * Turn the DATABASE_URL setting into an engine and place.
 *   unset                      -> file:./data/app.db
 *   "" (set but empty)         -> problem (never a silent fallback: spec decision 2)
 *   file:./rel, file:/abs, file:///abs, file://localhost/abs, ./rel, /abs -> that SQLite file
 *   postgres://..., postgresql://... -> that PostgreSQL database (decision 190)
 *   anything else (mysql:, :memory:) -> problem naming the setting
 * Relative paths resolve against `cwd` (the directory the server starts in).
 */
export function resolveWriteStoreLocation(raw: string | undefined, cwd: string = process.cwd()): WriteStoreLocation {
  if (raw === undefined) raw = DEFAULT_DATABASE_URL;
  const value = raw.trim();
  if (value === "") {
    return {
      ok: false,
      problem:
        "DATABASE_URL is set but empty; set it to a SQLite file URI such as file:./data/app.db, or unset it to use that default.",
    };
  }
  if (/^postgres(ql)?:\/\//i.test(value)) {
    let host = "";
    try {
      host = new URL(value).hostname;
    } catch {
      return { ok: false, problem: "DATABASE_URL is not a valid postgres:// URL." };
    }
    if (!host) return { ok: false, problem: "DATABASE_URL names no PostgreSQL host." };
    return { ok: true, dialect: "postgres", url: value, display: redactUrl(value) };
  }
  let filePart: string;
  if (/^file:/i.test(value)) {
    let rest = value.slice("file:".length);
    const query = rest.indexOf("?");
    if (query >= 0) rest = rest.slice(0, query);
    if (rest.startsWith("//")) {
      // file://host/path: only the local host is meaningful for SQLite.
      const slash = rest.indexOf("/", 2);
      const host = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
      if (host !== "" && host.toLowerCase() !== "localhost") {
        return {
          ok: false,
          problem: `DATABASE_URL names a file on another host (${host}); the write store must be a local SQLite file.`,
        };
      }
      rest = slash < 0 ? "" : rest.slice(slash);
    }
    try {
      filePart = decodeURIComponent(rest);
    } catch {
      return { ok: false, problem: "DATABASE_URL is not a valid file URI (bad %-escape)." };
    }
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(value) && !/^[a-z]:[\\/]/i.test(value)) {
    const scheme = value.slice(0, value.indexOf(":") + 1);
    return {
      ok: false,
      problem: `DATABASE_URL uses the unsupported scheme "${scheme}"; the write store needs a SQLite file: URI or a postgres:// URL.`,
    };
  } else {
    filePart = value;
  }
  if (filePart === "" || filePart === ":memory:" || filePart.startsWith(":memory:")) {
    return {
      ok: false,
      problem: "DATABASE_URL must name a database file; an in-memory store would lose every submission on restart.",
    };
  }
  return { ok: true, dialect: "sqlite", file: path.resolve(cwd, filePart) };
}

/** The migrations folder of an engine: next to this file in the source tree, or under the working directory. */
export function writeStoreMigrationsFolder(dialect: "sqlite" | "postgres" = "sqlite"): string {
  const name = dialect === "sqlite" ? "write-store" : "write-store-pg";
  const candidates: string[] = [];
  if (dialect === "sqlite" && process.env.WRITE_STORE_MIGRATIONS_DIR)
    candidates.push(process.env.WRITE_STORE_MIGRATIONS_DIR);
  try {
    candidates.push(path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations", name));
  } catch {
    // import.meta.url is not a file URL in some bundles; fall through to cwd.
  }
  candidates.push(path.resolve(process.cwd(), "db", "migrations", name));
  for (const dir of candidates) {
    if (existsSync(path.join(dir, "meta", "_journal.json"))) return dir;
  }
  throw new Error(`write-store migrations not found (looked in ${candidates.join(", ")})`);
}

/**
 * Open (creating if needed) the write store at `file`, with:
 * - WAL, so readers never block the writer and a commit is one append;
 * - synchronous=FULL, so every commit is fsync'd before it returns: a row the
 *   server has acknowledged survives SIGKILL and power loss (NORMAL would only
 *   survive a process crash, not an OS crash);
 * - every pending migration applied, waiting up to 5 s for another process's lock;
 * - then a busy_timeout of BUSY_WAIT_MS only: better-sqlite3 waits for a lock
 *   synchronously, holding the event loop, so a lock held for long (another
 *   process, an operator's open transaction) would stall every request of this
 *   one. The store waits for it asynchronously instead (SqliteWriteStore,
 *   decision 512).
 * Throws when the file cannot be opened or migrated.
 */
export function openWriteStoreFile(file: string, options: { migrationsFolder?: string } = {}): SqliteWriteStore {
  mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file, { timeout: 5000 });
  try {
    const mode = sqlite.pragma("journal_mode = WAL", { simple: true });
    if (String(mode).toLowerCase() !== "wal")
      throw new Error(`could not switch the write store to WAL (journal_mode=${String(mode)})`);
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    const db = drizzle(sqlite, { schema });
    migrate(db, { migrationsFolder: options.migrationsFolder ?? writeStoreMigrationsFolder("sqlite") });
    sqlite.pragma(`busy_timeout = ${BUSY_WAIT_MS}`);
    return new SqliteWriteStore(db, sqlite, file);
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

/**
 * Open the PostgreSQL store and apply its migrations under the advisory lock. The driver (pg,
 * drizzle's node-postgres) is loaded here, on the first open, not at start-up: a SQLite store never
 * loads it (docs/decisions/460).
 */
export async function openWriteStoreDatabase(
  url: string,
  options: { max?: number; onIdleError?: (error: Error) => void } = {},
): Promise<PostgresWriteStore> {
  const { openPostgresWriteStore } = await import("./write-store-postgres");
  return openPostgresWriteStore(url, { ...options, migrationsFolder: writeStoreMigrationsFolder("postgres") });
}
