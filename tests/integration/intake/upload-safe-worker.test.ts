import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import type { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { makeUploadSafe, RefusedUpload } from "../../../app/server/intake/upload-content.server";
import { ANSWER_TIMEOUT_MS, OffLoopUploadSafe, TOO_LARGE_TO_READ } from "../../../app/server/intake/upload-safe.server";
import { REPO_ROOT } from "../../helpers/server";

/**
 * Decision 507: PDFs are disarmed in a worker thread (<BUILD_DIR>/upload-safe.js, built by
 * `npm run build`), with the same outcome as in place: the same bytes stored, the same refusals.
 * A worker that fails hands its PDFs back to be read in place; one that hangs is replaced and its
 * PDF refused as unreadable.
 */
const WORKER = path.join(REPO_ROOT, "build", "upload-safe.js");
const FIXTURES = path.join(REPO_ROOT, "tests", "fixtures", "pdf");
const MANUAL = "/usr/share/doc/docbook-xsl-doc-pdf/doc/reference.pdf.gz";

function manual(): Buffer {
  if (!existsSync(MANUAL)) throw new Error(`${MANUAL} is missing: run scripts/ensure-test-documents.sh (as root)`);
  return gunzipSync(readFileSync(MANUAL));
}

/** A readable one-page PDF whose page holds an array of 4.8 million zeros (9.6 MB). */
function hugeArrayPdf(): Buffer {
  const objects = [
    "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n",
    "2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n",
    "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /X 4 0 R >>\nendobj\n",
    `4 0 obj\n[${"0 ".repeat(4_800_000)}]\nendobj\n`,
  ];
  let offset = "%PDF-1.7\n".length;
  const offsets = objects.map((o) => {
    const at = offset;
    offset += o.length;
    return at;
  });
  const xref = `xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  return Buffer.from(
    `%PDF-1.7\n${objects.join("")}${xref}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`,
  );
}

async function outcome(run: Promise<unknown>): Promise<unknown> {
  try {
    const { sha256, ...safe } = (await run) as {
      bytes: Buffer;
      type: unknown;
      removed?: string[];
      repaired?: string[];
      sha256?: string;
    };
    // The worker hashes what it hands back (off the event loop); the hash must be of those bytes.
    if (sha256 !== undefined) expect(sha256).toBe(createHash("sha256").update(safe.bytes).digest("hex"));
    return { ...safe, bytes: safe.bytes.toString("base64") };
  } catch (error) {
    if (error instanceof RefusedUpload) return { refused: error.kind, reason: error.reason };
    throw error;
  }
}

let worker: OffLoopUploadSafe | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

describe("the upload worker", () => {
  it("is built next to the server", () => {
    expect(existsSync(WORKER)).toBe(true);
  });

  it("gives what the in-place reading gives: the same bytes stored, the same refusals", async () => {
    worker = new OffLoopUploadSafe(WORKER);
    const inputs = [
      manual(),
      readFileSync(path.join(FIXTURES, "secured-script-aes-256-objstm.pdf")),
      readFileSync(path.join(FIXTURES, "password-aes-256.pdf")),
      Buffer.from("%PDF-1.7\n1 0 obj\nendobj\n"),
    ];
    const kinds: unknown[] = [];
    for (const bytes of inputs) {
      const off = await outcome(worker.run(bytes));
      expect(off).toEqual(await outcome(makeUploadSafe(bytes)));
      kinds.push((off as { refused?: string }).refused ?? "accepted");
    }
    expect(kinds).toEqual(["accepted", "accepted", "encrypted_pdf", "unreadable_pdf"]);
    // What it hands back comes hashed, so the event loop does not hash it again (9 ms for 10 MB).
    const accepted = await worker.run(inputs[0]!);
    expect(accepted.sha256).toBe(createHash("sha256").update(accepted.bytes).digest("hex"));
  });

  it("takes several PDFs at once and answers each its own", async () => {
    worker = new OffLoopUploadSafe(WORKER);
    const secured = readFileSync(path.join(FIXTURES, "secured-rc4-128.pdf"));
    const password = readFileSync(path.join(FIXTURES, "password-rc4-128.pdf"));
    const answers = await Promise.all(
      [secured, password, secured, password].map((bytes) => outcome(worker!.run(bytes))),
    );
    expect(answers.map((a) => (a as { refused?: string }).refused ?? "accepted")).toEqual([
      "accepted",
      "encrypted_pdf",
      "accepted",
      "encrypted_pdf",
    ]);
  });

  it("a worker that dies while reading: the PDF is read by the next worker, nothing lost", async () => {
    worker = new OffLoopUploadSafe(WORKER);
    const bytes = manual();
    const expected = await outcome(makeUploadSafe(bytes));
    const held = outcome(worker.run(bytes));
    // Ended while it reads, as a crash or an out-of-memory kill ends it.
    await (worker as unknown as { worker: Worker }).worker.terminate();
    expect(await held).toEqual(expected);
    expect(await outcome(worker.run(bytes))).toEqual(expected);
  });

  it("a PDF that exhausts the worker's memory is refused, never read in place; the PDFs behind it are read (decision 513)", async () => {
    // Small heap so the test is quick: 4.8 million numbers in one array are far past 32 MB.
    worker = new OffLoopUploadSafe(WORKER, ANSWER_TIMEOUT_MS, { maxOldGenerationSizeMb: 32 });
    const secured = readFileSync(path.join(FIXTURES, "secured-aes-128.pdf"));
    const [heavy, behind] = await Promise.all([outcome(worker.run(hugeArrayPdf())), outcome(worker.run(secured))]);
    // Read in place (the parent), it was accepted after the server's own heap took it all.
    expect(heavy).toEqual({ refused: "unreadable_pdf", reason: TOO_LARGE_TO_READ });
    expect((behind as { refused?: string }).refused).toBeUndefined();
    expect(await outcome(worker.run(secured))).toEqual(behind);
  });

  it("a worker that does not answer in time: the PDF is refused as unreadable, and the next one is read", async () => {
    worker = new OffLoopUploadSafe(WORKER, 1);
    const slow = await outcome(worker.run(manual()));
    expect(slow).toEqual({ refused: "unreadable_pdf", reason: "not read within 1 ms" });
    const patient = new OffLoopUploadSafe(WORKER);
    try {
      const next = await outcome(patient.run(readFileSync(path.join(FIXTURES, "secured-aes-128.pdf"))));
      expect((next as { refused?: string }).refused).toBeUndefined();
    } finally {
      await patient.stop();
    }
  });
});
