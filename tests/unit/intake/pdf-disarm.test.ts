import { existsSync, promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFObject,
} from "pdf-lib";
import * as uploadRoute from "../../../app/routes/api.agents.discovery.upload";
import { uploadRefusalWords } from "../../../app/lib/upload-rules";
import { makeUploadSafe, putUploadObject } from "../../../app/server/intake/storage.server";
import { cutDamage, pdfHeaderOffset } from "../../../app/server/intake/pdf-repair.server";
import { callRoute, createIntakeSandbox, type IntakeSandbox } from "./support";
import { pdf } from "./files";

/**
 * PDFs are disarmed, not refused (issue 30 item 7, docs/decisions/373): active
 * content is removed and the cleaned document stored; a destination
 * /OpenAction, form fields and real documents from Debian's documentation
 * packages (installed by scripts/ensure-test-documents.sh) are accepted; only
 * unreadable and encrypted files are refused, saying which. Storing has a
 * time limit.
 */

/** Real PDFs shipped by Debian packages (scripts/ensure-test-documents.sh installs them). */
const DEBIAN_PDFS = [
  // camlidl-doc: a PDF-1.2 manual from 2007.
  { file: "/usr/share/doc/camlidl/camlidl-1.04.doc.pdf", gz: false },
  // docbook-xsl-doc-pdf: the DocBook XSL reference, a PDF-1.4 whose /OpenAction is a destination.
  { file: "/usr/share/doc/docbook-xsl-doc-pdf/doc/reference.pdf.gz", gz: true },
];

let sandbox: IntakeSandbox;
beforeAll(async () => {
  sandbox = await createIntakeSandbox();
});
afterAll(async () => {
  await sandbox.cleanup();
});

/** Every dictionary key and /S or /Type name in the document, after the fact. */
async function namesIn(bytes: Buffer): Promise<Set<string>> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const names = new Set<string>();
  const stack: PDFObject[] = doc.context.enumerateIndirectObjects().map(([, o]) => o);
  while (stack.length) {
    const o = stack.pop()!;
    const dict = o instanceof PDFDict ? o : o instanceof PDFRawStream || o instanceof PDFStream ? o.dict : undefined;
    if (dict) {
      for (const [key, value] of dict.entries()) {
        names.add(key.decodeText());
        if (value instanceof PDFName) names.add(`${key.decodeText()}=${value.decodeText()}`);
        stack.push(value);
      }
    } else if (o instanceof PDFArray) for (let i = 0; i < o.size(); i++) stack.push(o.get(i));
  }
  return names;
}

const ACTIVE = [
  "JS",
  "JavaScript",
  "AA",
  "EmbeddedFiles",
  "EF",
  "XFA",
  "S=JavaScript",
  "S=Launch",
  "Type=EmbeddedFile",
];

async function upload(bytes: Buffer, name = "form.pdf") {
  const form = new FormData();
  form.append("docType", "intake_form");
  form.append("blankConfirmed", "true");
  form.append("file", new File([new Uint8Array(bytes)], name, { type: "application/pdf" }));
  const res = await callRoute(
    uploadRoute,
    new Request("http://localhost/api/agents/discovery/upload", { method: "POST", body: form }),
  );
  return {
    status: res.status,
    body: (await res.json()) as { key?: string; error?: { code: string; message: string } },
  };
}

describe("active content is removed, the document kept", () => {
  it.each([
    ["JavaScript on open", { catalog: "/OpenAction << /S /JavaScript /JS (app.alert(1)) >>" }],
    ["additional actions", { catalog: "/AA << /WC << /S /JavaScript /JS (app.alert(2)) >> >>" }],
    [
      "a document-level script",
      {
        catalog: "/Names << /JavaScript 4 0 R >>",
        objects: "4 0 obj << /Names [(a) 5 0 R] >> endobj\n5 0 obj << /S /JavaScript /JS (app.alert(3)) >> endobj",
      },
    ],
    ["an escaped name", { catalog: "/Names << /J#61vaScript 4 0 R >>", objects: "4 0 obj << /Names [] >> endobj" }],
    [
      "an embedded file",
      {
        catalog: "/Names << /EmbeddedFiles 4 0 R >>",
        objects:
          "4 0 obj << /Names [(x.exe) 5 0 R] >> endobj\n5 0 obj << /Type /Filespec /F (x.exe) /EF << /F 6 0 R >> >> endobj\n" +
          "6 0 obj << /Type /EmbeddedFile /Length 12 >> stream\nMZ-cmd.exe-x\nendstream endobj",
      },
    ],
    [
      "a link that launches a program",
      {
        objects: "4 0 obj << /Type /Annot /Subtype /Link /Rect [0 0 9 9] /A << /S /Launch /F (cmd.exe) >> >> endobj",
      },
    ],
    ["an XFA form", { catalog: "/AcroForm << /Fields [] /XFA 4 0 R >>", objects: "4 0 obj << >> endobj" }],
  ])("%s", async (_label, parts) => {
    const safe = await makeUploadSafe(pdf(parts));
    expect(safe.type.extension).toBe("pdf");
    expect(safe.removed?.length).toBeGreaterThan(0);
    const names = await namesIn(safe.bytes);
    expect(ACTIVE.filter((n) => names.has(n))).toEqual([]);
    expect(safe.bytes.toString("latin1")).not.toMatch(/app\.alert|cmd\.exe/);
    expect((await PDFDocument.load(safe.bytes)).getPageCount()).toBe(1);
  });

  it("keeps a destination /OpenAction, a GoTo, links and form fields", async () => {
    const fit = await makeUploadSafe(pdf({ catalog: "/OpenAction [3 0 R /Fit]" }));
    expect((await namesIn(fit.bytes)).has("OpenAction")).toBe(true);
    const goTo = await makeUploadSafe(
      pdf({ catalog: "/OpenAction 4 0 R", objects: "4 0 obj << /S /GoTo /D [3 0 R /Fit] >> endobj" }),
    );
    expect((await namesIn(goTo.bytes)).has("S=GoTo")).toBe(true);
    // A fillable form: a text field with its widget, and a web link.
    const form = await PDFDocument.create();
    const page = form.addPage();
    form.getForm().createTextField("applicant.name").addToPage(page, { x: 50, y: 700 });
    const fillable = await makeUploadSafe(Buffer.from(await form.save()));
    expect(
      (await PDFDocument.load(fillable.bytes))
        .getForm()
        .getFields()
        .map((f) => f.getName()),
    ).toEqual(["applicant.name"]);
  });
});

/** The titles of a document's bookmarks, in order, depth first (the outline's /First and /Next chains). */
async function bookmarkTitles(bytes: Buffer): Promise<string[]> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const look = (value: PDFObject | undefined) => (value instanceof PDFRef ? doc.context.lookup(value) : value);
  const titles: string[] = [];
  const walk = (item: PDFObject | undefined) => {
    for (let at = look(item); at instanceof PDFDict && titles.length < 1000; at = look(at.get(PDFName.of("Next")))) {
      const title = look(at.get(PDFName.of("Title")));
      titles.push(title instanceof PDFString || title instanceof PDFHexString ? title.decodeText() : "?");
      walk(at.get(PDFName.of("First")));
    }
  };
  const outlines = look(doc.catalog.get(PDFName.of("Outlines")));
  if (outlines instanceof PDFDict) walk(outlines.get(PDFName.of("First")));
  return titles;
}

describe("objects pdf-lib cannot parse are not written out unchecked", () => {
  it.each([
    ["an unclosed array", "4 0 obj << /S /JavaScript /JS (app.alert(9)) /X [ >> endobj"],
    ["an unclosed string", "4 0 obj << /S /JavaScript /JS (app.alert(9) >> endobj"],
    ["a stray R", "4 0 obj << /S /JavaScript /JS <6170702e616c657274283929> /Q 1 0 R R >> endobj"],
    ["a stray brace", "4 0 obj << /S /JavaScript /JS (app.alert(9)) /Y } >> endobj"],
  ])("a script behind /OpenAction in an object with %s is dropped, the page kept", async (_label, object) => {
    // Before, the object was kept as its raw bytes: the disarming could not look inside it, and a
    // lenient viewer might read the action.
    const safe = await makeUploadSafe(pdf({ catalog: "/OpenAction 4 0 R", objects: object }));
    expect(safe.removed).toContain("1 unreadable objects");
    expect(safe.bytes.toString("latin1")).not.toMatch(/app\.alert|6170702e|JavaScript/);
    expect((await PDFDocument.load(safe.bytes)).getPageCount()).toBe(1);
  });
});

describe("bookmarks are kept (decision 502)", () => {
  it("keeps every bookmark, and removes a script chained after a bookmark's GoTo", async () => {
    // An outline of three bookmarks, the second with a nested one. A bookmark's /Next is the next
    // bookmark; an action's /Next is the next action: here a script after a harmless GoTo.
    const bytes = pdf({
      catalog: "/Outlines 4 0 R",
      objects: [
        "4 0 obj << /Type /Outlines /First 5 0 R /Last 7 0 R /Count 4 >> endobj",
        "5 0 obj << /Title (Household) /Parent 4 0 R /Next 6 0 R /Dest [3 0 R /Fit] >> endobj",
        "6 0 obj << /Title (Income) /Parent 4 0 R /Prev 5 0 R /Next 7 0 R /First 8 0 R /Last 8 0 R /Count 1",
        "  /A << /S /GoTo /D [3 0 R /Fit] /Next << /S /JavaScript /JS (app.alert(5)) >> >> >> endobj",
        "7 0 obj << /Title (Signature) /Parent 4 0 R /Prev 6 0 R /Dest [3 0 R /Fit] >> endobj",
        "8 0 obj << /Title (Wages) /Parent 6 0 R /Dest [3 0 R /Fit] >> endobj",
      ].join("\n"),
    });
    expect(await bookmarkTitles(bytes)).toEqual(["Household", "Income", "Wages", "Signature"]);
    const safe = await makeUploadSafe(bytes);
    expect(safe.removed).toEqual(["/Next /JavaScript"]);
    expect(await bookmarkTitles(safe.bytes)).toEqual(["Household", "Income", "Wages", "Signature"]);
    const names = await namesIn(safe.bytes);
    expect(names.has("S=GoTo")).toBe(true);
    expect(ACTIVE.filter((n) => names.has(n))).toEqual([]);
    expect(safe.bytes.toString("latin1")).not.toContain("app.alert");
  });
});

describe("refused only when unreadable or encrypted, saying which", () => {
  it("an encrypted PDF: 400 encrypted_pdf, 'password-protected PDFs cannot be accepted'", async () => {
    const encrypted = pdf({
      objects: "5 0 obj << /Filter /Standard /V 1 /R 2 /O (0123456789abcdef0123456789abcdef) /U (x) /P -4 >> endobj",
    }).toString("latin1");
    const bytes = Buffer.from(encrypted.replace("trailer << /Root 1 0 R", "trailer << /Root 1 0 R /Encrypt 5 0 R"));
    const { status, body } = await upload(bytes);
    expect(status).toBe(400);
    expect(body.error?.code).toBe("encrypted_pdf");
    expect(body.error?.message).toContain("password-protected PDFs cannot be accepted");
    // The page says the same words next to the file field.
    expect(uploadRefusalWords({ status, code: body.error!.code, message: body.error!.message }).errors.file).toContain(
      "password-protected",
    );
  });

  it.each([
    ["no page tree", Buffer.from("%PDF-1.7\n1 0 obj\nendobj\n")],
    ["a cut-off header", Buffer.from("%PDF-x\n%%EOF")],
    ["garbage after the header", Buffer.from("%PDF-1.4\n" + "\u0000\u00ff".repeat(500), "latin1")],
  ])("an unreadable PDF (%s): 400 unreadable_pdf, 'this PDF could not be read'", async (_label, bytes) => {
    const { status, body } = await upload(bytes);
    expect(status).toBe(400);
    expect(body.error?.code).toBe("unreadable_pdf");
    expect(body.error?.message).toContain("this PDF could not be read");
  });

  it("a PDF with /OpenAction [page /Fit] uploads with 200", async () => {
    const { status, body } = await upload(pdf({ catalog: "/OpenAction [3 0 R /Fit]" }), "spec.pdf");
    expect(status).toBe(200);
    expect(body.key).toMatch(/-spec\.pdf$/);
  });
});

describe("real documents from Debian's documentation packages", () => {
  it.each(DEBIAN_PDFS)("$file uploads with 200 and is stored readable, every page kept", async ({ file, gz }) => {
    if (!existsSync(file)) throw new Error(`${file} is missing: run scripts/ensure-test-documents.sh (as root)`);
    const bytes = gz ? gunzipSync(readFileSync(file)) : readFileSync(file);
    const pages = (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
    const { status, body } = await upload(bytes, "manual.pdf");
    expect(status).toBe(200);
    const stored = readFileSync(`${sandbox.uploadDir}/${body.key}`);
    expect((await PDFDocument.load(stored)).getPageCount()).toBe(pages);
    const names = await namesIn(stored);
    expect(ACTIVE.filter((n) => names.has(n))).toEqual([]);
  });
});

describe("storing has a time limit", () => {
  it("a write that finishes after the time limit is removed once it lands: no row will name it (decision 505)", async () => {
    const realOpen = fs.open.bind(fs);
    const realRename = fs.rename.bind(fs);
    // The directory answers, but only after the upload has given up (a slow disk, a stalled mount).
    const open = vi
      .spyOn(fs, "open")
      .mockImplementation(
        (...args: Parameters<typeof fs.open>) =>
          new Promise((resolve, reject) => setTimeout(() => realOpen(...args).then(resolve, reject), 400)),
      );
    let landed!: () => void;
    const hasLanded = new Promise<void>((resolve) => (landed = resolve));
    const rename = vi.spyOn(fs, "rename").mockImplementation(async (...args: Parameters<typeof fs.rename>) => {
      await realRename(...args);
      landed();
    });
    const key = "agent-survey-uploads/other/late-write.pdf";
    const target = `${sandbox.uploadDir}/${key}`;
    try {
      await expect(
        putUploadObject(
          key,
          pdf(),
          { contentType: "application/pdf", sha256: "0", docType: "other" },
          { timeoutMs: 100 },
        ),
      ).rejects.toThrow(/did not answer within 100 ms/);
      // The late write lands under its name, and is then removed.
      await hasLanded;
    } finally {
      open.mockRestore();
      rename.mockRestore();
    }
    for (let waited = 0; existsSync(target) && waited < 2_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(existsSync(target)).toBe(false);
    expect(existsSync(`${target}.partial`)).toBe(false);
  });

  it("an upload directory that never answers: the write gives up at the time limit (the route then answers 503 upload_storage_unavailable)", async () => {
    const open = vi.spyOn(fs, "open").mockImplementation(() => new Promise(() => undefined));
    try {
      const started = Date.now();
      await expect(
        putUploadObject(
          "agent-survey-uploads/other/x.pdf",
          Buffer.from("%PDF-1.4"),
          {
            contentType: "application/pdf",
            sha256: "0",
            docType: "other",
          },
          { timeoutMs: 300 },
        ),
      ).rejects.toThrow(/did not answer within 300 ms/);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      open.mockRestore();
    }
  });
});

describe("damaged PDFs are read around their damage, as viewers read them (decision 504)", () => {
  it("finds the header within the first 1,024 bytes, and only a header with a version", () => {
    expect(pdfHeaderOffset(pdf())).toBe(0);
    expect(pdfHeaderOffset(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), pdf()]))).toBe(3);
    expect(pdfHeaderOffset(Buffer.concat([Buffer.alloc(1024, 0x20), pdf()]))).toBe(1024);
    expect(pdfHeaderOffset(Buffer.concat([Buffer.alloc(1025, 0x20), pdf()]))).toBe(-1);
    expect(pdfHeaderOffset(Buffer.from("notes: %PDF-x is a header"))).toBe(-1);
  });

  it("cuts out the structure that failed, up to the next one that starts cleanly", () => {
    const damaged = Buffer.from(
      "%PDF-1.4\n1 0 obj << /A 1 >> endobj\n2 0 obj << /Length 90 >> stream\n\u0000\u0000\u0000\n3 0 obj << /B 2 >> endobj\ntrailer << >>\n",
      "latin1",
    );
    const at = damaged.indexOf("2 0 obj");
    // From anywhere inside object 2 (its header, its stream) to object 3's header.
    for (const offset of [at, at + 20])
      expect(cutDamage(damaged, offset)?.toString("latin1")).toBe(
        "%PDF-1.4\n1 0 obj << /A 1 >> endobj\n3 0 obj << /B 2 >> endobj\ntrailer << >>\n",
      );
    // A broken trailer is the last structure: cut to the end.
    expect(cutDamage(damaged, damaged.length - 3)?.toString("latin1")).toBe(
      "%PDF-1.4\n1 0 obj << /A 1 >> endobj\n2 0 obj << /Length 90 >> stream\n\u0000\u0000\u0000\n3 0 obj << /B 2 >> endobj\n",
    );
    expect(cutDamage(damaged, 3)).toBeNull();
  });

  it("an object whose stream never ends (a download cut short): accepted, the rest kept, scripts still removed", async () => {
    // Refused as unreadable before decision 504: pdf-lib found no end for object 4 and gave up on the file.
    const bytes = pdf({
      catalog: "/OpenAction << /S /JavaScript /JS (app.alert(6)) >>",
      objects: "4 0 obj << /Length 5000 >> stream\nq 1 0 0 1 0 0 cm BT /F1 12 Tf (Household inc",
    });
    const safe = await makeUploadSafe(bytes);
    expect(safe.repaired).toHaveLength(1);
    const doc = await PDFDocument.load(safe.bytes);
    expect(doc.getPageCount()).toBe(1);
    const names = await namesIn(safe.bytes);
    expect(ACTIVE.filter((n) => names.has(n))).toEqual([]);
    expect(safe.bytes.toString("latin1")).not.toContain("app.alert");
  });

  it("a file cut before its catalog is still refused as unreadable", async () => {
    const whole = pdf().toString("latin1");
    // The catalog comes last here, and the cut falls inside it: nothing says which object is the document.
    const reordered = whole.replace(/1 0 obj[^\n]*\n/, "") + "1 0 obj << /Type /Catalog /Pa";
    const { status, body } = await upload(Buffer.from(reordered, "latin1"));
    expect(status).toBe(400);
    expect(body.error?.code).toBe("unreadable_pdf");
  });

  it("a header more than 1,024 bytes in is not a PDF: 400 with the file-type words", async () => {
    const { status, body } = await upload(Buffer.concat([Buffer.alloc(1100, 0x41), pdf()]));
    expect(status).toBe(400);
    expect(body.error?.code).not.toBe("unreadable_pdf");
    expect(body.error?.message).toMatch(/PDF, JPG or PNG/);
  });

  it("bytes before the header never reach the store: an HTML page in front of a PDF is stored as the PDF alone", async () => {
    const bytes = Buffer.concat([Buffer.from("<html><script>alert(7)</script>\n"), pdf()]);
    const safe = await makeUploadSafe(bytes);
    expect(safe.type.extension).toBe("pdf");
    expect(safe.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(safe.bytes.toString("latin1")).not.toMatch(/<html|<script|alert/);
  });

  const damages: Array<[string, (bytes: Buffer) => Buffer]> = [
    ["its last 40 bytes cut (trailer and %%EOF)", (b) => b.subarray(0, b.length - 40)],
    [
      "a mail client's headers before it",
      (b) => Buffer.concat([Buffer.from("Content-Type: application/pdf\r\n\r\n"), b]),
    ],
    ["a byte-order mark before it", (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])],
  ];
  describe.each(DEBIAN_PDFS)("$file", ({ file, gz }) => {
    it.each(damages)("with %s: 200, stored from its header with every page", async (_label, damage) => {
      if (!existsSync(file)) throw new Error(`${file} is missing: run scripts/ensure-test-documents.sh (as root)`);
      const bytes = gz ? gunzipSync(readFileSync(file)) : readFileSync(file);
      const pages = (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
      const { status, body } = await upload(damage(bytes), "manual.pdf");
      expect(status).toBe(200);
      const stored = readFileSync(`${sandbox.uploadDir}/${body.key}`);
      expect(stored.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect((await PDFDocument.load(stored)).getPageCount()).toBe(pages);
    });
  });
});

describe("secured PDFs that open without a password are accepted, decrypted (decision 506)", () => {
  const FIXTURES = path.join(__dirname, "../../fixtures/pdf");
  const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

  /** Every page's content, decoded: what the page draws. */
  async function pageContents(bytes: Buffer): Promise<string[]> {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    return doc.getPages().map((page) => {
      const contents = page.node.Contents();
      const streams = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
      return streams
        .map((s) => doc.context.lookup(s))
        .map((s) => Buffer.from(decodePDFRawStream(s as PDFRawStream).decode()).toString("latin1"))
        .join("\n");
    });
  }

  it.each([
    "secured-rc4-40.pdf",
    "secured-rc4-128.pdf",
    "secured-rc4-128-objstm.pdf",
    "secured-aes-128.pdf",
    "secured-aes-128-clear-metadata.pdf",
    "secured-aes-256-r5.pdf",
    "secured-aes-256.pdf",
    "secured-aes-256-objstm.pdf",
    "secured-aes-256-restricted.pdf",
  ])("%s: 200, stored unencrypted with the original's pages, text, title and field", async (name) => {
    const original = fixture("base.pdf");
    const secured = fixture(name);
    // The fixture is encrypted: its strings and streams are not the original's bytes.
    expect((await PDFDocument.load(secured, { ignoreEncryption: true })).isEncrypted).toBe(true);
    expect(secured.toString("latin1")).not.toContain("Household income worksheet");
    const { status, body } = await upload(secured, name);
    expect(status).toBe(200);
    const stored = readFileSync(`${sandbox.uploadDir}/${body.key}`);
    // Loads without ignoreEncryption: nothing is encrypted any more.
    const doc = await PDFDocument.load(stored, { updateMetadata: false });
    expect(doc.isEncrypted).toBe(false);
    expect(doc.getTitle()).toBe("Household income worksheet (secured)");
    expect(doc.getForm().getTextField("applicant.name").getText()).toBe("Blank");
    // What each page draws is byte for byte what the unencrypted original draws.
    expect(await pageContents(stored)).toEqual(await pageContents(original));
  });

  it.each(["secured-script-aes-256-objstm.pdf", "secured-script-rc4-128.pdf"])(
    "%s: decrypted, then disarmed: the script is gone",
    async (name) => {
      const safe = await makeUploadSafe(fixture(name));
      expect(safe.repaired).toContain("decrypted: it opens without a password");
      expect(safe.removed).toContain("/OpenAction /JavaScript");
      const names = await namesIn(safe.bytes);
      expect(ACTIVE.filter((n) => names.has(n))).toEqual([]);
      expect(safe.bytes.toString("latin1")).not.toContain("secured script");
      expect((await PDFDocument.load(safe.bytes)).getPageCount()).toBe(2);
    },
  );

  it.each(["password-aes-256.pdf", "password-rc4-128.pdf", "password-rc4-40.pdf"])(
    "%s (a password to open it): still 400 encrypted_pdf",
    async (name) => {
      const { status, body } = await upload(fixture(name), name);
      expect(status).toBe(400);
      expect(body.error?.code).toBe("encrypted_pdf");
      expect(body.error?.message).toContain("password-protected PDFs cannot be accepted");
    },
  );
});
