import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as discoveryApi from "../../../app/routes/api.agents.discovery";
import * as waitlistApi from "../../../app/routes/api.waitlist";
import * as updatesRoute from "../../../app/routes/updates";
import { AGENT_DISCOVERY_CONSENT } from "../../../app/server/intake/write-store.server";
import { waitlistConsumerConfirmation } from "../../../app/server/intake/email-templates.server";
import { callRoute, createIntakeSandbox, jsonRequest, type IntakeSandbox } from "../intake/support";

let sandbox: IntakeSandbox;
beforeAll(async () => {
  sandbox = await createIntakeSandbox();
});
afterAll(async () => {
  await sandbox.cleanup();
});

const signUp = (url: string, email: string) =>
  callRoute(
    updatesRoute,
    new Request(`http://localhost${url}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, zip: "10001", interest: "consumer" }).toString(),
    }),
  );

const storedConfirmation = (email: string, template = "waitlist_consumer_confirmation") => {
  const rows = sandbox.query<{ payload: string }>(
    `SELECT payload FROM email_outbox WHERE template = '${template}' ORDER BY id`,
  );
  const messages = rows.map((row) => JSON.parse(row.payload) as { to: string; subject: string; text: string });
  return messages.find((message) => message.to === email)!;
};

describe("the waitlist confirmation in the visitor's language", () => {
  it("renders in Spanish, unsubscribe footer and <html lang> included; English stays the default", () => {
    const es = waitlistConsumerConfirmation("ana@example.com", { zip: "10001", lang: "es" }).message;
    expect(es.subject).toBe("Ya está en la lista: novedades sobre planes de salud");
    expect(es.text).toContain("en el código postal 10001");
    expect(es.text).toContain("crédito fiscal para la prima");
    expect(es.text).toMatch(/\/plans\?lang=es\./);
    expect(es.text).toContain("Para dejar de recibir todos nuestros correos, abra: ");
    expect(es.html).toContain('<html lang="es">');
    expect(es.html).toContain(">Darse de baja de todos los correos</a>");
    expect(es.headers["List-Unsubscribe"]).toBeDefined();

    const en = waitlistConsumerConfirmation("ann@example.com", { zip: "10001" }).message;
    expect(en.subject).toBe("You're on the list: health plan updates");
    expect(en.text).toContain("To stop all email from us, open: ");
  });

  it("a sign-up on the Spanish page stores a Spanish confirmation; one on the English page an English one", async () => {
    expect((await signUp("/updates?lang=es", "lucia@example.com")).status).toBe(302);
    expect((await signUp("/updates", "lucy@example.com")).status).toBe(302);
    expect(storedConfirmation("lucia@example.com").subject).toBe(
      "Ya está en la lista: novedades sobre planes de salud",
    );
    expect(storedConfirmation("lucy@example.com").subject).toBe("You're on the list: health plan updates");
  });
});

describe("agent and operations emails in the submitter's language (decision 302)", () => {
  const discovery = {
    name: "Rosa Méndez",
    email: "rosa@agency.example",
    phone: "(956) 555-0101",
    npn: "12345678",
    licensed_states: ["TX"],
    agency: null,
    current_tools: [],
    needs: null,
    consent: true,
    consent_version: AGENT_DISCOVERY_CONSENT.version,
  };

  it("an agent signing up with Accept-Language: es gets a Spanish confirmation; the row keeps es; ops read English with the language named", async () => {
    const res = await callRoute(
      waitlistApi,
      jsonRequest(
        "/api/waitlist",
        { email: "ines@agency.example", zip: "78501", interest: "agent_independent" },
        { headers: { "Accept-Language": "es-MX,es;q=0.9" } },
      ),
    );
    expect(res.status).toBe(200);
    const agent = storedConfirmation("ines@agency.example", "waitlist_agent_confirmation");
    expect(agent.subject).toBe("Está en la lista de agentes: Health Plan Marketplace");
    expect(agent.text).toContain("agentes con licencia");
    const row = sandbox.query<{ lang: string }>(
      "SELECT lang FROM waitlist_submissions WHERE email = 'ines@agency.example'",
    );
    expect(row).toEqual([{ lang: "es" }]);
    const ops = sandbox
      .query<{ payload: string }>(
        "SELECT payload FROM email_outbox WHERE template = 'waitlist_operations_notification'",
      )
      .map((r) => JSON.parse(r.payload) as { text: string })
      .find((m) => m.text.includes("ines@agency.example"))!;
    expect(ops.text).toContain("Language: Spanish (es); write back in it");
    expect(ops.text).toContain("A new waitlist sign-up was recorded.");
  });

  it("the discovery form sent in Spanish: Spanish agent confirmation, es stored; in English: English, en stored", async () => {
    for (const [lang, email] of [
      ["es", "rosa@agency.example"],
      ["en", "rose@agency.example"],
    ] as const) {
      const res = await callRoute(
        discoveryApi,
        jsonRequest("/api/agents/discovery", { ...discovery, email }, { headers: { "Accept-Language": lang } }),
        { context: { clientIp: "203.0.113.9" } },
      );
      expect(res.status).toBe(200);
      const rows = sandbox.query<{ lang: string }>(
        `SELECT lang FROM agent_discovery_submissions WHERE email = '${email}'`,
      );
      expect(rows).toEqual([{ lang }]);
      const confirmation = storedConfirmation(email, "discovery_agent_confirmation");
      expect(confirmation.subject).toBe(
        lang === "es" ? "Recibimos su formulario para agentes" : "We received your agent discovery form",
      );
    }
  });
});
