import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localPublishedVersion } from "../../../app/server/plan-store/published.server";
import { syncPublishedStore, type SyncSettings } from "../../../app/server/plan-store/store-sync.server";
import { publishPlanStore } from "../../../seed/publish";
import { FAKE_S3_CREDENTIALS, startFakeS3, type FakeS3 } from "../../fakes/s3";
import { TEST_PLAN_STORE } from "../../helpers/server";

/**
 * One sync step at a time (decision 290), in this process against s3rver:
 * the lock that keeps a machine's other workers out (and is taken over from
 * a process that died), the record of which version the file is (a local
 * reseed over it is noticed and replaced by the published version), and a
 * marker that cannot be read.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), "store-sync-"));
let s3: FakeS3;
let settings: SyncSettings;

beforeAll(async () => {
  s3 = await startFakeS3({ bucket: "plan-stores" });
  process.env.AWS_ACCESS_KEY_ID = FAKE_S3_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = FAKE_S3_CREDENTIALS.secretAccessKey;
  settings = {
    url: "s3://plan-stores/stores/plan-store.sqlite",
    storePath: path.join(dir, "plan-store.sqlite"),
    endpoint: s3.endpoint,
    region: "us-east-1",
  };
});
afterAll(async () => {
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A pid no process has (the highest pid Linux hands out is below 2^22). */
const DEAD_PID = 4_194_304 + 17;

describe("syncPublishedStore", () => {
  it("says so when there is no marker to read, and leaves the store alone", async () => {
    const outcome = await syncPublishedStore(settings);
    expect(outcome.result).toBe("failed");
    expect(outcome.result === "failed" && outcome.reason).toMatch(/^version marker unreadable/);
    expect(existsSync(settings.storePath)).toBe(false);
  });

  it("downloads, keeps out a second process while one holds the lock, takes over a dead holder's lock", async () => {
    const marker = await publishPlanStore({ ...settings, file: TEST_PLAN_STORE });

    // Another live process (this test's parent) holds the lock: this one stays out.
    writeFileSync(`${settings.storePath}.sync-lock`, String(process.ppid));
    expect(await syncPublishedStore(settings)).toEqual({ result: "busy" });
    expect(existsSync(settings.storePath)).toBe(false);

    // Its holder died: the lock is taken over, the store downloaded and recorded.
    writeFileSync(`${settings.storePath}.sync-lock`, String(DEAD_PID));
    writeFileSync(`${settings.storePath}.tmp-${DEAD_PID}`, "half a download"); // left by the dead process
    expect(await syncPublishedStore(settings)).toEqual({ result: "swapped", version: marker.version });
    expect(localPublishedVersion(settings.storePath)).toMatchObject({ version: marker.version, sha256: marker.sha256 });
    expect(readdirSync(dir).sort()).toEqual(["plan-store.sqlite", "plan-store.sqlite.published.json"]);

    // Nothing new: nothing downloaded.
    expect(await syncPublishedStore(settings)).toEqual({ result: "current", version: marker.version });
  });

  it("replaces a local reseed over the published file with the published version at the next poll", async () => {
    const before = localPublishedVersion(settings.storePath)!;
    const reseeded = path.join(dir, "reseeded.sqlite");
    copyFileSync(TEST_PLAN_STORE, reseeded);
    renameSync(reseeded, settings.storePath); // a local reseed: another inode, same bytes even
    expect(localPublishedVersion(settings.storePath)).toBeNull();
    expect(await syncPublishedStore(settings)).toEqual({ result: "swapped", version: before.version });
    expect(localPublishedVersion(settings.storePath)?.version).toBe(before.version);
  });

  it("makes the store's directory on a new machine (it threw ENOENT from the lock, decision 522)", async () => {
    const fresh: SyncSettings = { ...settings, storePath: path.join(dir, "new-machine", "data", "plan-store.sqlite") };
    const outcome = await syncPublishedStore(fresh);
    expect(outcome.result).toBe("swapped");
    expect(existsSync(fresh.storePath)).toBe(true);
  });

  it("refuses an object larger than its marker says without storing it, and does not fetch it again (decision 522)", async () => {
    const own: SyncSettings = {
      ...settings,
      url: "s3://plan-stores/larger/plan-store.sqlite",
      storePath: path.join(dir, "larger", "plan-store.sqlite"),
    };
    const marker = await publishPlanStore({ ...own, file: TEST_PLAN_STORE });
    // The object the marker names replaced by a larger one (a wrong upload, a marker for another file).
    const larger = Buffer.concat([readFileSync(TEST_PLAN_STORE), Buffer.alloc(4 * 1024 * 1024)]);
    await s3.client.send(new PutObjectCommand({ Bucket: "plan-stores", Key: marker.object, Body: larger }));
    const outcome = await syncPublishedStore(own);
    expect(outcome).toEqual({
      result: "refused",
      version: marker.version,
      reason: `${marker.object} is ${larger.length} bytes, the marker says ${marker.size}`,
    });
    // Nothing of it is left next to the store, and the same version is not fetched again.
    expect(existsSync(path.dirname(own.storePath)) ? readdirSync(path.dirname(own.storePath)) : []).toEqual([]);
    expect(await syncPublishedStore(own)).toEqual(outcome);
  });

  it("reads no more than 64 KB of a version marker (decision 522)", async () => {
    const own: SyncSettings = { ...settings, url: "s3://plan-stores/huge-marker/plan-store.sqlite" };
    // A store file uploaded over the marker by mistake: megabytes where a few hundred bytes belong.
    await s3.client.send(
      new PutObjectCommand({
        Bucket: "plan-stores",
        Key: "huge-marker/plan-store.sqlite.version",
        Body: Buffer.alloc(2 * 1024 * 1024, "{"),
      }),
    );
    const outcome = await syncPublishedStore(own);
    expect(outcome).toEqual({
      result: "failed",
      reason: `version marker unreadable: version marker huge-marker/plan-store.sqlite.version is ${2 * 1024 * 1024} bytes, not a marker`,
    });
  });
});
