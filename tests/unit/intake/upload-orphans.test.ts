import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { sweepOrphanUploads } from "../../../app/server/intake/upload-orphans.server";
import { startFakeS3, type FakeS3 } from "../../fakes/s3";
import { createIntakeSandbox, uploadBlankPdf, type IntakeSandbox } from "./support";
import { pdf } from "./files";

/**
 * Decision 510: `npm run uploads:orphans` finds stored upload files that no row names (a check
 * that was pending when a process stopped), by the upload key's time and id, and removes them when
 * asked, never a file a row names, never a file younger than the minimum age, and nothing when
 * most files have no row (a store swapped for another) unless forced.
 */

let sandbox: IntakeSandbox;
beforeAll(async () => {
  sandbox = await createIntakeSandbox();
});
afterAll(async () => {
  await sandbox.cleanup();
});

const DAY = 24 * 60 * 60 * 1000;
let ids = 0;
/** A key as uploadObjectKey writes it, stored `at` (epoch ms), with a fresh id. */
const keyAt = (at: number, name: string) =>
  `agent-survey-uploads/consent_form/${at}-${(++ids).toString(16).padStart(24, "0")}-${name}`;

const upload = async (name: string): Promise<string> => (await uploadBlankPdf(name)).key;

describe("the orphan sweep on the local upload directory", () => {
  const put = (key: string) => {
    const file = path.join(sandbox.uploadDir, key);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, pdf());
  };
  const stored = (key: string) => existsSync(path.join(sandbox.uploadDir, key));

  it("lists files older than the minimum age that no row names, and removes only those", async () => {
    const started = Date.now();
    const recorded = await upload("Recorded form.pdf");
    // Two days on: the recorded upload is two days old; these were left by stopped processes.
    const now = started + 2 * DAY;
    const orphan = keyAt(started - DAY, "left-behind.pdf");
    const young = keyAt(started + 1.5 * DAY, "still-on-its-way.pdf");
    // The recorded upload's id, under another name: its row does not name this file.
    const sameId = recorded.replace(/-Recorded-form\.pdf$/, "-other-name.pdf");
    const odd = "agent-survey-uploads/consent_form/notes.txt";
    for (const key of [orphan, young, sameId, odd]) put(key);

    const listed = await sweepOrphanUploads({ now });
    expect(listed.orphans.map((o) => o.key).sort()).toEqual([orphan, sameId].sort());
    expect(listed.orphans.find((o) => o.key === orphan)?.storedAt).toBe(new Date(started - DAY).toISOString());
    expect(listed).toMatchObject({ examined: 3, tooRecent: 1, unrecognised: [odd], removed: [] });
    // Listing removes nothing.
    for (const key of [recorded, orphan, young, sameId, odd]) expect(stored(key)).toBe(true);

    // 2 orphans of 3 examined is more than half: refused without --force.
    const refused = await sweepOrphanUploads({ now, remove: true });
    expect(refused.refused).toMatch(/2 of 3 files have no row/);
    expect(refused.removed).toEqual([]);
    expect(stored(orphan)).toBe(true);

    // More recorded uploads: now 2 of 5, and the sweep removes the two.
    const others = [await upload("Second form.pdf"), await upload("Third form.pdf")];
    const swept = await sweepOrphanUploads({ now, remove: true });
    expect(swept.refused).toBeUndefined();
    expect(swept.removed.sort()).toEqual([orphan, sameId].sort());
    expect(stored(orphan)).toBe(false);
    expect(stored(sameId)).toBe(false);
    for (const key of [recorded, ...others, young, odd]) expect(stored(key)).toBe(true);
    expect(sandbox.query("SELECT object_key FROM agent_uploads WHERE object_key = ?", recorded)).toHaveLength(1);
  });

  it("removes a majority of orphans only when forced", async () => {
    // A day on: the first test's file still on its way stays too recent to look at.
    const now = Date.now() + DAY;
    const many = [1, 2, 3, 4, 5, 6, 7].map((n) => keyAt(Date.now() - n * DAY, `orphan-${n}.pdf`));
    for (const key of many) put(key);
    expect((await sweepOrphanUploads({ now, remove: true })).refused).toBeDefined();
    for (const key of many) expect(stored(key)).toBe(true);
    const forced = await sweepOrphanUploads({ now, remove: true, force: true });
    expect(forced.removed.sort()).toEqual([...many].sort());
    for (const key of many) expect(stored(key)).toBe(false);
  });
});

describe("the orphan sweep on S3 (s3rver)", () => {
  let s3: FakeS3;
  beforeAll(async () => {
    s3 = await startFakeS3();
    await sandbox.configure({ UPLOAD_BUCKET: s3.bucket, UPLOAD_S3_ENDPOINT: s3.endpoint });
  });
  afterAll(async () => {
    await sandbox.configure({ UPLOAD_BUCKET: undefined, UPLOAD_S3_ENDPOINT: undefined });
    await s3.close();
  });

  it("lists the bucket's keys page by page and removes the one no row names", async () => {
    const started = Date.now();
    const recorded = [await upload("S3 form one.pdf"), await upload("S3 form two.pdf"), await upload("S3 three.pdf")];
    const orphan = keyAt(started - DAY, "s3-left-behind.pdf");
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: orphan, Body: pdf() }));
    const swept = await sweepOrphanUploads({ now: started + 2 * DAY, remove: true });
    expect(swept).toMatchObject({ examined: 4, orphans: [{ key: orphan }], removed: [orphan] });
    expect((await s3.listKeys("agent-survey-uploads/")).sort()).toEqual([...recorded].sort());
  });
});
