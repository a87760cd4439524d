import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as discoveryRoute from "../../../app/routes/api.agents.discovery";
import * as waitlistRoute from "../../../app/routes/api.waitlist";
import {
  analytics,
  browserAnalyticsSettings,
  scrubAnalyticsProperties,
} from "../../../app/server/platform/analytics.server";
import { env } from "../../../app/server/platform/env.server";
import { backgroundWorkSettled } from "../../../app/server/platform/lifecycle.server";
import {
  createEnrollmentApplication,
  ENROLLMENT_ATTESTATION,
  EnrollmentApplicationInput,
} from "../../../app/server/intake/enrollment.server";
import { AGENT_DISCOVERY_CONSENT } from "../../../app/server/intake/write-store.server";
import { startFakePostHog, type FakePostHog } from "../../fakes/posthog";
import { callRoute, createIntakeSandbox, jsonRequest, type IntakeSandbox } from "./support";

let sandbox: IntakeSandbox;
let posthog: FakePostHog;

beforeAll(async () => {
  posthog = await startFakePostHog();
  sandbox = await createIntakeSandbox({ POSTHOG_HOST: posthog.url });
});
afterAll(async () => {
  await sandbox.cleanup();
  await posthog.close();
});
beforeEach(() => posthog.reset());

const join = (email: string) =>
  callRoute(waitlistRoute, jsonRequest("/api/waitlist", { email, zip: "10001", interest: "consumer" }));

describe("server analytics", () => {
  it("captures submissions through posthog-node with no email, name, phone or licence number in what is sent", async () => {
    await sandbox.configure({ POSTHOG_API_KEY: "phc_server_test", DEPLOY_ENV: "production" });
    expect(analytics().enabled).toBe(true);
    const joined = await join("tracked.person@example.com");
    const { waitlist_submission_id: id } = (await joined.json()) as { waitlist_submission_id: string };
    const discovery = await callRoute(
      discoveryRoute,
      jsonRequest("/api/agents/discovery", {
        name: "Jordan Analytics",
        email: "jordan.agent@example.com",
        phone: "3125550199",
        npn: "55512345",
        licensed_states: ["IL", "IN"],
        current_tools: ["HealthSherpa"],
        consent: true,
        consent_version: AGENT_DISCOVERY_CONSENT.version,
      }),
    );
    expect(discovery.status).toBe(200);
    await analytics().flush();
    const events = await posthog.waitForEvents(2);
    expect(events.map((e) => e.event).sort()).toEqual(["agent_discovery_submitted", "waitlist_joined"]);
    const waitlist = events.find((e) => e.event === "waitlist_joined")!;
    expect(waitlist.distinct_id).toBe(id);
    expect(waitlist.properties).toMatchObject({ interest: "consumer", source: "api" });
    expect(events.find((e) => e.event === "agent_discovery_submitted")!.properties).toMatchObject({
      licensed_state_count: 2,
      tool_count: 1,
    });
    const sent = posthog.bodies.join("\n");
    for (const secret of [
      "tracked.person",
      "jordan.agent",
      "Jordan Analytics",
      "3125550199",
      "55512345",
      "@example.com",
    ]) {
      expect(sent).not.toContain(secret);
    }
  });

  it("captures an enrollment application with no income, ages or contact details", async () => {
    await sandbox.configure({ POSTHOG_API_KEY: "phc_server_test", DEPLOY_ENV: "production" });
    const input = EnrollmentApplicationInput.parse({
      plan_id: "20101NY0010001",
      year: 2027,
      place: { state: "NY", county_fips: "36061", zip: "10001" },
      household: {
        people: [
          { age: 57, relationship: "self" },
          { age: 53, relationship: "spouse" },
        ],
      },
      income: 73123.45,
      contact: { first_name: "Robin", last_name: "Quimby", email: "robin.quimby@example.com" },
      attestation: { agreed: true, version: ENROLLMENT_ATTESTATION.version, signature: "Robin Quimby" },
    });
    const created = await createEnrollmentApplication(input, {
      plans: { isPlanOfferedIn: () => true },
      ip: "192.0.2.1",
    });
    await analytics().flush();
    const [event] = await posthog.waitForEvents(1);
    expect(event).toMatchObject({ event: "enrollment_application_received", distinct_id: created.application_id });
    expect(event!.properties).toMatchObject({ plan_year: 2027, state: "NY", household_people: 2 });
    const sent = posthog.bodies.join("\n");
    for (const secret of ["73123.45", "7312345", '"age"', '"income"', "Robin", "Quimby", "robin.quimby", "192.0.2.1"])
      expect(sent).not.toContain(secret);
    expect(Object.values(event!.properties)).not.toContain(57);
  });

  it("has delivered every captured event once background work has settled (what the no-op checks below wait on)", async () => {
    await sandbox.configure({ POSTHOG_API_KEY: "phc_server_test", DEPLOY_ENV: "production" });
    expect((await join("settled.person@example.com")).status).toBe(200);
    await backgroundWorkSettled();
    expect(posthog.bodies.join("\n")).toContain("waitlist_joined");
  });

  it("is a no-op client when the token is missing: nothing is sent and the route still answers 200", async () => {
    await sandbox.configure({ POSTHOG_API_KEY: undefined, DEPLOY_ENV: "production" });
    expect(analytics().enabled).toBe(false);
    const res = await join("untracked@example.com");
    expect(res.status).toBe(200);
    await analytics().flush();
    await backgroundWorkSettled();
    expect(posthog.bodies).toEqual([]);
    expect(browserAnalyticsSettings(env()).token).toBeNull();
  });

  it("is a no-op client on staging even with a token", async () => {
    await sandbox.configure({ POSTHOG_API_KEY: "phc_server_test", DEPLOY_ENV: "staging" });
    expect(analytics().enabled).toBe(false);
    expect((await join("staging-user@example.com")).status).toBe(200);
    await backgroundWorkSettled();
    expect(posthog.bodies).toEqual([]);
    expect(browserAnalyticsSettings(env())).toEqual({
      token: null,
      host: posthog.url,
      optOutHosts: ["staging.marketplace.example"],
    });
  });

  it("never fails or delays a route when the analytics host is down", async () => {
    await sandbox.configure({
      POSTHOG_API_KEY: "phc_server_test",
      DEPLOY_ENV: "production",
      POSTHOG_HOST: "http://127.0.0.1:9",
    });
    const started = Date.now();
    const res = await join("analytics-outage@example.com");
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("gives the browser only the token, host and opt-out hosts", async () => {
    await sandbox.configure({
      POSTHOG_API_KEY: "phc_public",
      DEPLOY_ENV: "production",
      POSTHOG_HOST: "https://eu.i.posthog.com",
      ANALYTICS_OPT_OUT_HOSTS: "staging.example.org, Preview.Example.org",
    });
    expect(browserAnalyticsSettings(env())).toEqual({
      token: "phc_public",
      host: "https://eu.i.posthog.com",
      optOutHosts: ["staging.example.org", "preview.example.org"],
    });
  });
});

describe("scrubAnalyticsProperties", () => {
  it("drops personal properties and email-looking values, keeps the rest", () => {
    expect(
      scrubAnalyticsProperties({
        email: "a@b.co",
        contact_email: "a@b.co",
        income: 40000,
        annual_income: 40000,
        age: 30,
        ages: "30,31",
        applicant_age: 30,
        birth_date: "1990-01-01",
        name: "A",
        phone: "1",
        npn: "1",
        note: "reach me at a@b.co",
        tags: ["x@y.org"],
        interest: "consumer",
        page: "/plans",
        average_premium: 400,
        household_people: 2,
        plan_year: 2026,
      }),
    ).toEqual({ interest: "consumer", page: "/plans", average_premium: 400, household_people: 2, plan_year: 2026 });
  });
});
