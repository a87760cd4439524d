import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The write store: everything visitors and agents send us, and the email
 * outbox. A separate SQLite database from the plan store (spec decision 1), so
 * a reseed never touches it. Times are epoch milliseconds (UTC).
 *
 * Change this file, then regenerate the SQL migration:
 *   npx drizzle-kit generate --dialect sqlite --schema db/write-store.ts --out db/migrations/write-store
 * The server applies pending migrations when it first opens the store.
 */

/** POST /api/waitlist and the /updates form. One row per (address, interest). */
export const waitlistSubmissions = sqliteTable(
  "waitlist_submissions",
  {
    id: text("id").primaryKey(), // 24 hex characters
    email: text("email").notNull(), // as typed (trimmed), used to write back
    emailKey: text("email_key").notNull(), // lower-cased: the identity for de-duplication
    zip: text("zip").notNull(),
    interest: text("interest").notNull(),
    source: text("source").notNull(), // "api" | "form"
    createdAt: integer("created_at").notNull(),
    // The language of the page or request the visitor signed up from ("en" | "es"): their emails are in it.
    lang: text("lang").notNull().default("en"),
  },
  (t) => [uniqueIndex("waitlist_email_interest").on(t.emailKey, t.interest)],
);

/** POST /api/agents/discovery and the /agent-discovery form. */
export const agentDiscoverySubmissions = sqliteTable("agent_discovery_submissions", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  emailKey: text("email_key").notNull(),
  phone: text("phone").notNull(), // digits only, 10 (US)
  npn: text("npn").notNull(), // National Producer Number
  licensedStates: text("licensed_states").notNull(), // JSON array of USPS codes
  agency: text("agency"),
  currentTools: text("current_tools").notNull(), // JSON array of strings
  needs: text("needs"),
  consentVersion: text("consent_version").notNull(),
  // The language of the page or request the form came from ("en" | "es"): the agent's email is in it.
  lang: text("lang").notNull().default("en"),
  consentedAt: integer("consented_at").notNull(),
  consentIp: text("consent_ip").notNull(),
  source: text("source").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** One row per stored agent upload (the object itself is in the bucket or the local directory). */
export const agentUploads = sqliteTable("agent_uploads", {
  id: text("id").primaryKey(),
  objectKey: text("object_key").notNull().unique(),
  storage: text("storage").notNull(), // "s3" | "local"
  docType: text("doc_type").notNull(),
  blankConfirmed: integer("blank_confirmed", { mode: "boolean" }).notNull(),
  contentType: text("content_type").notNull(), // sniffed from the bytes
  sizeBytes: integer("size_bytes").notNull(),
  sha256: text("sha256").notNull(),
  originalFileName: text("original_file_name").notNull(), // as sent, for staff only
  uploaderIp: text("uploader_ip").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** POST /api/enroll/applications. The access token is kept only as a SHA-256 hash. */
export const enrollmentApplications = sqliteTable(
  "enrollment_applications",
  {
    id: text("id").primaryKey(),
    status: text("status").notNull(), // "received"
    accessTokenHash: text("access_token_hash").notNull(),
    planId: text("plan_id").notNull(),
    planYear: integer("plan_year").notNull(),
    state: text("state").notNull(),
    countyFips: text("county_fips").notNull(),
    zip: text("zip").notNull(),
    household: text("household").notNull(), // JSON
    annualIncome: integer("annual_income_cents").notNull(), // whole cents
    contact: text("contact").notNull(), // JSON
    emailKey: text("email_key").notNull(),
    attestationVersion: text("attestation_version").notNull(),
    attestedAt: integer("attested_at").notNull(),
    attestationIp: text("attestation_ip").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("enrollment_email").on(t.emailKey)],
);

/**
 * A request sent with an idempotency key (the Idempotency-Key header, or the key a form page gives
 * its form): written in the same transaction as the record it made, so a request sent again after
 * an answer that was lost or said "could not confirm" finds that record instead of making a second
 * (decision 495). Neither the key nor the request is kept: only their SHA-256 digests.
 */
export const idempotentRequests = sqliteTable("idempotent_requests", {
  keyHash: text("key_hash").primaryKey(), // SHA-256 of the operation and the key
  operation: text("operation").notNull(), // "agent_discovery" | "enrollment_application"
  fingerprint: text("fingerprint").notNull(), // SHA-256 of the validated request
  subjectId: text("subject_id").notNull(), // the record it made
  createdAt: integer("created_at").notNull(),
});

/** Addresses that asked for no more email. The key is the lower-cased address. */
export const unsubscribes = sqliteTable("unsubscribes", {
  emailKey: text("email_key").primaryKey(),
  method: text("method").notNull(), // "one_click" | "page" | "api"
  unsubscribedAt: integer("unsubscribed_at").notNull(),
});

/**
 * Every email (and audience-list change) the service means to send, written
 * in the same transaction as the submission that causes it, then delivered
 * and retried in the background. Status:
 *   pending -> sending -> sent
 *                      -> retry (transient failure; next_attempt_at set) -> sending ...
 *                      -> rejected (the provider refused for good, e.g. a sandbox recipient)
 *                      -> dead (still failing after the last attempt)
 *   pending/retry -> suppressed (the address unsubscribed before the send)
 */
export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: text("id").primaryKey(), // 24 hex; also the provider idempotency key
    kind: text("kind").notNull(), // "email" | "audience_add" | "audience_unsubscribe"
    template: text("template").notNull(), // e.g. "waitlist_consumer_confirmation"
    recipient: text("recipient").notNull(),
    recipientKey: text("recipient_key").notNull(),
    payload: text("payload").notNull(), // JSON: the rendered message, or the audience change
    subjectType: text("subject_type"), // "waitlist" | "agent_discovery" | ...
    subjectId: text("subject_id"),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    leaseUntil: integer("lease_until"),
    provider: text("provider"),
    messageId: text("message_id"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    sentAt: integer("sent_at"),
  },
  (t) => [
    index("outbox_due").on(t.status, t.nextAttemptAt),
    index("outbox_subject").on(t.subjectType, t.subjectId),
    index("outbox_recipient").on(t.recipientKey),
  ],
);

export type WaitlistSubmissionRow = typeof waitlistSubmissions.$inferSelect;
export type AgentDiscoveryRow = typeof agentDiscoverySubmissions.$inferSelect;
export type AgentUploadRow = typeof agentUploads.$inferSelect;
export type EnrollmentApplicationRow = typeof enrollmentApplications.$inferSelect;
export type OutboxRow = typeof emailOutbox.$inferSelect;
export type IdempotentRequestRow = typeof idempotentRequests.$inferSelect;
export type NewOutboxRow = typeof emailOutbox.$inferInsert;
