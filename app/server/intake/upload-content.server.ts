// pdf-lib and sharp are loaded on the first upload, not at start-up: together they were ~170 ms of
// module loading before the server could answer anything (issue 29).
import type { PDFDocument } from "pdf-lib";
import { emptyPasswordKey, loadDecrypted } from "./pdf-decrypt.server";
import { disarm } from "./pdf-disarm.server";
import { cutDamage, failureOffset, MAX_REPAIRS, pdfHeaderOffset } from "./pdf-repair.server";

/**
 * What an uploaded file becomes before it is stored (issue 18 item 5,
 * docs/decisions/185): uploads are made safe, not merely checked.
 * - PNG and JPEG are decoded and re-encoded (sharp): metadata (EXIF, XMP,
 *   ICC), text chunks, comments and anything after the image are gone; only
 *   pixels survive. A file that does not decode is refused.
 * - PDF is disarmed, not refused (issue 30 item 7, docs/decisions/373):
 *   parsed leniently (pdf-lib), its active content removed (JavaScript,
 *   Launch / ImportData / SubmitForm / remote and embedded go-to actions,
 *   additional actions /AA, an /OpenAction that is such an action (a plain
 *   destination like [page /Fit] or a GoTo stays), embedded files, XFA, rich
 *   media), every object no longer reachable from the document dropped, and
 *   the rest written out again from its objects, so whatever sat between or
 *   after them (an HTML page, a script, an archive) is gone too. A damaged
 *   file is read around its damage (decision 504), and one encrypted with no
 *   password to open it is decrypted first (decision 506). Refused only when
 *   it cannot be read (or has no page) or needs a password to open.
 * The type is taken from the leading bytes only; name and declared type are
 * never consulted.
 */

export interface AcceptedFileType {
  mime: "application/pdf" | "image/png" | "image/jpeg";
  extension: "pdf" | "png" | "jpg";
}

export const PDF: AcceptedFileType = { mime: "application/pdf", extension: "pdf" };
export const PNG: AcceptedFileType = { mime: "image/png", extension: "png" };
export const JPEG: AcceptedFileType = { mime: "image/jpeg", extension: "jpg" };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type named by the leading magic bytes, or null. */
export function sniffFileType(bytes: Uint8Array): AcceptedFileType | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 5 && b.subarray(0, 5).toString("latin1") === "%PDF-") return PDF;
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return PNG;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return JPEG;
  // A PDF whose header comes after a few bytes (a byte-order mark, a mail client's headers), as
  // viewers accept it (decision 504). Only the rewritten document is stored, header first.
  if (pdfHeaderOffset(b) > 0) return PDF;
  return null;
}

/** Why a file was refused: `kind` picks the visitor's message, `reason` is logged. */
export type RefusalKind = "wrong_type" | "unreadable_pdf" | "encrypted_pdf" | "unreadable_image";

export class RefusedUpload extends Error {
  constructor(
    readonly reason: string,
    readonly kind: RefusalKind = "wrong_type",
  ) {
    super(reason);
  }
}

export interface SafeFile {
  type: AcceptedFileType;
  /** The bytes to store: re-encoded image, rewritten PDF. */
  bytes: Buffer;
  /** What was taken out of a PDF ("/OpenAction /JavaScript", "/EmbeddedFiles" …), for the log. */
  removed?: string[];
  /** Damage cut out of a PDF so that the rest could be read (decision 504), for the log. */
  repaired?: string[];
  /** The SHA-256 of `bytes` in hex, when the upload worker computed it (off the event loop). */
  sha256?: string;
}

/** A blank form scanned at 600 dpi on legal paper is ~20 MP; anything far bigger is a decompression bomb. */
const MAX_INPUT_PIXELS = 60_000_000;

export async function makeUploadSafe(bytes: Buffer): Promise<SafeFile> {
  const type = sniffFileType(bytes);
  if (!type) throw new RefusedUpload("not a PDF, PNG or JPEG by its bytes");
  if (type === PDF) return { type, ...(await disarmPdf(bytes)) };
  return { type, bytes: await reencodeImage(bytes, type) };
}

async function reencodeImage(bytes: Buffer, type: AcceptedFileType): Promise<Buffer> {
  try {
    // rotate() applies the EXIF orientation before the metadata is dropped, so photos stay upright.
    const { default: sharp } = await import("sharp");
    const image = sharp(bytes, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    const format = (await image.metadata()).format;
    if (format !== (type === PNG ? "png" : "jpeg"))
      throw new RefusedUpload(`decodes as ${format}, not ${type.extension}`);
    return await (type === PNG ? image.png() : image.jpeg({ quality: 90 })).toBuffer();
  } catch (error) {
    if (error instanceof RefusedUpload) throw error;
    throw new RefusedUpload(`image does not decode: ${(error as Error).message}`, "unreadable_image");
  }
}

async function disarmPdf(bytes: Buffer): Promise<{ bytes: Buffer; removed: string[]; repaired?: string[] }> {
  const unreadable = (why: string) => new RefusedUpload(`PDF cannot be read: ${why}`, "unreadable_pdf");
  const header = pdfHeaderOffset(bytes);
  if (header < 0) throw unreadable("bad header");
  const pdf = await import("pdf-lib");
  let doc: PDFDocument | undefined;
  let input = bytes.subarray(header);
  const repairs: string[] = [];
  while (!doc) {
    try {
      // Lenient: objects pdf-lib cannot parse become null instead of refusing the whole file.
      doc = await pdf.PDFDocument.load(input, {
        updateMetadata: false,
        ignoreEncryption: true,
        throwOnInvalidObject: false,
      });
    } catch (error) {
      // A structure that cannot be ended (damage): cut it out and read the rest, as viewers do.
      const message = (error as Error).message;
      const offset = failureOffset(message);
      const repaired = offset === null || repairs.length >= MAX_REPAIRS ? null : cutDamage(input, offset);
      if (!repaired || repaired.length === input.length) throw unreadable(message);
      repairs.push(`damaged bytes cut at ${offset} (${input.length - repaired.length} bytes)`);
      input = repaired;
    }
  }
  if (doc.isEncrypted) {
    // Encrypted with no password to open it (a "secured" form): read it as every viewer does.
    let file: ReturnType<typeof emptyPasswordKey> = null;
    try {
      file = emptyPasswordKey(doc, pdf);
    } catch {
      // A malformed encryption dictionary: as good as a password we do not have.
    }
    if (!file) throw new RefusedUpload("encrypted PDF", "encrypted_pdf");
    try {
      doc = await loadDecrypted(input, file, doc.context.trailerInfo.Encrypt, pdf);
    } catch (error) {
      throw unreadable(`could not be decrypted (${(error as Error).message})`);
    }
    repairs.push("decrypted: it opens without a password");
  }
  let pages = 0;
  try {
    pages = doc.getPageCount();
  } catch (error) {
    throw unreadable(`no page tree (${(error as Error).message})`);
  }
  if (pages === 0) throw unreadable("no pages");
  const removed = disarm(doc, pdf);
  try {
    const out = Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
    return { bytes: out, removed, ...(repairs.length ? { repaired: repairs } : {}) };
  } catch (error) {
    throw unreadable(`could not be written out again (${(error as Error).message})`);
  }
}

// Control characters (C0, DEL, C1), bidirectional overrides and isolates, and invisible marks:
// they can make "evil.exe" display as "exe.live.pdf" or hide part of a name.
// eslint-disable-next-line no-control-regex -- exactly those characters
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** The name as sent, for display to staff: the last path segment, NFC, without unshowable characters, at most 255. */
export function displayFileName(original: string): string {
  const last = original.split(/[/\\]/).pop() ?? "";
  return last.normalize("NFC").replace(UNSHOWABLE, "").trim().slice(0, 255);
}

/**
 * A file name safe for an object key and a file system: the display name
 * folded to ASCII, letters, digits, dot, dash and underscore only (every
 * other run becomes "-"), no leading dots, at most 90 characters before the
 * extension, and the extension set to the type found in the bytes.
 */
export function safeUploadFileName(original: string, type: AcceptedFileType): string {
  const ascii = displayFileName(original)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "");
  const cleaned = ascii
    .replace(/[^\w.-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/-?\.-?/g, ".");
  const dot = cleaned.lastIndexOf(".");
  const base = trimDotsAndDashes(dot > 0 ? cleaned.slice(0, dot) : cleaned).slice(0, 90);
  return `${trimDotsAndDashes(base) || "upload"}.${type.extension}`;
}

/** Strip leading and trailing dots and dashes without a regex (`/[.-]+$/` is quadratic on "-.-.-x"). */
function trimDotsAndDashes(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && (s[start] === "." || s[start] === "-")) start++;
  while (end > start && (s[end - 1] === "." || s[end - 1] === "-")) end--;
  return s.slice(start, end);
}
