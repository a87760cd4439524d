import { createHash, createHmac, randomUUID } from "node:crypto";
import type { IdempotentRequestRow } from "../../../db/write-store";
import type { IdempotentOutcome } from "../../../db/write-store-ops";
import { ApiError } from "../platform/api.server";

/**
 * Idempotency keys for the writes that make a record (decision 495). A client that got no answer,
 * or a 503 saying the outcome is unknown (decision 491), sends the same request again with the same
 * key; if the first one committed, the answer is the first one's, and no second record is made.
 *
 * The key comes in the `Idempotency-Key` header (the IETF httpapi draft of that name: a string,
 * quoted or not) or, on the form pages, in a hidden field the page fills with a random UUID. The
 * store keeps only SHA-256 digests: of the operation and the key, and of the validated request,
 * so a key sent again with another request is refused rather than answered with the wrong record.
 */
export type IdempotentOperation = "agent_discovery" | "enrollment_application" | "agent_upload";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/** Visible ASCII, 1 to 255 characters: a UUID, a ULID or any client's own token. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The header's key, undefined when there is none. A structured-field string's quotes are taken off
 * ("\"8e03978e-…\"" and 8e03978e-… are the same key); anything else is a 400 naming the header.
 */
export function idempotencyKeyOf(request: Request): string | undefined {
  const raw = request.headers.get(IDEMPOTENCY_HEADER);
  if (raw === null) return undefined;
  const trimmed = raw.trim();
  const key = /^"[^"\\]*"$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
  if (!KEY.test(key)) {
    const message = `${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters, such as a UUID.`;
    throw new ApiError(400, "validation_failed", message, { [IDEMPOTENCY_HEADER]: message });
  }
  return key;
}

/** A new key for a form page to send with its form. */
export function newFormIdempotencyKey(): string {
  return randomUUID();
}

/** A form page's hidden key: used when well formed, ignored otherwise (the form still saves). */
export function formIdempotencyKey(value: FormDataEntryValue | null): string | undefined {
  return typeof value === "string" && KEY.test(value) ? value : undefined;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The row the record's transaction writes for a request sent with `key`; none without a key. */
export function idempotencyClaim(
  operation: IdempotentOperation,
  key: string | undefined,
  request: unknown,
  subjectId: string,
  now: number,
): IdempotentRequestRow | undefined {
  if (key === undefined) return undefined;
  return {
    keyHash: sha256(`${operation}\n${key}`),
    operation,
    fingerprint: sha256(JSON.stringify(request)),
    subjectId,
    createdAt: now,
  };
}

/**
 * The record a write made: this request's own, or, when the key had been used, the earlier one's.
 * The same key with another request is a 422: answering with the earlier record would be wrong,
 * and making a second one would defeat the key.
 */
export function recordOf(outcome: IdempotentOutcome, claim: IdempotentRequestRow | undefined, ownId: string) {
  if (outcome.created) return { id: ownId, replayed: false };
  // The key's digest names its operation, so an earlier row is always of this operation.
  if (!claim || outcome.earlier.fingerprint !== claim.fingerprint) {
    throw new ApiError(
      422,
      "idempotency_key_reused",
      `This ${IDEMPOTENCY_HEADER} was already used for a different request. Send a new key with a new request.`,
      { [IDEMPOTENCY_HEADER]: "already used for a different request" },
    );
  }
  return { id: outcome.earlier.subjectId, replayed: true };
}

/**
 * An enrollment application's access token when it was sent with a key: derived from the key and
 * the application id, so a request sent again gets the token the lost answer held. Only a client
 * holding the key (and sending the same application) can get it; the store keeps the token's hash.
 */
export function accessTokenFromKey(key: string, applicationId: string): string {
  return createHmac("sha256", key).update(`enrollment-access-token\n${applicationId}`, "utf8").digest("base64url");
}
