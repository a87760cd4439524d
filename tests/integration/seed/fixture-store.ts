/** Shared by the seed integration tests: copies of the fixture source directory and store digests. */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const REPO = path.resolve(__dirname, "../../..");
export const FIXTURE_SOURCE = path.join(REPO, "tests/fixtures/seed/py2027");

const created: string[] = [];

/** A private copy of the fixture source directory (tests may change it). */
export function copyFixtureSource(prefix = "seed-src-"): string {
  const dir = tempDir(prefix);
  cpSync(FIXTURE_SOURCE, dir, { recursive: true });
  return dir;
}

/** A fresh temporary directory, removed by removeTempDirs(). */
export function tempDir(prefix = "seed-out-"): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Removes every directory made by tempDir() / copyFixtureSource() in this test file. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Rewrites a text file in place. */
export function edit(file: string, change: (text: string) => string): void {
  writeFileSync(file, change(readFileSync(file, "utf8")));
}

/**
 * A digest of every row of every table, in primary-key / rowid order; the
 * load time (data_versions.loaded_at, store_meta loaded_at) and the source
 * directory's name are left out.
 */
export function storeDigest(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const hash = createHash("sha256");
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{
      name: string;
    }>;
    for (const { name } of tables) {
      hash.update(`#${name}\n`);
      for (const row of db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all() as Array<Record<string, unknown>>) {
        if (name === "data_versions") delete row.loaded_at;
        if (name === "store_meta" && (row.key === "loaded_at" || row.key === "source")) continue;
        hash.update(JSON.stringify(row) + "\n");
      }
    }
    const schema = db.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").all();
    hash.update(JSON.stringify(schema));
    return hash.digest("hex");
  } finally {
    db.close();
  }
}

export function tableCounts(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{
      name: string;
    }>;
    return Object.fromEntries(
      tables.map(({ name }) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]),
    );
  } finally {
    db.close();
  }
}
