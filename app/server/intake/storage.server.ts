import { createHash } from "node:crypto";
import { constants as fsConstants, promises as fs } from "node:fs";
import path from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import type * as S3Sdk from "@aws-sdk/client-s3";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { z } from "zod";
import { ApiError, parseWith } from "../platform/api.server";
import { captureServerEvent } from "../platform/analytics.server";
import { env } from "../platform/env.server";
import { onShutdown, processSingleton } from "../platform/lifecycle.server";
import { logger } from "../platform/logger.server";
import { newSubmissionId, openWriteStore, recordAgentUpload } from "./write-store.server";

/**
 * Agent discovery uploads: reading the multipart body with a hard size cap,
 * recognising the file by its bytes, naming it safely and storing it in S3
 * (when UPLOAD_BUCKET is set) or in a local directory with the same key
 * layout:
 *
 *   agent-survey-uploads/<docType>/<epoch-millis>-<24-hex-id>-<safe-file-name>
 *
 * See docs/decisions/063-upload-content-checks.md for what is accepted.
 */

export const UPLOAD_KEY_PREFIX = "agent-survey-uploads";
/** 10 MiB: a scanned multi-page blank form fits; anything larger is refused with 413. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Room for the multipart boundaries, headers and the two small fields. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const MAX_FIELD_BYTES = 1024;
const MAX_PARTS = 8;

export const ONLY_PDF_JPG_PNG = "Only PDF, JPG or PNG files are accepted.";

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

export interface AcceptedFileType {
  mime: "application/pdf" | "image/png" | "image/jpeg";
  extension: "pdf" | "png" | "jpg";
}

const PDF: AcceptedFileType = { mime: "application/pdf", extension: "pdf" };
const PNG: AcceptedFileType = { mime: "image/png", extension: "png" };
const JPEG: AcceptedFileType = { mime: "image/jpeg", extension: "jpg" };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_IEND = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/** The type named by the leading magic bytes, or null. Name and declared type are never consulted. */
export function sniffFileType(bytes: Uint8Array): AcceptedFileType | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 5 && b.subarray(0, 5).toString("latin1") === "%PDF-") return PDF;
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return PNG;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return JPEG;
  return null;
}

const ACTIVE_CONTENT = /<\s*(script|html|iframe|svg|object|embed|body)\b|<\?php|javascript:/i;

/**
 * Accept a file only if it is a PDF, PNG or JPEG by content AND is shaped
 * like one end to end, so a magic-byte prefix glued onto something else (a
 * polyglot) is refused:
 * - PNG: signature, then an IHDR chunk, and the file ends exactly with IEND
 *   (nothing appended); no markup anywhere in it.
 * - JPEG: starts FF D8 FF, ends with the FF D9 end-of-image marker (up to 32
 *   trailing padding bytes); no markup anywhere in it.
 * - PDF: starts %PDF-1.x or %PDF-2.x, has no markup in its first 1 KB (where
 *   PDF/HTML polyglots put their page) and has an %%EOF marker in its last
 *   1 KB. The rest of a PDF is not scanned: it is a text format and may quote
 *   anything.
 */
export function checkUploadContent(bytes: Uint8Array): AcceptedFileType | null {
  const type = sniffFileType(bytes);
  if (!type) return null;
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === PNG) {
    if (b.length < 8 + 25 + 12) return null;
    if (b.readUInt32BE(8) !== 13 || b.subarray(12, 16).toString("latin1") !== "IHDR") return null;
    if (!b.subarray(b.length - 12).equals(PNG_IEND)) return null;
    if (ACTIVE_CONTENT.test(b.toString("latin1"))) return null;
    return PNG;
  }
  if (type === JPEG) {
    if (b.length < 4) return null;
    let end = b.length;
    const floor = Math.max(2, b.length - 34);
    while (end > floor && !(b[end - 2] === 0xff && b[end - 1] === 0xd9)) end--;
    if (!(b[end - 2] === 0xff && b[end - 1] === 0xd9)) return null;
    if (ACTIVE_CONTENT.test(b.toString("latin1"))) return null;
    return JPEG;
  }
  if (!/^%PDF-[12]\.\d/.test(b.subarray(0, 8).toString("latin1"))) return null;
  if (ACTIVE_CONTENT.test(b.subarray(0, 1024).toString("latin1"))) return null;
  if (
    !b
      .subarray(Math.max(0, b.length - 1024))
      .toString("latin1")
      .includes("%%EOF")
  )
    return null;
  return PDF;
}

/**
 * A file name safe for an object key and a file system: the last path
 * segment only, ASCII letters, digits, dot, dash and underscore (everything
 * else becomes "-"), no leading dots, at most 100 characters, and the
 * extension set to the type found in the bytes (photo.png holding a PDF is
 * stored as photo.pdf; form.exe holding a PDF as form.pdf).
 */
export function safeUploadFileName(original: string, type: AcceptedFileType): string {
  const last = original.split(/[/\\]/).pop() ?? "";
  const ascii = last.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  let cleaned = ascii
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/-?\.-?/g, ".")
    .replace(/^[.-]+/, "")
    .replace(/(?<![.-])[.-]+$/, "");
  const dot = cleaned.lastIndexOf(".");
  let base = dot > 0 ? cleaned.slice(0, dot) : cleaned;
  base = base.replace(/(?<![.-])[.-]+$/, "").slice(0, 90) || "upload";
  cleaned = `${base}.${type.extension}`;
  return cleaned;
}

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
 * Read a multipart/form-data body: small text fields and at most one file,
 * streamed with a running count so that a body over the limit is refused
 * (413) as soon as it passes 10 MB, never buffered whole.
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

  const fields: Record<string, string> = {};
  let file: UploadForm["file"] = null;
  let parts = 0;
  const handler: UploadHandler = async (part) => {
    parts++;
    if (parts > MAX_PARTS)
      throw new ApiError(400, "bad_request", "The form has too many parts: send docType, blankConfirmed and one file.");
    const chunks: Uint8Array[] = [];
    let size = 0;
    const isFile = typeof part.filename === "string";
    if (isFile && file)
      throw new ApiError(400, "validation_failed", "Send exactly one file.", { file: "Send exactly one file." });
    const limit = isFile ? MAX_UPLOAD_BYTES : MAX_FIELD_BYTES;
    for await (const chunk of part.data) {
      size += chunk.byteLength;
      if (size > limit) {
        if (isFile) throw tooLarge();
        throw new ApiError(400, "validation_failed", `The field ${part.name} is too long.`, {
          [part.name]: "Too long.",
        });
      }
      chunks.push(chunk);
    }
    const bytes = Buffer.concat(chunks);
    if (isFile) {
      // A file input left empty arrives as a part with an empty name and no bytes.
      if (part.filename === "" && bytes.length === 0) return undefined;
      file = { name: part.filename ?? "", declaredType: part.contentType, bytes };
      return undefined;
    }
    fields[part.name] = bytes.toString("utf8");
    return undefined;
  };
  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(400, "bad_request", "The upload could not be read as multipart/form-data.");
  }
  return { fields, file };
}

const truthy = new Set(["true", "on", "yes", "1"]);
const falsy = new Set(["false", "off", "no", "0", ""]);

export const UploadFields = z.object({
  docType: z.enum(UPLOAD_DOC_TYPES, { error: `Choose a document type: ${UPLOAD_DOC_TYPES.join(", ")}.` }),
  blankConfirmed: z
    .string({ error: "Confirm that the document is blank." })
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

// ------------------------------------------------------------------ storing

export interface StoredObject {
  storage: "s3" | "local";
  key: string;
}

type S3Module = typeof S3Sdk;

/**
 * The S3 SDK is imported on the first S3 upload, not at start (~100 ms of
 * module loading the first answer need not wait for; docs/decisions/117).
 */
function s3Client(): Promise<{ client: S3Client; sdk: S3Module }> {
  const { UPLOAD_S3_ENDPOINT, UPLOAD_S3_REGION } = env();
  return processSingleton(`s3:${UPLOAD_S3_REGION}:${UPLOAD_S3_ENDPOINT ?? ""}`, async () => {
    const sdk = await import("@aws-sdk/client-s3");
    const client = new sdk.S3Client({
      region: UPLOAD_S3_REGION,
      ...(UPLOAD_S3_ENDPOINT ? { endpoint: UPLOAD_S3_ENDPOINT, forcePathStyle: true } : {}),
      // S3-compatible servers (and s3rver in tests) do not all speak the newer default checksums.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    onShutdown("s3 client", () => client.destroy());
    return { client, sdk };
  });
}

/** Where uploads go under the current configuration. */
export function uploadStorageKind(): "s3" | "local" {
  return env().UPLOAD_BUCKET ? "s3" : "local";
}

/**
 * Store the bytes under `key`: S3 PutObject when UPLOAD_BUCKET is set, else a
 * file under UPLOAD_LOCAL_DIR at the same relative path, written to a
 * temporary name, fsync'd and renamed so a crash never leaves half a file.
 */
export async function putUploadObject(
  key: string,
  body: Buffer,
  meta: { contentType: string; sha256: string; docType: string },
): Promise<StoredObject> {
  const config = env();
  if (config.UPLOAD_BUCKET) {
    const { client, sdk } = await s3Client();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: config.UPLOAD_BUCKET,
        Key: key,
        Body: body,
        ContentType: meta.contentType,
        ContentLength: body.length,
        ContentDisposition: "attachment",
        Metadata: { sha256: meta.sha256, "doc-type": meta.docType },
      }),
      { abortSignal: AbortSignal.timeout(30_000) },
    );
    return { storage: "s3", key };
  }
  const root = path.resolve(config.UPLOAD_LOCAL_DIR);
  const target = path.resolve(root, key);
  if (!target.startsWith(root + path.sep)) throw new Error("upload key escapes the upload directory");
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.partial`;
  const handle = await fs.open(temp, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, 0o640);
  try {
    await handle.writeFile(body);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, target);
  return { storage: "local", key };
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

// ------------------------------------------------------------------ the whole upload

export interface AcceptedUpload {
  key: string;
  uploadId: string;
  contentType: AcceptedFileType["mime"];
  sizeBytes: number;
}

/**
 * POST /api/agents/discovery/upload and the upload form on /agent-discovery:
 * read, validate, recognise, store, then commit the upload row. Answers only
 * after both the object and its row are saved. Throws ApiError (400, 413,
 * 415, 500 write_store_unavailable, 503 upload_storage_unavailable).
 */
export async function acceptAgentUpload(
  request: Request,
  options: { ip: string; now?: () => number },
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
  const type = checkUploadContent(file.bytes);
  if (!type) throw new ApiError(400, "unsupported_file_type", ONLY_PDF_JPG_PNG, { file: ONLY_PDF_JPG_PNG });

  const at = (options.now ?? Date.now)();
  const uploadId = newSubmissionId();
  const fileName = safeUploadFileName(file.name, type);
  const key = uploadObjectKey({ docType: fields.docType, at, id: uploadId, fileName });
  const sha256 = sha256Hex(file.bytes);
  let stored: StoredObject;
  try {
    stored = await putUploadObject(key, file.bytes, { contentType: type.mime, sha256, docType: fields.docType });
  } catch (error) {
    logger().error(
      { err: error instanceof Error ? error.message : String(error), storage: uploadStorageKind() },
      "upload could not be stored",
    );
    throw new ApiError(
      503,
      "upload_storage_unavailable",
      "The file could not be stored right now; nothing was saved. Please try again in a few minutes.",
    );
  }
  await recordAgentUpload({
    id: uploadId,
    objectKey: key,
    storage: stored.storage,
    docType: fields.docType,
    blankConfirmed: fields.blankConfirmed,
    contentType: type.mime,
    sizeBytes: file.bytes.length,
    sha256,
    originalFileName: file.name.slice(0, 255),
    uploaderIp: options.ip,
    createdAt: at,
  });
  captureServerEvent(uploadId, "agent_upload_stored", {
    doc_type: fields.docType,
    file_type: type.extension,
    size_kb: Math.ceil(file.bytes.length / 1024),
    storage: stored.storage,
  });
  return { key, uploadId, contentType: type.mime, sizeBytes: file.bytes.length };
}
