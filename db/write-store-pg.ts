import { getTableConfig, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  bigint,
  boolean,
  index,
  pgTable,
  text,
  uniqueIndex,
  type PgColumnBuilderBase,
  type PgTableWithColumns,
} from "drizzle-orm/pg-core";
import * as sqliteSchema from "./write-store";

/**
 * The write store's PostgreSQL tables, DERIVED from the one schema definition
 * in db/write-store.ts (decision 190): every SQLite table, column, default,
 * primary key, unique constraint and index is carried over, so the two
 * dialects cannot drift. Type mapping:
 *   text               -> text
 *   integer            -> bigint (mode number): times are epoch milliseconds,
 *                         past PostgreSQL's 32-bit integer
 *   integer (boolean)  -> boolean
 *
 * Change db/write-store.ts, then generate both migrations:
 *   npx drizzle-kit generate --dialect sqlite --schema db/write-store.ts --out db/migrations/write-store --name <what>
 *   npx drizzle-kit generate --dialect postgresql --schema db/write-store-pg.ts --out db/migrations/write-store-pg --name <what>
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyPgTable = PgTableWithColumns<any>;

function pgColumn(column: SQLiteColumn): PgColumnBuilderBase {
  let builder;
  switch (column.columnType) {
    case "SQLiteText":
      builder = text(column.name);
      break;
    case "SQLiteInteger":
    case "SQLiteTimestamp":
      builder = bigint(column.name, { mode: "number" });
      break;
    case "SQLiteBoolean":
      builder = boolean(column.name);
      break;
    default:
      throw new Error(`write store: no PostgreSQL type for ${column.name} (${column.columnType})`);
  }
  let b = builder as ReturnType<typeof text>;
  if (column.primary) b = b.primaryKey() as typeof b;
  if (column.notNull && !column.primary) b = b.notNull() as typeof b;
  if (column.hasDefault && column.default !== undefined) b = b.default(column.default as string) as typeof b;
  if (column.isUnique) b = b.unique(column.uniqueName) as typeof b;
  return b;
}

function derive(table: SQLiteTable): AnyPgTable {
  const config = getTableConfig(table);
  const columns: Record<string, PgColumnBuilderBase> = {};
  const propertyOf = new Map<string, string>();
  for (const [property, column] of Object.entries(table as unknown as Record<string, SQLiteColumn>)) {
    if (!config.columns.includes(column)) continue;
    columns[property] = pgColumn(column);
    propertyOf.set(column.name, property);
  }
  return pgTable(config.name, columns, (t) =>
    config.indexes.map((ix) => {
      const cols = ix.config.columns.map((c) => {
        const property = propertyOf.get((c as SQLiteColumn).name);
        if (!property) throw new Error(`write store: index ${ix.config.name} names an unknown column`);
        return (t as Record<string, never>)[property];
      });
      const [first, ...rest] = cols;
      return (ix.config.unique ? uniqueIndex(ix.config.name) : index(ix.config.name)).on(first!, ...rest);
    }),
  ) as AnyPgTable;
}

export const waitlistSubmissions = derive(sqliteSchema.waitlistSubmissions);
export const agentDiscoverySubmissions = derive(sqliteSchema.agentDiscoverySubmissions);
export const agentUploads = derive(sqliteSchema.agentUploads);
export const enrollmentApplications = derive(sqliteSchema.enrollmentApplications);
export const unsubscribes = derive(sqliteSchema.unsubscribes);
export const idempotentRequests = derive(sqliteSchema.idempotentRequests);
export const emailOutbox = derive(sqliteSchema.emailOutbox);
