import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as uploadRoute from "../../../app/routes/api.agents.discovery.upload";
import * as discoveryPage from "../../../app/routes/agent-discovery";
import { callRoute, createIntakeSandbox, HEX24, type IntakeSandbox } from "./support";
import { pdf, png } from "./files";

/**
 * Idempotency keys on uploads (decision 503): an upload sent again with its key, after a lost
 * answer or a 503 saying the outcome is unknown, is answered as the first was and stored once, on
 * the API (Idempotency-Key) and on the page's upload form (a key in its action's query string).
 * Real SQLite file, the routes' own handlers, files in the upload directory.
 */

let sandbox: IntakeSandbox;
beforeAll(async () => {
  sandbox = await createIntakeSandbox();
});
afterAll(async () => {
  await sandbox.cleanup();
});

interface Uploaded {
  key: string;
  upload_id: string;
  content_type: string;
  size_bytes: number;
}

function uploadBody(file: Buffer, name: string, type: string, docType = "intake_form"): FormData {
  const form = new FormData();
  form.append("docType", docType);
  form.append("blankConfirmed", "true");
  form.append("file", new File([new Uint8Array(file)], name, { type }));
  return form;
}

const send = (body: FormData, key?: string) =>
  callRoute(
    uploadRoute,
    new Request("http://localhost/api/agents/discovery/upload", {
      method: "POST",
      body,
      headers: key === undefined ? {} : { "idempotency-key": key },
    }),
  );

const rows = (name: string) =>
  sandbox.query<{ id: string; object_key: string }>(
    "SELECT id, object_key FROM agent_uploads WHERE original_file_name = ?",
    name,
  );

/** Every stored file whose name ends with `name`. */
function storedFiles(name: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (full.endsWith(name)) out.push(full);
    }
  };
  walk(sandbox.uploadDir);
  return out;
}

describe("POST /api/agents/discovery/upload with an Idempotency-Key", () => {
  it("sent again, answers 200 with the first upload's key and id, marked replayed, and stores one file", async () => {
    const file = pdf({ catalog: "/OpenAction [3 0 R /Fit]" });
    const first = await send(uploadBody(file, "consent-blank.pdf", "application/pdf"), "upload-key-1");
    const again = await send(uploadBody(file, "consent-blank.pdf", "application/pdf"), "upload-key-1");
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const [a, b] = [(await first.json()) as Uploaded, (await again.json()) as Uploaded];
    expect(a.upload_id).toMatch(HEX24);
    expect(b).toEqual(a);
    expect(rows("consent-blank.pdf")).toEqual([{ id: a.upload_id, object_key: a.key }]);
    expect(storedFiles("consent-blank.pdf")).toHaveLength(1);
  });

  it("answers 422 naming the header when the key comes back with another file, and stores nothing", async () => {
    const first = await send(uploadBody(png(), "scan.png", "image/png"), "upload-key-2");
    expect(first.status).toBe(200);
    const other = await send(uploadBody(pdf(), "scan.png.pdf", "application/pdf"), "upload-key-2");
    expect(other.status).toBe(422);
    const body = (await other.json()) as { error: { code: string; fields: Record<string, string> } };
    expect(body.error.code).toBe("idempotency_key_reused");
    expect(Object.keys(body.error.fields)).toEqual(["Idempotency-Key"]);
    expect(rows("scan.png.pdf")).toEqual([]);
    expect(storedFiles("scan.png.pdf")).toEqual([]);
    // The same bytes under another document type are another request too.
    const retyped = await send(uploadBody(png(), "scan.png", "image/png", "consent_form"), "upload-key-2");
    expect(retyped.status).toBe(422);
  });

  it("keeps one upload per request without a key, as before, and a refused file uses no key", async () => {
    for (let i = 0; i < 2; i++) expect((await send(uploadBody(png(), "twice.png", "image/png"))).status).toBe(200);
    expect(rows("twice.png")).toHaveLength(2);
    // A refused upload records nothing, so its key still takes the corrected file.
    const refused = await send(
      uploadBody(Buffer.from("%PDF-x\n%%EOF"), "fixed.pdf", "application/pdf"),
      "upload-key-3",
    );
    expect(refused.status).toBe(400);
    const fixed = await send(uploadBody(pdf(), "fixed.pdf", "application/pdf"), "upload-key-3");
    expect(fixed.status).toBe(200);
    expect(rows("fixed.pdf")).toHaveLength(1);
  });

  it("answers 400 naming the header for a malformed key, and stores nothing", async () => {
    const res = await send(uploadBody(png(), "bad-key.png", "image/png"), "two words");
    expect(res.status).toBe(400);
    expect(rows("bad-key.png")).toEqual([]);
  });
});

describe("the page's upload form with its key", () => {
  it("gives each page load a key, keeps it when the upload comes back with an error, and stores a file sent twice once", async () => {
    const load = async (query = "") =>
      (await (await callRoute(discoveryPage, new Request(`http://localhost/agent-discovery${query}`))).json()) as {
        uploadKey: string;
      };
    const page = await load();
    expect(page.uploadKey).toMatch(/^[0-9a-f-]{36}$/);
    const post = (file: Buffer, name: string, type: string, blank = "true") => {
      const form = uploadBody(file, name, type);
      form.set("blankConfirmed", blank);
      return callRoute(
        discoveryPage,
        new Request(`http://localhost/agent-discovery?upload_key=${page.uploadKey}`, { method: "POST", body: form }),
      );
    };
    // Sent without the "blank" box first: the page comes back with the same key.
    const wrong = await post(png(), "page-form.png", "image/png", "false");
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { uploadKey: string }).uploadKey).toBe(page.uploadKey);
    // A page drawn from the action's address keeps the key too (no JavaScript).
    expect((await load(`?upload_key=${page.uploadKey}`)).uploadKey).toBe(page.uploadKey);
    // Then twice: after "could not confirm", or a double tap.
    for (let i = 0; i < 2; i++) {
      const sent = await post(png(), "page-form.png", "image/png");
      expect(sent.status).toBe(302);
      expect(sent.headers.get("location")).toBe("/agent-discovery?uploaded=1#upload");
    }
    expect(rows("page-form.png")).toHaveLength(1);
    expect(storedFiles("page-form.png")).toHaveLength(1);
    // Another file from the same page (its answer lost, the visitor chose another): not stored, said
    // in words, and a new key so that sending it again stores it.
    const other = await post(png(), "page-form-2.png", "image/png");
    expect(other.status).toBe(422);
    const refusal = (await other.json()) as { formError: string; uploadKey: string };
    expect(refusal.formError).toContain("this one was not sent");
    expect(refusal.uploadKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(refusal.uploadKey).not.toBe(page.uploadKey);
    expect(rows("page-form-2.png")).toEqual([]);
    const form = uploadBody(png(), "page-form-2.png", "image/png");
    const resent = await callRoute(
      discoveryPage,
      new Request(`http://localhost/agent-discovery?upload_key=${refusal.uploadKey}`, { method: "POST", body: form }),
    );
    expect(resent.status).toBe(302);
    expect(rows("page-form-2.png")).toHaveLength(1);
    // Another page load is another key.
    expect((await load("?uploaded=1")).uploadKey).not.toBe(page.uploadKey);
  });
});
