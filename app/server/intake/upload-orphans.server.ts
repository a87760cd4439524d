import { promises as fs } from "node:fs";
import path from "node:path";
import { env } from "../platform/env.server";
import { removeUploadObject, s3Client, uploadStorageKind } from "./upload-objects.server";
import { agentUploadRecord } from "./write-store.server";

/**
 * Stored upload files that no row names, found by comparing storage with the write store
 * (decision 510). The request that stored a file removes it when its row is certainly not written
 * (decisions 505, 509), and checks again later when the store could not say. Those later checks
 * live in the process: a file whose check was pending when the process stopped stays. This sweep,
 * run by an operator (`npm run uploads:orphans`), finds such files and, when asked, removes them.
 */

/** Files younger than this are left alone by default: their row may still be on its way. */
export const DEFAULT_MIN_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * When more than this share of the files looked at have no row, nothing is removed unless forced:
 * a write store swapped for another, or restored from an older backup, looks exactly like that.
 */
export const SUSPICIOUS_ORPHAN_SHARE = 0.5;

/** agent-survey-uploads/<docType>/<epoch-millis>-<24-hex id>-<name>, as uploadObjectKey writes it. */
const UPLOAD_KEY = /^agent-survey-uploads\/[a-z_]+\/(\d{13})-([0-9a-f]{24})-[^/]+$/;

export interface OrphanSweep {
  /** Files whose key has the upload key's shape and that are older than the minimum age. */
  examined: number;
  /** Files younger than the minimum age, not looked up. */
  tooRecent: number;
  /** Keys of another shape under the prefix (left alone). */
  unrecognised: string[];
  /** Files no row names, oldest first. */
  orphans: Array<{ key: string; storedAt: string }>;
  /** Files removed (only with `remove`). */
  removed: string[];
  /** Why nothing was removed although asked, when so. */
  refused?: string;
}

/** Every key stored under the uploads' prefix, in S3 or in the local directory. */
async function storedKeys(): Promise<string[]> {
  const config = env();
  if (uploadStorageKind() === "s3") {
    const { client, sdk } = await s3Client();
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({
          Bucket: config.UPLOAD_BUCKET,
          Prefix: "agent-survey-uploads/",
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }
  const root = path.resolve(config.UPLOAD_LOCAL_DIR);
  const base = path.join(root, "agent-survey-uploads");
  let names: string[];
  try {
    names = (await fs.readdir(base, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  // A "<key>.partial" file has the key's shape too: a day old, it is a write a crash cut short, and
  // no row will name it, so it is an orphan like the others.
  return names.map((file) => path.relative(root, file).split(path.sep).join("/"));
}

/**
 * Find the stored files no row names, older than `minAgeMs`; remove them when `remove` is set.
 * The age is read from the key (the time the upload was stored), never from the storage's clock.
 */
export async function sweepOrphanUploads(
  options: { remove?: boolean; force?: boolean; minAgeMs?: number; now?: number } = {},
): Promise<OrphanSweep> {
  const now = options.now ?? Date.now();
  const cutoff = now - (options.minAgeMs ?? DEFAULT_MIN_AGE_MS);
  const sweep: OrphanSweep = { examined: 0, tooRecent: 0, unrecognised: [], orphans: [], removed: [] };
  for (const key of (await storedKeys()).sort()) {
    const parsed = UPLOAD_KEY.exec(key);
    if (!parsed) {
      sweep.unrecognised.push(key);
      continue;
    }
    const storedAt = Number(parsed[1]);
    if (storedAt > cutoff) {
      sweep.tooRecent++;
      continue;
    }
    sweep.examined++;
    // A row with this id that names another key does not name this file.
    const row = await agentUploadRecord(parsed[2]!);
    if (!row || row.objectKey !== key) sweep.orphans.push({ key, storedAt: new Date(storedAt).toISOString() });
  }
  sweep.orphans.sort((a, b) => a.storedAt.localeCompare(b.storedAt));
  if (!options.remove || sweep.orphans.length === 0) return sweep;
  if (!options.force && sweep.orphans.length > 1 && sweep.orphans.length > sweep.examined * SUSPICIOUS_ORPHAN_SHARE) {
    sweep.refused =
      `${sweep.orphans.length} of ${sweep.examined} files have no row: is DATABASE_URL the store these uploads ` +
      "were recorded in? Nothing was removed; run again with --force if it is.";
    return sweep;
  }
  for (const { key } of sweep.orphans) {
    // Asked again just before removing: an upload recorded since the listing keeps its file.
    const row = await agentUploadRecord(UPLOAD_KEY.exec(key)![2]!);
    if (row && row.objectKey === key) continue;
    if (await removeUploadObject(key, "no row names it (npm run uploads:orphans)")) sweep.removed.push(key);
  }
  return sweep;
}
