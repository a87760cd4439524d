import { and, eq, inArray } from "drizzle-orm";
import { emailOutbox, unsubscribes } from "../../../db/write-store";
import { ApiError } from "../platform/api.server";
import { captureServerEvent } from "../platform/analytics.server";
import { env } from "../platform/env.server";
import { enqueueOutbox } from "./outbox.server";
import { emailKey, unsubscribeSecret, verifyUnsubscribeToken } from "./unsubscribe-token.server";
import { kickOutbox, writeStore } from "./write-store.server";

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

export function isUnsubscribed(email: string): boolean {
  const store = writeStore();
  return (
    store.db
      .select({ k: unsubscribes.emailKey })
      .from(unsubscribes)
      .where(eq(unsubscribes.emailKey, emailKey(email)))
      .get() !== undefined
  );
}

/**
 * Verify and record. Pending emails to the address are marked suppressed in
 * the same transaction, and with the legacy provider the audience-list entry
 * is marked unsubscribed (through the outbox, so it is retried too).
 * Returns whether this call changed anything.
 */
export function unsubscribe(
  email: string | null | undefined,
  token: string | null | undefined,
  method: UnsubscribeMethod,
  now: number = Date.now(),
): { email: string; alreadyUnsubscribed: boolean } {
  const checked = checkUnsubscribeLink(email, token);
  const store = writeStore();
  const key = checked.email;
  const changed = store.db.transaction(
    (tx) => {
      const inserted = tx
        .insert(unsubscribes)
        .values({ emailKey: key, method, unsubscribedAt: now })
        .onConflictDoNothing()
        .run();
      if (inserted.changes === 0) return false;
      tx.update(emailOutbox)
        .set({ status: "suppressed", lastError: "recipient unsubscribed", updatedAt: now })
        .where(
          and(
            eq(emailOutbox.recipientKey, key),
            inArray(emailOutbox.status, ["pending", "retry"]),
            inArray(emailOutbox.kind, ["email", "audience_add"]),
          ),
        )
        .run();
      if (env().EMAIL_PROVIDER === "resend")
        enqueueOutbox(
          tx,
          [{ kind: "audience_unsubscribe", email: key, subjectType: "unsubscribe", subjectId: key }],
          now,
        );
      return true;
    },
    { behavior: "immediate" },
  );
  if (changed) {
    kickOutbox();
    captureServerEvent(`unsubscribe-${now}`, "email_unsubscribed", { method });
  }
  return { email: key, alreadyUnsubscribed: !changed };
}
