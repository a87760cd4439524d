import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as waitlistRoute from "../../../app/routes/api.waitlist";
import { processSingleton, forgetSingleton } from "../../../app/server/platform/lifecycle.server";
import { enqueueOutbox, OutboxDispatcher, retryDelayMs } from "../../../app/server/intake/outbox.server";
import { waitlistConsumerConfirmation } from "../../../app/server/intake/email-templates.server";
import { unsubscribe } from "../../../app/server/intake/unsubscribe.server";
import { unsubscribeToken } from "../../../app/server/intake/unsubscribe-token.server";
import { writeStore } from "../../../app/server/intake/write-store.server";
import { startFakeResend, type FakeResend } from "../../fakes/resend";
import {
  callRoute,
  createIntakeSandbox,
  jsonRequest,
  OPERATIONS_EMAIL,
  TEST_UNSUBSCRIBE_SECRET,
  type IntakeSandbox,
} from "./support";

/**
 * The outbox under a controlled clock: the process-wide dispatcher is
 * replaced by one whose time the test moves, so backoff is checked exactly.
 */

let sandbox: IntakeSandbox;
let resend: FakeResend;
let now = Date.now();
let dispatcher: OutboxDispatcher;

function installDispatcher(options: Partial<ConstructorParameters<typeof OutboxDispatcher>[1]> = {}) {
  forgetSingleton("outbox-dispatcher");
  // The routes stamp rows with the real time; the test clock starts a minute ahead so they are due.
  now = Date.now() + 60_000;
  dispatcher = new OutboxDispatcher(() => writeStore(), {
    now: () => now,
    random: () => 0.5,
    retryBaseMs: 1_000,
    retryMaxMs: 8_000,
    ...options,
  });
  // Routes kick "the" dispatcher; make it this one (not started: no timer).
  processSingleton("outbox-dispatcher", () => dispatcher);
}

async function round() {
  dispatcher.kick();
  await new Promise((resolve) => setTimeout(resolve, 5));
  await dispatcher.idle();
}

const join = async (email: string, interest = "consumer") => {
  const res = await callRoute(waitlistRoute, jsonRequest("/api/waitlist", { email, zip: "10001", interest }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { waitlist_submission_id: string }).waitlist_submission_id;
};

const statuses = (id: string) =>
  sandbox.query<{ template: string; status: string; attempts: number; next_attempt_at: number }>(
    "SELECT template, status, attempts, next_attempt_at FROM email_outbox WHERE subject_id = ? AND kind = 'email' ORDER BY template",
    id,
  );

beforeAll(async () => {
  resend = await startFakeResend();
  sandbox = await createIntakeSandbox({ RESEND_BASE_URL: resend.url });
});
afterAll(async () => {
  await sandbox.cleanup();
  await resend.close();
});
beforeEach(async () => {
  await sandbox.configure({});
  resend.reset();
  installDispatcher();
});

describe("a provider outage loses no email", () => {
  it("retries with exponential backoff and delivers everything once the provider is back", async () => {
    resend.setOutage(true);
    const ids = [
      await join("one@example.com"),
      await join("two@example.com"),
      await join("three@example.com", "agent"),
    ];
    await round();
    for (const id of ids) {
      // First failure: retry after base * 2^0 = 1,000 ms (random 0.5 -> jitter factor 0.8 + 0.4 * 0.5 = 1.0).
      expect(statuses(id)).toEqual([
        expect.objectContaining({ status: "retry", attempts: 1, next_attempt_at: now + 1_000 }),
        expect.objectContaining({ status: "retry", attempts: 1, next_attempt_at: now + 1_000 }),
      ]);
    }
    // Not due yet: nothing is attempted.
    now += 999;
    await round();
    expect(statuses(ids[0]!)[0]!.attempts).toBe(1);
    // Due: second failure, next delay 1,000 * 2^1 = 2,000 ms.
    now += 1;
    await round();
    expect(statuses(ids[0]!)[0]).toMatchObject({ status: "retry", attempts: 2, next_attempt_at: now + 2_000 });

    resend.setOutage(false);
    now += 2_000;
    await round();
    for (const id of ids) expect(statuses(id).map((s) => s.status)).toEqual(["sent", "sent"]);
    const recipients = resend.emails.flatMap((e) => e.to).sort();
    expect(recipients).toEqual(
      [
        OPERATIONS_EMAIL,
        OPERATIONS_EMAIL,
        OPERATIONS_EMAIL,
        "one@example.com",
        "three@example.com",
        "two@example.com",
      ].sort(),
    );
    // Every row is marked with the provider's message id.
    expect(
      sandbox.query(
        "SELECT COUNT(*) AS n FROM email_outbox WHERE kind = 'email' AND (message_id IS NULL OR provider <> 'resend')",
      ),
    ).toEqual([{ n: 0 }]);
  });

  it("gives up (status dead, logged) only after the last attempt", async () => {
    installDispatcher({ maxAttempts: 3 });
    resend.failNext(100, 500);
    const id = await join("dead@example.com");
    await round(); // attempt 1 -> retry in 1 s
    now += 1_000;
    await round(); // attempt 2 -> retry in 2 s
    now += 2_000;
    await round(); // attempt 3 = max -> dead
    expect(statuses(id).map((s) => [s.status, s.attempts])).toEqual([
      ["dead", 3],
      ["dead", 3],
    ]);
    now += 60_000;
    await round();
    expect(statuses(id).map((s) => s.attempts)).toEqual([3, 3]);
  });

  it("caps the delay and spreads retries with jitter", () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => retryDelayMs(a, 30_000, 3_600_000, () => 0.5))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000,
    ]);
    expect(retryDelayMs(12, 30_000, 3_600_000, () => 0.5)).toBe(3_600_000);
    expect(retryDelayMs(1, 30_000, 3_600_000, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, 30_000, 3_600_000, () => 1)).toBe(36_000);
  });

  it("resends rows left behind by a process that died: pending ones at once, in-flight ones when their lease runs out", async () => {
    const store = writeStore();
    const { message } = waitlistConsumerConfirmation("orphan@example.com", { zip: "10001" });
    const [pendingId] = enqueueOutbox(
      store.db,
      [{ kind: "email", template: "waitlist_consumer_confirmation", message }],
      now,
    );
    const [inFlightId] = enqueueOutbox(
      store.db,
      [{ kind: "email", template: "waitlist_consumer_confirmation", message: { ...message, subject: "in flight" } }],
      now,
    );
    // A dead process had claimed the second row and even delivered it before dying.
    store.sqlite
      .prepare("UPDATE email_outbox SET status = 'sending', attempts = 1, lease_until = ? WHERE id = ?")
      .run(now + 60_000, inFlightId);
    const delivered = await (
      await import("../../../app/server/intake/email.server")
    ).sendEmail({ ...message, subject: "in flight", idempotencyKey: inFlightId });
    expect(delivered.ok).toBe(true);

    await round();
    const status = (id: string) =>
      sandbox.query<{ status: string }>("SELECT status FROM email_outbox WHERE id = ?", id)[0]!.status;
    expect(status(pendingId!)).toBe("sent");
    expect(status(inFlightId!)).toBe("sending");
    now += 60_001;
    await round();
    expect(status(inFlightId!)).toBe("sent");
    // The takeover re-sent with the same idempotency key: Resend delivered it once.
    expect(resend.emails.filter((e) => e.subject === "in flight")).toHaveLength(1);
  });
});

describe("permanent refusals and unsubscribed recipients", () => {
  it("a sandbox rejection leaves the route at 200, is recorded as rejected and is not retried", async () => {
    resend.setSandbox([OPERATIONS_EMAIL]);
    const id = await join("unverified@example.com");
    await round();
    const rows = statuses(id);
    expect(rows.find((r) => r.template === "waitlist_consumer_confirmation")).toMatchObject({
      status: "rejected",
      attempts: 1,
    });
    expect(rows.find((r) => r.template === "waitlist_operations_notification")).toMatchObject({ status: "sent" });
    const [rejected] = sandbox.query<{ last_error: string }>(
      "SELECT last_error FROM email_outbox WHERE subject_id = ? AND status = 'rejected'",
      id,
    );
    expect(rejected!.last_error).toContain("You can only send testing emails");
    now += 3_600_000;
    await round();
    expect(statuses(id).find((r) => r.template === "waitlist_consumer_confirmation")!.attempts).toBe(1);
  });

  it("sends nothing more to an unsubscribed address (the operations copy still goes out)", async () => {
    await unsubscribe("gone@example.com", unsubscribeToken("gone@example.com", TEST_UNSUBSCRIBE_SECRET), "page", now);
    await round();
    const id = await join("Gone@Example.com");
    await round();
    expect(statuses(id).map((r) => [r.template, r.status])).toEqual([
      ["waitlist_consumer_confirmation", "suppressed"],
      ["waitlist_operations_notification", "sent"],
    ]);
    expect(resend.emails.flatMap((e) => e.to)).not.toContain("Gone@Example.com");
    // Nor is the address added to the audience list.
    expect(
      sandbox.query<{ status: string }>(
        "SELECT status FROM email_outbox WHERE subject_id = ? AND kind = 'audience_add'",
        id,
      ),
    ).toEqual([{ status: "suppressed" }]);
  });

  it("suppresses emails still waiting when the address unsubscribes", async () => {
    resend.setOutage(true);
    const id = await join("later@example.com");
    await round();
    expect(statuses(id).map((r) => r.status)).toEqual(["retry", "retry"]);
    await unsubscribe(
      "later@example.com",
      unsubscribeToken("later@example.com", TEST_UNSUBSCRIBE_SECRET),
      "one_click",
      now,
    );
    resend.setOutage(false);
    now += 10_000;
    await round();
    expect(statuses(id).map((r) => [r.template, r.status])).toEqual([
      ["waitlist_consumer_confirmation", "suppressed"],
      ["waitlist_operations_notification", "sent"],
    ]);
  });
});
