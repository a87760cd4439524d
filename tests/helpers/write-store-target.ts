import path from "node:path";
import Database from "better-sqlite3";
import { numbered as numberedPlaceholders } from "../../db/write-store-ops";
import { startPostgres, type RunningPostgres } from "./engines";

/**
 * The write store a test runs against, on either engine: the DATABASE_URL to
 * give the server, and a way to read what it committed (SQL with `?`
 * placeholders, written to run on both SQLite and PostgreSQL).
 */

export const WRITE_STORE_DIALECTS = ["sqlite", "postgres"] as const;
export type WriteStoreDialect = (typeof WRITE_STORE_DIALECTS)[number];

export interface WriteStoreTarget {
  dialect: WriteStoreDialect;
  databaseUrl: string;
  query<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** The PostgreSQL server (postgres only). */
  postgres?: RunningPostgres;
  stop(): Promise<void>;
}

/** `?` placeholders as PostgreSQL's `$1, $2, ...`: the write store's own (db/write-store-ops.ts). */
export { numberedPlaceholders };

/** A fresh write store: a file in `dir`, or a new database on a PostgreSQL server started for it (or `shared`). */
export async function writeStoreTarget(
  dialect: WriteStoreDialect,
  dir: string,
  shared?: RunningPostgres,
): Promise<WriteStoreTarget> {
  if (dialect === "sqlite") {
    const file = path.join(dir, "app.db");
    return {
      dialect,
      databaseUrl: `file:${file}`,
      async query<T>(sql: string, ...params: unknown[]) {
        const db = new Database(file, { readonly: true });
        try {
          return db.prepare(sql).all(...params) as T[];
        } finally {
          db.close();
        }
      },
      async stop() {},
    };
  }
  const server = shared ?? (await startPostgres());
  const databaseUrl = await server.createDatabase();
  return {
    dialect,
    databaseUrl,
    postgres: server,
    query: <T>(sql: string, ...params: unknown[]) => server.query<T>(databaseUrl, numberedPlaceholders(sql), params),
    async stop() {
      if (!shared) await server.stop();
    },
  };
}
