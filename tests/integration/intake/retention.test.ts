import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as discoveryRoute from "../../../app/routes/api.agents.discovery";
import * as waitlistRoute from "../../../app/routes/api.waitlist";
import { purgeExpiredRecords, PURGE_BATCH } from "../../../app/server/intake/retention.server";
import { writeStore } from "../../../app/server/intake/write-store.server";
import {
  callRoute,
  createIntakeSandbox,
  jsonRequest,
  uploadBlankPdf,
  type IntakeSandbox,
} from "../../unit/intake/support";
import { WRITE_STORE_DIALECTS, writeStoreTarget, type WriteStoreTarget } from "../../helpers/write-store-target";

/**
 * Decision 523: what the privacy page says is kept N days is deleted after N days. Defaults
 * (decision 353): waitlist and discovery 730 days, uploads 365, outbox 90. Records are made through
 * the routes, then aged by setting created_at, as the days would; on both engines, since the
 * purge's statements are written once for both.
 */

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.now();

describe.each(WRITE_STORE_DIALECTS)("purgeExpiredRecords on the %s write store", (dialect) => {
  let sandbox: IntakeSandbox;
  let target: WriteStoreTarget;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "retention-"));
    target = await writeStoreTarget(dialect, dir);
    sandbox = await createIntakeSandbox({ DATABASE_URL: target.databaseUrl });
  }, 60_000);
  afterAll(async () => {
    await sandbox.cleanup();
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A write on the store the service uses (SQLite: its own connection; PostgreSQL: another). */
  const exec = async (sql: string, ...params: unknown[]) => {
    if (dialect === "sqlite")
      writeStore()
        .sqlite.prepare(sql)
        .run(...params);
    else await target.query(sql, ...params);
  };
  const ids = async (table: string) =>
    (await target.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id`)).map((r) => r.id);
  /** Wait until every email has had its first try (the fake provider address refuses them all). */
  const settleOutbox = async () => {
    for (let i = 0; i < 250; i++) {
      const [row] = await target.query<{ n: number }>(
        "SELECT CAST(COUNT(*) AS INTEGER) AS n FROM email_outbox WHERE status IN ('pending', 'sending')",
      );
      if (row!.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const signUp = async (email: string) => {
    const res = await callRoute(
      waitlistRoute,
      jsonRequest("/api/waitlist", { email, zip: "99501", interest: "consumer" }),
    );
    expect(res.status).toBe(200);
    return ((await res.json()) as { waitlist_submission_id: string }).waitlist_submission_id;
  };
  const discovery = async (email: string, key?: string) => {
    const res = await callRoute(
      discoveryRoute,
      jsonRequest(
        "/api/agents/discovery",
        {
          name: "Tamsin Orrell",
          email,
          phone: "907-555-0143",
          npn: "4412093",
          licensed_states: ["AK"],
          consent: true,
          consent_version: "2025-11-01",
        },
        { headers: key ? { "idempotency-key": key } : {} },
      ),
    );
    expect(res.status).toBe(200);
    return ((await res.json()) as { discovery_submission_id: string }).discovery_submission_id;
  };
  const upload = async (name: string) => {
    const { uploadId, key } = await uploadBlankPdf(name, "intake_form");
    return { id: uploadId, key };
  };
  /** Set a row's created_at to `days` before NOW. */
  const age = (table: string, id: string, days: number) =>
    exec(`UPDATE ${table} SET created_at = ? WHERE id = ?`, NOW - days * DAY, id);

  it("deletes each kind of record once it is past its period, and nothing else", async () => {
    const oldSignUp = await signUp("old.signup@example.com");
    const edgeSignUp = await signUp("edge.signup@example.com");
    const newSignUp = await signUp("new.signup@example.com");
    await age("waitlist_submissions", oldSignUp, 731); // past 730 days
    await age("waitlist_submissions", edgeSignUp, 729); // one day to go

    const oldForm = await discovery("old.agent@example.com", "key-old-form-0001");
    const newForm = await discovery("new.agent@example.com", "key-new-form-0002");
    await age("agent_discovery_submissions", oldForm, 800);
    await exec("UPDATE idempotent_requests SET created_at = ? WHERE subject_id = ?", NOW - 800 * DAY, oldForm);

    const oldUpload = await upload("Old intake.pdf");
    const newUpload = await upload("New intake.pdf");
    await age("agent_uploads", oldUpload.id, 366); // past 365 days
    await age("agent_uploads", newUpload.id, 300);
    const file = (key: string) => path.join(sandbox.uploadDir, key);
    expect(existsSync(file(oldUpload.key)) && existsSync(file(newUpload.key))).toBe(true);

    // The outbox: every email is done except one still to be retried; all of them 100 days old but one.
    await settleOutbox();
    await exec("UPDATE email_outbox SET status = 'sent', created_at = ?", NOW - 100 * DAY);
    const [retrying, recent] = await target.query<{ id: string }>("SELECT id FROM email_outbox ORDER BY id LIMIT 2");
    await exec("UPDATE email_outbox SET status = 'retry' WHERE id = ?", retrying!.id);
    await exec("UPDATE email_outbox SET created_at = ? WHERE id = ?", NOW - 10 * DAY, recent!.id);
    const outboxBefore = (await ids("email_outbox")).length;
    // An address that asked for no more email 3 years ago stays asked.
    await exec(
      "INSERT INTO unsubscribes (email_key, method, unsubscribed_at) VALUES (?, 'page', ?)",
      "gone.long.ago@example.com",
      NOW - 1100 * DAY,
    );

    const totals = await purgeExpiredRecords(NOW);

    expect(totals).toEqual({
      waitlist: 1,
      discovery: 1,
      uploads: 1,
      uploadFilesKept: 0,
      outbox: outboxBefore - 2,
      idempotent: 1,
    });
    expect(await ids("waitlist_submissions")).toEqual([edgeSignUp, newSignUp].sort());
    expect(await ids("agent_discovery_submissions")).toEqual([newForm]);
    expect(await ids("agent_uploads")).toEqual([newUpload.id]);
    expect(existsSync(file(oldUpload.key))).toBe(false);
    expect(existsSync(file(newUpload.key))).toBe(true);
    expect((await ids("email_outbox")).sort()).toEqual([retrying!.id, recent!.id].sort());
    expect(await target.query("SELECT subject_id AS id FROM idempotent_requests")).toEqual([{ id: newForm }]);
    expect(await target.query("SELECT email_key AS k FROM unsubscribes")).toEqual([{ k: "gone.long.ago@example.com" }]);

    // Nothing more is past its period: a second sweep deletes nothing.
    expect(await purgeExpiredRecords(NOW)).toEqual({
      waitlist: 0,
      discovery: 0,
      uploads: 0,
      uploadFilesKept: 0,
      outbox: 0,
      idempotent: 0,
    });
  });

  it("works through more than one batch", async () => {
    const many = PURGE_BATCH * 2 + 7;
    const values = Array.from(
      { length: many },
      (_, i) =>
        `('${i.toString(16).padStart(24, "0")}', 'bulk.${i}@example.com', 'bulk.${i}@example.com', '99501', 'consumer', 'api', ${NOW - 1000 * DAY})`,
    );
    await exec(
      `INSERT INTO waitlist_submissions (id, email, email_key, zip, interest, source, created_at) VALUES ${values.join(", ")}`,
    );
    const totals = await purgeExpiredRecords(NOW);
    expect(totals.waitlist).toBe(many);
    expect(
      await target.query("SELECT CAST(COUNT(*) AS INTEGER) AS n FROM waitlist_submissions WHERE email LIKE 'bulk.%'"),
    ).toEqual([{ n: 0 }]);
  });
});
