import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as waitlistRoute from "../../../app/routes/api.waitlist";
import { writeStore } from "../../../app/server/intake/write-store.server";
import { backgroundWorkSettled } from "../../../app/server/platform/lifecycle.server";
import { startFakeResend, type FakeResend } from "../../fakes/resend";
import { callRoute, createIntakeSandbox, HEX24, jsonRequest, OPERATIONS_EMAIL, type IntakeSandbox } from "./support";

let sandbox: IntakeSandbox;
let resend: FakeResend;

beforeAll(async () => {
  resend = await startFakeResend();
  sandbox = await createIntakeSandbox({ RESEND_BASE_URL: resend.url, RESEND_AUDIENCE_ID: "aud_waitlist" });
});
afterAll(async () => {
  await sandbox.cleanup();
  await resend.close();
});
beforeEach(async () => {
  await sandbox.settleOutbox();
  resend.reset();
});

const post = (body: unknown, headers?: Record<string, string>) =>
  callRoute(waitlistRoute, jsonRequest("/api/waitlist", body, { headers }));

describe("POST /api/waitlist", () => {
  it("commits the sign-up before answering 200 with a 24-hex id", async () => {
    const res = await post({ email: "Ana.Shopper@Example.com", zip: "10001", interest: "consumer" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { waitlist_submission_id: string };
    expect(body.waitlist_submission_id).toMatch(HEX24);
    // Read from the file through a separate connection: the row is committed.
    const rows = sandbox.query<{
      id: string;
      email: string;
      email_key: string;
      zip: string;
      interest: string;
      source: string;
    }>("SELECT * FROM waitlist_submissions WHERE id = ?", body.waitlist_submission_id);
    expect(rows).toEqual([
      expect.objectContaining({
        email: "Ana.Shopper@Example.com",
        email_key: "ana.shopper@example.com",
        zip: "10001",
        interest: "consumer",
        source: "api",
      }),
    ]);
    // The emails it causes were written in the same transaction.
    const outbox = sandbox.query<{ template: string; recipient: string }>(
      "SELECT template, recipient FROM email_outbox WHERE subject_id = ? ORDER BY template",
      body.waitlist_submission_id,
    );
    expect(outbox.map((o) => o.template).sort()).toEqual([
      "audience_add",
      "waitlist_consumer_confirmation",
      "waitlist_operations_notification",
    ]);
  });

  it("sends the consumer confirmation and the operations notification after answering, and adds the address to the audience", async () => {
    await post({ email: "consumer-mail@example.com", zip: "73301", interest: "consumer" });
    const emails = await resend.waitForEmails(2);
    const confirmation = emails.find((e) => e.to.includes("consumer-mail@example.com"))!;
    const operations = emails.find((e) => e.to.includes(OPERATIONS_EMAIL))!;
    expect(confirmation.subject).toBe("You're on the list: health plan updates");
    expect(confirmation.text).toContain("shoppers in ZIP code 73301");
    expect(operations.subject).toBe("New waitlist sign-up (consumer)");
    expect(operations.text).toContain("Email: consumer-mail@example.com");
    expect(operations.reply_to).toBe("consumer-mail@example.com");
    await expect.poll(() => resend.contacts.length).toBe(1);
    expect(resend.contacts[0]).toEqual({
      method: "POST",
      audienceId: "aud_waitlist",
      email: "consumer-mail@example.com",
      unsubscribed: false,
    });
  });

  it.each(["agent", "agent_independent", "agent_agency"])(
    "uses the agent wording for interest %s",
    async (interest) => {
      await post({ email: `${interest}@agency.example`, zip: "33101", interest });
      const emails = await resend.waitForEmails(2);
      const confirmation = emails.find((e) => e.to.includes(`${interest}@agency.example`))!;
      expect(confirmation.subject).toBe("You're on the agent list: Health Plan Marketplace");
      expect(confirmation.text).toContain("agent discovery form");
      expect(emails.find((e) => e.to.includes(OPERATIONS_EMAIL))!.subject).toBe(`New waitlist sign-up (${interest})`);
    },
  );

  it("has sent every queued email once background work has settled (what the no-duplicate check below waits on)", async () => {
    await post({ email: "settled-mail@example.com", zip: "73301", interest: "consumer" });
    await backgroundWorkSettled();
    expect(resend.emails.filter((e) => e.to.includes("settled-mail@example.com"))).toHaveLength(1);
    expect(sandbox.query("SELECT id FROM email_outbox WHERE status IN ('pending', 'sending')")).toEqual([]);
  });

  it("returns the existing id for the same address (any case) and interest, without a duplicate row or new emails", async () => {
    const first = (await (await post({ email: "repeat@example.com", zip: "10001", interest: "consumer" })).json()) as {
      waitlist_submission_id: string;
    };
    await resend.waitForEmails(2);
    const queued = sandbox.query("SELECT id FROM email_outbox").length;
    const again = await post({ email: "  REPEAT@example.com ", zip: "10002", interest: "consumer" });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { waitlist_submission_id: string }).waitlist_submission_id).toBe(
      first.waitlist_submission_id,
    );
    expect(sandbox.query("SELECT id FROM waitlist_submissions WHERE email_key = 'repeat@example.com'")).toHaveLength(1);
    // Nothing new queued, and once the outbox has settled nothing more was sent.
    expect(sandbox.query("SELECT id FROM email_outbox")).toHaveLength(queued);
    await backgroundWorkSettled();
    expect(resend.emails).toHaveLength(2);
    // A different interest is a different sign-up.
    const agent = (await (await post({ email: "repeat@example.com", zip: "10001", interest: "agent" })).json()) as {
      waitlist_submission_id: string;
    };
    expect(agent.waitlist_submission_id).not.toBe(first.waitlist_submission_id);
  });

  it.each([
    [{ email: "not-an-email", zip: "10001", interest: "consumer" }, "email"],
    [{ email: "", zip: "10001", interest: "consumer" }, "email"],
    [{ zip: "10001", interest: "consumer" }, "email"],
    [{ email: "a@example.com", zip: "1001", interest: "consumer" }, "zip"],
    [{ email: "a@example.com", zip: "1000A", interest: "consumer" }, "zip"],
    [{ email: "a@example.com", zip: 10001, interest: "consumer" }, "zip"],
    [{ email: "a@example.com", zip: "10001", interest: "investor" }, "interest"],
    [{ email: "a@example.com", zip: "10001" }, "interest"],
  ])("answers 400 naming the bad field for %j", async (body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    const error = ((await res.json()) as { error: { code: string; fields: Record<string, string> } }).error;
    expect(error.code).toBe("validation_failed");
    expect(Object.keys(error.fields)).toContain(field);
    expect(sandbox.query("SELECT COUNT(*) AS n FROM waitlist_submissions WHERE email_key = 'a@example.com'")).toEqual([
      { n: 0 },
    ]);
  });

  it("answers 415 for a non-JSON body, 400 for malformed JSON and 405 for GET", async () => {
    const form = await callRoute(
      waitlistRoute,
      new Request("http://localhost/api/waitlist", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "email=x",
      }),
    );
    expect(form.status).toBe(415);
    const malformed = await post("{not json");
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe("malformed_json");
    const get = await callRoute(waitlistRoute, new Request("http://localhost/api/waitlist"));
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("with SES as the provider, skips the audience list (the sync is a Resend-only feature)", async () => {
    await sandbox.configure({ EMAIL_PROVIDER: "ses", SES_ENDPOINT: "http://127.0.0.1:9" });
    try {
      const res = await post({ email: "ses-user@example.com", zip: "10001", interest: "consumer" });
      const { waitlist_submission_id: id } = (await res.json()) as { waitlist_submission_id: string };
      const templates = sandbox
        .query<{ template: string }>("SELECT template FROM email_outbox WHERE subject_id = ?", id)
        .map((r) => r.template);
      expect(templates.sort()).toEqual(["waitlist_consumer_confirmation", "waitlist_operations_notification"]);
    } finally {
      // Let the sends to the (unreachable) SES endpoint finish and be recorded as retries.
      await sandbox.settleOutbox();
      await sandbox.configure({ EMAIL_PROVIDER: "resend", SES_ENDPOINT: undefined });
    }
  });
});

describe("write store unavailable", () => {
  it("answers 500 naming DATABASE_URL when it is set but empty, and stores nothing", async () => {
    await sandbox.configure({ DATABASE_URL: "" });
    try {
      const res = await post({ email: "lost@example.com", zip: "10001", interest: "consumer" });
      expect(res.status).toBe(500);
      const error = ((await res.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe("write_store_unavailable");
      expect(error.message).toContain("DATABASE_URL");
    } finally {
      await sandbox.configure({ DATABASE_URL: `file:${sandbox.dbFile}` });
    }
    expect(
      sandbox.query("SELECT COUNT(*) AS n FROM waitlist_submissions WHERE email_key = 'lost@example.com'"),
    ).toEqual([{ n: 0 }]);
  });

  it("answers 500 naming DATABASE_URL when the file cannot be opened", async () => {
    // A directory where the database file should be cannot be opened as SQLite.
    await sandbox.configure({ DATABASE_URL: `file:${sandbox.dir}` });
    try {
      const res = await post({ email: "lost@example.com", zip: "10001", interest: "consumer" });
      expect(res.status).toBe(500);
      const error = ((await res.json()) as { error: { code: string; message: string } }).error;
      expect(error).toEqual({ code: "write_store_unavailable", message: expect.stringContaining("DATABASE_URL") });
    } finally {
      await sandbox.configure({ DATABASE_URL: `file:${sandbox.dbFile}` });
    }
    // And the store works again once the setting is fixed.
    expect(writeStore().file).toBe(sandbox.dbFile);
  });
});
