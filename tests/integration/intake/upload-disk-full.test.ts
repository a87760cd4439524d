import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Decision 511: an upload the disk cannot take answers 503 with Retry-After and leaves nothing of
 * the visitor's document behind. The built server runs with a file-size limit of 2 MiB
 * (RLIMIT_FSIZE), so writing a larger file fails part-way with EFBIG, as a full disk fails with
 * ENOSPC; the write store's file stays far under the limit. On the parent, the part written was
 * left in the upload directory as "<key>.partial".
 */

let server: RunningServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "upload-disk-full-"));
  server = await startServer({
    env: { DATABASE_URL: `file:${path.join(dir, "app.db")}`, UPLOAD_LOCAL_DIR: path.join(dir, "uploads") },
    fileSizeLimitKiB: 2048,
  });
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A PNG of noise, which no compression shrinks: `side`² × 3 bytes of pixels. */
async function noisePng(side: number): Promise<Buffer> {
  const pixels = randomBytes(side * side * 3);
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

async function upload(bytes: Buffer, name: string) {
  const form = new FormData();
  form.append("docType", "other");
  form.append("blankConfirmed", "true");
  form.append("file", new File([new Uint8Array(bytes)], name, { type: "image/png" }));
  return fetch(`${server.url}/api/agents/discovery/upload`, { method: "POST", body: form });
}

const filesLeft = () =>
  readdirSync(path.join(dir, "uploads"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);

describe("an upload the disk cannot take", () => {
  it("answers 503 with Retry-After, stores no row and leaves no part of the file", async () => {
    // 1,000 × 1,000 pixels: about 3 MB stored, past the 2 MiB limit.
    const res = await upload(await noisePng(1000), "big-scan.png");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("upload_storage_unavailable");
    expect(body.error.message).toContain("nothing was saved");
    expect(filesLeft()).toEqual([]);
    const db = new Database(path.join(dir, "app.db"), { readonly: true });
    try {
      expect(db.prepare("SELECT COUNT(*) AS n FROM agent_uploads").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it("still stores an upload that fits", async () => {
    const res = await upload(await noisePng(300), "small-scan.png");
    expect(res.status).toBe(200);
    const { key } = (await res.json()) as { key: string };
    expect(filesLeft()).toEqual([path.basename(key)]);
  });
});
