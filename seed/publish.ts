/**
 * npm run seed:publish -- [--file <store>] [--url s3://bucket/key] [--accept-shrink]
 *
 * Publishes a built plan store for every instance to follow (decision 290):
 * checks the file (store-check.server.ts: quick_check, schema version, the
 * gate's completeness), uploads it as `key.<version>`, then writes the
 * version marker `key.version` naming it. Instances poll the marker
 * (PLAN_STORE_POLL_SECONDS), download, check again and swap it in. Older
 * version files are removed except the one the previous marker named (an
 * instance may still be downloading it). `npm run seed -- ... --publish` does
 * the same after a successful build.
 *
 * Defaults: --file is PLAN_STORE_PATH, --url is PLAN_STORE_URL; the S3
 * endpoint and region are PLAN_STORE_S3_ENDPOINT and PLAN_STORE_S3_REGION,
 * credentials the AWS SDK's usual chain (AWS_ACCESS_KEY_ID, a role, ...).
 * Exit status: 0 published, 1 failed (the marker unchanged), 2 bad arguments,
 * 3 the store failed its checks (nothing uploaded).
 */
import { createReadStream } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  VersionMarker,
  planStoreS3Client,
  publishedLocation,
  versionId,
  versionObjectKey,
  type S3Settings,
} from "../app/server/plan-store/published.server";
import { checkStoreFile, fileDigest } from "../app/server/plan-store/store-check.server";

export class PublishRefusedError extends Error {
  constructor(readonly problems: string[]) {
    super(`the plan store was not published:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "PublishRefusedError";
  }
}

export interface PublishOptions extends S3Settings {
  file: string;
  url: string;
  /** Instances skip the shrink check for this version (the operator accepted a smaller store). */
  shrinkAccepted?: boolean;
}

/** Check, upload and announce `file`; resolves to the marker written. */
export async function publishPlanStore(options: PublishOptions): Promise<VersionMarker> {
  const file = path.resolve(options.file);
  const location = publishedLocation(options.url);
  const checked = checkStoreFile(file);
  if (checked.problems.length > 0 || !checked.facts) throw new PublishRefusedError(checked.problems);
  const facts = checked.facts;
  const { sha256, size } = await fileDigest(file);
  const builtAt = facts.builtAt ? new Date(facts.builtAt) : new Date();
  const version = versionId(Number.isNaN(builtAt.getTime()) ? new Date() : builtAt, sha256);
  const marker: VersionMarker = {
    version,
    object: versionObjectKey(location, version),
    sha256,
    size,
    builtAt: facts.builtAt ?? "",
    publishedAt: new Date().toISOString(),
    years: facts.years,
    sample: facts.sample,
    counts: facts.counts,
    shrinkAccepted: Boolean(options.shrinkAccepted),
  };

  const { client, sdk } = await planStoreS3Client(options);
  try {
    let previous: VersionMarker | undefined;
    try {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: location.bucket, Key: location.markerKey }));
      previous = VersionMarker.parse(JSON.parse(await answer.Body!.transformToString("utf8")));
    } catch {
      previous = undefined; // first publication, or an unreadable marker about to be replaced
    }
    // The file first, the marker last: an instance never reads a marker naming a missing file.
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: location.bucket,
        Key: marker.object,
        Body: createReadStream(file),
        ContentLength: size,
        ContentType: "application/vnd.sqlite3",
        Metadata: { sha256, version },
      }),
    );
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: location.bucket,
        Key: location.markerKey,
        Body: `${JSON.stringify(marker, null, 2)}\n`,
        ContentType: "application/json",
        CacheControl: "no-cache",
      }),
    );
    const keep = new Set([marker.object, location.markerKey, previous?.object]);
    const listed = await client.send(
      new sdk.ListObjectsV2Command({ Bucket: location.bucket, Prefix: `${location.key}.` }),
    );
    for (const object of listed.Contents ?? []) {
      const key = object.Key;
      // Only files this publisher wrote (`key.<version>`), never anything else under the prefix.
      if (!key || keep.has(key) || !/^[0-9TZ]{16}-[0-9a-f]{12}$/.test(key.slice(location.key.length + 1))) continue;
      await client.send(new sdk.DeleteObjectCommand({ Bucket: location.bucket, Key: key }));
    }
    return marker;
  } finally {
    client.destroy();
  }
}

/** The settings the CLI publishes with (PLAN_STORE_URL and friends), or why they are missing. */
export async function publishSettings(url?: string): Promise<S3Settings & { url: string }> {
  const { env } = await import("../app/server/platform/env.server");
  const e = env();
  const target = url ?? e.PLAN_STORE_URL;
  if (!target) throw new Error("PLAN_STORE_URL is not set (or pass --url s3://bucket/key)");
  publishedLocation(target);
  return { url: target, endpoint: e.PLAN_STORE_S3_ENDPOINT, region: e.PLAN_STORE_S3_REGION };
}

/** One line for the operator. */
export function publishedLine(marker: VersionMarker, url: string): string {
  return `published plan store ${marker.version} (${(marker.size / 1e6).toFixed(1)} MB, sha256 ${marker.sha256.slice(0, 12)}…, plan year${marker.years.length === 1 ? "" : "s"} ${marker.years.join(", ")}) to ${url}; instances follow within PLAN_STORE_POLL_SECONDS`;
}

export async function main(argv: string[]): Promise<number> {
  let file: string | undefined;
  let url: string | undefined;
  let shrinkAccepted = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--file" && argv[i + 1]) file = argv[++i];
    else if (a === "--url" && argv[i + 1]) url = argv[++i];
    else if (a === "--accept-shrink") shrinkAccepted = true;
    else {
      console.error(
        `unknown argument ${a}\nusage: npm run seed:publish -- [--file <store>] [--url s3://bucket/key] [--accept-shrink]`,
      );
      return 2;
    }
  }
  let settings: S3Settings & { url: string };
  try {
    settings = await publishSettings(url);
    if (!file) {
      const { env } = await import("../app/server/platform/env.server");
      file = env().PLAN_STORE_PATH;
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  try {
    const marker = await publishPlanStore({ ...settings, file, shrinkAccepted });
    console.log(publishedLine(marker, settings.url));
    return 0;
  } catch (error) {
    if (error instanceof PublishRefusedError) {
      console.error(error.message);
      return 3;
    }
    console.error(
      `publishing failed, the published version is unchanged: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
