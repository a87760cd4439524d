// pdf-lib and sharp are loaded on the first upload, not at start-up: together they were ~170 ms of
// module loading before the server could answer anything (issue 29).
import type * as PdfLib from "pdf-lib";
import type { PDFDocument, PDFObject } from "pdf-lib";

/**
 * What an uploaded file becomes before it is stored (issue 18 item 5,
 * docs/decisions/185): uploads are made safe, not merely checked.
 * - PNG and JPEG are decoded and re-encoded (sharp): metadata (EXIF, XMP,
 *   ICC), text chunks, comments and anything after the image are gone; only
 *   pixels survive. A file that does not decode is refused.
 * - PDF is parsed (pdf-lib), refused when any object carries JavaScript, an
 *   OpenAction or additional actions (AA), embedded files, a Launch or
 *   ImportData action, XFA or rich media, or is encrypted (then nothing can
 *   be checked); otherwise it is written out again from its objects, so
 *   whatever sat between or after them (an HTML page, a script, an archive)
 *   is dropped.
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
  return null;
}

/** Why a file was refused (logged as the reason; the visitor sees one message). */
export class RefusedUpload extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface SafeFile {
  type: AcceptedFileType;
  /** The bytes to store: re-encoded image, rewritten PDF. */
  bytes: Buffer;
}

/** A blank form scanned at 600 dpi on legal paper is ~20 MP; anything far bigger is a decompression bomb. */
const MAX_INPUT_PIXELS = 60_000_000;

export async function makeUploadSafe(bytes: Buffer): Promise<SafeFile> {
  const type = sniffFileType(bytes);
  if (!type) throw new RefusedUpload("not a PDF, PNG or JPEG by its bytes");
  if (type === PDF) return { type, bytes: await rewritePdf(bytes) };
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
    throw new RefusedUpload(`image does not decode: ${(error as Error).message}`);
  }
}

/** Dictionary keys that make a PDF do something when opened or clicked, or carry other files. */
const ACTIVE_KEYS = new Set(["JS", "JavaScript", "OpenAction", "AA", "EmbeddedFiles", "EF", "XFA", "RichMedia"]);
/** Values of /S (action type) and /Type that do the same. */
const ACTIVE_NAMES = new Set(["JavaScript", "Launch", "ImportData", "EmbeddedFile", "RichMediaExecute", "Rendition"]);

async function rewritePdf(bytes: Buffer): Promise<Buffer> {
  if (!/^%PDF-[12]\.\d/.test(bytes.subarray(0, 8).toString("latin1"))) throw new RefusedUpload("bad PDF header");
  const pdf = await import("pdf-lib");
  let doc: PDFDocument;
  try {
    doc = await pdf.PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true });
  } catch (error) {
    throw new RefusedUpload(`PDF does not parse: ${(error as Error).message}`);
  }
  if (doc.isEncrypted) throw new RefusedUpload("encrypted PDF");
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const found = activeContent(object, pdf);
    if (found) throw new RefusedUpload(`PDF carries ${found}`);
  }
  try {
    return Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
  } catch (error) {
    throw new RefusedUpload(`PDF could not be rewritten: ${(error as Error).message}`);
  }
}

/** The first active key or action in an object and the direct objects inside it, or undefined. */
function activeContent(root: PDFObject, pdf: typeof PdfLib): string | undefined {
  const { PDFArray, PDFDict, PDFName, PDFRawStream, PDFStream } = pdf;
  const stack: PDFObject[] = [root];
  let visited = 0;
  while (stack.length > 0 && visited++ < 100_000) {
    const object = stack.pop()!;
    const dict =
      object instanceof PDFDict
        ? object
        : object instanceof PDFRawStream || object instanceof PDFStream
          ? object.dict
          : undefined;
    if (dict) {
      for (const [key, value] of dict.entries()) {
        const name = key.decodeText();
        if (ACTIVE_KEYS.has(name)) return `/${name}`;
        if ((name === "S" || name === "Type" || name === "Subtype") && value instanceof PDFName) {
          const action = value.decodeText();
          if (ACTIVE_NAMES.has(action)) return `/${name} /${action}`;
        }
        stack.push(value);
      }
    } else if (object instanceof PDFArray) {
      for (let i = 0; i < object.size(); i++) stack.push(object.get(i));
    }
  }
  return undefined;
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
