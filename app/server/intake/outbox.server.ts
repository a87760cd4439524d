import { randomBytes } from "node:crypto";
import { emailOutbox, type NewOutboxRow, type OutboxRow } from "../../../db/write-store";
import type { WriteStore, WriteStoreDb } from "../../../db/write-store-client";
import type { OutboxResult } from "../../../db/write-store-ops";
import { describeStoreError } from "../../../db/write-store-errors";
import { sendEmail, syncAudience, type EmailMessage, type SendEmailResult } from "./email.server";
import type { EmailTemplate } from "./email-templates.server";
import { env } from "../platform/env.server";
import { withinDeadline } from "../platform/deadline.server";
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
 *
 * Many processes may run a dispatcher on one store: a claim reserves rows
 * for one process alone (one UPDATE ... RETURNING on SQLite, FOR UPDATE SKIP
 * LOCKED on PostgreSQL), so each message is sent by one worker.
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

/** The outbox rows (status pending) for some entries, to be written in the submission's transaction. */
export function outboxRows(entries: OutboxEntry[], now: number = Date.now()): NewOutboxRow[] {
  return entries.map((entry) => {
    const id = newOutboxId();
    const recipient = entry.kind === "email" ? entry.message.to : entry.email;
    const payload =
      entry.kind === "email"
        ? { ...entry.message, idempotencyKey: id }
        : { email: entry.email, unsubscribed: entry.kind === "audience_unsubscribe" };
    return {
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
    };
  });
}

/** Write outbox rows (status pending) to a SQLite store; call inside the submission's transaction. */
export function enqueueOutbox(db: Writer, entries: OutboxEntry[], now: number = Date.now()): string[] {
  const rows = outboxRows(entries, now);
  for (const row of rows) db.insert(emailOutbox).values(row).run();
  return rows.map((r) => r.id);
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
  /** The longest one store operation may take before the round gives up (docs/decisions/491). */
  storeDeadlineMs: number;
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
  // Twice a request's write deadline: a round claims or records a whole batch at once.
  storeDeadlineMs: 10_000,
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

// Starts only where a word starts (the lookbehind): unanchored, `[^…]+@` is quadratic on long text.
const EMAIL_PATTERN = /(?<![^\s<>()"',;:])[^\s<>()"',;:]+@[^\s<>()"',;:]+/g;
/** Provider messages can quote the recipient; logs never carry addresses. */
function scrubAddresses(text: string | undefined): string | undefined {
  return text?.replace(EMAIL_PATTERN, "[address]");
}

export class OutboxDispatcher {
  readonly options: OutboxOptions;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly getStore: () => WriteStore | Promise<WriteStore>,
    options: Partial<OutboxOptions> = {},
    /**
     * Told when a store operation failed or overran storeDeadlineMs (a DeadlineExceeded): the handle
     * marks the store down and retires it when it did not answer or will not write (a standby).
     */
    private readonly onStoreFailure: (store: WriteStore, error: unknown) => void = () => undefined,
  ) {
    this.options = { ...DEFAULT_OUTBOX_OPTIONS, ...options };
  }

  /**
   * One store operation within storeDeadlineMs. A database that hangs fails no query: without
   * this a round waited on its connection for good, and since rounds do not overlap, no email
   * was sent again until the process restarted. A row claimed by a late claim is taken over
   * when its lease runs out.
   */
  private async onStore<T>(operation: (store: WriteStore) => Promise<T>): Promise<T> {
    // Opening the store counts too (it connects and checks migrations); an open that overruns
    // names no store to retire, and the handle keeps it for the next call when it finishes.
    let store: WriteStore | undefined;
    const work = Promise.resolve(this.getStore()).then((opened) => {
      store = opened;
      return operation(opened);
    });
    try {
      return await withinDeadline(work, this.options.storeDeadlineMs, "write store (outbox)");
    } catch (error) {
      if (store) this.onStoreFailure(store, error);
      throw error;
    }
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
        // Never the failed query's parameters (recipient addresses): describeStoreError.
        (error) => logger().error(describeStoreError(error), "outbox round failed"),
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
      const batch = await this.claim();
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
      await this.record(results);
    }
  }

  /** Reserve due rows: pending, retry whose time has come, or sending whose lease ran out. */
  async claim(): Promise<OutboxRow[]> {
    const now = this.options.now();
    return this.onStore((store) => store.claimOutbox(now, now + this.options.leaseMs, this.options.batchSize));
  }

  private async isSuppressed(recipientKey: string): Promise<boolean> {
    return this.onStore((store) => store.isUnsubscribed(recipientKey));
  }

  /** Send one claimed row and say what to record (nothing is written here). */
  private async deliver(row: OutboxRow): Promise<OutboxResult> {
    const log = logger();
    const base = { id: row.id, lease: row.leaseUntil };
    if (row.kind !== "audience_unsubscribe" && (await this.isSuppressed(row.recipientKey))) {
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

  /** Write the results of a batch in one transaction (only where this process still holds the lease). */
  private async record(results: OutboxResult[]): Promise<void> {
    if (results.length === 0) return;
    await this.onStore((store) => store.recordOutboxResults(results, this.options.now()));
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
export function outboxDispatcher(
  getStore: () => WriteStore | Promise<WriteStore>,
  onStoreFailure?: (store: WriteStore, error: unknown) => void,
): OutboxDispatcher {
  return processSingleton("outbox-dispatcher", () => {
    const dispatcher = new OutboxDispatcher(getStore, { leaseMs: outboxLeaseMs() }, onStoreFailure);
    dispatcher.start();
    onShutdown("email outbox", () => dispatcher.stop());
    onSettle("email outbox", () => dispatcher.idle());
    return dispatcher;
  });
}

/** OUTBOX_LEASE_MS (default 60 s): how long a claimed row is reserved for the worker that claimed it. */
function outboxLeaseMs(): number {
  return env().OUTBOX_LEASE_MS;
}

/** Counts by status, for the health detail and tests. */
export function outboxCounts(store: WriteStore): Promise<Record<string, number>> {
  return store.outboxCounts();
}
