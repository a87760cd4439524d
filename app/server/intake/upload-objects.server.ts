import { createHash } from "node:crypto";
import { constants as fsConstants, promises as fs } from "node:fs";
import path from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import type * as S3Sdk from "@aws-sdk/client-s3";
import { withinDeadline } from "../platform/deadline.server";
import { env } from "../platform/env.server";
import { onShutdown, processSingleton } from "../platform/lifecycle.server";
import { logger } from "../platform/logger.server";

/**
 * Where uploads' files live: S3 (UPLOAD_BUCKET) or a local directory with the same key layout.
 * Putting a file (with a time limit) and removing one no row names (decision 505). The upload
 * itself, from the body to the row, is in storage.server.ts.
 */

/** How long storing one upload may take before the answer is 503 (a directory or bucket that never answers). */
export const UPLOAD_WRITE_TIMEOUT_MS = 15_000;

export interface StoredObject {
  storage: "s3" | "local";
  key: string;
}

type S3Module = typeof S3Sdk;

/**
 * The S3 SDK is imported on the first S3 upload, not at start (~100 ms of
 * module loading the first answer need not wait for; docs/decisions/117).
 */
export function s3Client(): Promise<{ client: S3Client; sdk: S3Module }> {
  const { UPLOAD_S3_ENDPOINT, UPLOAD_S3_REGION } = env();
  return processSingleton(`s3:${UPLOAD_S3_REGION}:${UPLOAD_S3_ENDPOINT ?? ""}`, async () => {
    const sdk = await import("@aws-sdk/client-s3");
    const client = new sdk.S3Client({
      region: UPLOAD_S3_REGION,
      ...(UPLOAD_S3_ENDPOINT ? { endpoint: UPLOAD_S3_ENDPOINT, forcePathStyle: true } : {}),
      // S3-compatible servers (and s3rver in tests) do not all speak the newer default checksums.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    onShutdown("s3 client", () => client.destroy());
    return { client, sdk };
  });
}

/** Where uploads go under the current configuration. */
export function uploadStorageKind(): "s3" | "local" {
  return env().UPLOAD_BUCKET ? "s3" : "local";
}

/**
 * Store the bytes under `key`: S3 PutObject when UPLOAD_BUCKET is set, else a
 * file under UPLOAD_LOCAL_DIR at the same relative path, written to a
 * temporary name, fsync'd and renamed so a crash never leaves half a file.
 */
export async function putUploadObject(
  key: string,
  body: Buffer,
  meta: { contentType: string; sha256: string; docType: string },
  options: { timeoutMs?: number } = {},
): Promise<StoredObject> {
  const timeoutMs = options.timeoutMs ?? UPLOAD_WRITE_TIMEOUT_MS;
  const work = putObject(key, body, meta, timeoutMs);
  // A write that outlives the timeout is abandoned: the visitor was told nothing was saved and no
  // row will name the file, so if it finishes later it is removed (decision 505).
  let abandoned = false;
  work.then(
    () => (abandoned ? removeUploadObject(key, "stored after the upload had given up on it") : undefined),
    () => undefined,
  );
  try {
    return await withinDeadline(work, timeoutMs, "storage");
  } catch (error) {
    abandoned = true;
    throw error;
  }
}

/** How long removing a stored object no row names may take; it is retried by nothing. */
const REMOVE_TIMEOUT_MS = 5_000;

/**
 * Remove a stored file that no row will name (decision 505): a visitor's document must not stay in
 * storage where no one can find it or delete it. Best effort (true when removed): a failure is
 * logged with the key, so operations can remove it by hand, and never changes the answer.
 */
export async function removeUploadObject(key: string, why: string): Promise<boolean> {
  try {
    const config = env();
    if (config.UPLOAD_BUCKET) {
      const { client, sdk } = await s3Client();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: config.UPLOAD_BUCKET, Key: key }), {
        abortSignal: AbortSignal.timeout(REMOVE_TIMEOUT_MS),
      });
    } else {
      const root = path.resolve(config.UPLOAD_LOCAL_DIR);
      const target = path.resolve(root, key);
      if (!target.startsWith(root + path.sep)) throw new Error("upload key escapes the upload directory");
      await withinDeadline(
        fs.rm(target, { force: true }).then(() => undefined),
        REMOVE_TIMEOUT_MS,
        "storage",
      );
    }
    logger().info({ objectKey: key, why }, "upload: a stored file no row names was removed");
    return true;
  } catch (error) {
    logger().error(
      { objectKey: key, why, err: error instanceof Error ? error.message : String(error) },
      "upload: a stored file no row names could not be removed; remove it by hand",
    );
    return false;
  }
}

async function putObject(
  key: string,
  body: Buffer,
  meta: { contentType: string; sha256: string; docType: string },
  timeoutMs: number,
): Promise<StoredObject> {
  const config = env();
  if (config.UPLOAD_BUCKET) {
    const { client, sdk } = await s3Client();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: config.UPLOAD_BUCKET,
        Key: key,
        Body: body,
        ContentType: meta.contentType,
        ContentLength: body.length,
        // Never shown inline, whatever asks for it: a download with the type found in the bytes.
        ContentDisposition: `attachment; filename="${key.slice(key.lastIndexOf("/") + 1)}"`,
        Metadata: { sha256: meta.sha256, "doc-type": meta.docType },
      }),
      { abortSignal: AbortSignal.timeout(timeoutMs) },
    );
    return { storage: "s3", key };
  }
  const root = path.resolve(config.UPLOAD_LOCAL_DIR);
  const target = path.resolve(root, key);
  if (!target.startsWith(root + path.sep)) throw new Error("upload key escapes the upload directory");
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.partial`;
  const handle = await fs.open(temp, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, 0o640);
  try {
    try {
      await handle.writeFile(body);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
  } catch (error) {
    // A full disk (ENOSPC) or a failing one leaves part of a visitor's document under a name no
    // row will ever hold, and the little room left taken: it goes (decision 511).
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  return { storage: "local", key };
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
