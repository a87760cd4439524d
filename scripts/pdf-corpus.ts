// `npm run pdf:corpus`: every PDF of a pinned public test corpus through the upload's disarming
// (issue 30 item 7; docs/decisions/502). The corpus is py-pdf/sample-files: PDFs made by common
// tools (pdfTeX, LibreOffice, Google Docs, ImageMagick, ReportLab, pdfkit, PyMuPDF, pypdf), each
// described in its files.json (producer, pages, encrypted). It is read from a local snapshot at the
// pinned commit (FIREWALL_PUBLIC_MIRRORS, default /work/.mirror, as the firewall's public corpora
// are) and never copied here. Prints one line per file and a summary; exits 1 when a file ends
// otherwise than expected (an encrypted file refused as such, every other file accepted with its
// pages and bookmarks kept) or the snapshot is missing.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { PDFDict, PDFDocument, PDFName, PDFRef, type PDFObject } from "pdf-lib";
import { makeUploadSafe, RefusedUpload } from "../app/server/intake/upload-content.server.ts";

const REPO = "py-pdf/sample-files";
const COMMIT = "6921079eb3e1ed0944db5ec75016910d59da7fdb";
/**
 * Files that end otherwise than files.json suggests, and why (checked by hand, not assumed).
 * 017's body is zero bytes from object 78 to the cross-reference table (1.1 MB; its "stream" has
 * no end). Since decision 504 the damage is cut out and the rest read, but the zeroed run held its
 * page tree's root (object 172) and one of its four pages: what is left has no page tree, so it is
 * refused as unreadable. pypdf and pdfinfo report 4 pages from the linearization hints.
 */
const KNOWN_REFUSED: Record<string, string> = {
  "017-unreadable-meta-data/unreadablemetadata.pdf": "unreadable_pdf",
};

interface Described {
  path: string;
  producer?: string;
  pages?: number;
  encrypted?: boolean;
}

const mirrors = process.env.FIREWALL_PUBLIC_MIRRORS ?? "/work/.mirror";
const dir = path.join(mirrors, REPO.replace("/", "+"), "repo");
const git = (args: string[]) =>
  execFileSync("git", ["-C", dir, ...args], { maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "ignore"] });

if (!existsSync(dir)) {
  console.log(`No snapshot of ${REPO} at ${dir}: fetch ${REPO} at ${COMMIT} there, or set FIREWALL_PUBLIC_MIRRORS.`);
  process.exit(1);
}
let described: Described[];
try {
  described = (JSON.parse(git(["show", `${COMMIT}:files.json`]).toString("utf8")) as { data: Described[] }).data;
} catch {
  console.log(`The snapshot at ${dir} does not hold ${REPO}'s commit ${COMMIT}.`);
  process.exit(1);
}

/** The number of bookmarks, following each level's /First and /Next chains. */
function bookmarks(doc: PDFDocument): number {
  const look = (value: PDFObject | undefined) => (value instanceof PDFRef ? doc.context.lookup(value) : value);
  let count = 0;
  const walk = (item: PDFObject | undefined) => {
    for (let at = look(item); at instanceof PDFDict && count < 100_000; at = look(at.get(PDFName.of("Next")))) {
      count++;
      walk(at.get(PDFName.of("First")));
    }
  };
  const outlines = look(doc.catalog.get(PDFName.of("Outlines")));
  if (outlines instanceof PDFDict) walk(outlines.get(PDFName.of("First")));
  return count;
}

async function shape(bytes: Uint8Array): Promise<{ pages: number; bookmarks: number }> {
  const doc = await PDFDocument.load(bytes, {
    updateMetadata: false,
    ignoreEncryption: true,
    throwOnInvalidObject: false,
  });
  return { pages: doc.getPageCount(), bookmarks: bookmarks(doc) };
}

const names = git(["ls-tree", "-r", "--name-only", COMMIT])
  .toString("utf8")
  .split("\n")
  .filter((name) => name.endsWith(".pdf"));
console.log(`${REPO} at ${COMMIT.slice(0, 10)}: ${names.length} PDFs listed.\n`);
console.log("| File | Producer | Expected | Outcome | Pages | Bookmarks | Removed |");
console.log("|---|---|---|---|---|---|---|");
let unexpected = 0;
let absent = 0;
const outcomes = new Map<string, number>();
// pdf-lib warns on stderr about each object it skips; the outcome lines say what matters.
console.warn = () => undefined;
for (const name of names) {
  const about = described.find((d) => d.path === name);
  let bytes: Buffer;
  try {
    bytes = git(["show", `${COMMIT}:${name}`]);
  } catch {
    // The snapshot leaves out its largest files (GeoTopo.pdf, 10 MB: over the upload limit anyway).
    absent++;
    console.log(`| ${name} | ${about?.producer ?? "?"} | | not in the snapshot | | | |`);
    continue;
  }
  const expected = KNOWN_REFUSED[name] ?? (about?.encrypted ? "encrypted_pdf" : "accepted");
  let outcome: string;
  let pages = "";
  let marks = "";
  let removed = "";
  try {
    const safe = await makeUploadSafe(bytes);
    const before = await shape(bytes);
    const after = await shape(safe.bytes);
    outcome = before.pages === after.pages && before.bookmarks === after.bookmarks ? "accepted" : "accepted, damaged";
    pages = `${before.pages} → ${after.pages}`;
    marks = `${before.bookmarks} → ${after.bookmarks}`;
    removed = [...new Set(safe.removed ?? [])].join(", ");
  } catch (error) {
    if (!(error instanceof RefusedUpload)) throw error;
    outcome = error.kind;
  }
  outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  if (outcome !== expected) unexpected++;
  console.log(
    `| ${name} | ${about?.producer ?? "?"} | ${expected} | ${outcome === expected ? outcome : `**${outcome}**`} | ${pages} | ${marks} | ${removed} |`,
  );
}
const summary = [...outcomes].map(([outcome, n]) => `${outcome} ${n}`).join(", ");
console.log(`\n${names.length - absent} read: ${summary}; ${absent} not in the snapshot; ${unexpected} unexpected.`);
process.exit(unexpected > 0 ? 1 : 0);
