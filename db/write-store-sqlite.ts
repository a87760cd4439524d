import { statSync } from "node:fs";
import type Database from "better-sqlite3";
import { and, eq, inArray } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import * as schema from "./write-store";
import type {
  AgentDiscoveryRow,
  AgentUploadRow,
  EnrollmentApplicationRow,
  IdempotentRequestRow,
  NewOutboxRow,
  OutboxRow,
  WaitlistSubmissionRow,
} from "./write-store";
import type { IdempotentOutcome, OutboxResult, PurgeResult, RetentionCutoffs, WriteStoreOps } from "./write-store-ops";
import { PURGE_SQL } from "./write-store-ops";

/**
 * The write store on one SQLite file (the embedded default). Each write is a
 * `BEGIN IMMEDIATE` transaction run synchronously, so when the returned
 * promise resolves the commit has been fsync'd (synchronous=FULL, decision
 * 060). Several processes on one file are safe: the writer lock serialises
 * them and the outbox claim is a single UPDATE ... RETURNING.
 */

export type WriteStoreDb = BetterSQLite3Database<typeof schema>;

/**
 * How long one write may wait for another process's lock synchronously (the connection's
 * busy_timeout). better-sqlite3 waits holding the event loop, so this stays short: two workers'
 * writes hold the lock for a few milliseconds each, and SQLite polls for it within this wait
 * (decision 512).
 */
export const BUSY_WAIT_MS = 10;
/**
 * How long a write keeps trying, asynchronously, while another process holds the lock. Under the
 * write deadline (5 s, decision 491): a write refused for a lock is known to have saved nothing,
 * and answers so, instead of "may or may not have been saved".
 */
export const LOCK_WAIT_BUDGET_MS = 4_000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/**
 * Run one write (a single IMMEDIATE transaction or statement), trying again while the database is
 * locked by another connection. A busy IMMEDIATE transaction fails at its BEGIN, before writing
 * anything, so running it again cannot write twice. Between tries the event loop is free: the
 * process goes on answering while it waits.
 */
async function whenUnlocked<T>(write: () => T): Promise<T> {
  const started = Date.now();
  for (let pause = 2; ; pause = Math.min(pause * 2, 25)) {
    try {
      return write();
    } catch (error) {
      if (!isBusy(error) || Date.now() - started + pause > LOCK_WAIT_BUDGET_MS) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

const {
  waitlistSubmissions,
  agentDiscoverySubmissions,
  agentUploads,
  enrollmentApplications,
  unsubscribes,
  idempotentRequests,
} = schema;

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

export class SqliteWriteStore implements WriteStoreOps {
  readonly dialect = "sqlite" as const;

  constructor(
    /** drizzle over the connection; use `db.transaction(...)` for every write. */
    readonly db: WriteStoreDb,
    /** The raw connection (pragmas, RETURNING claims, tests). */
    readonly sqlite: Database.Database,
    /** Absolute path of the database file. */
    readonly file: string,
  ) {
    const opened = statSync(file);
    this.opened = { dev: opened.dev, ino: opened.ino };
  }

  /** The file this connection opened (device and inode), to tell when the path names another. */
  private readonly opened: { dev: number; ino: number };

  get location(): string {
    return this.file;
  }

  /**
   * Is the file at `file` no longer the one this connection writes (removed, or another put in its
   * place)? The connection goes on writing to the old file, which is gone at the next start: a row
   * written now would be lost (docs/decisions/517).
   */
  fileMoved(): boolean {
    const now = statSync(this.file, { throwIfNoEntry: false });
    return !now || now.ino !== this.opened.ino || now.dev !== this.opened.dev;
  }

  /**
   * Copy everything this connection holds (committed rows, the WAL's included) to a new file at
   * `target`, which must not exist: SQLite's VACUUM INTO. It never touches `file` or its WAL.
   */
  copyTo(target: string): void {
    this.sqlite.prepare("VACUUM INTO ?").run(target);
  }

  /**
   * Commit a write that changes nothing (the header's user_version set to its own value): throws
   * what a row's write would throw now (SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR). The probe of
   * a store marked as not writing (docs/decisions/519).
   */
  probeWrite(): void {
    const version = Number(this.sqlite.pragma("user_version", { simple: true }));
    this.sqlite.pragma(`user_version = ${Math.trunc(version)}`);
  }

  async addWaitlist(row: WaitlistSubmissionRow, outbox: NewOutboxRow[]): Promise<{ id: string; created: boolean }> {
    const existingId = (db: Pick<WriteStoreDb, "select">) =>
      db
        .select({ id: waitlistSubmissions.id })
        .from(waitlistSubmissions)
        .where(and(eq(waitlistSubmissions.emailKey, row.emailKey), eq(waitlistSubmissions.interest, row.interest)))
        .get()?.id;
    try {
      return await whenUnlocked(() =>
        this.db.transaction(
          (tx) => {
            const existing = existingId(tx);
            if (existing) return { id: existing, created: false };
            tx.insert(waitlistSubmissions).values(row).run();
            insertOutbox(tx, outbox);
            return { id: row.id, created: true };
          },
          { behavior: "immediate" },
        ),
      );
    } catch (error) {
      // Another process inserted the same (address, interest) between our check and insert.
      const existing = isUniqueViolation(error) ? existingId(this.db) : undefined;
      if (!existing) throw error;
      return { id: existing, created: false };
    }
  }

  /**
   * Write `claim` and then the record in one IMMEDIATE transaction, unless the key has a row: the
   * writer lock serialises processes, so a request with the same key sees the first one's commit.
   */
  private claimed(
    claim: IdempotentRequestRow | undefined,
    write: (tx: WriteStoreDb) => void,
  ): Promise<IdempotentOutcome> {
    return whenUnlocked(() => this.claimedNow(claim, write));
  }

  private claimedNow(claim: IdempotentRequestRow | undefined, write: (tx: WriteStoreDb) => void): IdempotentOutcome {
    return this.db.transaction(
      (tx) => {
        if (claim) {
          const earlier = tx
            .select()
            .from(idempotentRequests)
            .where(eq(idempotentRequests.keyHash, claim.keyHash))
            .get();
          if (earlier) return { created: false, earlier };
          tx.insert(idempotentRequests).values(claim).run();
        }
        write(tx as unknown as WriteStoreDb);
        return { created: true } as const;
      },
      { behavior: "immediate" },
    );
  }

  async addAgentDiscovery(
    row: AgentDiscoveryRow,
    outbox: NewOutboxRow[],
    claim?: IdempotentRequestRow,
  ): Promise<IdempotentOutcome> {
    return this.claimed(claim, (tx) => {
      tx.insert(agentDiscoverySubmissions).values(row).run();
      insertOutbox(tx, outbox);
    });
  }

  async addOutbox(outbox: NewOutboxRow[]): Promise<void> {
    await whenUnlocked(() => this.db.transaction((tx) => insertOutbox(tx, outbox), { behavior: "immediate" }));
  }

  async addAgentUpload(row: AgentUploadRow, claim?: IdempotentRequestRow): Promise<IdempotentOutcome> {
    return this.claimed(claim, (tx) => {
      tx.insert(agentUploads).values(row).run();
    });
  }

  async agentUpload(id: string): Promise<AgentUploadRow | undefined> {
    return this.db.select().from(agentUploads).where(eq(agentUploads.id, id)).get();
  }

  async idempotentRequest(keyHash: string): Promise<IdempotentRequestRow | undefined> {
    return this.db.select().from(idempotentRequests).where(eq(idempotentRequests.keyHash, keyHash)).get();
  }

  async addEnrollmentApplication(
    row: EnrollmentApplicationRow,
    claim?: IdempotentRequestRow,
  ): Promise<IdempotentOutcome> {
    return this.claimed(claim, (tx) => {
      tx.insert(enrollmentApplications).values(row).run();
    });
  }

  async enrollmentApplication(id: string): Promise<EnrollmentApplicationRow | undefined> {
    return this.db.select().from(enrollmentApplications).where(eq(enrollmentApplications.id, id)).get();
  }

  async isUnsubscribed(emailKey: string): Promise<boolean> {
    return this.isUnsubscribedNow(emailKey);
  }

  isUnsubscribedNow(emailKey: string): boolean {
    return this.sqlite.prepare("SELECT 1 FROM unsubscribes WHERE email_key = ?").get(emailKey) !== undefined;
  }

  async addUnsubscribe(
    row: { emailKey: string; method: string; unsubscribedAt: number },
    outboxIfNew: NewOutboxRow[],
  ): Promise<boolean> {
    return whenUnlocked(() => this.unsubscribeNow(row, outboxIfNew));
  }

  private unsubscribeNow(
    row: { emailKey: string; method: string; unsubscribedAt: number },
    outboxIfNew: NewOutboxRow[],
  ): boolean {
    return this.db.transaction(
      (tx) => {
        const inserted = tx.insert(unsubscribes).values(row).onConflictDoNothing().run();
        if (inserted.changes === 0) return false;
        tx.update(schema.emailOutbox)
          .set({ status: "suppressed", lastError: "recipient unsubscribed", updatedAt: row.unsubscribedAt })
          .where(
            and(
              eq(schema.emailOutbox.recipientKey, row.emailKey),
              inArray(schema.emailOutbox.status, ["pending", "retry"]),
              inArray(schema.emailOutbox.kind, ["email", "audience_add"]),
            ),
          )
          .run();
        insertOutbox(tx, outboxIfNew);
        return true;
      },
      { behavior: "immediate" },
    );
  }

  async claimOutbox(now: number, leaseUntil: number, limit: number): Promise<OutboxRow[]> {
    // One statement: SQLite's writer lock makes the select-and-update atomic across processes.
    const claim = this.sqlite.prepare(
      `UPDATE email_outbox
            SET status = 'sending', lease_until = @leaseUntil, attempts = attempts + 1, updated_at = @now
          WHERE id IN (
                SELECT id FROM email_outbox
                 WHERE (status IN ('pending', 'retry') AND next_attempt_at <= @now)
                    OR (status = 'sending' AND lease_until < @now)
                 ORDER BY next_attempt_at
                 LIMIT @limit)
        RETURNING ${OUTBOX_COLUMNS}`,
    );
    return whenUnlocked(() => claim.all({ now, leaseUntil, limit }) as OutboxRow[]);
  }

  async recordOutboxResults(results: OutboxResult[], now: number): Promise<void> {
    if (results.length === 0) return;
    const update = this.sqlite.prepare(RECORD_RESULT_SQL.replace(/\$(\w+)/g, "@$1"));
    const record = this.sqlite.transaction(() => {
      for (const r of results) update.run(resultParams(r, now));
    });
    await whenUnlocked(() => record.immediate());
  }

  async outboxCounts(): Promise<Record<string, number>> {
    const rows = this.sqlite.prepare("SELECT status, COUNT(*) AS n FROM email_outbox GROUP BY status").all() as {
      status: string;
      n: number;
    }[];
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  async purgeExpired(cutoffs: RetentionCutoffs, limit: number): Promise<PurgeResult> {
    const run = (text: string, ...params: number[]) => this.sqlite.prepare(text).run(...params).changes;
    return whenUnlocked(() =>
      this.sqlite
        .transaction((): PurgeResult => ({
          waitlist: run(PURGE_SQL.waitlist, cutoffs.waitlist, limit),
          discovery: run(PURGE_SQL.discovery, cutoffs.discovery, limit),
          uploads: this.sqlite.prepare(PURGE_SQL.uploads).all(cutoffs.uploads, limit) as PurgeResult["uploads"],
          outbox: run(PURGE_SQL.outbox, cutoffs.outbox, limit),
          idempotent: run(PURGE_SQL.idempotent, cutoffs.discovery, cutoffs.uploads, limit),
        }))
        .immediate(),
    );
  }

  async close(): Promise<void> {
    if (this.sqlite.open) this.sqlite.close();
  }
}

type Tx = Parameters<Parameters<WriteStoreDb["transaction"]>[0]>[0];

function insertOutbox(tx: Tx | WriteStoreDb, rows: NewOutboxRow[]): void {
  for (const row of rows) tx.insert(schema.emailOutbox).values(row).run();
}

/** The outbox columns under their drizzle names, for RETURNING claims on both engines. */
export const OUTBOX_COLUMNS = `id, kind, template, recipient, recipient_key AS "recipientKey", payload,
  subject_type AS "subjectType", subject_id AS "subjectId", status, attempts, next_attempt_at AS "nextAttemptAt",
  lease_until AS "leaseUntil", provider, message_id AS "messageId", last_error AS "lastError",
  created_at AS "createdAt", updated_at AS "updatedAt", sent_at AS "sentAt"`;

/**
 * Only the holder of the lease writes a result: a send slower than its lease
 * may have been taken over by another worker, whose result then stands.
 */
export const RECORD_RESULT_SQL = `UPDATE email_outbox
    SET status = $status, provider = COALESCE($provider, provider), message_id = COALESCE($messageId, message_id),
        last_error = $lastError, next_attempt_at = COALESCE($nextAttemptAt, next_attempt_at), sent_at = $sentAt,
        lease_until = NULL, updated_at = $now
  WHERE id = $id AND status = 'sending' AND lease_until = $lease`;

export function resultParams(r: OutboxResult, now: number) {
  return {
    id: r.id,
    lease: r.lease,
    now,
    status: r.status,
    provider: r.provider ?? null,
    messageId: r.messageId ?? null,
    lastError: r.lastError ?? null,
    nextAttemptAt: r.nextAttemptAt ?? null,
    sentAt: r.sentAt ?? null,
  };
}
