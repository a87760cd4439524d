import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { agentDiscoverySubmissions, agentUploads, waitlistSubmissions } from "../../../db/write-store";
import { openWriteStoreFile, resolveWriteStoreLocation, type WriteStoreHandle } from "../../../db/write-store-client";
import { ApiError } from "../platform/api.server";
import { captureServerEvent } from "../platform/analytics.server";
import {
  discoveryAgentConfirmation,
  discoveryOperationsNotification,
  waitlistAgentConfirmation,
  waitlistConsumerConfirmation,
  waitlistOperationsNotification,
} from "./email-templates.server";
import { env } from "../platform/env.server";
import { forgetSingleton, onShutdown, processSingleton } from "../platform/lifecycle.server";
import { logger } from "../platform/logger.server";
import { enqueueOutbox, outboxDispatcher, type OutboxEntry } from "./outbox.server";
import { emailKey } from "./unsubscribe-token.server";

/**
 * The write store (spec decisions 1 and 2): the service's own SQLite database
 * for what visitors and agents send. Every write route commits here BEFORE it
 * answers; the emails a submission causes are written to the outbox in the
 * same transaction and sent after the answer.
 *
 * Also here: the waitlist and agent-discovery operations shared by the JSON
 * routes and the pages, so both paths validate and commit the same way.
 */

// ------------------------------------------------------------------ the store

/** 500 naming the setting: the write routes never claim success without a store. */
export class WriteStoreUnavailableError extends ApiError {
  constructor(message: string) {
    super(500, "write_store_unavailable", message);
  }
}

interface StoreRegistry {
  stores: Map<string, WriteStoreHandle>;
}

function registry(): StoreRegistry {
  return processSingleton("write-store", () => ({ stores: new Map<string, WriteStoreHandle>() }));
}

/**
 * The open write store named by DATABASE_URL (default file:./data/app.db),
 * opened and migrated on first use. Throws WriteStoreUnavailableError (500,
 * naming DATABASE_URL) when the setting is empty or invalid or the file
 * cannot be opened; the next call tries again.
 */
export function writeStore(): WriteStoreHandle {
  const location = resolveWriteStoreLocation(env().DATABASE_URL);
  if (!location.ok) throw new WriteStoreUnavailableError(`The write store is unavailable: ${location.problem}`);
  const stores = registry().stores;
  const existing = stores.get(location.file);
  if (existing) return existing;
  let store: WriteStoreHandle;
  try {
    store = openWriteStoreFile(location.file);
  } catch (error) {
    logger().error({ err: error instanceof Error ? error.message : String(error) }, "write store could not be opened");
    throw new WriteStoreUnavailableError(
      "The write store named by DATABASE_URL could not be opened; nothing was saved. Please try again later.",
    );
  }
  stores.set(location.file, store);
  onShutdown(`write store ${location.file}`, () => {
    stores.delete(location.file);
    store.close();
  });
  // The first open also starts the background email delivery.
  outboxDispatcher(currentWriteStore);
  return store;
}

/** The dispatcher's view: the store DATABASE_URL names now. */
function currentWriteStore(): WriteStoreHandle {
  return writeStore();
}

/** Send what the last commit queued, without waiting. Never throws. */
export function kickOutbox(): void {
  try {
    outboxDispatcher(currentWriteStore).kick();
  } catch (error) {
    logger().error({ err: error instanceof Error ? error.message : String(error) }, "could not start email delivery");
  }
}

/**
 * Start-up work for server.ts: open and migrate the write store, start the
 * outbox sweep (which resends anything left unsent by an earlier process) and
 * report configuration problems (the missing unsubscribe secret is already
 * reported by env.server.ts). Safe to call more than once; never throws.
 */
export function startIntakeBackgroundWork(): { ok: boolean; problem?: string } {
  const log = logger();
  const config = env();
  if (!config.PUBLIC_BASE_URL) log.warn("PUBLIC_BASE_URL is not set: links in emails point at http://localhost.");
  if (config.EMAIL_PROVIDER === "resend" && !config.RESEND_API_KEY) {
    log.warn("EMAIL_PROVIDER is resend but RESEND_API_KEY is not set: emails stay in the outbox until it is.");
  }
  try {
    writeStore();
    return { ok: true };
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    log.error({ setting: "DATABASE_URL" }, problem);
    return { ok: false, problem };
  }
}

/** Tests only: close every open store and stop the dispatcher. */
export async function resetWriteStoreForTests(): Promise<void> {
  const dispatcherKey = Symbol.for("marketplace.singleton.outbox-dispatcher");
  const dispatcher = (globalThis as Record<symbol, unknown>)[dispatcherKey] as
    { stop(graceMs?: number): Promise<void> } | undefined;
  if (dispatcher) await dispatcher.stop(10_000);
  forgetSingleton("outbox-dispatcher");
  for (const store of registry().stores.values()) store.close();
  registry().stores.clear();
}

/** 24 lower-case hex characters (96 random bits). */
export function newSubmissionId(): string {
  return randomBytes(12).toString("hex");
}

/**
 * The client's address for consent and attestation records: the load
 * context's `clientIp` (server.ts puts Express's req.ip there, which honours
 * TRUST_PROXY), else "unknown".
 */
export function clientIp(context: unknown): string {
  const ip = (context as { clientIp?: unknown } | null | undefined)?.clientIp;
  return typeof ip === "string" && ip.length > 0 && ip.length <= 64 ? ip : "unknown";
}

// ------------------------------------------------------------------ shared field rules

export const emailField = z
  .string({ error: "Enter your email address." })
  .trim()
  .min(1, { error: "Enter your email address." })
  .max(254, { error: "That email address is too long." })
  .pipe(z.email({ error: "Enter a valid email address, like name@example.com." }));

export const zipField = z
  .string({ error: "Enter a 5-digit ZIP code." })
  .trim()
  .regex(/^\d{5}$/, { error: "Enter a 5-digit ZIP code." });

function isUniqueViolation(error: unknown): boolean {
  return (
    (error as { code?: string })?.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    (error as { code?: string })?.code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}

// ------------------------------------------------------------------ waitlist

/**
 * `consumer`, or an agent variant (docs/decisions/061):
 *   agent              a licensed agent or broker (unspecified)
 *   agent_independent  an independent agent or broker working alone
 *   agent_agency       an agency owner or manager signing up for a team
 */
export const WAITLIST_INTERESTS = ["consumer", "agent", "agent_independent", "agent_agency"] as const;
export type WaitlistInterest = (typeof WAITLIST_INTERESTS)[number];

export function isAgentInterest(interest: string): boolean {
  return interest !== "consumer";
}

export const WaitlistInput = z.object({
  email: emailField,
  zip: zipField,
  interest: z.enum(WAITLIST_INTERESTS, { error: `Choose one of: ${WAITLIST_INTERESTS.join(", ")}.` }),
});
export type WaitlistInput = z.infer<typeof WaitlistInput>;

export interface WaitlistResult {
  waitlistSubmissionId: string;
  /** False when the same address and interest were already on the list. */
  created: boolean;
}

/**
 * Commit a waitlist sign-up and its emails (confirmation by interest,
 * operations notification, and with Resend the audience-list addition), then
 * start delivery. The same address (any case) and interest again returns the
 * existing id and sends nothing new.
 */
export function submitWaitlist(
  input: WaitlistInput,
  options: { source: "api" | "form"; now?: number },
): WaitlistResult {
  const store = writeStore();
  const now = options.now ?? Date.now();
  const key = emailKey(input.email);
  const config = env();
  const findExisting = () =>
    store.db
      .select({ id: waitlistSubmissions.id })
      .from(waitlistSubmissions)
      .where(and(eq(waitlistSubmissions.emailKey, key), eq(waitlistSubmissions.interest, input.interest)))
      .get();
  let result: WaitlistResult;
  try {
    result = store.db.transaction(
      (tx) => {
        const existing = tx
          .select({ id: waitlistSubmissions.id })
          .from(waitlistSubmissions)
          .where(and(eq(waitlistSubmissions.emailKey, key), eq(waitlistSubmissions.interest, input.interest)))
          .get();
        if (existing) return { waitlistSubmissionId: existing.id, created: false };
        const id = newSubmissionId();
        const row = {
          id,
          email: input.email,
          emailKey: key,
          zip: input.zip,
          interest: input.interest,
          source: options.source,
          createdAt: now,
        };
        tx.insert(waitlistSubmissions).values(row).run();
        const entries: OutboxEntry[] = [
          isAgentInterest(input.interest)
            ? { kind: "email", ...waitlistAgentConfirmation(input.email, { zip: input.zip, interest: input.interest }) }
            : { kind: "email", ...waitlistConsumerConfirmation(input.email, { zip: input.zip }) },
          { kind: "email", ...waitlistOperationsNotification(config.OPERATIONS_EMAIL, row) },
        ];
        // The audience list exists only at the legacy provider (spec: a no-op with SES).
        if (config.EMAIL_PROVIDER === "resend") entries.push({ kind: "audience_add", email: input.email });
        enqueueOutbox(
          tx,
          entries.map((e) => ({ ...e, subjectType: "waitlist", subjectId: id })),
          now,
        );
        return { waitlistSubmissionId: id, created: true };
      },
      { behavior: "immediate" },
    );
  } catch (error) {
    // Another process inserted the same (address, interest) between our check and insert.
    const existing = isUniqueViolation(error) ? findExisting() : undefined;
    if (!existing) throw error;
    result = { waitlistSubmissionId: existing.id, created: false };
  }
  if (result.created) {
    kickOutbox();
    captureServerEvent(result.waitlistSubmissionId, "waitlist_joined", {
      interest: input.interest,
      source: options.source,
    });
  }
  return result;
}

// ------------------------------------------------------------------ agent discovery

/**
 * The consent statement on the discovery form. Its version is stored with
 * each submission; change the version whenever the wording changes.
 */
export const AGENT_DISCOVERY_CONSENT = {
  version: "2025-11-01",
  text:
    "I agree that Health Plan Marketplace may store the information in this form and contact me by email or phone " +
    "about tools for licensed agents. I can ask for my information to be deleted at any time by writing to the " +
    "operations team.",
} as const;

/** USPS codes of the 50 states, DC and the territories where producers are licensed. */
export const LICENSING_JURISDICTIONS = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "DC",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
  "PR",
  "GU",
  "VI",
  "AS",
  "MP",
] as const;

/** Suggested answers for "which tools do you use today" (free text is accepted too). */
export const COMMON_AGENT_TOOLS = [
  "HealthSherpa",
  "HealthCare.gov agent and broker tools",
  "Carrier portals",
  "A CRM (for example AgencyBloc or Salesforce)",
  "Spreadsheets",
  "Paper forms",
] as const;

function normalizePhone(value: string): string {
  let digits = value.replace(/[\s().+-]/g, "");
  if (digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
  return digits;
}

export const AgentDiscoveryInput = z.object({
  name: z
    .string({ error: "Enter your name." })
    .trim()
    .min(1, { error: "Enter your name." })
    .max(120, { error: "Use at most 120 characters." }),
  email: emailField,
  phone: z
    .string({ error: "Enter a 10-digit US phone number." })
    .transform(normalizePhone)
    .pipe(z.string().regex(/^[2-9]\d{9}$/, { error: "Enter a 10-digit US phone number, like 212-555-0100." })),
  npn: z
    .string({ error: "Enter your National Producer Number." })
    .trim()
    .regex(/^\d{1,10}$/, { error: "Enter your National Producer Number: up to 10 digits." }),
  licensed_states: z
    .array(
      z
        .string()
        .trim()
        .toUpperCase()
        .pipe(z.enum(LICENSING_JURISDICTIONS, { error: "Use two-letter state codes, like NY." })),
      {
        error: "List the states where you are licensed.",
      },
    )
    .min(1, { error: "Choose at least one state where you are licensed." })
    .max(LICENSING_JURISDICTIONS.length)
    .transform((states) => [...new Set(states)].sort()),
  agency: z
    .string()
    .trim()
    .max(200, { error: "Use at most 200 characters." })
    .nullish()
    .transform((v) => (v ? v : null)),
  current_tools: z
    .array(z.string().trim().min(1).max(100, { error: "Use at most 100 characters per tool." }))
    .max(20, { error: "List at most 20 tools." })
    .default([])
    .transform((tools) => [...new Set(tools)]),
  needs: z
    .string()
    .trim()
    .max(4000, { error: "Use at most 4,000 characters." })
    .nullish()
    .transform((v) => (v ? v : null)),
  consent: z.literal(true, {
    error: "Tick the box to agree to the consent statement; we cannot keep your answers without it.",
  }),
  consent_version: z.literal(AGENT_DISCOVERY_CONSENT.version, {
    error: `The consent wording has changed; reload the form and read the current statement (version ${AGENT_DISCOVERY_CONSENT.version}).`,
  }),
});
export type AgentDiscoveryInput = z.infer<typeof AgentDiscoveryInput>;

/** Commit a discovery form with its consent record and two emails, then start delivery. */
export function submitAgentDiscovery(
  input: AgentDiscoveryInput,
  options: { source: "api" | "form"; ip: string; now?: number },
): { discoverySubmissionId: string } {
  const store = writeStore();
  const now = options.now ?? Date.now();
  const config = env();
  const id = newSubmissionId();
  store.db.transaction(
    (tx) => {
      tx.insert(agentDiscoverySubmissions)
        .values({
          id,
          name: input.name,
          email: input.email,
          emailKey: emailKey(input.email),
          phone: input.phone,
          npn: input.npn,
          licensedStates: JSON.stringify(input.licensed_states),
          agency: input.agency,
          currentTools: JSON.stringify(input.current_tools),
          needs: input.needs,
          consentVersion: input.consent_version,
          consentedAt: now,
          consentIp: options.ip,
          source: options.source,
          createdAt: now,
        })
        .run();
      const entries: OutboxEntry[] = [
        { kind: "email", ...discoveryAgentConfirmation(input.email, { name: input.name }) },
        {
          kind: "email",
          ...discoveryOperationsNotification(config.OPERATIONS_EMAIL, {
            id,
            name: input.name,
            email: input.email,
            phone: input.phone,
            npn: input.npn,
            licensedStates: input.licensed_states,
            agency: input.agency,
            currentTools: input.current_tools,
            needs: input.needs,
            consentVersion: input.consent_version,
            createdAt: now,
          }),
        },
      ];
      enqueueOutbox(
        tx,
        entries.map((e) => ({ ...e, subjectType: "agent_discovery", subjectId: id })),
        now,
      );
    },
    { behavior: "immediate" },
  );
  kickOutbox();
  captureServerEvent(id, "agent_discovery_submitted", {
    source: options.source,
    licensed_state_count: input.licensed_states.length,
    tool_count: input.current_tools.length,
    has_agency: input.agency !== null,
  });
  return { discoverySubmissionId: id };
}

// ------------------------------------------------------------------ agent uploads

export interface AgentUploadRecord {
  id: string;
  objectKey: string;
  storage: "s3" | "local";
  docType: string;
  blankConfirmed: boolean;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  originalFileName: string;
  uploaderIp: string;
  createdAt: number;
}

/** Record a stored upload (after the object is safely in storage). */
export function recordAgentUpload(record: AgentUploadRecord): void {
  const store = writeStore();
  store.db.transaction((tx) => {
    tx.insert(agentUploads).values(record).run();
  });
}
