import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as applicationsRoute from "../../../app/routes/api.enroll.applications";
import * as applicationRoute from "../../../app/routes/api.enroll.applications.$applicationId";
import { ENROLLMENT_ATTESTATION } from "../../../app/server/intake/enrollment.server";
import { resetPlanStoreForTests } from "../../../app/server/plan-store/plan-store.server";
import { TEST_PLAN_STORE } from "../../helpers/server";
import {
  callRoute,
  createIntakeSandbox,
  planOfferedInNewYorkCounty,
  HEX24,
  jsonRequest,
  type IntakeSandbox,
} from "./support";

/**
 * Enrollment applications against the sample plan store (built by
 * tests/global-setup.ts from seed/sample). The plan is looked up rather than
 * hard-coded, so the test follows the sample's plan year.
 */

let sandbox: IntakeSandbox;
let plan: { id: string; year: number };
const place = { state: "NY", county_fips: "36061", zip: "10001" };

beforeAll(async () => {
  sandbox = await createIntakeSandbox({ PLAN_STORE_PATH: TEST_PLAN_STORE });
  resetPlanStoreForTests();
  plan = planOfferedInNewYorkCounty();
});
afterAll(async () => {
  resetPlanStoreForTests();
  await sandbox.cleanup();
});

function application(overrides: Record<string, unknown> = {}) {
  return {
    plan_id: plan.id,
    year: plan.year,
    place,
    household: {
      size: 3,
      people: [
        { age: 41, relationship: "self" },
        { age: 39, relationship: "spouse", uses_tobacco: false },
        { age: 9, relationship: "child" },
      ],
    },
    income: 61250.5,
    contact: {
      first_name: "Maria",
      last_name: "Lopez",
      email: "maria.lopez@example.com",
      phone: "718-555-0123",
      preferred_language: "es",
    },
    attestation: { agreed: true, version: ENROLLMENT_ATTESTATION.version, signature: "Maria Lopez" },
    ...overrides,
  };
}

const submit = (body: unknown) =>
  callRoute(applicationsRoute, jsonRequest("/api/enroll/applications", body), { context: { clientIp: "192.0.2.44" } });
const read = (id: string, token?: string) =>
  callRoute(
    applicationRoute,
    new Request(`http://localhost/api/enroll/applications/${id}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    }),
    {
      params: { applicationId: id },
    },
  );

describe("POST /api/enroll/applications", () => {
  it("validates the plan against the plan store, commits and answers 201 {application_id, status, access_token}", async () => {
    const res = await submit(application());
    expect(res.status).toBe(201);
    const body = (await res.json()) as { application_id: string; status: string; access_token: string };
    expect(body).toEqual({
      application_id: expect.stringMatching(HEX24),
      status: "received",
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(res.headers.get("location")).toBe(`/api/enroll/applications/${body.application_id}`);
    const [row] = sandbox.query<Record<string, unknown>>(
      "SELECT * FROM enrollment_applications WHERE id = ?",
      body.application_id,
    );
    expect(row).toMatchObject({
      status: "received",
      plan_id: plan.id,
      plan_year: plan.year,
      state: "NY",
      county_fips: "36061",
      zip: "10001",
      annual_income_cents: 6125050,
      email_key: "maria.lopez@example.com",
      attestation_version: ENROLLMENT_ATTESTATION.version,
      attestation_ip: "192.0.2.44",
    });
    // Only a hash of the token is kept.
    expect(JSON.stringify(row)).not.toContain(body.access_token);
  });

  it("GET with the access token returns the application; without it 401, with another token 403, unknown id 404", async () => {
    const created = (await (await submit(application())).json()) as { application_id: string; access_token: string };
    const ok = await read(created.application_id, created.access_token);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      application_id: created.application_id,
      status: "received",
      plan_id: plan.id,
      year: plan.year,
      place,
      income: 61250.5,
      contact: {
        first_name: "Maria",
        last_name: "Lopez",
        email: "maria.lopez@example.com",
        phone: "7185550123",
        preferred_language: "es",
      },
      household: {
        size: 3,
        people: [
          expect.objectContaining({ age: 41 }),
          expect.objectContaining({ age: 39 }),
          expect.objectContaining({ age: 9 }),
        ],
      },
      attestation: { version: ENROLLMENT_ATTESTATION.version, attested_at: expect.any(String) },
    });
    const missing = await read(created.application_id);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");
    const other = (await (await submit(application())).json()) as { access_token: string };
    const wrong = await read(created.application_id, other.access_token);
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("access_denied");
    expect((await read("0".repeat(24), created.access_token)).status).toBe(404);
    expect((await read("not-an-id", created.access_token)).status).toBe(404);
  });

  it.each([
    [{ place: { state: "TX", county_fips: "48201", zip: "77002" } }, "plan_id", "not offered in county 48201 (TX)"],
    [{ year: 2015 }, "plan_id", "for 2015"],
    [{ plan_id: "99999NY9999999" }, "plan_id", "not offered"],
  ])("answers 400 when the plan is not offered there: %j", async (change, field, message) => {
    const res = await submit(application(change));
    expect(res.status).toBe(400);
    const error = ((await res.json()) as { error: { fields: Record<string, string>; message: string } }).error;
    expect(error.fields[field]).toContain(message);
  });

  it.each([
    [{ plan_id: "12345" }, "plan_id"],
    [{ year: "2027" }, "year"],
    [{ income: -1 }, "income"],
    [{ income: "40000" }, "income"],
    [{ household: { people: [] } }, "household.people"],
    [{ household: { people: [{ age: 200 }] } }, "household.people.0.age"],
    [{ place: { state: "NY", county_fips: "3606", zip: "10001" } }, "place.county_fips"],
    [{ place: { state: "NY", county_fips: "36061", zip: "1000" } }, "place.zip"],
    [{ contact: { first_name: "", last_name: "Lopez", email: "maria@example.com" } }, "contact.first_name"],
    [{ contact: { first_name: "Maria", last_name: "Lopez", email: "maria@" } }, "contact.email"],
    [
      { contact: { first_name: "Maria", last_name: "Lopez", email: "maria@example.com", phone: "123" } },
      "contact.phone",
    ],
    [
      { attestation: { agreed: false, version: ENROLLMENT_ATTESTATION.version, signature: "Maria Lopez" } },
      "attestation.agreed",
    ],
    [{ attestation: { agreed: true, version: "2020-01-01", signature: "Maria Lopez" } }, "attestation.version"],
    [{ attestation: { agreed: true, version: ENROLLMENT_ATTESTATION.version } }, "attestation.signature"],
    [{ ssn: "123-45-6789" }, "(body)"],
  ])("answers 400 naming the field for %j", async (change, field) => {
    const before = sandbox.query<{ n: number }>("SELECT COUNT(*) AS n FROM enrollment_applications")[0]!.n;
    const res = await submit(application(change));
    expect(res.status).toBe(400);
    const error = ((await res.json()) as { error: { code: string; fields: Record<string, string> } }).error;
    expect(error.code).toBe("validation_failed");
    expect(Object.keys(error.fields)).toContain(field);
    expect(sandbox.query<{ n: number }>("SELECT COUNT(*) AS n FROM enrollment_applications")[0]!.n).toBe(before);
  });

  it("answers 503 when the plan store cannot be read, and 500 naming DATABASE_URL without a write store", async () => {
    await sandbox.configure({ PLAN_STORE_PATH: `${sandbox.dir}/missing-plan-store.sqlite` });
    resetPlanStoreForTests();
    try {
      const res = await submit(application());
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("plan_store_unavailable");
    } finally {
      await sandbox.configure({ PLAN_STORE_PATH: TEST_PLAN_STORE });
      resetPlanStoreForTests();
    }
    await sandbox.configure({ DATABASE_URL: "" });
    try {
      const res = await submit(application());
      expect(res.status).toBe(500);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain("DATABASE_URL");
    } finally {
      await sandbox.configure({ DATABASE_URL: `file:${sandbox.dbFile}` });
    }
  });
});
