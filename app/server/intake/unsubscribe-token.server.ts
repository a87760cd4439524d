import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "../platform/env.server";

/**
 * Unsubscribe tokens: base64url(HMAC-SHA256(UNSUBSCRIBE_TOKEN_SECRET,
 * "unsubscribe:v1:" + lower-cased address)). No expiry: a link in a years-old
 * email must still work (RFC 8058 expects the one-click URL to keep working).
 * Changing the secret invalidates every link already sent.
 */

const TOKEN_CONTEXT = "unsubscribe:v1:";

/** The identity of an address for de-duplication and suppression. */
export function emailKey(address: string): string {
  return address.trim().toLowerCase();
}

export function unsubscribeSecret(): string | undefined {
  return env().UNSUBSCRIBE_TOKEN_SECRET || undefined;
}

export function unsubscribeToken(address: string, secret: string): string {
  return createHmac("sha256", secret)
    .update(TOKEN_CONTEXT + emailKey(address))
    .digest("base64url");
}

/** Constant-time check of a token against an address. */
export function verifyUnsubscribeToken(address: string, token: string, secret: string): boolean {
  if (!address || !token || token.length > 128) return false;
  const expected = Buffer.from(unsubscribeToken(address, secret), "utf8");
  const given = Buffer.from(token, "utf8");
  // timingSafeEqual needs equal lengths; comparing against the expected value
  // itself on a length mismatch keeps the work constant.
  const lengthsMatch = given.length === expected.length;
  return timingSafeEqual(lengthsMatch ? given : expected, expected) && lengthsMatch;
}

export interface UnsubscribeLinks {
  /** For the footer of the email body: opens the confirmation page. */
  page: string;
  /** For the List-Unsubscribe header: answers the RFC 8058 one-click POST. */
  oneClick: string;
}

/** The service's public origin for links in emails. */
export function publicBaseUrl(): string {
  const config = env();
  // Trailing slashes trimmed without a regular expression (the redos lint flags /\/+$/ as polynomial).
  let base = config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`;
  while (base.endsWith("/")) base = base.slice(0, -1);
  return base;
}

/** The links for an address, or null when no secret is configured (then emails carry none). */
export function unsubscribeLinks(address: string): UnsubscribeLinks | null {
  const secret = unsubscribeSecret();
  if (!secret) return null;
  const query = new URLSearchParams({ email: emailKey(address), token: unsubscribeToken(address, secret) }).toString();
  const base = publicBaseUrl();
  return { page: `${base}/unsubscribe?${query}`, oneClick: `${base}/api/unsubscribe?${query}` };
}

/** The RFC 2369 / RFC 8058 headers for an address, or {} without a secret. */
export function unsubscribeHeaders(address: string): Record<string, string> {
  const links = unsubscribeLinks(address);
  if (!links) return {};
  return {
    "List-Unsubscribe": `<${links.oneClick}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}
