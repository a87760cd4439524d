import type {
  AgentDiscoveryRow,
  AgentUploadRow,
  EnrollmentApplicationRow,
  IdempotentRequestRow,
  NewOutboxRow,
  OutboxRow,
  WaitlistSubmissionRow,
} from "./write-store";

/**
 * What the service does with its write store, the same on both engines
 * (db/write-store-sqlite.ts, db/write-store-postgres.ts). Every write is one
 * transaction that has COMMITTED when the promise resolves (decision 060):
 * a route awaits it before it answers. The rows are the drizzle types of the
 * one schema definition (db/write-store.ts).
 */

export type WriteStoreDialect = "sqlite" | "postgres";

/** The outcome of one delivery attempt, written back by the holder of the row's lease. */
export interface OutboxResult {
  id: string;
  lease: number | null;
  status: "sent" | "skipped" | "suppressed" | "rejected" | "dead" | "retry";
  provider?: string | null;
  messageId?: string | null;
  lastError?: string | null;
  nextAttemptAt?: number;
  sentAt?: number | null;
}

/**
 * What became of a write sent with an idempotency key (decision 495): made now, or made earlier by
 * a request with the same key, whose row comes back (the caller compares its fingerprint).
 */
export type IdempotentOutcome = { created: true } | { created: false; earlier: IdempotentRequestRow };

export interface WriteStoreOps {
  readonly dialect: WriteStoreDialect;
  /** Where the store is, for logs: the file, or the PostgreSQL URL without its password. */
  readonly location: string;

  /**
   * A waitlist row and its outbox rows in one transaction, unless the same
   * (email_key, interest) is already there: then nothing is written and the
   * existing id comes back. Safe against a concurrent insert of the same pair
   * by another process.
   */
  addWaitlist(row: WaitlistSubmissionRow, outbox: NewOutboxRow[]): Promise<{ id: string; created: boolean }>;
  /**
   * The form, its outbox rows and, with `claim`, the idempotency key's row, in one transaction;
   * unless a request with the same key made a record already: then nothing is written and its row
   * comes back. Safe against a concurrent request with the same key (the second waits for the first).
   */
  addAgentDiscovery(
    row: AgentDiscoveryRow,
    outbox: NewOutboxRow[],
    claim?: IdempotentRequestRow,
  ): Promise<IdempotentOutcome>;
  /** An upload's row and, with `claim`, its idempotency key's row, as addAgentDiscovery (decision 503). */
  addAgentUpload(row: AgentUploadRow, claim?: IdempotentRequestRow): Promise<IdempotentOutcome>;
  agentUpload(id: string): Promise<AgentUploadRow | undefined>;
  /** The row an idempotency key's earlier request wrote, if any (its key's SHA-256, as stored). */
  idempotentRequest(keyHash: string): Promise<IdempotentRequestRow | undefined>;
  /** Outbox rows on their own (an email a shopper asks for, with no record of its own: issue 28's plan summary). */
  addOutbox(outbox: NewOutboxRow[]): Promise<void>;
  /** The application and, with `claim`, its idempotency key's row, as addAgentDiscovery. */
  addEnrollmentApplication(row: EnrollmentApplicationRow, claim?: IdempotentRequestRow): Promise<IdempotentOutcome>;
  enrollmentApplication(id: string): Promise<EnrollmentApplicationRow | undefined>;

  isUnsubscribed(emailKey: string): Promise<boolean>;
  /**
   * Record an unsubscribe; when it is new, in the same transaction mark the
   * address's waiting emails suppressed and write `outboxIfNew`. Returns
   * whether anything changed.
   */
  addUnsubscribe(
    row: { emailKey: string; method: string; unsubscribedAt: number },
    outboxIfNew: NewOutboxRow[],
  ): Promise<boolean>;

  /**
   * Reserve up to `limit` due outbox rows (pending, retry whose time has come,
   * or sending whose lease ran out) for this caller alone: status sending,
   * lease_until set, attempts + 1. Two callers never get the same row while
   * its lease runs.
   */
  claimOutbox(now: number, leaseUntil: number, limit: number): Promise<OutboxRow[]>;
  /** Write a batch's results in one transaction; a row whose lease was taken over is left alone. */
  recordOutboxResults(results: OutboxResult[], now: number): Promise<void>;
  outboxCounts(): Promise<Record<string, number>>;

  /**
   * Delete what is past its retention (docs/decisions/523): waitlist sign-ups, agent discovery
   * forms and agent uploads created before their cutoff, outbox rows created before theirs that
   * are done (sent, rejected, dead, suppressed), and the idempotency records of the deleted kinds.
   * At most `limit` rows of each table per call, oldest first. Returns the counts, and the deleted
   * uploads' object keys for their files to be removed.
   */
  purgeExpired(cutoffs: RetentionCutoffs, limit: number): Promise<PurgeResult>;

  /** Is the engine reachable? Resolves or throws within a couple of seconds (PostgreSQL only). */
  ping?(): Promise<void>;

  close(): Promise<void>;
}

/** Epoch milliseconds: a record created before its kind's cutoff is past its retention. */
export interface RetentionCutoffs {
  waitlist: number;
  discovery: number;
  uploads: number;
  outbox: number;
}

export interface PurgeResult {
  waitlist: number;
  discovery: number;
  uploads: Array<{ id: string; objectKey: string }>;
  outbox: number;
  idempotent: number;
}

/** Outbox states with nothing left to send: the only ones retention deletes. */
export const OUTBOX_DONE_STATES = ["sent", "rejected", "dead", "suppressed"] as const;

/**
 * The purge's statements, the same text on both engines (`?` placeholders; PostgreSQL's driver
 * gets them numbered by `numbered`). Each deletes at most `limit` rows, oldest first.
 */
export const PURGE_SQL = {
  waitlist:
    "DELETE FROM waitlist_submissions WHERE id IN (SELECT id FROM waitlist_submissions WHERE created_at < ? ORDER BY created_at LIMIT ?)",
  discovery:
    "DELETE FROM agent_discovery_submissions WHERE id IN (SELECT id FROM agent_discovery_submissions WHERE created_at < ? ORDER BY created_at LIMIT ?)",
  uploads:
    'DELETE FROM agent_uploads WHERE id IN (SELECT id FROM agent_uploads WHERE created_at < ? ORDER BY created_at LIMIT ?) RETURNING id, object_key AS "objectKey"',
  outbox: `DELETE FROM email_outbox WHERE id IN (SELECT id FROM email_outbox WHERE created_at < ? AND status IN (${OUTBOX_DONE_STATES.map((s) => `'${s}'`).join(", ")}) ORDER BY created_at LIMIT ?)`,
  idempotent:
    "DELETE FROM idempotent_requests WHERE key_hash IN (SELECT key_hash FROM idempotent_requests WHERE (operation = 'agent_discovery' AND created_at < ?) OR (operation = 'agent_upload' AND created_at < ?) ORDER BY created_at LIMIT ?)",
} as const;

/** `?` placeholders as PostgreSQL's `$1, $2, …`. */
export function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}
