import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Issue 28 item 5 over HTTP, as a browser without JavaScript: the plan's one-page summary to take
 * to the marketplace (plan ID, year, household, premium before and after the credit, the credit,
 * the drugs checked), the credit warning beside the insurer link, and the summary emailed with
 * consent through the outbox (one pending row, nothing else kept); bad input a 400 naming the field.
 */

const SEARCH =
  "zip=75201&county=48113&state=TX&income=36000&age=35&tobacco=no&pregnant=no&rel=self&drug=617318:Lipitor%2020%20mg";
const dbFile = path.join(mkdtempSync(path.join(os.tmpdir(), "plan-summary-")), "app.db");
let server: RunningServer;
let planId: string;

beforeAll(async () => {
  server = await startServer({ env: { DATABASE_URL: `file:${dbFile}` } });
  const list = await (await fetch(`${server.url}/plans?${SEARCH}`)).text();
  planId = /data-plan-id="([^"]+)"/.exec(list)![1];
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const text = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<!--.*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

async function post(body: string) {
  const res = await fetch(`${server.url}/plans/${planId}/summary?${SEARCH}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body,
  });
  return { status: res.status, body: await res.text() };
}

describe("the plan's take-away summary", () => {
  it("the plan page links it beside HealthCare.gov, and warns beside the insurer link", async () => {
    const html = await (await fetch(`${server.url}/plans/${planId}?${SEARCH}`)).text();
    expect(html).toContain(`href="/plans/${planId}/summary?`);
    expect(text(html)).toContain("Take this plan to HealthCare.gov");
  });

  it("shows the plan ID, year, household, both premiums, the credit and the drug checked", async () => {
    const res = await fetch(`${server.url}/plans/${planId}/summary?${SEARCH}`);
    expect(res.status).toBe(200);
    const words = text(await res.text());
    // The API's own prices for this household and plan: the summary shows the same figures.
    const api = (await (
      await fetch(`${server.url}/api/plans`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          income: 36000,
          household: { people: [{ age: 35 }] },
          place: { state: "TX", county_fips: "48113", zip: "75201" },
          limit: 100,
        }),
      })
    ).json()) as {
      year: number;
      plans: Array<{ id: string; premium: number; premium_w_credit: number; credit_applied: number }>;
    };
    const plan = api.plans.find((p) => p.id === planId)!;
    const usd = (n: number) => `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    // After the credit = before − credit, to the cent (decision 10: max(0, premium − aptc)).
    expect(Math.round((plan.premium - plan.credit_applied) * 100)).toBe(Math.round(plan.premium_w_credit * 100));
    expect(words).toContain(`Plan ID (look for it when you choose a plan) ${planId}`);
    expect(words).toContain(`Plan year ${api.year}`);
    expect(words).toContain("1 person (you 35) · $36,000.00 a year · Dallas County, TX 75201");
    expect(words).toContain(`Monthly premium before the tax credit ${usd(plan.premium)}`);
    expect(words).toContain(`Estimated tax credit a month ${usd(plan.credit_applied)}`);
    expect(words).toContain(`Monthly premium after the credit ${usd(plan.premium_w_credit)}`);
    expect(words).toMatch(/Drug: Lipitor 20 mg (Covered|Not covered|Unknown)/);
  });

  it("emails it only with an address and consent: 400 naming the field otherwise, one outbox row when sent", async () => {
    const bad = await post("email=not-an-address&consent=yes");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/id="summary-email-error"[^>]*>Enter an email address/);
    const noConsent = await post("email=shopper%40example.com");
    expect(noConsent.status).toBe(400);
    expect(noConsent.body).toMatch(/id="summary-consent-error"[^>]*>Tick the box/);
    const sent = await post("email=shopper%40example.com&consent=yes");
    expect(sent.status).toBe(200);
    expect(text(sent.body)).toContain("We will email the summary to shopper@example.com");
    expect(sent.body).not.toMatch(/queued|not yet sent/i);
    const db = new Database(dbFile, { readonly: true });
    try {
      const rows = db
        .prepare(
          "SELECT template, recipient, subject_type AS subjectType, subject_id AS subjectId, payload FROM email_outbox",
        )
        .all() as Array<{
        template: string;
        recipient: string;
        subjectType: string;
        subjectId: string;
        payload: string;
      }>;
      expect(rows.map((r) => [r.template, r.recipient, r.subjectType, r.subjectId])).toEqual([
        ["plan_summary", "shopper@example.com", "plan_summary", planId],
      ]);
      const message = JSON.parse(rows[0].payload) as { subject: string; text: string };
      expect(message.subject).toContain(planId);
      expect(message.text).toContain(`Plan ID (look for it when you choose a plan): ${planId}`);
      expect(message.text).toContain("Warning: enrolling on the insurer's own site");
    } finally {
      db.close();
    }
  });
});
