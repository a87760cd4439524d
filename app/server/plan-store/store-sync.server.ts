/**
 * Following the published plan store (PLAN_STORE_URL, decision 290). Every
 * server process polls the version marker every PLAN_STORE_POLL_SECONDS; when
 * it names a version this machine's store is not, one process (a lock file
 * next to the store keeps the other workers out) downloads it to a temporary
 * file next to the live one, checks it (sha256 and size against the marker,
 * then ./store-check.server.ts: quick_check, schema version, the seed gate)
 * and renames it over the live file, exactly as a local reseed does. Every
 * process then switches to it between requests (./store-file.server.ts,
 * leases): no request fails.
 *
 * A failed download or check keeps the current store and logs one line; a
 * version refused by its checks is not downloaded again by this process
 * until the marker names another. Next to the store, `<store>.published.json`
 * records which version the file is (and its inode, so that a local reseed
 * over it is noticed and replaced by the published version again).
 */
import { createWriteStream, closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { pipeline } from "node:stream/promises";
import { env } from "../platform/env.server";
import { onShutdown, processSingleton } from "../platform/lifecycle.server";
import { logger } from "../platform/logger.server";
import {
  VersionMarker,
  localPublishedVersion,
  sidecarPath,
  type LocalVersion,
  planStoreS3Client,
  publishedLocation,
  type PublishedLocation,
  type S3Settings,
} from "./published.server";
import { fsyncPath, pidAlive, removeStaleTemporaries } from "../../../db/plan-store-file";
import { checkStoreFile, type StoreCheckOptions, type StoreCheckResult } from "./store-check.server";

const MARKER_TIMEOUT_MS = 10_000;
const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;
/** A version marker is a few hundred bytes of JSON; anything much larger is not one (decision 522). */
const MARKER_MAX_BYTES = 64 * 1024;

/** The object is larger than its marker says: refused as bad bytes, never read to its end (decision 522). */
class LargerThanMarker extends Error {}

export interface SyncSettings extends S3Settings {
  url: string;
  storePath: string;
}

export type SyncOutcome =
  | { result: "current"; version: string }
  | { result: "swapped"; version: string }
  | { result: "busy" }
  | { result: "refused"; version: string; reason: string }
  | { result: "failed"; reason: string };

interface SyncLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const lockPath = (storePath: string) => `${storePath}.sync-lock`;

/** Take the machine-wide sync lock (one downloader per store file); false when a live process holds it. */
function tryLock(storePath: string): boolean {
  const file = lockPath(storePath);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(file, "utf8").trim() || "0");
      // Written between open and write, or held by a live process: not ours to take.
      if (!holder || pidAlive(holder)) return false;
      try {
        unlinkSync(file); // its holder died: take it over
      } catch {
        return false;
      }
    }
  }
  return false;
}

function unlock(storePath: string): void {
  try {
    unlinkSync(lockPath(storePath));
  } catch {
    // Already gone.
  }
}

async function readMarker(settings: SyncSettings, location: PublishedLocation): Promise<VersionMarker> {
  const { client, sdk } = await s3(settings);
  const answer = await client.send(new sdk.GetObjectCommand({ Bucket: location.bucket, Key: location.markerKey }), {
    abortSignal: AbortSignal.timeout(MARKER_TIMEOUT_MS),
  });
  const body = answer.Body as Readable;
  if ((answer.ContentLength ?? 0) > MARKER_MAX_BYTES) {
    body.destroy();
    throw new Error(`version marker ${location.markerKey} is ${answer.ContentLength} bytes, not a marker`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MARKER_MAX_BYTES) {
      body.destroy();
      throw new Error(`version marker ${location.markerKey} is over ${MARKER_MAX_BYTES} bytes, not a marker`);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  const parsed = VersionMarker.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`version marker ${location.markerKey} is malformed: ${parsed.error.message}`);
  return parsed.data;
}

/** One S3 client per process and endpoint (closed on shutdown). */
function s3(settings: S3Settings) {
  return processSingleton(`plan-store-s3:${settings.region}:${settings.endpoint ?? ""}`, async () => {
    const made = await planStoreS3Client(settings);
    onShutdown("plan store s3 client", () => made.client.destroy());
    return made;
  });
}

/**
 * Download `marker`'s file to `tmp`, hashing as it streams; the digest and size it got. An object
 * larger than the marker says is cut off one byte past it (LargerThanMarker): a marker naming the
 * wrong object must not fill the disk the live store and the write store share.
 */
async function download(
  settings: SyncSettings,
  location: PublishedLocation,
  marker: VersionMarker,
  tmp: string,
): Promise<{ sha256: string; size: number }> {
  const { client, sdk } = await s3(settings);
  const answer = await client.send(new sdk.GetObjectCommand({ Bucket: location.bucket, Key: marker.object }), {
    abortSignal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
  });
  if ((answer.ContentLength ?? 0) > marker.size) {
    (answer.Body as Readable).destroy();
    throw new LargerThanMarker(`${marker.object} is ${answer.ContentLength} bytes, the marker says ${marker.size}`);
  }
  const hash = createHash("sha256");
  let size = 0;
  await pipeline(
    answer.Body as Readable,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > marker.size)
          throw new LargerThanMarker(`${marker.object} is over ${marker.size} bytes, the size the marker says`);
        hash.update(chunk);
        yield chunk;
      }
    },
    createWriteStream(tmp, { flags: "wx" }),
  );
  return { sha256: hash.digest("hex"), size };
}

/**
 * checkStoreFile in a worker thread (<BUILD_DIR>/plan-store-check.js next to the compiled server):
 * on a national store the checks read for many seconds, and this process keeps serving meanwhile.
 * Run from the sources (tsx, tests) there is no compiled worker: the checks run here.
 */
function checkOffTheLoop(file: string, options: StoreCheckOptions): Promise<StoreCheckResult> {
  const here = fileURLToPath(import.meta.url);
  const script = path.join(path.dirname(here), "plan-store-check.js");
  if (here.endsWith(".ts") || !existsSync(script)) return Promise.resolve(checkStoreFile(file, options));
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: { file, options } });
    worker.once("message", (result: StoreCheckResult) => resolve(result));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the store check stopped (exit ${code})`)));
  });
}

/** Versions this process refused (bad bytes or failed checks): not fetched again until the marker moves on. */
const refused = new Map<string, string>();

/**
 * One look at the marker and, when it names another version, one download,
 * check and swap. Never throws: the outcome says what happened.
 */
export async function syncPublishedStore(settings: SyncSettings): Promise<SyncOutcome> {
  const storePath = path.resolve(settings.storePath);
  let location: PublishedLocation;
  let marker: VersionMarker;
  try {
    location = publishedLocation(settings.url);
    marker = await readMarker(settings, location);
  } catch (error) {
    return { result: "failed", reason: `version marker unreadable: ${describe(error)}` };
  }
  if (localPublishedVersion(storePath)?.version === marker.version)
    return { result: "current", version: marker.version };
  const known = refused.get(`${storePath}|${marker.version}|${marker.sha256}`);
  if (known) return { result: "refused", version: marker.version, reason: known };
  try {
    // A new machine's data directory may not exist yet: the download makes it.
    mkdirSync(path.dirname(storePath), { recursive: true });
    if (!tryLock(storePath)) return { result: "busy" };
  } catch (error) {
    return { result: "failed", reason: `could not take the sync lock next to ${storePath}: ${describe(error)}` };
  }
  const tmp = `${storePath}.tmp-${process.pid}`;
  try {
    // Another process may have swapped it in while this one waited for the marker.
    if (localPublishedVersion(storePath)?.version === marker.version)
      return { result: "current", version: marker.version };
    removeStaleTemporaries(storePath);
    if (existsSync(tmp)) unlinkSync(tmp);
    let got: { sha256: string; size: number };
    try {
      got = await download(settings, location, marker, tmp);
    } catch (error) {
      if (error instanceof LargerThanMarker) {
        // Bad bytes, as a wrong digest is: not fetched again until the marker names another.
        refused.set(`${storePath}|${marker.version}|${marker.sha256}`, error.message);
        return { result: "refused", version: marker.version, reason: error.message };
      }
      return { result: "failed", reason: `download of ${marker.object} failed: ${describe(error)}` };
    }
    const problems: string[] = [];
    if (got.size !== marker.size) problems.push(`size ${got.size} bytes, the marker says ${marker.size}`);
    if (got.sha256 !== marker.sha256) problems.push(`sha256 ${got.sha256}, the marker says ${marker.sha256}`);
    if (problems.length === 0) {
      const checked = await checkOffTheLoop(tmp, {
        currentPath: existsSync(storePath) ? storePath : undefined,
        shrinkAccepted: marker.shrinkAccepted,
      });
      problems.push(...checked.problems);
    }
    if (problems.length > 0) {
      const reason = problems.join("; ");
      refused.set(`${storePath}|${marker.version}|${marker.sha256}`, reason);
      return { result: "refused", version: marker.version, reason };
    }
    fsyncPath(tmp);
    renameSync(tmp, storePath);
    fsyncPath(path.dirname(storePath));
    const s = statSync(storePath);
    const record: LocalVersion = {
      version: marker.version,
      sha256: marker.sha256,
      size: marker.size,
      ino: s.ino,
      dev: s.dev,
      swappedAt: new Date().toISOString(),
    };
    const sidecarTmp = `${sidecarPath(storePath)}.tmp-${process.pid}`;
    writeFileSync(sidecarTmp, `${JSON.stringify(record)}\n`);
    renameSync(sidecarTmp, sidecarPath(storePath));
    return { result: "swapped", version: marker.version };
  } catch (error) {
    return { result: "failed", reason: describe(error) };
  } finally {
    try {
      if (existsSync(tmp)) unlinkSync(tmp);
    } catch {
      // Removed by the next attempt (removeStaleTemporaries) at the latest.
    }
    unlock(storePath);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error)
    return error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
  return String(error);
}

/** The one line an attempt logs (none when nothing changed). */
export function logOutcome(outcome: SyncOutcome, log: SyncLog, url: string): void {
  switch (outcome.result) {
    case "swapped":
      log.info({ version: outcome.version, url }, `published plan store ${outcome.version} swapped in`);
      return;
    case "refused":
      log.warn(
        { version: outcome.version, url, reason: outcome.reason },
        `published plan store ${outcome.version} refused, keeping the current store: ${outcome.reason}`,
      );
      return;
    case "failed":
      log.warn(
        { url, reason: outcome.reason },
        `published plan store not fetched, keeping the current store: ${outcome.reason}`,
      );
      return;
    default:
      return;
  }
}

function settingsFromEnv(): SyncSettings | null {
  const e = env();
  if (!e.PLAN_STORE_URL) return null;
  return {
    url: e.PLAN_STORE_URL,
    storePath: e.PLAN_STORE_PATH,
    endpoint: e.PLAN_STORE_S3_ENDPOINT,
    region: e.PLAN_STORE_S3_REGION,
  };
}

/**
 * Before serving, with PLAN_STORE_URL set and no local store: download the
 * published one, waiting for another process's download if one is under way.
 * Resolves to null when the store is there, else to why it is not.
 */
export async function ensurePublishedStore(log: SyncLog = logger()): Promise<string | null> {
  const settings = settingsFromEnv();
  if (!settings || existsSync(settings.storePath)) return null;
  for (let attempt = 0; attempt < 600; attempt++) {
    const outcome = await syncPublishedStore(settings);
    logOutcome(outcome, log, settings.url);
    if (outcome.result === "swapped" || outcome.result === "current") return null;
    if (outcome.result !== "busy")
      return `PLAN_STORE_URL: no plan store at ${path.resolve(settings.storePath)} and the published one could not be fetched (${outcome.reason}).`;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  return `PLAN_STORE_URL: another process has been downloading the published plan store for ten minutes; giving up.`;
}

/** Poll the marker every PLAN_STORE_POLL_SECONDS in this process (stopped on shutdown). No-op without PLAN_STORE_URL. */
export function startPlanStoreSync(log: SyncLog = logger()): void {
  const settings = settingsFromEnv();
  if (!settings) return;
  processSingleton("plan-store-sync", () => {
    let running = false;
    const tick = async () => {
      if (running) return;
      running = true;
      try {
        const outcome = await syncPublishedStore(settings);
        // A refused version is logged once, when it is refused, not at every poll after.
        if (outcome.result !== "refused" || !loggedRefusals.has(outcome.version)) {
          if (outcome.result === "refused") loggedRefusals.add(outcome.version);
          logOutcome(outcome, log, settings.url);
        }
      } finally {
        running = false;
      }
    };
    const loggedRefusals = new Set<string>();
    const timer = setInterval(() => void tick(), env().PLAN_STORE_POLL_SECONDS * 1000);
    timer.unref();
    onShutdown("plan store sync", () => clearInterval(timer));
    // At once too: a restarted instance catches up without waiting a whole interval.
    void tick();
    return timer;
  });
}
