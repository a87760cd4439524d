import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as applicationsRoute from "../../../app/routes/api.enroll.applications";
import * as applicationRoute from "../../../app/routes/api.enroll.applications.$applicationId";
import * as discoveryRoute from "../../../app/routes/api.agents.discovery";
import * as discoveryPage from "../../../app/routes/agent-discovery";
import { ENROLLMENT_ATTESTATION } from "../../../app/server/intake/enrollment.server";
import { AGENT_DISCOVERY_CONSENT } from "../../../app/server/intake/write-store.server";
import { resetPlanStoreForTests } from "../../../app/server/plan-store/plan-store.server";
import { TEST_PLAN_STORE } from "../../helpers/server";
import {
  callRoute,
  createIntakeSandbox,
  planOfferedInNewYorkCounty,
  formRequest,
  HEX24,
  jsonRequest,
  type IntakeSandbox,
} from "./support";

/**
 * Idempotency keys on the writes that make a record (decision 495): a request sent again with its
 * key, after a lost answer or a 503 saying the outcome is unknown, is answered with the first
 * record and makes no second one, on the API (Idempotency-Key) and on the discovery form page (a
 * hidden key). Real SQLite file, the routes' own handlers.
 */

let sandbox: IntakeSandbox;
let plan: { id: string; year: number };

beforeAll(async () => {
  sandbox = await createIntakeSandbox({ PLAN_STORE_PATH: TEST_PLAN_STORE });
  resetPlanStoreForTests();
  plan = planOfferedInNewYorkCounty();
});
afterAll(async () => {
  resetPlanStoreForTests();
  await sandbox.cleanup();
});

function application(email: string, income = 52_000) {
  return {
    plan_id: plan.id,
    year: plan.year,
    place: { state: "NY", county_fips: "36061", zip: "10001" },
    household: { people: [{ age: 44, relationship: "self" }] },
    income,
    contact: { first_name: "Lena", last_name: "Ortiz", email },
    attestation: { agreed: true, version: ENROLLMENT_ATTESTATION.version, signature: "Lena Ortiz" },
  };
}

const apply = (body: unknown, key?: string) =>
  callRoute(
    applicationsRoute,
    jsonRequest("/api/enroll/applications", body, { headers: key === undefined ? {} : { "idempotency-key": key } }),
  );

const applicationsOf = (email: string) =>
  sandbox.query<{ id: string }>("SELECT id FROM enrollment_applications WHERE email_key = ?", email);

describe("POST /api/enroll/applications with an Idempotency-Key", () => {
  it("sent again, answers 201 with the same id and token, marked replayed, and stores one application", async () => {
    const first = await apply(application("lena.once@example.com"), "6f1d3a52-0b7e-4a57-9d1c-2f6a8e4b9c01");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const created = (await first.json()) as { application_id: string; access_token: string; status: string };
    expect(created.application_id).toMatch(HEX24);

    const again = await apply(application("lena.once@example.com"), "6f1d3a52-0b7e-4a57-9d1c-2f6a8e4b9c01");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("location")).toBe(`/api/enroll/applications/${created.application_id}`);
    expect(await again.json()).toEqual(created);
    expect(applicationsOf("lena.once@example.com")).toEqual([{ id: created.application_id }]);

    // The token the second answer carried opens the application: it is the first one's.
    const read = await callRoute(
      applicationRoute,
      new Request(`http://localhost/api/enroll/applications/${created.application_id}`, {
        headers: { authorization: `Bearer ${created.access_token}` },
      }),
      { params: { applicationId: created.application_id } },
    );
    expect(read.status).toBe(200);
  });

  it("reads a quoted key (a structured-field string) as the same key", async () => {
    const first = (await (await apply(application("lena.quoted@example.com"), "key-quoted-1")).json()) as {
      application_id: string;
    };
    const again = await apply(application("lena.quoted@example.com"), '"key-quoted-1"');
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as { application_id: string }).application_id).toBe(first.application_id);
    expect(applicationsOf("lena.quoted@example.com")).toHaveLength(1);
  });

  it("answers 422 naming the header when the key comes back with another application, and saves nothing", async () => {
    expect((await apply(application("lena.change@example.com", 52_000), "key-change-1")).status).toBe(201);
    const changed = await apply(application("lena.change@example.com", 61_000), "key-change-1");
    expect(changed.status).toBe(422);
    expect(await changed.json()).toMatchObject({
      error: { code: "idempotency_key_reused", fields: { "Idempotency-Key": expect.any(String) } },
    });
    expect(applicationsOf("lena.change@example.com")).toHaveLength(1);
  });

  it("makes one application per key, and one per request without a key, as before", async () => {
    await apply(application("lena.keys@example.com"), "key-a");
    await apply(application("lena.keys@example.com"), "key-b");
    expect(applicationsOf("lena.keys@example.com")).toHaveLength(2);
    const plain = await Promise.all([1, 2].map(() => apply(application("lena.nokey@example.com"))));
    const ids = await Promise.all(
      plain.map(async (r) => ((await r.json()) as { application_id: string }).application_id),
    );
    expect(new Set(ids).size).toBe(2);
    expect(applicationsOf("lena.nokey@example.com")).toHaveLength(2);
  });

  it.each([
    ["empty", ""],
    ["with a space", "two words"],
    ["not ASCII", "clé-1"],
    ["over 255 characters", "k".repeat(256)],
  ])("refuses a key %s with 400 naming Idempotency-Key, before anything is saved", async (_, key) => {
    const res = await apply(application("lena.badkey@example.com"), key);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: "validation_failed", fields: { "Idempotency-Key": expect.stringMatching(/visible ASCII/) } },
    });
    expect(applicationsOf("lena.badkey@example.com")).toHaveLength(0);
  });

  it("keeps only digests of the key and the request, and the token only as its hash", async () => {
    const key = "secret-client-key-7";
    const created = (await (await apply(application("lena.digest@example.com"), key)).json()) as {
      application_id: string;
      access_token: string;
    };
    const [row] = sandbox.query<Record<string, string>>(
      "SELECT * FROM idempotent_requests WHERE subject_id = ?",
      created.application_id,
    );
    expect(row).toMatchObject({
      operation: "enrollment_application",
      key_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain("lena.digest");
    expect(stored).not.toContain(created.access_token);
  });
});

describe("agent discovery with an idempotency key", () => {
  const answers = {
    name: "Noor Haddad",
    email: "noor.haddad@agency.example",
    phone: "(212) 555-0177",
    npn: "18273645",
    licensed_states: ["NY"],
    agency: "Haddad Benefits",
    current_tools: ["HealthSherpa"],
    needs: "Fewer retyped forms.",
    consent: true,
    consent_version: AGENT_DISCOVERY_CONSENT.version,
  };
  const rowsOf = (email: string) =>
    sandbox.query<{ id: string }>("SELECT id FROM agent_discovery_submissions WHERE email = ?", email);
  const emailsFor = (ids: string[]) =>
    sandbox.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM email_outbox WHERE subject_id IN (${ids.map(() => "?").join(",")})`,
      ...ids,
    )[0]!.n;

  it("the API sent again answers the first id and queues no second pair of emails", async () => {
    const send = () =>
      callRoute(
        discoveryRoute,
        jsonRequest("/api/agents/discovery", answers, { headers: { "idempotency-key": "discovery-key-1" } }),
      );
    const first = await send();
    const again = await send();
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const ids = [
      ((await first.json()) as { discovery_submission_id: string }).discovery_submission_id,
      ((await again.json()) as { discovery_submission_id: string }).discovery_submission_id,
    ];
    expect(ids[1]).toBe(ids[0]);
    expect(rowsOf("noor.haddad@agency.example")).toEqual([{ id: ids[0] }]);
    // The agent's confirmation and the operations notification, once.
    expect(emailsFor(ids)).toBe(2);
  });

  it("the page gives each form a key, keeps it when the form comes back with errors, and saves a form sent twice once", async () => {
    const page = (await (await callRoute(discoveryPage, new Request("http://localhost/agent-discovery"))).json()) as {
      submissionKey: string;
    };
    expect(page.submissionKey).toMatch(/^[0-9a-f-]{36}$/);
    const fields = {
      name: "Ivo Petrov",
      email: "ivo.petrov@agency.example",
      phone: "646 555 0133",
      npn: "5566778",
      licensed_states: "ny",
      agency: "",
      tools: ["HealthSherpa"],
      tools_other: "",
      needs: "",
      consent: "yes",
      consent_version: AGENT_DISCOVERY_CONSENT.version,
      submission_key: page.submissionKey,
    };
    // Sent with a mistake first: the page comes back with the same key in its values.
    const wrong = await callRoute(discoveryPage, formRequest("/agent-discovery", { ...fields, consent: "" }));
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { values: { submission_key: string } }).values.submission_key).toBe(
      page.submissionKey,
    );
    // Then twice: after "could not confirm", or a double tap.
    for (let i = 0; i < 2; i++) {
      const sent = await callRoute(discoveryPage, formRequest("/agent-discovery", fields));
      expect(sent.status).toBe(302);
      expect(sent.headers.get("location")).toBe("/agent-discovery?submitted=1");
    }
    expect(rowsOf("ivo.petrov@agency.example")).toHaveLength(1);
    // Changed answers from the same page (the first answer lost, an answer edited since): not
    // saved, said in words, and a new key so that sending them again saves them.
    const changed = await callRoute(
      discoveryPage,
      formRequest("/agent-discovery", { ...fields, needs: "Fewer retyped forms, and Spanish." }),
    );
    expect(changed.status).toBe(422);
    const refusal = (await changed.json()) as { formError: string; values: { submission_key: string } };
    expect(refusal.formError).toContain("these were not saved");
    expect(refusal.values.submission_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(refusal.values.submission_key).not.toBe(page.submissionKey);
    expect(rowsOf("ivo.petrov@agency.example")).toHaveLength(1);
    const resent = await callRoute(
      discoveryPage,
      formRequest("/agent-discovery", {
        ...fields,
        needs: "Fewer retyped forms, and Spanish.",
        submission_key: refusal.values.submission_key,
      }),
    );
    expect(resent.status).toBe(302);
    expect(rowsOf("ivo.petrov@agency.example")).toHaveLength(2);
    // Another page load is another key: a second, deliberate form is saved.
    const next = (await (await callRoute(discoveryPage, new Request("http://localhost/agent-discovery"))).json()) as {
      submissionKey: string;
    };
    expect(next.submissionKey).not.toBe(page.submissionKey);
    await callRoute(discoveryPage, formRequest("/agent-discovery", { ...fields, submission_key: next.submissionKey }));
    expect(rowsOf("ivo.petrov@agency.example")).toHaveLength(3);
  });

  it("the same key on the two operations names two requests", async () => {
    const res = await callRoute(
      discoveryRoute,
      jsonRequest(
        "/api/agents/discovery",
        { ...answers, email: "shared.key@agency.example" },
        { headers: { "idempotency-key": "key-a" } },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(rowsOf("shared.key@agency.example")).toHaveLength(1);
  });
});
