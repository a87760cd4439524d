import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as discoveryRoute from "../../../app/routes/api.agents.discovery";
import * as discoveryPage from "../../../app/routes/agent-discovery";
import { AGENT_DISCOVERY_CONSENT } from "../../../app/server/intake/write-store.server";
import { startFakeResend, type FakeResend } from "../../fakes/resend";
import {
  callRoute,
  createIntakeSandbox,
  formRequest,
  HEX24,
  jsonRequest,
  OPERATIONS_EMAIL,
  type IntakeSandbox,
} from "./support";

let sandbox: IntakeSandbox;
let resend: FakeResend;

beforeAll(async () => {
  resend = await startFakeResend();
  sandbox = await createIntakeSandbox({ RESEND_BASE_URL: resend.url, RESEND_AUDIENCE_ID: "aud_x" });
});
afterAll(async () => {
  await sandbox.cleanup();
  await resend.close();
});
beforeEach(async () => {
  await sandbox.settleOutbox();
  resend.reset();
});

const valid = {
  name: "Pat Rivera",
  email: "pat.rivera@agency.example",
  phone: "(212) 555-0142",
  npn: "19876543",
  licensed_states: ["ny", "NJ", "NY"],
  agency: "Rivera Insurance Services",
  current_tools: ["HealthSherpa", "Spreadsheets"],
  needs: "Renewals take me a week every November.",
  consent: true,
  consent_version: AGENT_DISCOVERY_CONSENT.version,
};

const post = (body: unknown, context?: Record<string, unknown>) =>
  callRoute(discoveryRoute, jsonRequest("/api/agents/discovery", body), { context });

describe("POST /api/agents/discovery", () => {
  it("commits the form with its consent record (wording version, time, IP) and answers 200 with the id", async () => {
    const before = Date.now();
    const res = await post(valid, { clientIp: "198.51.100.23" });
    expect(res.status).toBe(200);
    const { discovery_submission_id: id } = (await res.json()) as { discovery_submission_id: string };
    expect(id).toMatch(HEX24);
    const [row] = sandbox.query<Record<string, string | number | null>>(
      "SELECT * FROM agent_discovery_submissions WHERE id = ?",
      id,
    );
    expect(row).toMatchObject({
      name: "Pat Rivera",
      email: "pat.rivera@agency.example",
      phone: "2125550142",
      npn: "19876543",
      licensed_states: '["NJ","NY"]',
      agency: "Rivera Insurance Services",
      current_tools: '["HealthSherpa","Spreadsheets"]',
      consent_version: "2025-11-01",
      consent_ip: "198.51.100.23",
      source: "api",
    });
    expect(row!.consented_at as number).toBeGreaterThanOrEqual(before);
    expect(row!.consented_at as number).toBeLessThanOrEqual(Date.now());
  });

  it("sends two emails: the agent confirmation and the operations notification (no audience sync)", async () => {
    const res = await post({ ...valid, email: "two-mails@agency.example" });
    const { discovery_submission_id: id } = (await res.json()) as { discovery_submission_id: string };
    const emails = await resend.waitForEmails(2);
    expect(emails).toHaveLength(2);
    const agent = emails.find((e) => e.to.includes("two-mails@agency.example"))!;
    const ops = emails.find((e) => e.to.includes(OPERATIONS_EMAIL))!;
    expect(agent.subject).toBe("We received your agent discovery form");
    expect(agent.text).toContain("Hello Pat Rivera,");
    expect(ops.subject).toBe("New agent discovery form (NJ, NY)");
    expect(ops.text).toContain(`Submission id: ${id}`);
    expect(ops.text).toContain("NPN: 19876543");
    expect(ops.text).toContain("Renewals take me a week every November.");
    expect(resend.contacts).toHaveLength(0);
  });

  it("accepts the optional fields left out", async () => {
    const { agency: _a, current_tools: _t, needs: _n, ...required } = valid;
    const res = await post({ ...required, email: "minimal@agency.example" });
    expect(res.status).toBe(200);
    const [row] = sandbox.query<{ agency: string | null; current_tools: string; needs: string | null }>(
      "SELECT agency, current_tools, needs FROM agent_discovery_submissions WHERE email = 'minimal@agency.example'",
    );
    expect(row).toEqual({ agency: null, current_tools: "[]", needs: null });
  });

  it.each([
    [{ name: "" }, "name"],
    [{ email: "pat@" }, "email"],
    [{ phone: "555-0142" }, "phone"],
    [{ phone: "(112) 555-0142" }, "phone"],
    [{ npn: "ABC123" }, "npn"],
    [{ npn: "12345678901" }, "npn"],
    [{ licensed_states: [] }, "licensed_states"],
    [{ licensed_states: ["NY", "ZZ"] }, "licensed_states.1"],
    [{ licensed_states: "NY" }, "licensed_states"],
    [{ current_tools: ["x".repeat(101)] }, "current_tools.0"],
    [{ needs: "x".repeat(4001) }, "needs"],
    [{ consent: false }, "consent"],
    [{ consent: "yes" }, "consent"],
    [{ consent_version: "2024-01-01" }, "consent_version"],
  ])("answers 400 naming the field for %j", async (change, field) => {
    const res = await post({
      ...valid,
      ...change,
      email: "invalid-case@agency.example",
      ...("email" in change ? { email: change.email } : {}),
    });
    expect(res.status).toBe(400);
    const error = ((await res.json()) as { error: { code: string; fields: Record<string, string> } }).error;
    expect(error.code).toBe("validation_failed");
    expect(Object.keys(error.fields)).toContain(field);
    expect(
      sandbox.query(
        "SELECT COUNT(*) AS n FROM agent_discovery_submissions WHERE email = 'invalid-case@agency.example'",
      ),
    ).toEqual([{ n: 0 }]);
  });

  it("records 'unknown' as the consent IP when the server gave none", async () => {
    const res = await callRoute(
      discoveryRoute,
      jsonRequest("/api/agents/discovery", { ...valid, email: "noip@agency.example" }),
      { context: {} },
    );
    expect(res.status).toBe(200);
    expect(
      sandbox.query("SELECT consent_ip FROM agent_discovery_submissions WHERE email = 'noip@agency.example'"),
    ).toEqual([{ consent_ip: "unknown" }]);
  });
});

describe("the /agent-discovery page form (works without JavaScript)", () => {
  const fields = {
    name: "Sam Lee",
    email: "sam.lee@agency.example",
    phone: "646 555 0199",
    npn: "7654321",
    licensed_states: "ny, ct",
    agency: "",
    tools: ["HealthSherpa", "Carrier portals"],
    tools_other: "My own spreadsheet",
    needs: "",
    consent: "yes",
    consent_version: AGENT_DISCOVERY_CONSENT.version,
  };

  it("validates, commits and redirects to the thank-you state", async () => {
    const res = await callRoute(discoveryPage, formRequest("/agent-discovery", fields));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/agent-discovery?submitted=1");
    const [row] = sandbox.query<{ licensed_states: string; current_tools: string; source: string }>(
      "SELECT licensed_states, current_tools, source FROM agent_discovery_submissions WHERE email = 'sam.lee@agency.example'",
    );
    expect(row).toEqual({
      licensed_states: '["CT","NY"]',
      current_tools: '["HealthSherpa","Carrier portals","My own spreadsheet"]',
      source: "form",
    });
    const page = await callRoute(discoveryPage, new Request("http://localhost/agent-discovery?submitted=1"));
    expect(await page.json()).toMatchObject({ submitted: true, consent: AGENT_DISCOVERY_CONSENT });
  });

  it("re-renders with field errors and the values typed (400) when the form is incomplete", async () => {
    const res = await callRoute(
      discoveryPage,
      formRequest("/agent-discovery", {
        ...fields,
        email: "sam.other@agency.example",
        consent: "",
        licensed_states: "NY, QQ",
      }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { form: string; errors: Record<string, string>; values: Record<string, string> };
    expect(body.form).toBe("discovery");
    expect(body.errors.consent).toMatch(/agree/);
    expect(body.errors.licensed_states).toMatch(/two-letter/);
    expect(body.values.name).toBe("Sam Lee");
    expect(
      sandbox.query("SELECT COUNT(*) AS n FROM agent_discovery_submissions WHERE email = 'sam.other@agency.example'"),
    ).toEqual([{ n: 0 }]);
  });
});
