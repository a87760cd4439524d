import { randomBytes } from "node:crypto";
import { emailOutbox, type OutboxRow } from "../../../db/write-store";
import type { WriteStoreDb, WriteStoreHandle } from "../../../db/write-store-client";
import { sendEmail, syncAudience, type EmailMessage, type SendEmailResult } from "./email.server";
import type { EmailTemplate } from "./email-templates.server";
import { logger } from "../platform/logger.server";
import { onSettle, onShutdown, processSingleton } from "../platform/lifecycle.server";

/**
 * The email outbox: no email is lost silently (spec decision 16).
 *
 * A route writes its submission and the emails it causes in ONE transaction
 * (`enqueueOutbox` inside `db.transaction`), answers, and then kicks the
 * dispatcher, which sends in the background. Each send's result is written
 * back to the row. Transient failures (outage, throttling, missing provider
 * key) are retried with exponential backoff; permanent refusals (a sandbox
 * recipient, a malformed address) are recorded as `rejected` and not retried.
 * A periodic sweep picks up rows due for retry, rows left `sending` by a
 * process that died (lease expired) and rows written while the process was
 * down. Delivery is at least once; the row id is sent as Resend's
 * Idempotency-Key so a retried send is not delivered twice.
 */

export type OutboxKind = "email" | "audience_add" | "audience_unsubscribe";

export type OutboxEntry =
  | {
      kind: "email";
      template: EmailTemplate;
      message: EmailMessage & { to: string };
      subjectType?: string;
      subjectId?: string;
    }
  | { kind: "audience_add" | "audience_unsubscribe"; email: string; subjectType?: string; subjectId?: string };

type Tx = Parameters<Parameters<WriteStoreDb["transaction"]>[0]>[0];
type Writer = WriteStoreDb | Tx;

export function newOutboxId(): string {
  return randomBytes(12).toString("hex");
}

/** Write outbox rows (status pending). Call inside the submission's transaction. */
export function enqueueOutbox(db: Writer, entries: OutboxEntry[], now: number = Date.now()): string[] {
  const ids: string[] = [];
  for (const entry of entries) {
    const id = newOutboxId();
    ids.push(id);
    const recipient = entry.kind === "email" ? entry.message.to : entry.email;
    const payload =
      entry.kind === "email"
        ? { ...entry.message, idempotencyKey: id }
        : { email: entry.email, unsubscribed: entry.kind === "audience_unsubscribe" };
    db.insert(emailOutbox)
      .values({
        id,
        kind: entry.kind,
        template: entry.kind === "email" ? entry.template : entry.kind,
        recipient,
        recipientKey: recipient.trim().toLowerCase(),
        payload: JSON.stringify(payload),
        subjectType: entry.subjectType ?? null,
        subjectId: entry.subjectId ?? null,
        status: "pending",
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .run();
  }
  return ids;
}

export interface OutboxOptions {
  /** Sends in flight at once. */
  concurrency: number;
  /** Rows claimed per round. */
  batchSize: number;
  /** How long a claimed row is reserved before another sweep may take it over. */
  leaseMs: number;
  /** First retry delay; doubles per attempt up to retryMaxMs (with +-20% jitter). */
  retryBaseMs: number;
  retryMaxMs: number;
  /** After this many attempts a failing row becomes `dead` (about a day with the defaults). */
  maxAttempts: number;
  /** How often the background sweep runs. */
  pollIntervalMs: number;
  now: () => number;
  random: () => number;
  send: (message: EmailMessage) => Promise<SendEmailResult>;
  audience: typeof syncAudience;
}

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  concurrency: 8,
  batchSize: 32,
  leaseMs: 60_000,
  retryBaseMs: 30_000,
  retryMaxMs: 60 * 60_000,
  maxAttempts: 30,
  pollIntervalMs: 5_000,
  now: () => Date.now(),
  random: () => Math.random(),
  send: sendEmail,
  audience: syncAudience,
};

/** Delay before the next attempt after `attempts` failures: base * 2^(attempts-1), capped, +-20% jitter. */
export function retryDelayMs(attempts: number, base: number, max: number, random: () => number = Math.random): number {
  const exponential = Math.min(max, base * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

const EMAIL_PATTERN = /[^\s<>()"',;:]+@[^\s<>()"',;:]+/g;
/** Provider messages can quote the recipient; logs never carry addresses. */
function scrubAddresses(text: string | undefined): string | undefined {
  return text?.replace(EMAIL_PATTERN, "[address]");
}

interface OutboxResult {
  id: string;
  lease: number | null;
  status: "sent" | "skipped" | "suppressed" | "rejected" | "dead" | "retry";
  provider?: string | null;
  messageId?: string | null;
  lastError?: string | null;
  nextAttemptAt?: number;
  sentAt?: number | null;
}

export class OutboxDispatcher {
  readonly options: OutboxOptions;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly getStore: () => WriteStoreHandle,
    options: Partial<OutboxOptions> = {},
  ) {
    this.options = { ...DEFAULT_OUTBOX_OPTIONS, ...options };
  }

  /** Ask for a delivery round soon, without waiting (coalesces with a round in progress). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .then(
        () => undefined,
        (error) =>
          logger().error({ err: error instanceof Error ? error.message : String(error) }, "outbox round failed"),
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Deliver every row that is due now; resolves with how many were attempted. */
  async drain(): Promise<number> {
    let attempted = 0;
    for (;;) {
      if (this.stopped) return attempted;
      const batch = this.claim();
      if (batch.length === 0) return attempted;
      attempted += batch.length;
      const results: OutboxResult[] = [];
      let next = 0;
      const worker = async () => {
        while (next < batch.length) {
          const row = batch[next++]!;
          results.push(await this.deliver(row));
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.options.concurrency, batch.length) }, worker));
      // One commit for the batch's results: a result lost to a crash only means
      // a re-send after the lease, which the idempotency key makes harmless.
      this.record(results);
    }
  }

  /** Reserve due rows: pending, retry whose time has come, or sending whose lease ran out. */
  claim(): OutboxRow[] {
    const now = this.options.now();
    const { sqlite } = this.getStore();
    const rows = sqlite
      .prepare(
        `UPDATE email_outbox
            SET status = 'sending', lease_until = @leaseUntil, attempts = attempts + 1, updated_at = @now
          WHERE id IN (
                SELECT id FROM email_outbox
                 WHERE (status IN ('pending', 'retry') AND next_attempt_at <= @now)
                    OR (status = 'sending' AND lease_until < @now)
                 ORDER BY next_attempt_at
                 LIMIT @limit)
        RETURNING id, kind, template, recipient, recipient_key AS recipientKey, payload, subject_type AS subjectType,
                  subject_id AS subjectId, status, attempts, next_attempt_at AS nextAttemptAt, lease_until AS leaseUntil,
                  provider, message_id AS messageId, last_error AS lastError, created_at AS createdAt,
                  updated_at AS updatedAt, sent_at AS sentAt`,
      )
      .all({ now, leaseUntil: now + this.options.leaseMs, limit: this.options.batchSize }) as OutboxRow[];
    return rows;
  }

  private isSuppressed(recipientKey: string): boolean {
    const { sqlite } = this.getStore();
    return sqlite.prepare("SELECT 1 FROM unsubscribes WHERE email_key = ?").get(recipientKey) !== undefined;
  }

  /** Send one claimed row and say what to record (nothing is written here). */
  private async deliver(row: OutboxRow): Promise<OutboxResult> {
    const log = logger();
    const base = { id: row.id, lease: row.leaseUntil };
    if (row.kind !== "audience_unsubscribe" && this.isSuppressed(row.recipientKey)) {
      log.info({ outboxId: row.id, template: row.template }, "outbox: recipient unsubscribed; not sent");
      return { ...base, status: "suppressed", lastError: "recipient unsubscribed" };
    }
    let result: {
      ok: boolean;
      error?: string;
      provider: string;
      retryable?: boolean;
      messageId?: string;
      skipped?: boolean;
    };
    try {
      const payload = JSON.parse(row.payload) as Record<string, unknown>;
      if (row.kind === "email") {
        result = await this.options.send(payload as unknown as EmailMessage);
      } else {
        result = await this.options.audience(payload as { email: string; unsubscribed: boolean });
      }
    } catch (error) {
      // send/syncAudience never throw; a corrupt payload is the only way here.
      result = {
        ok: false,
        provider: "unknown",
        retryable: false,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    if (result.ok) {
      return {
        ...base,
        status: result.skipped ? "skipped" : "sent",
        provider: result.provider,
        messageId: result.messageId ?? null,
        sentAt: this.options.now(),
      };
    }
    const error = (result.error ?? "unknown error").slice(0, 1000);
    if (result.retryable === false) {
      log.warn(
        { outboxId: row.id, template: row.template, provider: result.provider, error: scrubAddresses(error) },
        "outbox: provider refused the message; not retrying",
      );
      return { ...base, status: "rejected", provider: result.provider, lastError: error };
    }
    if (row.attempts >= this.options.maxAttempts) {
      log.error(
        { outboxId: row.id, template: row.template, attempts: row.attempts, error: scrubAddresses(error) },
        "outbox: giving up after the last attempt",
      );
      return { ...base, status: "dead", provider: result.provider, lastError: error };
    }
    const delay = retryDelayMs(row.attempts, this.options.retryBaseMs, this.options.retryMaxMs, this.options.random);
    log.warn(
      {
        outboxId: row.id,
        template: row.template,
        attempts: row.attempts,
        retryInMs: delay,
        error: scrubAddresses(error),
      },
      "outbox: send failed; will retry",
    );
    return {
      ...base,
      status: "retry",
      provider: result.provider,
      lastError: error,
      nextAttemptAt: this.options.now() + delay,
    };
  }

  /** Write the results of a batch in one transaction. */
  private record(results: OutboxResult[]): void {
    if (results.length === 0) return;
    const { sqlite } = this.getStore();
    const now = this.options.now();
    // Only the holder of the lease writes a result (a send slower than its
    // lease may have been taken over by another sweep).
    const update = sqlite.prepare(
      `UPDATE email_outbox SET status = @status, provider = COALESCE(@provider, provider), message_id = COALESCE(@messageId, message_id),
              last_error = @lastError, next_attempt_at = COALESCE(@nextAttemptAt, next_attempt_at), sent_at = @sentAt,
              lease_until = NULL, updated_at = @now
        WHERE id = @id AND status = 'sending' AND lease_until = @lease`,
    );
    sqlite.transaction(() => {
      for (const r of results) {
        update.run({
          id: r.id,
          lease: r.lease,
          now,
          status: r.status,
          provider: r.provider ?? null,
          messageId: r.messageId ?? null,
          lastError: r.lastError ?? null,
          nextAttemptAt: r.nextAttemptAt ?? null,
          sentAt: r.sentAt ?? null,
        });
      }
    })();
  }

  /** Start the periodic sweep (unref'd: it never keeps the process alive). */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.kick(), this.options.pollIntervalMs);
    this.timer.unref();
    this.kick();
  }

  /** Stop sweeping and wait (up to `graceMs`) for the round in progress. */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.running) {
      await Promise.race([this.running, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    }
  }

  /** Wait until no round is running or pending (backgroundWorkSettled). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}

/** The process-wide dispatcher, created (and its sweep started) on first use. */
export function outboxDispatcher(getStore: () => WriteStoreHandle): OutboxDispatcher {
  return processSingleton("outbox-dispatcher", () => {
    const dispatcher = new OutboxDispatcher(getStore);
    dispatcher.start();
    onShutdown("email outbox", () => dispatcher.stop());
    onSettle("email outbox", () => dispatcher.idle());
    return dispatcher;
  });
}

/** Counts by status, for the health detail and tests. */
export function outboxCounts(store: WriteStoreHandle): Record<string, number> {
  const rows = store.sqlite.prepare("SELECT status, COUNT(*) AS n FROM email_outbox GROUP BY status").all() as {
    status: string;
    n: number;
  }[];
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
