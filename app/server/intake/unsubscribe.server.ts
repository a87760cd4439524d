import { ApiError } from "../platform/api.server";
import { captureServerEvent } from "../platform/analytics.server";
import { env } from "../platform/env.server";
import { outboxRows } from "./outbox.server";
import { emailKey, unsubscribeSecret, verifyUnsubscribeToken } from "./unsubscribe-token.server";
import { kickOutbox, withWriteStore } from "./write-store.server";

/**
 * Unsubscribe (spec decision 17, docs/decisions/064): the link in every email
 * carries the address and an HMAC token. GET shows a confirmation page, POST
 * (the page's button, or a mail client's RFC 8058 one-click POST) records the
 * address as unsubscribed. Recording is idempotent. An unsubscribed address
 * gets no further email: the outbox checks the list before every send.
 */

export type UnsubscribeMethod = "one_click" | "page" | "api";

export class UnsubscribeUnavailableError extends ApiError {
  constructor() {
    super(
      503,
      "unsubscribe_unavailable",
      "Unsubscribe links cannot be checked right now. Please try again later, or reply to the email and ask us to stop.",
    );
  }
}

export class InvalidUnsubscribeLinkError extends ApiError {
  constructor() {
    super(
      400,
      "invalid_unsubscribe_link",
      "This unsubscribe link is incomplete or not valid. Use the link from the most recent email we sent you.",
    );
  }
}

/** Check an address and token from a link; throws 503 without a secret, 400 for a bad or missing token. */
export function checkUnsubscribeLink(
  email: string | null | undefined,
  token: string | null | undefined,
): { email: string } {
  const secret = unsubscribeSecret();
  if (!secret) throw new UnsubscribeUnavailableError();
  const address = (email ?? "").trim();
  if (!address || !token || address.length > 254 || !verifyUnsubscribeToken(address, token, secret))
    throw new InvalidUnsubscribeLinkError();
  return { email: emailKey(address) };
}

export function isUnsubscribed(email: string): Promise<boolean> {
  return withWriteStore((store) => store.isUnsubscribed(emailKey(email)));
}

/**
 * Verify and record. Pending emails to the address are marked suppressed in
 * the same transaction, and with the legacy provider the audience-list entry
 * is marked unsubscribed (through the outbox, so it is retried too).
 * Returns whether this call changed anything.
 */
export async function unsubscribe(
  email: string | null | undefined,
  token: string | null | undefined,
  method: UnsubscribeMethod,
  now: number = Date.now(),
): Promise<{ email: string; alreadyUnsubscribed: boolean }> {
  const checked = checkUnsubscribeLink(email, token);
  const key = checked.email;
  const audience =
    env().EMAIL_PROVIDER === "resend"
      ? outboxRows([{ kind: "audience_unsubscribe", email: key, subjectType: "unsubscribe", subjectId: key }], now)
      : [];
  const changed = await withWriteStore((store) =>
    store.addUnsubscribe({ emailKey: key, method, unsubscribedAt: now }, audience),
  );
  if (changed) {
    kickOutbox();
    captureServerEvent(`unsubscribe-${now}`, "email_unsubscribed", { method });
  }
  return { email: key, alreadyUnsubscribed: !changed };
}
