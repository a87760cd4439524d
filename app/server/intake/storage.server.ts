import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import busboy from "busboy";
import { z } from "zod";
import { ApiError, parseWith } from "../platform/api.server";
import { captureServerEvent } from "../platform/analytics.server";
import { logger } from "../platform/logger.server";
import { idempotencyClaim, recordOf } from "./idempotency.server";
import {
  agentUploadRecord,
  earlierIdempotentRequest,
  newSubmissionId,
  openWriteStore,
  recordAgentUpload,
} from "./write-store.server";
import { writeOutcomeUnknown, writeRolledBack } from "./write-store-handle.server";
import { makeUploadSafeOffTheLoop } from "./upload-safe.server";
import {
  putUploadObject,
  removeUploadObject,
  sha256Hex,
  uploadStorageKind,
  type StoredObject,
} from "./upload-objects.server";
import {
  displayFileName,
  RefusedUpload,
  safeUploadFileName,
  type AcceptedFileType,
  type RefusalKind,
  type SafeFile,
} from "./upload-content.server";

export {
  putUploadObject,
  removeUploadObject,
  sha256Hex,
  UPLOAD_WRITE_TIMEOUT_MS,
  uploadStorageKind,
  type StoredObject,
} from "./upload-objects.server";
export {
  displayFileName,
  makeUploadSafe,
  safeUploadFileName,
  sniffFileType,
  type AcceptedFileType,
} from "./upload-content.server";

/**
 * Agent discovery uploads: reading the multipart body (busboy) with a hard
 * size cap, making the file safe (upload-content.server.ts: images
 * re-encoded, PDFs checked for active content and rewritten), naming it
 * safely and storing it in S3 (when UPLOAD_BUCKET is set) or in a local
 * directory with the same key layout:
 *
 *   agent-survey-uploads/<docType>/<epoch-millis>-<24-hex-id>-<safe-file-name>
 *
 * See docs/decisions/063-upload-content-checks.md and 185 for what is accepted.
 */

export const UPLOAD_KEY_PREFIX = "agent-survey-uploads";
/** 10 MiB: a scanned multi-page blank form fits; anything larger is refused with 413. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Room for the multipart boundaries, headers and the two small fields. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const MAX_FIELD_BYTES = 1024;
const MAX_PARTS = 8;

export const ONLY_PDF_JPG_PNG = "Only PDF, JPG or PNG files are accepted.";
/** A PDF refused (docs/decisions/373): say which of the two it was, never that it is not a PDF. */
export const PDF_UNREADABLE =
  "The file was not accepted: this PDF could not be read. Save it again as a PDF and retry.";
export const PDF_ENCRYPTED =
  "The file was not accepted: password-protected PDFs cannot be accepted. Save a copy without the password and retry.";
export const IMAGE_UNREADABLE = "The file was not accepted: this image could not be read. Save it again and retry.";

/** The 400 a refused file gets: code and words by why it was refused. */
function refusal(kind: RefusalKind): ApiError {
  const [code, message] =
    kind === "unreadable_pdf"
      ? ["unreadable_pdf", PDF_UNREADABLE]
      : kind === "encrypted_pdf"
        ? ["encrypted_pdf", PDF_ENCRYPTED]
        : kind === "unreadable_image"
          ? ["unreadable_image", IMAGE_UNREADABLE]
          : ["unsupported_file_type", ONLY_PDF_JPG_PNG];
  return new ApiError(400, code, message, { file: message });
}

/**
 * What an agent may upload: a BLANK copy of a document they use with clients.
 *   intake_form          client intake or fact-finder questionnaire
 *   consent_form         consumer consent-to-act / authorisation form
 *   income_worksheet     income or household worksheet
 *   enrollment_checklist enrollment or document checklist
 *   client_notice        letter or notice template sent to clients
 *   other                anything else
 */
export const UPLOAD_DOC_TYPES = [
  "intake_form",
  "consent_form",
  "income_worksheet",
  "enrollment_checklist",
  "client_notice",
  "other",
] as const;
export type UploadDocType = (typeof UPLOAD_DOC_TYPES)[number];

export const UPLOAD_DOC_TYPE_LABELS: Record<UploadDocType, string> = {
  intake_form: "Client intake or fact-finder form",
  consent_form: "Consumer consent form",
  income_worksheet: "Income or household worksheet",
  enrollment_checklist: "Enrollment or document checklist",
  client_notice: "Letter or notice sent to clients",
  other: "Something else",
};

/** agent-survey-uploads/<docType>/<epoch-millis>-<24-hex-id>-<safe-file-name> */
export function uploadObjectKey(parts: { docType: UploadDocType; at: number; id: string; fileName: string }): string {
  if (!/^[0-9a-f]{24}$/.test(parts.id)) throw new Error("upload id must be 24 hex characters");
  return `${UPLOAD_KEY_PREFIX}/${parts.docType}/${parts.at}-${parts.id}-${parts.fileName}`;
}

// ------------------------------------------------------------------ reading the body

export interface UploadForm {
  fields: Record<string, string>;
  file: { name: string; declaredType: string; bytes: Buffer } | null;
}

function tooLarge(): ApiError {
  return new ApiError(413, "payload_too_large", `The file is larger than ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB.`);
}

/**
 * Read a multipart/form-data body with busboy: small text fields and at most
 * one file, streamed with a running count so that a file over the limit is
 * refused (413) as soon as it passes 10 MB. busboy reads file names as
 * browsers send them: `;`, `=`, quotes and `filename*=UTF-8''…` included
 * ("Consent form; blank.pdf", "Intake (rev=2).pdf", "Formulário.pdf").
 */
export async function readUploadForm(request: Request): Promise<UploadForm> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;\s*boundary=/i.test(type)) {
    throw new ApiError(
      415,
      "unsupported_media_type",
      "Send the upload as multipart/form-data with fields docType, blankConfirmed and one file.",
    );
  }
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES) throw tooLarge();
  const unreadable = () => new ApiError(400, "bad_request", "The upload could not be read as multipart/form-data.");
  if (!request.body) throw unreadable();

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      defParamCharset: "utf8",
      // busboy flags a file that reaches fileSize, so one byte more: exactly 10 MB is accepted.
      limits: { fieldSize: MAX_FIELD_BYTES, fileSize: MAX_UPLOAD_BYTES + 1, files: 1, parts: MAX_PARTS },
    });
  } catch {
    throw unreadable();
  }
  const body = Readable.fromWeb(request.body as NodeWebStream<Uint8Array>);
  return new Promise<UploadForm>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: UploadForm["file"] = null;
    let failed = false;
    const pending: Array<Promise<void>> = [];
    const fail = (error: ApiError) => {
      if (failed) return;
      failed = true;
      body.unpipe(parser);
      body.resume();
      reject(error);
    };
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated)
        fail(new ApiError(400, "validation_failed", `The field ${name} is too long.`, { [name]: "Too long." }));
      else fields[name ?? ""] = value;
    });
    parser.on("file", (_name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => fail(tooLarge()));
      stream.on("error", () => undefined);
      pending.push(
        new Promise((done) =>
          stream.on("close", () => {
            const bytes = Buffer.concat(chunks);
            // A file input left empty arrives as a part with an empty name and no bytes.
            if (!stream.truncated && !(info.filename === "" && bytes.length === 0))
              file = { name: info.filename ?? "", declaredType: info.mimeType, bytes };
            done();
          }),
        ),
      );
    });
    parser.on("filesLimit", () =>
      fail(new ApiError(400, "validation_failed", "Send exactly one file.", { file: "Send exactly one file." })),
    );
    parser.on("partsLimit", () =>
      fail(new ApiError(400, "bad_request", "The form has too many parts: send docType, blankConfirmed and one file.")),
    );
    parser.on("error", () => fail(unreadable()));
    body.on("error", () => fail(unreadable()));
    parser.on("close", () => {
      void Promise.all(pending).then(() => {
        if (!failed) resolve({ fields, file });
      });
    });
    body.pipe(parser);
  });
}

const truthy = new Set(["true", "on", "yes", "1"]);
const falsy = new Set(["false", "off", "no", "0", ""]);

export const UploadFields = z.object({
  docType: z.enum(UPLOAD_DOC_TYPES, { error: `Choose a document type: ${UPLOAD_DOC_TYPES.join(", ")}.` }),
  blankConfirmed: z
    .string({ error: "Confirm that the document is blank." })
    // The words taken as yes, in any case, spaces around: what the transform below turns into true (decision 380).
    .regex(/^\s*(?:[Tt][Rr][Uu][Ee]|[Oo][Nn]|[Yy][Ee][Ss]|1)\s*$/, {
      error: "Confirm that the document is blank: it must not contain any client's information.",
    })
    .transform((v, ctx) => {
      const value = v.trim().toLowerCase();
      if (truthy.has(value)) return true;
      if (falsy.has(value)) return false;
      ctx.addIssue({ code: "custom", message: "blankConfirmed must be true or false." });
      return z.NEVER;
    })
    .pipe(
      z.literal(true, { error: "Confirm that the document is blank: it must not contain any client's information." }),
    ),
});

// ------------------------------------------------------------------ a file no row names

/** When to ask again whether an upload's row exists, while the write store cannot say. */
const ROW_CHECK_DELAYS_MS = [30_000, 120_000, 600_000];

/**
 * Remove an upload's file once the write store says it holds no row for it: at once, or (`later`,
 * when the store has just failed) after 30 s, 2 and 10 minutes. A store that never answers keeps
 * the file, logged with its key, so operations can match it by hand.
 */
async function removeIfNoRow(uploadId: string, key: string, why: string, later = false): Promise<void> {
  for (const delay of later ? ROW_CHECK_DELAYS_MS : [0, ...ROW_CHECK_DELAYS_MS]) {
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay).unref());
    try {
      if (!(await agentUploadRecord(uploadId))) await removeUploadObject(key, why);
      return;
    } catch {
      // The store still cannot say: ask again later.
    }
  }
  logger().warn({ objectKey: key, why }, "upload: the write store never said whether this file has a row; it is kept");
}

// ------------------------------------------------------------------ the whole upload

export interface AcceptedUpload {
  key: string;
  uploadId: string;
  contentType: AcceptedFileType["mime"];
  sizeBytes: number;
  /** True when this is the answer of an earlier request with the same idempotency key. */
  replayed: boolean;
}

/** The answer an earlier upload with the same key got, from its row. */
async function replayOf(uploadId: string): Promise<AcceptedUpload> {
  const earlier = await agentUploadRecord(uploadId);
  if (!earlier) throw new Error("an idempotency key names an upload with no row");
  return {
    key: earlier.objectKey,
    uploadId: earlier.id,
    contentType: earlier.contentType as AcceptedFileType["mime"],
    sizeBytes: earlier.sizeBytes,
    replayed: true,
  };
}

/**
 * POST /api/agents/discovery/upload and the upload form on /agent-discovery:
 * read, validate, recognise, store, then commit the upload row. Answers only
 * after both the object and its row are saved. Throws ApiError (400, 413,
 * 415, 500 write_store_unavailable, 503 upload_storage_unavailable).
 */
export async function acceptAgentUpload(
  request: Request,
  options: {
    ip: string;
    now?: () => number;
    /**
     * The request's idempotency key (decision 503): the Idempotency-Key header, or the page form's
     * hidden key. The same file sent again with it answers with the first upload, stored once.
     */
    idempotencyKey?: string;
  },
): Promise<AcceptedUpload> {
  // Fail before reading or storing anything if the upload cannot be recorded.
  await openWriteStore();
  const form = await readUploadForm(request);
  const fields = parseWith(UploadFields, form.fields, "upload form");
  const file = form.file;
  if (!file)
    throw new ApiError(400, "validation_failed", "Attach one file: a PDF, JPG or PNG.", {
      file: "Attach one file: a PDF, JPG or PNG.",
    });
  const at = (options.now ?? Date.now)();
  const uploadId = newSubmissionId();
  // The request as sent: its fields, its file's name and its bytes before they are made safe.
  // Hashed only when there is a key to claim (9 ms of the event loop for 10 MB).
  const claim =
    options.idempotencyKey === undefined
      ? undefined
      : idempotencyClaim(
          "agent_upload",
          options.idempotencyKey,
          { ...fields, fileName: file.name, sha256: sha256Hex(file.bytes) },
          uploadId,
          at,
        );
  if (claim) {
    // Sent again after a lost answer or "could not confirm": answered from the first, nothing stored.
    const earlier = await earlierIdempotentRequest(claim.keyHash);
    if (earlier) return replayOf(recordOf({ created: false, earlier }, claim, uploadId).id);
  }
  let safe: SafeFile;
  try {
    safe = await makeUploadSafeOffTheLoop(file.bytes);
  } catch (error) {
    if (!(error instanceof RefusedUpload)) throw error;
    logger().warn({ reason: error.reason, kind: error.kind, sizeBytes: file.bytes.length }, "upload refused");
    throw refusal(error.kind);
  }
  if (safe.removed?.length)
    logger().info({ removed: [...new Set(safe.removed)].slice(0, 20) }, "upload: active content removed from a PDF");
  if (safe.repaired?.length)
    logger().info({ repaired: safe.repaired }, "upload: a damaged or secured PDF was read as viewers read it");
  const type = safe.type;
  const storedBytes = safe.bytes;

  const fileName = safeUploadFileName(file.name, type);
  const key = uploadObjectKey({ docType: fields.docType, at, id: uploadId, fileName });
  const sha256 = safe.sha256 ?? sha256Hex(storedBytes);
  let stored: StoredObject;
  try {
    stored = await putUploadObject(key, storedBytes, { contentType: type.mime, sha256, docType: fields.docType });
  } catch (error) {
    logger().error(
      { err: error instanceof Error ? error.message : String(error), storage: uploadStorageKind() },
      "upload could not be stored",
    );
    throw new ApiError(
      503,
      "upload_storage_unavailable",
      "The file could not be stored right now; nothing was saved. Please try again in a few minutes.",
      undefined,
      { "retry-after": "60" },
    );
  }
  let outcome: Awaited<ReturnType<typeof recordAgentUpload>>;
  try {
    outcome = await recordAgentUpload(
      {
        id: uploadId,
        objectKey: key,
        storage: stored.storage,
        docType: fields.docType,
        blankConfirmed: fields.blankConfirmed,
        contentType: type.mime,
        sizeBytes: storedBytes.length,
        sha256,
        originalFileName: displayFileName(file.name),
        uploaderIp: options.ip,
        createdAt: at,
      },
      claim,
      // The store did not answer in time: the row may yet commit. Once it is known that no row
      // names the file, it goes (decision 505). A late failure is checked first: a connection lost
      // after COMMIT was sent fails the call and may still have stored the row.
      (late) => {
        if (!("error" in late)) {
          if (!late.value.created) void removeUploadObject(key, "another request with its key was recorded first");
        } else void removeIfNoRow(uploadId, key, "its row's late write failed");
      },
    );
  } catch (error) {
    // No row names the file (decision 505). The engine refused the row (500), or could not write
    // it (503, a full disk: decision 509): it was rolled back, and the file goes now. The
    // connection was lost (503): COMMIT may have been sent, so the file goes once the store says
    // there is no row. The store did not answer in time: the late outcome decides (above).
    if ((error instanceof ApiError && error.status === 500) || writeRolledBack(error))
      await removeUploadObject(key, "its row could not be written");
    else if (!writeOutcomeUnknown(error)) void removeIfNoRow(uploadId, key, "its row could not be written", true);
    throw error;
  }
  const record = recordOf(outcome, claim, uploadId);
  if (record.replayed) {
    // A request with the same key was recorded between the check above and this one: its upload
    // is the answer, and this request's copy is removed.
    await removeUploadObject(key, "the same idempotency key was recorded first");
    return replayOf(record.id);
  }
  captureServerEvent(uploadId, "agent_upload_stored", {
    doc_type: fields.docType,
    file_type: type.extension,
    size_kb: Math.ceil(storedBytes.length / 1024),
    storage: stored.storage,
  });
  return { key, uploadId, contentType: type.mime, sizeBytes: storedBytes.length, replayed: false };
}
