import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Issue 25 item 5 on the results page as a browser without JavaScript sees it (the built server over
 * HTTP): the repayment sentence and table, and the GET form that sets `aptc_applied`. The form is read
 * from the HTML and sent as a browser sends it (every field, the amount typed in), and the premiums
 * after credit on the next page follow the amount (docs/decisions/320).
 */

// Kings County NY, single 40 at $40,000, plan year 2027: credit $617.07 a month (see
// tests/integration/shopping/repayment-risk.test.ts for the hand calculation).
const KINGS = "/plans?zip=11201&county=36047&state=NY&year=2027&income=40000&age=40&tobacco=no&pregnant=no&rel=self";
let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function html(path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, body: await response.text() };
}

const decode = (text: string) =>
  text
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

/** The premiums after credit on a results page, by plan id. */
function premiumsAfterCredit(body: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const card of body.split('class="plan-card"').slice(1)) {
    const id = /data-plan-id="([^"]+)"/.exec(card)![1];
    const amount = /data-testid="premium-after-credit"[^>]*>\$([\d,]+\.\d\d)/.exec(card)![1];
    out.set(id, Number(amount.replace(/,/g, "")));
  }
  return out;
}

/** The credit-choice form as a browser would send it: its action and every field, with `aptc_applied` typed. */
function sendCreditForm(body: string, amount: string): string {
  const form = /<form[^>]*class="credit-choice"[^>]*>([\s\S]*?)<\/form>/.exec(body);
  expect(form).not.toBeNull();
  const tag = /<form([^>]*)>/.exec(form![0])![1];
  expect(tag).toMatch(/method="get"/i);
  const action = decode(/action="([^"]*)"/.exec(tag)![1]);
  const fields = new URLSearchParams();
  for (const input of form![1].matchAll(/<input([^>]*)>/g)) {
    const name = /name="([^"]*)"/.exec(input[1])?.[1];
    if (!name) continue;
    const value = decode(/value="([^"]*)"/.exec(input[1])?.[1] ?? "");
    fields.append(decode(name), name === "aptc_applied" ? amount : value);
  }
  expect(fields.getAll("aptc_applied")).toEqual([amount]);
  return `${action.split("?")[0]}?${fields.toString()}`;
}

describe("the results page's repayment risk without JavaScript", () => {
  it("says the risk in a sentence and a table, with the whole credit taken", async () => {
    const { status, body } = await html(KINGS);
    expect(status).toBe(200);
    expect(body).toContain('data-testid="repayment-risk"');
    // Over 4 × 15,960 = $63,840 every advance dollar is repaid: 12 × 617.07 = 7,404.84.
    expect(body).toMatch(/data-testid="repayment-sentence"[^>]*>[^<]*\$63,840\.00[^<]*\$7,404\.84/);
    const row = /data-scenario="above_400_fpl"[\s\S]*?<\/tr>/.exec(body)![0];
    expect(row).toContain("$63,841.00");
    expect(row.match(/\$7,404\.84/g)).toHaveLength(2); // taken in advance, and paid back
    expect(body).toContain('name="aptc_applied"');
    expect(body).toContain("Prices include your $617.07 monthly tax credit.");
  });

  it("the form's amount goes into the URL and every premium the credit covered rises by the rest", async () => {
    const first = await html(KINGS);
    const before = premiumsAfterCredit(first.body);
    expect(before.size).toBeGreaterThan(0);
    // Half the credit, as a person types it: 617.07 / 2 = 308.535 → 308.54; the rest is 617.07 − 308.54 = 308.53.
    const next = sendCreditForm(first.body, "308.54");
    expect(next).toContain("aptc_applied=308.54");
    const second = await html(next);
    expect(second.status).toBe(200);
    expect(second.body).toContain("Prices use $308.54 of your $617.07 monthly tax credit.");
    const after = premiumsAfterCredit(second.body);
    let covered = 0;
    for (const [id, was] of after.size > 0 ? before : []) {
      const now = after.get(id);
      if (now === undefined) continue;
      // A plan whose premium after the whole credit is above $0 had all $617.07 taken off it.
      if (was > 0) {
        expect(Math.round((now - was) * 100) / 100).toBe(308.53);
        covered += 1;
      }
    }
    expect(covered).toBeGreaterThan(0);
    // The table follows the amount: 12 × 308.54 = 3,702.48 in advance, all of it repaid over 400%.
    const row = /data-scenario="above_400_fpl"[\s\S]*?<\/tr>/.exec(second.body)![0];
    expect(row.match(/\$3,702\.48/g)).toHaveLength(2);
  });

  it("an amount above the credit prices with the whole credit and says so", async () => {
    const { status, body } = await html(`${KINGS}&aptc_applied=900`);
    expect(status).toBe(200);
    expect(body).toContain("Prices include your $617.07 monthly tax credit.");
    expect(body).toContain("more than your monthly credit");
  });
});
