import { env } from "../platform/env.server";

/** The record kinds the privacy page gives a retention period for, in the page's order. */
export const RECORD_KINDS = ["waitlist", "discovery", "uploads", "logs", "outbox"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** What the privacy and terms pages say about who runs the site and what it keeps (issue 28 item 8). */
export interface LegalFacts {
  operator: string;
  contact: string;
  /** YYYY-MM-DD */
  effectiveDate: string;
  retentionDays: Record<RecordKind, number>;
  /** The analytics vendor, or null when analytics are off (no key). */
  analyticsVendor: string | null;
  emailVendor: string;
}

const EMAIL_VENDORS: Record<string, string> = { resend: "Resend", ses: "Amazon Simple Email Service (SES)" };

/** The legal pages' facts, from the settings (docs/decisions/353; defaults in .env.example). */
export function legalFacts(): LegalFacts {
  const e = env();
  return {
    operator: e.LEGAL_OPERATOR,
    contact: e.LEGAL_CONTACT ?? e.OPERATIONS_EMAIL,
    effectiveDate: e.LEGAL_EFFECTIVE_DATE,
    retentionDays: {
      waitlist: e.RETENTION_WAITLIST_DAYS,
      discovery: e.RETENTION_DISCOVERY_DAYS,
      uploads: e.RETENTION_UPLOADS_DAYS,
      logs: e.RETENTION_LOGS_DAYS,
      outbox: e.RETENTION_OUTBOX_DAYS,
    },
    analyticsVendor: e.POSTHOG_API_KEY ? "PostHog" : null,
    emailVendor: EMAIL_VENDORS[e.EMAIL_PROVIDER] ?? e.EMAIL_PROVIDER,
  };
}
