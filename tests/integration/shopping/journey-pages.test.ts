import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";

/**
 * Issue 17 over HTTP on the built server, as a browser without JavaScript
 * sees it: the server's HTML carries the Apply / enroll step, the
 * standardized label and filter, the county field error and the ZIP-prefix steps.
 */

const HOUSEHOLD = "income=36000&age=35&tobacco=no&pregnant=no&rel=self";
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

describe("the shopping pages without JavaScript", () => {
  it("Texas results: no enroll link on a card (issue 28: enrolling is on the plan page, beside the credit warning); its plan page links HealthCare.gov by name and host; standardized plans are labelled and filterable", async () => {
    const { status, body } = await html(`/plans?zip=75201&county=48113&state=TX&${HOUSEHOLD}`);
    expect(status).toBe(200);
    const cards = body.split('class="plan-card"').length - 1;
    expect(cards).toBeGreaterThan(1);
    expect(body).not.toContain('class="enroll-link');
    const first = /data-plan-id="([^"]+)"/.exec(body)![1];
    const plan = await html(`/plans/${first}?zip=75201&county=48113&state=TX&${HOUSEHOLD}`);
    expect(plan.body).toContain(`rel="noopener">Take this plan to HealthCare.gov`);
    expect(plan.body).toContain('data-testid="credit-warning">Warning: enrolling on the insurer&#x27;s own site');
    expect(plan.body).toContain("(www.healthcare.gov)");
    expect(body).toMatch(/name="standardized"/);
    // The list is paged (10 a page, docs/decisions/250): the standardized filter keeps fewer than all 30
    // (Dallas's 32 less the 2 catastrophic plans a 35-year-old cannot buy, decision 313).
    expect(body).toContain("Plans 1–10 of 30.");
    const only = await html(`/plans?zip=75201&county=48113&state=TX&${HOUSEHOLD}&standardized=1`);
    expect(only.body).toContain("Standardized plan (Easy Pricing)");
    const kept = only.body.split('class="plan-card"').length - 1;
    expect(kept).toBeGreaterThan(0);
    expect(only.body).toMatch(new RegExp(`Showing ${kept} of 30 plans that match your filters`));
    expect(only.body.split('data-testid="standardized"').length - 1).toBe(kept);
  });

  it("New York results enroll at NY State of Health, never HealthCare.gov", async () => {
    const { body } = await html(`/plans?zip=10001&county=36061&state=NY&${HOUSEHOLD}`);
    const first = /data-plan-id="([^"]+)"/.exec(body)![1];
    const plan = (await html(`/plans/${first}?zip=10001&county=36061&state=NY&${HOUSEHOLD}`)).body;
    expect(plan).toContain(">Take this plan to NY State of Health");
    expect(plan).not.toContain(">Take this plan to HealthCare.gov");
  });

  it("the county form sent without a choice answers 400 with 'Choose a county' and the first county autofocused", async () => {
    const { status, body } = await html("/plans?zip=75007&county_form=1");
    expect(status).toBe(400);
    expect(body).toContain('id="county-error"');
    expect(body).toContain("Choose a county");
    expect(body).toMatch(/<input[^>]*autofocus[^>]*>/i);
  });

  it("30303 is handed to Georgia Access; a ZIP whose prefix does not exist is asked to be checked", async () => {
    expect((await html("/plans?zip=30303")).body).toContain("Georgia Access");
    const bad = await html("/plans?zip=00199");
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("Check the number and try again");
  });
});
