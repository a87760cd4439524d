import { randomFillSync } from "node:crypto";

/**
 * The header set every response carries (pages, JSON, static files, 404s and
 * errors). The edge may set them too; the service does not rely on it.
 */
export const SERVER_NAME = "health-plan-marketplace";

export function contentSecurityPolicy(nonce: string, analyticsHost?: string): string {
  const connect = ["'self'"];
  if (analyticsHost) {
    try {
      const origin = new URL(analyticsHost).origin;
      connect.push(origin);
      // posthog's ingestion host serves its assets from a sibling "-assets" host.
      connect.push(origin.replace("://us.i.", "://us-assets.i.").replace("://eu.i.", "://eu-assets.i."));
    } catch {
      // A malformed analytics host simply gets no connect-src entry.
    }
  }
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // Inline style attributes size the scenario bar charts; no inline <style>.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${[...new Set(connect)].join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(nonce: string, analyticsHost?: string): Record<string, string> {
  return {
    "strict-transport-security": "max-age=31536000; includeSubDomains; preload",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "content-security-policy": contentSecurityPolicy(nonce, analyticsHost),
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
    "cross-origin-opener-policy": "same-origin",
    server: SERVER_NAME,
  };
}

const NONCE_MARK = "\u0000nonce\u0000";
const headerSets = new Map<string, { fixed: Array<[string, string]>; cspBefore: string; cspAfter: string }>();

/**
 * Sets every security header on a response, the CSP with this answer's nonce (issue 29): the
 * header values and the policy around the nonce are worked out once per analytics host, not per
 * request (securityHeaders built an object, a Set, a URL and the policy string each time).
 */
export function setSecurityHeaders(
  res: { setHeader(name: string, value: string): unknown },
  nonce: string,
  analyticsHost?: string,
): void {
  const key = analyticsHost ?? "";
  let set = headerSets.get(key);
  if (!set) {
    const all = securityHeaders(NONCE_MARK, analyticsHost);
    const [cspBefore, cspAfter] = all["content-security-policy"].split(NONCE_MARK) as [string, string];
    const fixed = Object.entries(all).filter(([name]) => name !== "content-security-policy");
    set = { fixed, cspBefore, cspAfter };
    headerSets.set(key, set);
  }
  for (const [name, value] of set.fixed) res.setHeader(name, value);
  res.setHeader("content-security-policy", set.cspBefore + nonce + set.cspAfter);
}

// Nonces are cut from a pool of CSPRNG bytes refilled 256 nonces at a time: one
// randomFillSync per request was ~3 % of a health check's server time, and
// crypto.randomUUID pools the same way.
const NONCE_BYTES = 16;
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let noncePoolOffset = noncePool.length;

/** A fresh CSP nonce: 16 random bytes, base64. */
export function cspNonce(): string {
  if (noncePoolOffset === noncePool.length) {
    randomFillSync(noncePool);
    noncePoolOffset = 0;
  }
  const nonce = noncePool.toString("base64", noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePoolOffset += NONCE_BYTES;
  return nonce;
}
