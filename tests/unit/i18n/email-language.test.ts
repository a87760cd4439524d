import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as updatesRoute from "../../../app/routes/updates";
import { waitlistConsumerConfirmation } from "../../../app/server/intake/email-templates.server";
import { callRoute, createIntakeSandbox, type IntakeSandbox } from "../intake/support";

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

const storedConfirmation = (email: string) => {
  const rows = sandbox.query<{ payload: string }>(
    "SELECT payload FROM email_outbox WHERE template = 'waitlist_consumer_confirmation' ORDER BY id",
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
