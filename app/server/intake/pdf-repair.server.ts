/**
 * Reading damaged PDFs as viewers do (issue 30 item 7: refusal only for unreadable or encrypted
 * files; docs/decisions/504). A visitor's PDF may have bytes before its header (a mail client's
 * headers, a byte-order mark), lose its last bytes (a download cut short) or carry a run of zeros or
 * noise (a bad disk, a broken sync). Viewers open such files: Acrobat and pdf.js look for the header
 * in the first 1,024 bytes, and every common viewer skips what it cannot parse. pdf-lib, which the
 * upload uses, refuses the whole file at the first object it cannot end.
 *
 * So the upload reads a damaged file by cutting the damage out: the structure that failed to parse
 * (an object, a cross-reference table, a trailer) is removed up to the next structure that starts
 * cleanly, and the file is parsed again. pdf-lib then finds the catalog by its type when the trailer
 * was lost. Objects cut out become missing references, which every reader takes as null: a page may
 * lose a font or an image, as it does in a viewer. A file with no page left is still refused.
 *
 * Pure functions on bytes; the parsing loop is in upload-content.server.ts.
 */

/** How far into a file a PDF header may start (Acrobat's and pdf.js's limit). */
export const HEADER_WINDOW = 1024;

/** At most this many damaged structures are cut out of one file before it counts as unreadable. */
export const MAX_REPAIRS = 3;

const HEADER = Buffer.from("%PDF-", "latin1");

/** Where the PDF header starts within the first HEADER_WINDOW bytes, or -1. */
export function pdfHeaderOffset(bytes: Uint8Array): number {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = b.subarray(0, HEADER_WINDOW + HEADER.length).indexOf(HEADER);
  // The version digit must follow: "%PDF-" alone in a text file is not a header.
  return at >= 0 && /^%PDF-[12]\.\d/.test(b.subarray(at, at + 8).toString("latin1")) ? at : -1;
}

/** The byte offset pdf-lib names in a parsing error ("... offset=1687628): ..."), or null. */
export function failureOffset(message: string): number | null {
  const match = /offset=(\d+)/.exec(message);
  return match ? Number(match[1]) : null;
}

/**
 * Starts of structures a parser can resume at: an object header ("12 0 obj"), a cross-reference
 * table, a trailer or the startxref line, each at the start of a line (or of the file).
 */
const STRUCTURE = /(?:^|[\r\n])[ \t]*(\d{1,10}[ \t\r\n]+\d{1,5}[ \t\r\n]+obj\b|xref\b|trailer\b|startxref\b)/g;

/**
 * `bytes` with the damaged structure around `offset` cut out: from the start of the structure
 * holding `offset` to the start of the next one after it (or to the end of the file when none
 * follows). Null when nothing can be cut (the offset is before the first structure).
 */
export function cutDamage(bytes: Buffer, offset: number): Buffer | null {
  if (offset < 0 || offset > bytes.length) return null;
  // latin1 keeps one character per byte, so string offsets are byte offsets.
  const text = bytes.toString("latin1");
  let start = -1;
  let end = -1;
  STRUCTURE.lastIndex = 0;
  for (let match = STRUCTURE.exec(text); match; match = STRUCTURE.exec(text)) {
    const at = match.index + match[0].length - match[1].length;
    if (at <= offset) start = at;
    else {
      end = at;
      break;
    }
  }
  if (start < 0) return null;
  return Buffer.concat([bytes.subarray(0, start), end < 0 ? Buffer.alloc(0) : bytes.subarray(end)]);
}
