import { closeSync, fsyncSync, openSync, readdirSync, unlinkSync } from "node:fs";
import path from "node:path";

/**
 * File steps shared by the two writers of a plan store file: the seed's load
 * (seed/build-store.ts) and a process taking a published store from S3
 * (app/server/plan-store/store-sync.server.ts). Both write `<store>.tmp-<pid>`
 * next to the store, fsync it, and rename it over the store.
 */

/** Whether a process with this id still runs (EPERM: it runs as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes `<store>.tmp-<pid>` files left by writers that died (their process is gone). */
export function removeStaleTemporaries(storePath: string): void {
  const dir = path.dirname(storePath);
  const prefix = `${path.basename(storePath)}.tmp-`;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!Number.isInteger(pid) || pid === process.pid || pidAlive(pid)) continue;
    try {
      unlinkSync(path.join(dir, name));
    } catch {
      // Another writer removed it first.
    }
  }
}

/** fsync a file or a directory (a rename is durable once its directory is synced). */
export function fsyncPath(p: string): void {
  const fd = openSync(p, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
