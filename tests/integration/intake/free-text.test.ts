import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../helpers/server";
import { writeStoreTarget, type WriteStoreTarget } from "../../helpers/write-store-target";
import { startFakeResend, type FakeResend } from "../../fakes/resend";

/**
 * Issue 18 item 3: free text is not code. Through the built server (the real
 * firewall in front of the real routes), the strings agents and shoppers
 * type pass in the forms' free-text fields, are stored byte for byte, and
 * are escaped in the operations email; an attack shaped like markup in the
 * same field is still refused.
 */
const WORDS = {
  name: "Zoë O'Brien-Nguyễn",
  agency: "Smith & Sons | Benefits; LLC",
  needs: [
    "Please bring your card & ID",
    "Last 4 of SSN; DOB; ID",
    "Checklist: SSN card | birth cert | ID",
    "Ambetter; Select * Health; Oscar",
    "Covered under my Union Select plan through Local 1199",
    "Ask about `sleep apnea` coverage",
    "Budget <= $400/month & deductible < $2k; wants <b>low</b> copays",
  ].join("\n"),
  tools: ["HealthSherpa; Excel", "Union Select portal | CRM"],
};

let server: RunningServer;
let resend: FakeResend;
let dir: string;
let store: WriteStoreTarget;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "free-text-"));
  store = await writeStoreTarget("sqlite", dir);
  resend = await startFakeResend();
  server = await startServer({
    env: {
      DATABASE_URL: store.databaseUrl,
      UPLOAD_LOCAL_DIR: path.join(dir, "uploads"),
      RESEND_BASE_URL: resend.url,
      RESEND_API_KEY: resend.apiKey,
      OPERATIONS_EMAIL: "ops@marketplace.test",
      PUBLIC_BASE_URL: "https://marketplace.test",
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await resend?.close();
  await store?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function discovery(email: string, overrides: Record<string, unknown> = {}) {
  return fetch(`${server.url}/api/agents/discovery`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      name: WORDS.name,
      email,
      phone: "2125550111",
      npn: "1234567",
      licensed_states: ["NY"],
      agency: WORDS.agency,
      current_tools: WORDS.tools,
      needs: WORDS.needs,
      consent: true,
      consent_version: "2025-11-01",
      ...overrides,
    }),
  });
}

describe("free text through the firewall", () => {
  it("passes agents' words, stores them byte for byte and escapes them in the email", async () => {
    const res = await discovery("free.text@agency.example");
    expect(res.status, await res.clone().text()).toBe(200);
    const [row] = await store.query<{ name: string; agency: string; needs: string; current_tools: string }>(
      "SELECT name, agency, needs, current_tools FROM agent_discovery_submissions WHERE email_key = 'free.text@agency.example'",
    );
    expect(row).toEqual({
      name: WORDS.name,
      agency: WORDS.agency,
      needs: WORDS.needs,
      current_tools: JSON.stringify(WORDS.tools),
    });
    const emails = await resend.waitForEmails(2);
    const ops = emails.find((e) => e.to.includes("ops@marketplace.test"));
    expect(ops?.html).toContain("Smith &amp; Sons | Benefits; LLC");
    expect(ops?.html).toContain("&lt;b&gt;low&lt;/b&gt;");
    expect(ops?.html).not.toContain("<b>low</b>");
    expect(ops?.text).toContain("Ambetter; Select * Health; Oscar");
  });

  it("still refuses markup that runs script in a free-text field", async () => {
    const res = await discovery("script@agency.example", { needs: "<img src=x onerror=alert(1)>" });
    expect(res.status).toBe(403);
    expect(
      await store.query("SELECT 1 FROM agent_discovery_submissions WHERE email_key = 'script@agency.example'"),
    ).toEqual([]);
  });
});
