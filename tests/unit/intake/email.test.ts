import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rewriteFromDomain, sendEmail } from "../../../app/server/intake/email.server";
import {
  discoveryAgentConfirmation,
  discoveryOperationsNotification,
  EMAIL_TEMPLATES,
  planSummaryEmail,
  waitlistAgentConfirmation,
  waitlistConsumerConfirmation,
  waitlistOperationsNotification,
  type RenderedEmail,
} from "../../../app/server/intake/email-templates.server";
import { unsubscribeToken } from "../../../app/server/intake/unsubscribe-token.server";
import { startFakeResend, type FakeResend } from "../../fakes/resend";
import { startFakeSes, type FakeSes } from "../../fakes/ses";
import { createIntakeSandbox, OPERATIONS_EMAIL, TEST_UNSUBSCRIBE_SECRET, type IntakeSandbox } from "./support";

let sandbox: IntakeSandbox;
let resend: FakeResend;
let ses: FakeSes;

beforeAll(async () => {
  resend = await startFakeResend();
  ses = await startFakeSes();
  sandbox = await createIntakeSandbox({ RESEND_BASE_URL: resend.url, SES_ENDPOINT: ses.url });
});
afterAll(async () => {
  await sandbox.cleanup();
  await resend.close();
  await ses.close();
});
beforeEach(async () => {
  resend.reset();
  await ses.reset();
  await sandbox.configure({
    EMAIL_PROVIDER: "resend",
    EMAIL_FROM_DOMAIN: undefined,
    UNSUBSCRIBE_TOKEN_SECRET: TEST_UNSUBSCRIBE_SECRET,
  });
});

/** One message of every kind the service sends. */
function everyKind(): RenderedEmail[] {
  const at = Date.UTC(2025, 10, 3, 15, 0, 0);
  return [
    waitlistConsumerConfirmation("shopper@example.com", { zip: "10001" }),
    waitlistAgentConfirmation("agent@example.com", { zip: "10001", interest: "agent" }),
    waitlistOperationsNotification(OPERATIONS_EMAIL, {
      id: "a".repeat(24),
      email: "shopper@example.com",
      zip: "10001",
      interest: "consumer",
      source: "api",
      createdAt: at,
    }),
    discoveryAgentConfirmation("agent@example.com", { name: "Pat Agent" }),
    discoveryOperationsNotification(OPERATIONS_EMAIL, {
      id: "b".repeat(24),
      name: "Pat Agent",
      email: "agent@example.com",
      phone: "2125550100",
      npn: "1234567",
      licensedStates: ["NJ", "NY"],
      agency: null,
      currentTools: ["HealthSherpa"],
      needs: "Faster renewals",
      consentVersion: "2025-11-01",
      createdAt: at,
    }),
    planSummaryEmail("shopper@example.com", { subject: "Your plan summary", lines: ["Plan ID: 10303TX0030001"] }),
  ];
}

describe("rewriteFromDomain", () => {
  it.each([
    ["hello@marketplace.example", "mail.example.org", "hello@mail.example.org"],
    [
      "Health Plan Marketplace <hello@marketplace.example>",
      "mail.example.org",
      "Health Plan Marketplace <hello@mail.example.org>",
    ],
    ['"Plans, Inc." <team@old.example>', "@new.example", '"Plans, Inc." <team@new.example>'],
    ["hello@marketplace.example", undefined, "hello@marketplace.example"],
    ["Team <hello@marketplace.example>", "", "Team <hello@marketplace.example>"],
  ])("%s with domain %s -> %s", (from, domain, expected) => {
    expect(rewriteFromDomain(from, domain)).toBe(expected);
  });
});

describe("sendEmail with Resend (the default provider)", () => {
  it("delivers every kind with its unsubscribe link and RFC 8058 headers, and answers {ok, messageId, provider}", async () => {
    const kinds = everyKind();
    expect(kinds.map((k) => k.template)).toEqual([...EMAIL_TEMPLATES]);
    for (const { message } of kinds) {
      const result = await sendEmail(message);
      expect(result).toEqual({ ok: true, messageId: expect.any(String), provider: "resend" });
    }
    expect(resend.emails).toHaveLength(6);
    for (const email of resend.emails) {
      const to = email.to[0]!;
      const query = new URLSearchParams({ email: to, token: unsubscribeToken(to, TEST_UNSUBSCRIBE_SECRET) }).toString();
      expect(email.headers["List-Unsubscribe"]).toBe(`<https://marketplace.test/api/unsubscribe?${query}>`);
      expect(email.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      expect(email.text).toContain(`https://marketplace.test/unsubscribe?${query}`);
      expect(email.html).toContain(`href="https://marketplace.test/unsubscribe?${query.replace(/&/g, "&amp;")}"`);
      expect(email.from).toBe("Health Plan Marketplace <hello@marketplace.example>");
    }
  });

  it("rewrites the From domain when EMAIL_FROM_DOMAIN is set, in the display-name and the bare form", async () => {
    await sandbox.configure({ EMAIL_FROM_DOMAIN: "send.marketplace.org" });
    const [consumer] = everyKind();
    await sendEmail(consumer!.message);
    await sendEmail({ ...consumer!.message, from: "alerts@marketplace.example" });
    expect(resend.emails.map((e) => e.from)).toEqual([
      "Health Plan Marketplace <hello@send.marketplace.org>",
      "alerts@send.marketplace.org",
    ]);
  });

  it("sends no unsubscribe headers or link when no secret is configured", async () => {
    await sandbox.configure({ UNSUBSCRIBE_TOKEN_SECRET: undefined });
    const { message } = waitlistConsumerConfirmation("shopper@example.com", { zip: "10001" });
    expect(message.headers).toEqual({});
    expect(message.text).not.toContain("/unsubscribe");
  });

  it("reports a sandbox rejection as a permanent failure, without throwing", async () => {
    resend.setSandbox(["owner@marketplace.example"]);
    const result = await sendEmail(waitlistConsumerConfirmation("stranger@example.com", { zip: "10001" }).message);
    expect(result).toEqual({
      ok: false,
      provider: "resend",
      retryable: false,
      error: expect.stringContaining("validation_error (403)"),
    });
    const allowed = await sendEmail(
      waitlistConsumerConfirmation("owner@marketplace.example", { zip: "10001" }).message,
    );
    expect(allowed.ok).toBe(true);
  });

  it("reports an outage (5xx, dropped connection, nothing listening) as retryable, without throwing", async () => {
    const { message } = waitlistConsumerConfirmation("shopper@example.com", { zip: "10001" });
    resend.failNext(1, 503);
    expect(await sendEmail(message)).toMatchObject({ ok: false, provider: "resend", retryable: true });
    resend.setOutage(true);
    expect(await sendEmail(message)).toMatchObject({ ok: false, provider: "resend", retryable: true });
    resend.setOutage(false);
    await sandbox.configure({ RESEND_BASE_URL: "http://127.0.0.1:9" });
    expect(await sendEmail(message)).toMatchObject({ ok: false, provider: "resend", retryable: true });
    await sandbox.configure({ RESEND_BASE_URL: resend.url, RESEND_API_KEY: undefined });
    expect(await sendEmail(message)).toEqual({
      ok: false,
      provider: "resend",
      retryable: true,
      error: "RESEND_API_KEY is not set",
    });
    await sandbox.configure({ RESEND_API_KEY: "re_test_key" });
  });

  it("sends the Idempotency-Key so a retried send is delivered once", async () => {
    const { message } = waitlistConsumerConfirmation("shopper@example.com", { zip: "10001" });
    const first = await sendEmail({ ...message, idempotencyKey: "outbox-row-1" });
    const second = await sendEmail({ ...message, idempotencyKey: "outbox-row-1" });
    expect(second.messageId).toBe(first.messageId);
    expect(resend.emails).toHaveLength(1);
    expect(resend.emails[0]!.idempotencyKey).toBe("outbox-row-1");
  });
});

describe("sendEmail with SES", () => {
  beforeEach(async () => {
    await sandbox.configure({ EMAIL_PROVIDER: "ses" });
  });

  it("delivers every kind with the unsubscribe headers and answers provider ses", async () => {
    for (const { message } of everyKind()) {
      expect(await sendEmail(message)).toEqual({ ok: true, messageId: expect.any(String), provider: "ses" });
    }
    const emails = await ses.waitForEmails(5);
    expect(emails.map((e) => e.subject)).toEqual(everyKind().map((k) => k.message.subject));
    for (const email of emails) {
      const to = email.destination.to[0]!;
      const headers = Object.fromEntries((email.headers ?? []).map((h) => [h.name, h.value]));
      expect(headers["List-Unsubscribe"]).toContain(`token=${unsubscribeToken(to, TEST_UNSUBSCRIBE_SECRET)}`);
      expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      expect(email.body.text).toContain("https://marketplace.test/unsubscribe?");
    }
    expect(resend.emails).toHaveLength(0);
  });

  it("rewrites the From domain in both forms", async () => {
    await sandbox.configure({ EMAIL_FROM_DOMAIN: "ses.marketplace.org" });
    const { message } = waitlistConsumerConfirmation("shopper@example.com", { zip: "10001" });
    await sendEmail(message);
    await sendEmail({ ...message, from: "bare@marketplace.example" });
    const emails = await ses.waitForEmails(2);
    expect(emails.map((e) => e.from)).toEqual([
      "Health Plan Marketplace <hello@ses.marketplace.org>",
      "bare@ses.marketplace.org",
    ]);
  });

  it("reports the SES sandbox rejection (MessageRejected) as permanent and an outage as retryable", async () => {
    ses.setSandbox(["verified@example.com"]);
    const rejected = await sendEmail(waitlistConsumerConfirmation("unverified@example.com", { zip: "10001" }).message);
    expect(rejected).toMatchObject({
      ok: false,
      provider: "ses",
      retryable: false,
      error: expect.stringContaining("MessageRejected"),
    });
    ses.setSandbox(null);
    ses.failNext(1);
    const outage = await sendEmail(waitlistConsumerConfirmation("someone@example.com", { zip: "10001" }).message);
    expect(outage).toMatchObject({ ok: false, provider: "ses", retryable: true });
  });
});
