/**
 * SQL DDL for the plan store, derived from the drizzle schema in
 * db/plan-store.ts (the one source of truth) so that the two cannot drift.
 * Tables are created before the bulk load; secondary indexes after it, which
 * is much faster than maintaining them row by row.
 */
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { planStoreTables } from "./plan-store";

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

export type PlanStoreDdl = {
  /** CREATE TABLE statements, primary keys included. */
  tables: string[];
  /** CREATE INDEX statements, to run after the bulk insert. */
  indexes: string[];
};

export function tableDdl(table: SQLiteTable): { create: string; indexes: string[] } {
  const config = getTableConfig(table);
  const lines = config.columns.map((column) => {
    let line = `${q(column.name)} ${column.getSQLType()}`;
    if (column.primary) line += " PRIMARY KEY";
    if (column.notNull && !column.primary) line += " NOT NULL";
    return line;
  });
  for (const pk of config.primaryKeys) {
    lines.push(`PRIMARY KEY (${pk.columns.map((c) => q(c.name)).join(", ")})`);
  }
  const create = `CREATE TABLE ${q(config.name)} (\n  ${lines.join(",\n  ")}\n)`;
  const indexes = config.indexes.map((ix) => {
    const cols = ix.config.columns.map((c) => q((c as { name: string }).name)).join(", ");
    return `CREATE ${ix.config.unique ? "UNIQUE " : ""}INDEX ${q(ix.config.name)} ON ${q(config.name)} (${cols})`;
  });
  return { create, indexes };
}

export function planStoreDdl(): PlanStoreDdl {
  const tables: string[] = [];
  const indexes: string[] = [];
  for (const table of planStoreTables) {
    const ddl = tableDdl(table);
    tables.push(ddl.create);
    indexes.push(...ddl.indexes);
  }
  return { tables, indexes };
}

/** The SQL column names of a table, in schema order. */
export function columnNames(table: SQLiteTable): string[] {
  return getTableConfig(table).columns.map((c) => c.name);
}
