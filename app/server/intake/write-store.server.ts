import { randomBytes } from "node:crypto";
import { DEFAULT_LANGUAGE, type Language } from "../../i18n/i18n";
import { z } from "zod";
import { US_JURISDICTIONS } from "../../domain/us-states";
import { NOT_BLANK, paddedWith } from "../../schemas/text-as-sent";
import { captureServerEvent } from "../platform/analytics.server";
import {
  discoveryAgentConfirmation,
  discoveryOperationsNotification,
  waitlistAgentConfirmation,
  waitlistConsumerConfirmation,
  waitlistOperationsNotification,
} from "./email-templates.server";
import { env } from "../platform/env.server";
import { outboxRows, type OutboxEntry } from "./outbox.server";
import { kickOutbox, withWriteStore } from "./write-store-handle.server";
import { idempotencyClaim, recordOf } from "./idempotency.server";
import { emailKey } from "./unsubscribe-token.server";
import type { IdempotentRequestRow } from "../../../db/write-store";
import type { IdempotentOutcome } from "../../../db/write-store-ops";

/**
 * The write store (spec decisions 1 and 2): the service's own database for
 * what visitors and agents send: a SQLite file by default, PostgreSQL when
 * DATABASE_URL is a postgres:// URL (decision 190). Every write route commits
 * here BEFORE it answers; the emails a submission causes are written to the
 * outbox in the same transaction and sent after the answer.
 *
 * Also here: the waitlist and agent-discovery operations shared by the JSON
 * routes and the pages, so both paths validate and commit the same way.
 */

export {
  kickOutbox,
  openWriteStore,
  resetWriteStoreForTests,
  startIntakeBackgroundWork,
  withWriteStore,
  writeStore,
  WriteStoreUnavailableError,
} from "./write-store-handle.server";

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

/**
 * An address as the API takes it: surrounding spaces allowed (trimmed), then
 * zod's email rule. The pattern says the same, so the OpenAPI document (generated
 * from this schema) is as strict as the check (docs/decisions/380).
 */
const EMAIL_AS_SENT = new RegExp(`^\\s*(?:${z.regexes.email.source.slice(1, -1)})\\s*$`);

export const emailField = z
  .string({ error: "Enter your email address." })
  .min(1, { error: "Enter your email address." })
  .max(254, { error: "That email address is too long." })
  .regex(EMAIL_AS_SENT, { error: "Enter a valid email address, like name@example.com." })
  .trim()
  .min(1, { error: "Enter your email address." })
  .max(254, { error: "That email address is too long." })
  .pipe(z.email({ error: "Enter a valid email address, like name@example.com." }));

/** Exactly five digits, no surrounding spaces (the form page trims what people type; decision 380). */
export const zipField = z
  .string({ error: "Enter a 5-digit ZIP code." })
  .regex(/^\d{5}$/, { error: "Enter a 5-digit ZIP code." });

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
export async function submitWaitlist(
  input: WaitlistInput,
  /** `lang`: the language of the page the visitor signed up on; their confirmation is written in it. */
  options: { source: "api" | "form"; now?: number; lang?: Language },
): Promise<WaitlistResult> {
  const now = options.now ?? Date.now();
  const config = env();
  const id = newSubmissionId();
  const row = {
    id,
    email: input.email,
    emailKey: emailKey(input.email),
    zip: input.zip,
    interest: input.interest,
    source: options.source,
    createdAt: now,
    lang: options.lang ?? DEFAULT_LANGUAGE,
  };
  const entries: OutboxEntry[] = [
    isAgentInterest(input.interest)
      ? {
          kind: "email",
          ...waitlistAgentConfirmation(input.email, { zip: input.zip, interest: input.interest, lang: options.lang }),
        }
      : { kind: "email", ...waitlistConsumerConfirmation(input.email, { zip: input.zip, lang: options.lang }) },
    { kind: "email", ...waitlistOperationsNotification(config.OPERATIONS_EMAIL, row) },
  ];
  // The audience list exists only at the legacy provider (spec: a no-op with SES).
  if (config.EMAIL_PROVIDER === "resend") entries.push({ kind: "audience_add", email: input.email });
  const outbox = outboxRows(
    entries.map((e) => ({ ...e, subjectType: "waitlist", subjectId: id })),
    now,
  );
  // One transaction; the same (address, interest) again writes nothing and returns the existing id.
  const saved = await withWriteStore((store) => store.addWaitlist(row, outbox));
  const result = { waitlistSubmissionId: saved.id, created: saved.created };
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
export const LICENSING_JURISDICTIONS = US_JURISDICTIONS;

/** Suggested answers for "which tools do you use today" (free text is accepted too). */
export const COMMON_AGENT_TOOLS = [
  "HealthSherpa",
  "HealthCare.gov agent and broker tools",
  "Carrier portals",
  "A CRM (for example AgencyBloc or Salesforce)",
  "Spreadsheets",
  "Paper forms",
] as const;

/** Separators the phone field ignores: spaces, brackets, dots, plus and hyphens. */
const PHONE_SEPARATORS = String.raw`[\s().+-]*`;
/** A 10-digit US number (optionally led by 1) written with any of those separators: what normalizePhone accepts. */
export const PHONE_AS_SENT = new RegExp(
  `^${PHONE_SEPARATORS}(?:1${PHONE_SEPARATORS})?[2-9](?:${PHONE_SEPARATORS}\\d){9}${PHONE_SEPARATORS}$`,
);
/** The same, or separators only (an optional phone field left empty). */
export const PHONE_OR_NOTHING_AS_SENT = new RegExp(
  `^${PHONE_SEPARATORS}(?:(?:1${PHONE_SEPARATORS})?[2-9](?:${PHONE_SEPARATORS}\\d){9}${PHONE_SEPARATORS})?$`,
);

/** A licensing code as sent: case and surrounding spaces do not matter (trimmed and upper-cased). */
const JURISDICTION_AS_SENT = new RegExp(
  `^\\s*(?:${US_JURISDICTIONS.map((code) => [...code].map((c) => `[${c}${c.toLowerCase()}]`).join("")).join(
    "|",
  )})\\s*$`,
);

function normalizePhone(value: string): string {
  let digits = value.replace(/[\s().+-]/g, "");
  if (digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
  return digits;
}

export const AgentDiscoveryInput = z.object({
  name: z
    .string({ error: "Enter your name." })
    .regex(NOT_BLANK, { error: "Enter your name." })
    .max(120, { error: "Use at most 120 characters." })
    .trim()
    .min(1, { error: "Enter your name." })
    .max(120, { error: "Use at most 120 characters." }),
  email: emailField,
  phone: z
    .string({ error: "Enter a 10-digit US phone number." })
    .regex(PHONE_AS_SENT, { error: "Enter a 10-digit US phone number, like 212-555-0100." })
    .transform(normalizePhone)
    .pipe(z.string().regex(/^[2-9]\d{9}$/, { error: "Enter a 10-digit US phone number, like 212-555-0100." })),
  npn: z
    .string({ error: "Enter your National Producer Number." })
    .regex(paddedWith(/^\d{1,10}$/), { error: "Enter your National Producer Number: up to 10 digits." })
    // The pattern above already holds the trimmed digits to 1-10 (a second pattern here would be read as raw).
    .trim(),
  licensed_states: z
    .array(
      z
        .string()
        .regex(JURISDICTION_AS_SENT, { error: "Use two-letter state codes, like NY." })
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
    .max(200, { error: "Use at most 200 characters." })
    .trim()
    .max(200, { error: "Use at most 200 characters." })
    .nullish()
    .transform((v) => (v ? v : null)),
  current_tools: z
    .array(
      z
        .string()
        .regex(NOT_BLANK)
        .max(100, { error: "Use at most 100 characters per tool." })
        .trim()
        .min(1)
        .max(100, { error: "Use at most 100 characters per tool." }),
    )
    .max(20, { error: "List at most 20 tools." })
    .default([])
    .transform((tools) => [...new Set(tools)]),
  needs: z
    .string()
    .max(4000, { error: "Use at most 4,000 characters." })
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
export async function submitAgentDiscovery(
  input: AgentDiscoveryInput,
  /** `lang`: the language of the page or request the form came from; the agent's confirmation is in it. */
  options: {
    source: "api" | "form";
    ip: string;
    now?: number;
    lang?: Language;
    /** The request's idempotency key (decision 495): sent again, it answers with the first record. */
    idempotencyKey?: string;
  },
): Promise<{ discoverySubmissionId: string; replayed: boolean }> {
  const lang = options.lang ?? DEFAULT_LANGUAGE;
  const now = options.now ?? Date.now();
  const config = env();
  const id = newSubmissionId();
  const entries: OutboxEntry[] = [
    { kind: "email", ...discoveryAgentConfirmation(input.email, { name: input.name, lang }) },
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
        lang,
      }),
    },
  ];
  const row = {
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
    lang,
  };
  const outbox = outboxRows(
    entries.map((e) => ({ ...e, subjectType: "agent_discovery", subjectId: id })),
    now,
  );
  const claim = idempotencyClaim("agent_discovery", options.idempotencyKey, input, id, now);
  const outcome = await withWriteStore((store) => store.addAgentDiscovery(row, outbox, claim));
  const record = recordOf(outcome, claim, id);
  // The first request's record, its emails already queued by it.
  if (record.replayed) return { discoverySubmissionId: record.id, replayed: true };
  kickOutbox();
  captureServerEvent(id, "agent_discovery_submitted", {
    source: options.source,
    licensed_state_count: input.licensed_states.length,
    tool_count: input.current_tools.length,
    has_agency: input.agency !== null,
  });
  return { discoverySubmissionId: id, replayed: false };
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

/**
 * Record a stored upload (after the object is safely in storage) and, with `claim`, its
 * idempotency key (decision 503): when a request with the same key recorded one first, nothing is
 * written and the earlier request's row comes back.
 */
export async function recordAgentUpload(
  record: AgentUploadRecord,
  claim?: IdempotentRequestRow,
  onLate?: (settled: { value: IdempotentOutcome } | { error: unknown }) => void,
): Promise<IdempotentOutcome> {
  return withWriteStore((store) => store.addAgentUpload(record, claim), undefined, onLate);
}

/** The upload an idempotency key already made, when it made one: checked before anything is stored. */
export async function earlierIdempotentRequest(keyHash: string): Promise<IdempotentRequestRow | undefined> {
  return withWriteStore((store) => store.idempotentRequest(keyHash));
}

export async function agentUploadRecord(id: string): Promise<AgentUploadRecord | undefined> {
  const row = await withWriteStore((store) => store.agentUpload(id));
  return row && { ...row, storage: row.storage === "s3" ? "s3" : "local" };
}
