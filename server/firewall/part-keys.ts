import { hash } from "node:crypto";

/**
 * The keys a request's parts are remembered by in the firewall (docs/decisions/282, 404, 451,
 * 463): a digest of a part's text, or a short protocol header's own text. request-data.ts works
 * out which parts a request has; engine.ts remembers verdicts by these keys.
 */

/** The key a short body is remembered by: its kind (how it was parsed) and its text, as partKey does. */
export function bodyKey(kind: "json" | "form" | "text", text: string): string | undefined {
  return partKey(kind === "json" ? "j" : kind === "form" ? "f" : "t", text);
}

/** Parts longer than this are judged every time, never remembered. */
export const MAX_KEYED = 2_048;

/**
 * The key a part is remembered by: a SHA-256 digest of its text. A query (household, income,
 * ZIP), cookies (sessions) and forwarding headers (addresses) are personal or secret, so no
 * part's text is kept; and a digest cannot be forged to collide with a part judged clean
 * (docs/decisions/282).
 */
export function partKey(kind: string, text: string): string | undefined {
  if (text.length > MAX_KEYED) return undefined;
  return `${kind}${hash("sha256", text, "base64")}`;
}

/**
 * Protocol headers whose values say nothing about a person: a short one is remembered by its own
 * text, no digest worked out (issue 29: hashing the host and the accept headers was most of the
 * remembered check's cost on a health check; decision 282 as amended by 463). A text key starts
 * with "=", which no digest key does, so the two can never be taken for each other.
 */
const TEXT_KEYED_HEADERS = new Set([
  "host",
  "connection",
  "accept",
  "accept-encoding",
  "cache-control",
  "pragma",
  "upgrade-insecure-requests",
  "content-type",
  "content-length",
  "sec-fetch-site",
  "sec-fetch-mode",
  "sec-fetch-dest",
  "sec-fetch-user",
  "priority",
  "te",
]);
/** Longest text key: a digest key is 45 characters, so a text key never takes more room. */
const TEXT_KEYED_CHARS = 44;

/** A header's key (`${name}\0${value}` is what the engine is handed for it either way). */
export function headerKey(name: string, value: string): string | undefined {
  if (TEXT_KEYED_HEADERS.has(name) && name.length + value.length < TEXT_KEYED_CHARS) return `=${name}\0${value}`;
  return partKey("h", `${name}\0${value}`);
}
