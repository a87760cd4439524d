/**
 * The published plan store (decision 290): the seed pipeline uploads a built
 * store to S3 (seed/publish.ts) and every running process follows it
 * (./store-sync.server.ts). This file holds what both sides agree on: where
 * the objects live, the shape of the version marker and the S3 client.
 *
 * Layout under PLAN_STORE_URL=s3://bucket/key:
 * - `key.version`: the marker, a small JSON object naming the current version;
 * - `key.<version>`: that version's store file, never overwritten (an
 *   instance reading an older marker still downloads the file it names).
 * Writing the file first and the marker last makes publishing atomic.
 */
import type * as S3Sdk from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";
import { readFileSync, statSync } from "node:fs";
import { z } from "zod";

export interface PublishedLocation {
  bucket: string;
  /** The key PLAN_STORE_URL names; the objects are this key with a suffix. */
  key: string;
  markerKey: string;
}

/** `s3://bucket/key` → bucket and keys; throws naming the setting when it is not one. */
export function publishedLocation(url: string): PublishedLocation {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(url.trim());
  if (!match) throw new Error(`PLAN_STORE_URL must look like s3://bucket/key (got "${url}")`);
  return { bucket: match[1], key: match[2], markerKey: `${match[2]}.version` };
}

/** The key of one version's store file. */
export function versionObjectKey(location: PublishedLocation, version: string): string {
  return `${location.key}.${version}`;
}

/** The version marker: which file is current and how to recognise it. */
export const VersionMarker = z.object({
  /** `<built-at, compact>-<first 12 hex of sha256>`, e.g. 20261124T010203Z-0123456789ab. */
  version: z.string().regex(/^[0-9TZ]{16}-[0-9a-f]{12}$/),
  /** The key of the store file (`key.<version>`). */
  object: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().positive(),
  builtAt: z.string(),
  publishedAt: z.string(),
  years: z.array(z.number().int()),
  sample: z.boolean(),
  /** Row counts per table, as the seed report gave them. */
  counts: z.record(z.string(), z.number().int().nonnegative()),
  /** The publisher replaced a larger store on purpose (--accept-shrink): instances skip the shrink check. */
  shrinkAccepted: z.boolean().default(false),
});
export type VersionMarker = z.infer<typeof VersionMarker>;

/** The version id of a store built at `builtAt` with digest `sha256`. */
export function versionId(builtAt: Date, sha256: string): string {
  const compact = builtAt
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${compact}-${sha256.slice(0, 12)}`;
}

export interface S3Settings {
  endpoint?: string;
  region: string;
}

/**
 * An S3 client for the plan store. The SDK is imported on first use: a
 * process without PLAN_STORE_URL never loads it (decision 117).
 */
export async function planStoreS3Client(settings: S3Settings): Promise<{
  client: S3Client;
  sdk: typeof S3Sdk;
}> {
  const sdk = await import("@aws-sdk/client-s3");
  const client = new sdk.S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    // S3-compatible servers (MinIO, s3rver in tests) do not all speak the newer default checksums;
    // the store's own sha256 (in the marker) is what is checked.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  return { client, sdk };
}

/** Next to the store: which published version the file is (written after each swap). */
export const sidecarPath = (storePath: string) => `${storePath}.published.json`;

/** What `<store>.published.json` says: the version the store file at that inode is. */
export interface LocalVersion {
  version: string;
  sha256: string;
  size: number;
  ino: number;
  dev: number;
  swappedAt: string;
}

/** The published version the local store file is, or null (no file, no record, or a local reseed replaced it). */
export function localPublishedVersion(storePath: string): LocalVersion | null {
  try {
    const recorded = JSON.parse(readFileSync(sidecarPath(storePath), "utf8")) as LocalVersion;
    const s = statSync(storePath);
    return s.ino === recorded.ino && s.dev === recorded.dev ? recorded : null;
  } catch {
    return null;
  }
}
