import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as uploadRoute from "../../../app/routes/api.agents.discovery.upload";
import * as discoveryPage from "../../../app/routes/agent-discovery";
import { UPLOAD_WORDS } from "../../../app/lib/upload-rules";
import Database from "better-sqlite3";
import sharp from "sharp";
import {
  displayFileName,
  makeUploadSafe,
  MAX_UPLOAD_BYTES,
  safeUploadFileName,
  sniffFileType,
} from "../../../app/server/intake/storage.server";
import { startFakeS3, type FakeS3 } from "../../fakes/s3";
import { callRoute, createIntakeSandbox, type IntakeSandbox } from "./support";
import { jpeg, jpegWithComment, pdf, png, pngTextChunk } from "./files";

let sandbox: IntakeSandbox;

beforeAll(async () => {
  sandbox = await createIntakeSandbox();
});
afterAll(async () => {
  await sandbox.cleanup();
});

const ONLY = "Only PDF, JPG or PNG files are accepted.";
const KEY = (docType: string, name: string) =>
  new RegExp(`^agent-survey-uploads/${docType}/(\\d{13})-([0-9a-f]{24})-${name.replace(/\./g, "\\.")}$`);

function uploadRequest(
  file: { bytes: Buffer; name: string; type?: string } | null,
  fields: Record<string, string> = { docType: "consent_form", blankConfirmed: "true" },
  url = "/api/agents/discovery/upload",
): Request {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file)
    form.append(
      "file",
      new File([new Uint8Array(file.bytes)], file.name, { type: file.type ?? "application/octet-stream" }),
    );
  return new Request(`http://localhost${url}`, { method: "POST", body: form });
}

async function upload(file: { bytes: Buffer; name: string; type?: string } | null, fields?: Record<string, string>) {
  const res = await callRoute(uploadRoute, uploadRequest(file, fields));
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & {
      error?: { code: string; message: string; fields?: Record<string, string> };
    },
  };
}

describe("content checks", () => {
  it("recognises PDF, PNG and JPEG by their bytes only", () => {
    expect(sniffFileType(pdf())?.mime).toBe("application/pdf");
    expect(sniffFileType(png())?.mime).toBe("image/png");
    expect(sniffFileType(jpeg())?.mime).toBe("image/jpeg");
    expect(sniffFileType(Buffer.from("GIF89a..."))).toBeNull();
    expect(sniffFileType(Buffer.from("MZ\x90\x00 executable"))).toBeNull();
    expect(sniffFileType(Buffer.alloc(0))).toBeNull();
  });

  const refused = async (bytes: Buffer) =>
    makeUploadSafe(bytes).then(
      () => false,
      () => true,
    );

  it("refuses files that only start like an accepted type (PDFs with active content are disarmed: pdf-disarm.test.ts)", async () => {
    expect(
      await refused(Buffer.concat([png().subarray(0, 8), Buffer.from("<html><script>alert(1)</script></html>")])),
    ).toBe(true);
    expect(await refused(Buffer.from("%PDF-1.7\n1 0 obj\nendobj\n"))).toBe(true);
    expect(await refused(Buffer.from("%PDF-x\n%%EOF"))).toBe(true);
    expect(await refused(Buffer.concat([jpeg().subarray(0, 40), Buffer.from("<?php echo 1; ?>")]))).toBe(true);
  });

  it("re-encodes images without their metadata, comments and trailing data", async () => {
    const payloads = [
      png([pngTextChunk("<script>alert(1)</script>")]),
      Buffer.concat([png(), Buffer.from("<html><script>alert(1)</script></html>")]),
      jpegWithComment("<script>alert(1)</script>"),
      Buffer.concat([jpeg(), Buffer.from("PK\x03\x04 a zip archive appended <script>")]),
      await sharp(jpeg())
        .withMetadata({ exif: { IFD0: { ImageDescription: "<script>alert(1)</script>" } } })
        .jpeg()
        .toBuffer(),
    ];
    for (const bytes of payloads) {
      const safe = await makeUploadSafe(bytes);
      const text = safe.bytes.toString("latin1");
      expect(text).not.toMatch(/script|html/i);
      expect(text).not.toContain("PK\u0003\u0004");
      const meta = await sharp(safe.bytes).metadata();
      expect(meta.format).toBe(safe.type === sniffFileType(bytes) ? meta.format : "never");
      expect(meta.exif).toBeUndefined();
      expect(meta.comments ?? []).toEqual([]);
    }
  });

  it("rewrites a PDF from its objects: HTML or script between them or after %%EOF is dropped", async () => {
    const polyglot = pdf({
      objects: "<html><body><script>alert(1)</script></body></html>",
      after: "<script>alert(2)</script>" + " ".repeat(2048) + "<iframe src=x>",
    });
    const safe = await makeUploadSafe(polyglot);
    expect(safe.type.extension).toBe("pdf");
    expect(safe.bytes.subarray(0, 8).toString("latin1")).toMatch(/^%PDF-1\.\d/);
    expect(safe.bytes.toString("latin1")).not.toMatch(/script|iframe|html/i);
    expect(await refused(safe.bytes)).toBe(false);
  });

  it.each([
    ["Consent form; blank.pdf", "Consent form; blank.pdf"],
    ["Intake (rev=2).pdf", "Intake (rev=2).pdf"],
    ["C:\\Users\\me\\scan.pdf", "scan.pdf"],
    ["\u202etxt.exe.pdf", "txt.exe.pdf"],
    ["bell\u0007 and\u0000 nul.pdf", "bell and nul.pdf"],
    ["Formula\u0301rio.pdf", "Formulário.pdf"],
  ])("keeps %j for display as %j", (original, shown) => {
    expect(displayFileName(original)).toBe(shown);
  });

  it.each([
    ["../../etc/passwd", "passwd.pdf"],
    ["..\\..\\windows\\system32\\evil.pdf", "evil.pdf"],
    ["Formulário de admissão (final).PDF", "Formulario-de-admissao-final.pdf"],
    [".htaccess", "htaccess.pdf"],
    ["consent form\u0000.pdf.exe", "consent-form.pdf.pdf"],
    ["scan - final .jpg", "scan-final.pdf"],
    ["<script>.pdf", "script.pdf"],
    ["", "upload.pdf"],
    ["...", "upload.pdf"],
    [`${"a".repeat(300)}.pdf`, `${"a".repeat(90)}.pdf`],
  ])("makes %j safe: %s", (original, safe) => {
    expect(safeUploadFileName(original, { mime: "application/pdf", extension: "pdf" })).toBe(safe);
  });
});

/**
 * Make the real SQLite write store refuse the row of an upload named `name` (a trigger, so the
 * engine itself fails the insert after the file is stored), for the duration of `run`.
 */
async function withRowRefused<T>(name: string, run: () => Promise<T>): Promise<T> {
  const db = new Database(sandbox.dbFile);
  const trigger = `refuse_${name.replace(/\W/g, "_")}`;
  db.exec(
    `CREATE TRIGGER ${trigger} BEFORE INSERT ON agent_uploads WHEN NEW.original_file_name = '${name}' ` +
      `BEGIN SELECT RAISE(ABORT, 'the row is refused'); END;`,
  );
  try {
    return await run();
  } finally {
    db.exec(`DROP TRIGGER ${trigger}`);
    db.close();
  }
}

describe("POST /api/agents/discovery/upload (local directory storage)", () => {
  it("stores a PDF under agent-survey-uploads/<docType>/<millis>-<id>-<name> and records it", async () => {
    const bytes = pdf();
    const before = Date.now();
    const { status, body } = await upload({ bytes, name: "Blank consent form.pdf", type: "application/pdf" });
    expect(status).toBe(200);
    const key = body.key as string;
    const match = KEY("consent_form", "Blank-consent-form.pdf").exec(key);
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBeGreaterThanOrEqual(before);
    const stored = readFileSync(path.join(sandbox.uploadDir, key));
    expect(body).toEqual({ key, upload_id: match![2], content_type: "application/pdf", size_bytes: stored.length });
    // What is stored is the PDF rewritten from its objects (docs/decisions/185), still one page.
    expect(stored.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(stored.toString("latin1")).toContain("/MediaBox [ 0 0 612 792 ]");
    expect(
      sandbox.query(
        "SELECT object_key, storage, doc_type, blank_confirmed, content_type, original_file_name, uploader_ip FROM agent_uploads WHERE id = ?",
        match![2],
      ),
    ).toEqual([
      {
        object_key: key,
        storage: "local",
        doc_type: "consent_form",
        blank_confirmed: 1,
        content_type: "application/pdf",
        original_file_name: "Blank consent form.pdf",
        uploader_ip: "203.0.113.7",
      },
    ]);
  });

  it.each([
    ['filename="Consent form; blank.pdf"', "Consent form; blank.pdf", "Consent-form-blank.pdf"],
    ['filename="Intake (rev=2).pdf"', "Intake (rev=2).pdf", "Intake-rev-2.pdf"],
    ['filename="Quote \\"final\\".pdf"', 'Quote "final".pdf', "Quote-final.pdf"],
    ['filename="Formul\u00e1rio; se\u00f1or.pdf"', "Formulário; señor.pdf", "Formulario-senor.pdf"],
    ["filename*=UTF-8''Formul%C3%A1rio%20%3D%20blank.pdf", "Formulário = blank.pdf", "Formulario-blank.pdf"],
    ['filename="\u202egpj.exe.pdf"', "gpj.exe.pdf", "gpj.exe.pdf"],
  ])("reads a real file name (%s): shown as sent, stored under a safe key", async (disposition, shown, safe) => {
    const boundary = "----name-test";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="docType"\r\n\r\nconsent_form\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="blankConfirmed"\r\n\r\ntrue\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: application/pdf\r\n\r\n`,
        "utf8",
      ),
      pdf(),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await callRoute(
      uploadRoute,
      new Request("http://localhost/api/agents/discovery/upload", {
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        body,
      }),
    );
    expect(res.status).toBe(200);
    const { key, upload_id } = (await res.json()) as { key: string; upload_id: string };
    expect(key).toMatch(KEY("consent_form", safe));
    expect(sandbox.query("SELECT original_file_name FROM agent_uploads WHERE id = ?", upload_id)).toEqual([
      { original_file_name: shown },
    ]);
  });

  it("goes by content, not name or declared type: a renamed PNG is stored as a PNG", async () => {
    const { status, body } = await upload(
      { bytes: png(), name: "scan.pdf", type: "application/pdf" },
      { docType: "intake_form", blankConfirmed: "on" },
    );
    expect(status).toBe(200);
    expect(body.key).toMatch(KEY("intake_form", "scan.png"));
    expect(body.content_type).toBe("image/png");
    const jpg = await upload(
      { bytes: jpeg(), name: "photo.JPEG", type: "text/plain" },
      { docType: "other", blankConfirmed: "true" },
    );
    expect(jpg.body.key).toMatch(KEY("other", "photo.jpg"));
    const exeNamedPdf = await upload({ bytes: pdf(), name: "invoice.exe", type: "application/x-msdownload" });
    expect(exeNamedPdf.status).toBe(200);
    expect(exeNamedPdf.body.key).toMatch(KEY("consent_form", "invoice.pdf"));
  });

  it.each([
    ["a text file named .pdf", Buffer.from("just some notes"), "notes.pdf", "application/pdf"],
    [
      "an executable named .png",
      Buffer.from("MZ\x90\x00\x03\x00\x00\x00 this program cannot be run", "latin1"),
      "form.png",
      "image/png",
    ],
    ["a GIF", Buffer.from("GIF89a\x01\x00\x01\x00", "latin1"), "scan.gif", "image/gif"],
    [
      "an HTML page behind a PNG signature",
      Buffer.concat([png().subarray(0, 8), Buffer.from("<html><script>alert(1)</script>")]),
      "x.png",
      "image/png",
    ],
    ["an empty file", Buffer.alloc(0), "empty.pdf", "application/pdf"],
  ])("refuses %s with 400 and stores nothing", async (_label, bytes, name, type) => {
    const before = sandbox.query<{ n: number }>("SELECT COUNT(*) AS n FROM agent_uploads")[0]!.n;
    const { status, body } = await upload({ bytes, name, type });
    expect(status).toBe(400);
    expect(body.error?.message).toEqual(
      name === "empty.pdf" ? expect.any(String) : name === "x.png" ? expect.stringContaining("image") : ONLY,
    );
    expect(sandbox.query<{ n: number }>("SELECT COUNT(*) AS n FROM agent_uploads")[0]!.n).toBe(before);
  });

  it("answers 413 for a file over 10 MB, whether or not the size is declared up front", async () => {
    const big = Buffer.concat([pdf(), Buffer.alloc(MAX_UPLOAD_BYTES)]);
    const declared = await upload({ bytes: big, name: "big.pdf" });
    expect(declared.status).toBe(413);
    expect(declared.body.error?.code).toBe("payload_too_large");
    // Streamed without Content-Length (a 30 MB file generated on the fly): the
    // running count stops reading soon after 10 MB instead of taking it all in.
    const boundary = "----intake-test-boundary";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="docType"\r\n\r\nother\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="blankConfirmed"\r\n\r\ntrue\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
    );
    const total = 30 * 1024 * 1024;
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === 0) {
          controller.enqueue(new Uint8Array(head));
          pulled += head.length;
        } else if (pulled < total) {
          controller.enqueue(new Uint8Array(256 * 1024));
          pulled += 256 * 1024;
        } else {
          controller.enqueue(new Uint8Array(Buffer.from(`\n%%EOF\r\n--${boundary}--\r\n`)));
          controller.close();
        }
      },
    });
    const streamed = new Request("http://localhost/api/agents/discovery/upload", {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.headers.get("content-length")).toBeNull();
    const res = await callRoute(uploadRoute, streamed);
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(MAX_UPLOAD_BYTES + 2 * 1024 * 1024);
  });

  it("accepts a file of exactly 10 MB", async () => {
    const size = pdf({ objects: "4 0 obj << /Length 0 >> stream\n\nendstream endobj" }).length;
    const fill = MAX_UPLOAD_BYTES - size - String(MAX_UPLOAD_BYTES).length + 1;
    const exact = pdf({ objects: `4 0 obj << /Length ${fill} >> stream\n${"0".repeat(fill)}\nendstream endobj` });
    expect(exact.length).toBe(MAX_UPLOAD_BYTES);
    const { status } = await upload({ bytes: exact, name: "exact.pdf" });
    expect(status).toBe(200);
  });

  it.each([
    [{ docType: "passport", blankConfirmed: "true" }, "docType"],
    [{ blankConfirmed: "true" }, "docType"],
    [{ docType: "consent_form", blankConfirmed: "false" }, "blankConfirmed"],
    [{ docType: "consent_form" }, "blankConfirmed"],
    [{ docType: "consent_form", blankConfirmed: "maybe" }, "blankConfirmed"],
  ])("answers 400 naming the field for %j", async (fields, field) => {
    const { status, body } = await upload({ bytes: pdf(), name: "f.pdf" }, fields as Record<string, string>);
    expect(status).toBe(400);
    expect(Object.keys(body.error!.fields!)).toContain(field);
  });

  it("answers 400 without a file, 400 with two files and 415 for a JSON body", async () => {
    const none = await upload(null);
    expect(none.status).toBe(400);
    expect(none.body.error!.fields).toHaveProperty("file");
    const form = new FormData();
    form.append("docType", "other");
    form.append("blankConfirmed", "true");
    form.append("file", new File([new Uint8Array(pdf())], "a.pdf"));
    form.append("file", new File([new Uint8Array(pdf())], "b.pdf"));
    const two = await callRoute(
      uploadRoute,
      new Request("http://localhost/api/agents/discovery/upload", { method: "POST", body: form }),
    );
    expect(two.status).toBe(400);
    const json = await callRoute(
      uploadRoute,
      new Request("http://localhost/api/agents/discovery/upload", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(json.status).toBe(415);
  });

  it("removes the stored file when its row cannot be written: no document is kept that no row names (decision 505)", async () => {
    // The table exists once one upload is recorded.
    expect((await upload({ bytes: pdf(), name: "first.pdf" })).status).toBe(200);
    const { status, body } = await withRowRefused("row-refused.pdf", () =>
      upload({ bytes: pdf(), name: "row-refused.pdf" }),
    );
    expect(status).toBe(500);
    expect(body.error!.code).toBe("write_store_unavailable");
    expect(body.error!.message).toContain("nothing was saved");
    const stored = readdirSync(sandbox.uploadDir, { recursive: true }).map(String);
    expect(stored.filter((f) => f.endsWith("-row-refused.pdf") || f.endsWith(".partial"))).toEqual([]);
    // Sent again once the store takes it, it is stored and recorded.
    const again = await upload({ bytes: pdf(), name: "row-refused.pdf" });
    expect(again.status).toBe(200);
    expect(existsSync(path.join(sandbox.uploadDir, again.body.key as string))).toBe(true);
  });

  it("answers 500 naming DATABASE_URL, and stores no file, when the write store is unavailable", async () => {
    await sandbox.configure({ DATABASE_URL: "" });
    try {
      const { status, body } = await upload({ bytes: pdf(), name: "nostore.pdf" });
      expect(status).toBe(500);
      expect(body.error).toEqual({ code: "write_store_unavailable", message: expect.stringContaining("DATABASE_URL") });
    } finally {
      await sandbox.configure({ DATABASE_URL: `file:${sandbox.dbFile}` });
    }
    const stored = existsSync(sandbox.uploadDir) ? readdirSync(sandbox.uploadDir, { recursive: true }).map(String) : [];
    expect(stored.filter((f) => f.endsWith("-nostore.pdf"))).toEqual([]);
    expect(sandbox.query("SELECT COUNT(*) AS n FROM agent_uploads WHERE original_file_name = 'nostore.pdf'")).toEqual([
      { n: 0 },
    ]);
  });
});

describe("S3 storage (s3rver)", () => {
  let s3: FakeS3;
  beforeAll(async () => {
    s3 = await startFakeS3();
  });
  afterAll(async () => {
    await s3.close();
  });
  beforeEach(async () => {
    await sandbox.configure({ UPLOAD_BUCKET: s3.bucket, UPLOAD_S3_ENDPOINT: s3.endpoint });
  });

  it("puts the object in the bucket under the same key layout, with the sniffed content type", async () => {
    const bytes = png();
    const { status, body } = await upload(
      { bytes, name: "intake sheet.pdf", type: "application/pdf" },
      { docType: "income_worksheet", blankConfirmed: "true" },
    );
    expect(status).toBe(200);
    const key = body.key as string;
    expect(key).toMatch(KEY("income_worksheet", "intake-sheet.png"));
    expect(await s3.listKeys("agent-survey-uploads/")).toContain(key);
    const object = await s3.getObject(key);
    // Re-encoded (docs/decisions/185): the same pixels, stored as a fresh PNG.
    expect(object.body.length).toBe(body.size_bytes);
    expect((await sharp(object.body).metadata()).format).toBe("png");
    expect(object.contentType).toBe("image/png");
    expect(existsSync(path.join(sandbox.uploadDir, key))).toBe(false);
    expect(sandbox.query("SELECT storage FROM agent_uploads WHERE object_key = ?", key)).toEqual([{ storage: "s3" }]);
  });

  it("removes the object from the bucket when its row cannot be written (decision 505)", async () => {
    expect((await upload({ bytes: png(), name: "first-s3.png" })).status).toBe(200);
    const before = await s3.listKeys("agent-survey-uploads/");
    const { status } = await withRowRefused("row-refused-s3.png", () =>
      upload({ bytes: png(), name: "row-refused-s3.png" }),
    );
    expect(status).toBe(500);
    expect(await s3.listKeys("agent-survey-uploads/")).toEqual(before);
  });

  it("answers 503 and records nothing when the bucket cannot be written", async () => {
    await sandbox.configure({ UPLOAD_BUCKET: "no-such-bucket", UPLOAD_S3_ENDPOINT: s3.endpoint });
    const { status, body } = await upload({ bytes: pdf(), name: "lost.pdf" });
    expect(status).toBe(503);
    expect(body.error!.code).toBe("upload_storage_unavailable");
    expect(sandbox.query("SELECT COUNT(*) AS n FROM agent_uploads WHERE original_file_name = 'lost.pdf'")).toEqual([
      { n: 0 },
    ]);
  });
});

describe("the upload form on /agent-discovery (works without JavaScript)", () => {
  beforeAll(async () => {
    await sandbox.configure({ UPLOAD_BUCKET: undefined, UPLOAD_S3_ENDPOINT: undefined });
  });

  it("stores the file and redirects to the thank-you state", async () => {
    const res = await callRoute(
      discoveryPage,
      uploadRequest(
        { bytes: pdf(), name: "page.pdf" },
        { docType: "client_notice", blankConfirmed: "true" },
        "/agent-discovery",
      ),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/agent-discovery?uploaded=1#upload");
    expect(sandbox.query("SELECT doc_type FROM agent_uploads WHERE original_file_name = 'page.pdf'")).toEqual([
      { doc_type: "client_notice" },
    ]);
  });

  it("shows the refusal next to the file field", async () => {
    const res = await callRoute(
      discoveryPage,
      uploadRequest(
        { bytes: Buffer.from("hello"), name: "page.pdf" },
        { docType: "client_notice", blankConfirmed: "true" },
        "/agent-discovery",
      ),
    );
    expect(res.status).toBe(400);
    // The page's words: what is accepted and what to do (the API keeps its shorter message).
    expect(await res.json()).toEqual({ form: "upload", errors: { file: UPLOAD_WORDS.wrongType } });
    expect(UPLOAD_WORDS.wrongType.startsWith(ONLY)).toBe(true);
  });

  it("names document types by their labels, never their codes, and asks for the two other fields in words", async () => {
    const res = await callRoute(
      discoveryPage,
      uploadRequest({ bytes: Buffer.from("%PDF-1.4"), name: "page.pdf" }, { docType: "passport" }, "/agent-discovery"),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Record<string, string> };
    expect(body.errors.docType).toBe("Choose what kind of document it is.");
    expect(JSON.stringify(body)).not.toMatch(/intake_form|consent_form|income_worksheet/);
  });

  it("answers an upload the firewall refused as too large (never read) with 413 and the words beside the file field", async () => {
    const request = new Request("http://localhost/agent-discovery", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    const res = await callRoute(discoveryPage, request, {
      context: { refusedBody: { status: 413, limitBytes: 10 * 1024 * 1024 + 64 * 1024, multipart: true } },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ form: "upload", errors: { file: UPLOAD_WORDS.tooLarge } });
  });
});
