import { createHash } from "node:crypto";
import type { Resend } from "resend";
import type { SESv2Client } from "@aws-sdk/client-sesv2";
import type * as SesSdk from "@aws-sdk/client-sesv2";
import { env, type EMAIL_PROVIDERS } from "../platform/env.server";
import { onShutdown, processSingleton } from "../platform/lifecycle.server";

/**
 * The one way the service sends email (spec decision 16): `sendEmail(message)`
 * answers `{ok, messageId?, error?, provider}` and never throws. The provider
 * is EMAIL_PROVIDER (`resend`, the legacy default, or `ses`), read once from
 * the parsed configuration.
 *
 * Application code does not call this directly: it writes the message to the
 * outbox (app/server/intake/outbox.server.ts) in the same transaction as the
 * submission, and the outbox calls sendEmail, records the result and retries
 * failures. `retryable` tells the outbox whether trying again can help.
 */

export type EmailProvider = (typeof EMAIL_PROVIDERS)[number];

export interface EmailMessage {
  /** Defaults to EMAIL_FROM. Either `addr@domain` or `Display Name <addr@domain>`. */
  from?: string;
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
  /** Lets a provider that supports it (Resend) drop a duplicate of a retried send. */
  idempotencyKey?: string;
}

export interface SendEmailResult {
  ok: boolean;
  messageId?: string;
  error?: string;
  provider: EmailProvider;
  /** On failure: whether the same send may succeed later (outage, throttling, missing config). */
  retryable?: boolean;
}

const SEND_TIMEOUT_MS = 10_000;

/** The provider chosen by configuration. */
export function emailProvider(): EmailProvider {
  return env().EMAIL_PROVIDER;
}

/**
 * Replace the domain of a From value, keeping the local part and any display
 * name: `a@old.example` -> `a@new.example`, `"Team" <a@old.example>` ->
 * `"Team" <a@new.example>`. Without a domain the value is returned unchanged.
 */
export function rewriteFromDomain(from: string, domain: string | undefined): string {
  const newDomain = domain?.trim().replace(/^@/, "");
  if (!newDomain) return from;
  const angle = /^(.*)<\s*([^<>@\s]+)@([^<>\s]+)\s*>\s*$/s.exec(from);
  if (angle) return `${angle[1]}<${angle[2]}@${newDomain}>`;
  const bare = /^\s*([^<>@\s]+)@([^<>\s]+)\s*$/.exec(from);
  if (bare) return `${bare[1]}@${newDomain}`;
  return from;
}

/** The bare address inside a From/To value. */
export function addressOf(value: string): string {
  const angle = /<\s*([^<>\s@]+@[^<>\s]+)\s*>/.exec(value);
  return (angle ? angle[1] : value).trim();
}

export async function sendEmail(message: EmailMessage): Promise<SendEmailResult> {
  let provider: EmailProvider = "resend";
  try {
    const config = env();
    provider = config.EMAIL_PROVIDER;
    const from = rewriteFromDomain(message.from ?? config.EMAIL_FROM, config.EMAIL_FROM_DOMAIN);
    const to = Array.isArray(message.to) ? message.to : [message.to];
    if (to.length === 0) return { ok: false, error: "no recipient", provider, retryable: false };
    return provider === "ses"
      ? await sendWithSes({ ...message, from, to })
      : await sendWithResend({ ...message, from, to });
  } catch (error) {
    // Never throws: an unexpected failure is reported like a provider error.
    return { ok: false, error: describe(error), provider, retryable: true };
  }
}

// ---------------------------------------------------------------- Resend

/**
 * The provider SDKs (resend, @aws-sdk/client-sesv2) are imported on the first
 * send, not at start (~60 ms of module loading the first answer need not wait
 * for; docs/decisions/117).
 */
async function resendClient(): Promise<Resend | null> {
  const key = env().RESEND_API_KEY;
  if (!key) return null;
  // The SDK reads RESEND_BASE_URL from the environment at construction (tests point it at a fake).
  const baseUrl = process.env.RESEND_BASE_URL ?? "";
  // The singleton's name holds a digest of the key, never the key itself.
  return processSingleton(`resend:${fingerprint(key)}:${baseUrl}`, async () => {
    const { Resend } = await import("resend");
    return new Resend(key);
  });
}

async function sendWithResend(message: EmailMessage & { from: string; to: string[] }): Promise<SendEmailResult> {
  const client = await resendClient();
  if (!client) return { ok: false, error: "RESEND_API_KEY is not set", provider: "resend", retryable: true };
  const { data, error } = await client.emails.send(
    {
      from: message.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      ...(message.headers ? { headers: message.headers } : {}),
    },
    {
      ...(message.idempotencyKey ? { idempotencyKey: message.idempotencyKey } : {}),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    } as { idempotencyKey?: string },
  );
  if (error || !data) {
    const status = (error as { statusCode?: number | null } | null)?.statusCode ?? null;
    return {
      ok: false,
      error: `${error?.name ?? "error"}${status ? ` (${status})` : ""}: ${error?.message ?? "no answer"}`,
      provider: "resend",
      retryable: resendRetryable(status),
    };
  }
  return { ok: true, messageId: data.id, provider: "resend" };
}

/** No status (network, timeout), 408, 409 (concurrent idempotent request), 429 and 5xx may pass later. */
function resendRetryable(status: number | null): boolean {
  return status === null || status === 408 || status === 409 || status === 429 || status >= 500;
}

export interface AudienceResult {
  ok: boolean;
  error?: string;
  provider: EmailProvider;
  retryable?: boolean;
  /** True when nothing was done on purpose (other provider, no audience configured). */
  skipped?: boolean;
}

/**
 * Add an address to (or mark it unsubscribed in) the legacy provider's
 * audience list. With SES, or without RESEND_AUDIENCE_ID, a no-op. Never throws.
 */
export async function syncAudience(change: { email: string; unsubscribed: boolean }): Promise<AudienceResult> {
  const provider = emailProvider();
  try {
    const audienceId = env().RESEND_AUDIENCE_ID;
    if (provider !== "resend" || !audienceId) return { ok: true, provider, skipped: true };
    const client = await resendClient();
    if (!client) return { ok: false, error: "RESEND_API_KEY is not set", provider, retryable: true };
    const requestOptions = { signal: AbortSignal.timeout(SEND_TIMEOUT_MS) } as object;
    const result = change.unsubscribed
      ? await client.contacts.update({ audienceId, email: change.email, unsubscribed: true }, requestOptions)
      : await client.contacts.create({ audienceId, email: change.email, unsubscribed: false }, requestOptions);
    if (result.error) {
      const status = (result.error as { statusCode?: number | null }).statusCode ?? null;
      // Adding a contact that already exists is success for our purpose.
      if (!change.unsubscribed && status === 409) return { ok: true, provider };
      return {
        ok: false,
        error: `${result.error.name}: ${result.error.message}`,
        provider,
        retryable: resendRetryable(status),
      };
    }
    return { ok: true, provider };
  } catch (error) {
    return { ok: false, error: describe(error), provider, retryable: true };
  }
}

// ---------------------------------------------------------------- SES

type SesModule = typeof SesSdk;

function sesClient(): Promise<{ client: SESv2Client; sdk: SesModule }> {
  const { SES_REGION, SES_ENDPOINT } = env();
  return processSingleton(`ses:${SES_REGION}:${SES_ENDPOINT ?? ""}`, async () => {
    const sdk = await import("@aws-sdk/client-sesv2");
    // The outbox retries with backoff; one SDK attempt per send keeps that the only retry loop.
    const client = new sdk.SESv2Client({
      region: SES_REGION,
      ...(SES_ENDPOINT ? { endpoint: SES_ENDPOINT } : {}),
      maxAttempts: 1,
    });
    onShutdown("ses client", () => client.destroy());
    return { client, sdk };
  });
}

/** SES errors that will fail the same way every time: a sandbox recipient, a bad sender, a malformed message. */
const SES_PERMANENT = new Set([
  "MessageRejected",
  "MailFromDomainNotVerifiedException",
  "BadRequestException",
  "AccountSuspendedException",
  "SendingPausedException",
  "NotFoundException",
]);

async function sendWithSes(message: EmailMessage & { from: string; to: string[] }): Promise<SendEmailResult> {
  try {
    const { client, sdk } = await sesClient();
    const output = await client.send(
      new sdk.SendEmailCommand({
        FromEmailAddress: message.from,
        Destination: { ToAddresses: message.to },
        ...(message.replyTo ? { ReplyToAddresses: [message.replyTo] } : {}),
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: "UTF-8" },
            Body: {
              Text: { Data: message.text, Charset: "UTF-8" },
              ...(message.html ? { Html: { Data: message.html, Charset: "UTF-8" } } : {}),
            },
            ...(message.headers
              ? { Headers: Object.entries(message.headers).map(([Name, Value]) => ({ Name, Value })) }
              : {}),
          },
        },
      }),
      { abortSignal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
    );
    return { ok: true, messageId: output.MessageId, provider: "ses" };
  } catch (error) {
    const name = (error as { name?: string }).name ?? "Error";
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const permanent =
      SES_PERMANENT.has(name) ||
      (status !== undefined &&
        status >= 400 &&
        status < 500 &&
        status !== 408 &&
        status !== 429 &&
        !/Throttl|TooMany|LimitExceeded/.test(name));
    return {
      ok: false,
      error: `${name}${status ? ` (${status})` : ""}: ${describe(error)}`,
      provider: "ses",
      retryable: !permanent,
    };
  }
}

function fingerprint(secret: string): string {
  return createHash("sha256").update(secret).digest("hex").slice(0, 16);
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 500 ? `${text.slice(0, 500)}...` : text;
}
