import type { PurgeResult, RetentionCutoffs } from "../../../db/write-store-ops";
import { describeStoreError } from "../../../db/write-store-errors";
import { env } from "../platform/env.server";
import { onShutdown, processSingleton } from "../platform/lifecycle.server";
import { logger } from "../platform/logger.server";
import { removeUploadObject } from "./upload-objects.server";
import { withWriteStore } from "./write-store-handle.server";

/**
 * Retention (docs/decisions/523): the privacy page says how long each kind of record is kept
 * "before deleting it" (RETENTION_*_DAYS, decision 353), and this is what deletes it. Waitlist
 * sign-ups, agent discovery forms and agent uploads (row and file) older than their period, outbox
 * rows older than theirs once nothing is left to send, and the idempotency records of the deleted
 * kinds. Unsubscribes are never deleted (they are what keeps an address from being mailed again),
 * nor are enrollment applications (the privacy page states no period for them). Server logs are
 * standard output: the log pipeline keeps them (RETENTION_LOGS_DAYS is for its settings).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows of each kind one call deletes: a short write lock, however much has piled up. */
export const PURGE_BATCH = 500;
/** How often each process looks (every process may: the deletes are idempotent). */
const SWEEP_EVERY_MS = 6 * 60 * 60 * 1000;
/** The first look, once start-up is done. */
const FIRST_SWEEP_AFTER_MS = 60_000;

/** The cutoffs of the settings at `now`: a record created before its kind's cutoff is past its retention. */
export function retentionCutoffs(now: number): RetentionCutoffs {
  const e = env();
  return {
    waitlist: now - e.RETENTION_WAITLIST_DAYS * DAY_MS,
    discovery: now - e.RETENTION_DISCOVERY_DAYS * DAY_MS,
    uploads: now - e.RETENTION_UPLOADS_DAYS * DAY_MS,
    outbox: now - e.RETENTION_OUTBOX_DAYS * DAY_MS,
  };
}

export interface PurgeTotals {
  waitlist: number;
  discovery: number;
  uploads: number;
  uploadFilesKept: number;
  outbox: number;
  idempotent: number;
}

/**
 * Delete everything past its retention at `now`, in batches, and the deleted uploads' files.
 * A file that cannot be removed now is logged by its key: no row names it any more, so the orphan
 * sweep (`npm run uploads:orphans`, decision 510) finds it later.
 */
export async function purgeExpiredRecords(now = Date.now()): Promise<PurgeTotals> {
  const cutoffs = retentionCutoffs(now);
  const totals: PurgeTotals = { waitlist: 0, discovery: 0, uploads: 0, uploadFilesKept: 0, outbox: 0, idempotent: 0 };
  for (;;) {
    const batch: PurgeResult = await withWriteStore((store) => store.purgeExpired(cutoffs, PURGE_BATCH));
    totals.waitlist += batch.waitlist;
    totals.discovery += batch.discovery;
    totals.outbox += batch.outbox;
    totals.idempotent += batch.idempotent;
    totals.uploads += batch.uploads.length;
    for (const upload of batch.uploads) {
      if (!(await removeUploadObject(upload.objectKey, "past its retention"))) totals.uploadFilesKept++;
    }
    const full = [batch.waitlist, batch.discovery, batch.uploads.length, batch.outbox, batch.idempotent].some(
      (n) => n >= PURGE_BATCH,
    );
    if (!full) return totals;
  }
}

/** Purge at start-up (after a minute) and every six hours in this process; stopped on shutdown. */
export function startRetentionSweep(): void {
  processSingleton("retention-sweep", () => {
    const sweep = async () => {
      try {
        const totals = await purgeExpiredRecords();
        const deleted = totals.waitlist + totals.discovery + totals.uploads + totals.outbox + totals.idempotent;
        if (deleted > 0) logger().info(totals, "retention: records past their period deleted");
      } catch (error) {
        // The store is down or busy: the next sweep tries again.
        logger().warn(describeStoreError(error), "retention sweep failed; trying again at the next one");
      }
    };
    const first = setTimeout(() => void sweep(), FIRST_SWEEP_AFTER_MS);
    const every = setInterval(() => void sweep(), SWEEP_EVERY_MS);
    first.unref();
    every.unref();
    onShutdown("retention sweep", () => {
      clearTimeout(first);
      clearInterval(every);
    });
    return true;
  });
}
