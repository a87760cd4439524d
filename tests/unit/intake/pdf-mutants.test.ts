import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFStream, type PDFObject } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { makeUploadSafe, RefusedUpload } from "../../../app/server/intake/upload-content.server";

/**
 * Damaged and secured PDFs, mutated at random (decisions 504, 506): whatever the bytes, an upload
 * is either stored as a readable, unencrypted document with a page and no active content, or
 * refused with one of the reasons the visitor is told. Never another error (a 500).
 */
const FIXTURES = path.join(__dirname, "../../fixtures/pdf");
const seeds = readdirSync(FIXTURES)
  .filter((name) => name.endsWith(".pdf"))
  .map((name) => readFileSync(path.join(FIXTURES, name)));

const ACTIVE = new Set(["JS", "JavaScript", "AA", "EmbeddedFiles", "EF", "XFA"]);
function activeKeys(doc: PDFDocument): string[] {
  const found: string[] = [];
  const stack: PDFObject[] = doc.context.enumerateIndirectObjects().map(([, o]) => o);
  while (stack.length) {
    const o = stack.pop()!;
    const dict = o instanceof PDFDict ? o : o instanceof PDFRawStream || o instanceof PDFStream ? o.dict : undefined;
    if (dict)
      for (const [key, value] of dict.entries()) {
        if (ACTIVE.has(key.decodeText())) found.push(key.decodeText());
        if (key === PDFName.of("S") && value === PDFName.of("JavaScript")) found.push("S=JavaScript");
        stack.push(value);
      }
    else if (o instanceof PDFArray) stack.push(...o.asArray());
  }
  return found;
}

const mutant = fc
  .record({
    seed: fc.integer({ min: 0, max: seeds.length - 1 }),
    how: fc.constantFrom("bytes", "zeros", "cut", "splice"),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    to: fc.double({ min: 0, max: 1, noNaN: true }),
    values: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), {
      minLength: 1,
      maxLength: 20,
    }),
  })
  .map(({ seed, how, at, to, values }) => {
    const b = Buffer.from(seeds[seed]!);
    const i = Math.floor(at * b.length);
    const j = Math.floor(to * b.length);
    if (how === "bytes") for (const [where, value] of values) b[Math.floor(where * (b.length - 1))] = value;
    if (how === "zeros") b.fill(0, i, Math.min(b.length, i + 2000));
    if (how === "cut") return b.subarray(0, i);
    if (how === "splice") return Buffer.concat([b.subarray(0, Math.min(i, j)), b.subarray(Math.max(i, j))]);
    return b;
  });

describe("mutated secured and damaged PDFs", () => {
  it("are stored readable, unencrypted and disarmed, or refused with a reason; never another error", async () => {
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(mutant, async (bytes) => {
        let kind: string;
        try {
          const safe = await makeUploadSafe(bytes);
          const doc = await PDFDocument.load(safe.bytes, { updateMetadata: false });
          expect(doc.isEncrypted).toBe(false);
          expect(doc.getPageCount()).toBeGreaterThan(0);
          expect(activeKeys(doc)).toEqual([]);
          // Nor as bytes the parser could not read (a viewer's parser may read them).
          expect(safe.bytes.toString("latin1")).not.toContain("app.alert");
          kind = "accepted";
        } catch (error) {
          if (!(error instanceof RefusedUpload)) throw error;
          kind = error.kind;
        }
        expect(["accepted", "unreadable_pdf", "encrypted_pdf", "wrong_type"]).toContain(kind);
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
      }),
      { seed: 20261128, numRuns: 1000 },
    );
    // The mutants reach both ends: some are still read, some are refused.
    expect(outcomes.get("accepted")).toBeGreaterThan(0);
    expect((outcomes.get("unreadable_pdf") ?? 0) + (outcomes.get("encrypted_pdf") ?? 0)).toBeGreaterThan(0);
  }, 120_000);
});
