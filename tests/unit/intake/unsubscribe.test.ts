import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as apiUnsubscribe from "../../../app/routes/api.unsubscribe";
import * as unsubscribePage from "../../../app/routes/unsubscribe";
import {
  unsubscribeLinks,
  unsubscribeToken,
  verifyUnsubscribeToken,
} from "../../../app/server/intake/unsubscribe-token.server";
import { isUnsubscribed } from "../../../app/server/intake/unsubscribe.server";
import { startFakeResend, type FakeResend } from "../../fakes/resend";
import {
  callRoute,
  createIntakeSandbox,
  formRequest,
  jsonRequest,
  TEST_UNSUBSCRIBE_SECRET,
  type IntakeSandbox,
} from "./support";

let sandbox: IntakeSandbox;
let resend: FakeResend;

beforeAll(async () => {
  resend = await startFakeResend();
  sandbox = await createIntakeSandbox({ RESEND_BASE_URL: resend.url, RESEND_AUDIENCE_ID: "aud_main" });
});
afterAll(async () => {
  await sandbox.cleanup();
  await resend.close();
});
beforeEach(async () => {
  await sandbox.settleOutbox();
  await sandbox.configure({ UNSUBSCRIBE_TOKEN_SECRET: TEST_UNSUBSCRIBE_SECRET });
  resend.reset();
});

const tokenFor = (email: string) => unsubscribeToken(email, TEST_UNSUBSCRIBE_SECRET);
const query = (email: string, token = tokenFor(email)) => new URLSearchParams({ email, token }).toString();

describe("tokens", () => {
  it("is an HMAC of the lower-cased address: stable, case-insensitive, and bound to the secret", () => {
    const token = tokenFor("Person@Example.com");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokenFor("person@example.com")).toBe(token);
    expect(verifyUnsubscribeToken("PERSON@example.com", token, TEST_UNSUBSCRIBE_SECRET)).toBe(true);
    expect(verifyUnsubscribeToken("other@example.com", token, TEST_UNSUBSCRIBE_SECRET)).toBe(false);
    expect(verifyUnsubscribeToken("person@example.com", token, "another-secret")).toBe(false);
    expect(verifyUnsubscribeToken("person@example.com", token.slice(0, -1), TEST_UNSUBSCRIBE_SECRET)).toBe(false);
    expect(verifyUnsubscribeToken("person@example.com", `${token}A`, TEST_UNSUBSCRIBE_SECRET)).toBe(false);
    expect(verifyUnsubscribeToken("person@example.com", "", TEST_UNSUBSCRIBE_SECRET)).toBe(false);
  });

  it("builds the page link and the one-click link from PUBLIC_BASE_URL", () => {
    expect(unsubscribeLinks("a@example.com")).toEqual({
      page: `https://marketplace.test/unsubscribe?${query("a@example.com")}`,
      oneClick: `https://marketplace.test/api/unsubscribe?${query("a@example.com")}`,
    });
  });
});

describe("/api/unsubscribe", () => {
  it("POST one-click (RFC 8058) unsubscribes, and again is a no-op 200", async () => {
    const request = () =>
      new Request(`http://localhost/api/unsubscribe?${query("click@example.com")}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
    const first = await callRoute(apiUnsubscribe, request());
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ unsubscribed: true, already_unsubscribed: false });
    expect(sandbox.query("SELECT email_key, method FROM unsubscribes")).toEqual([
      { email_key: "click@example.com", method: "one_click" },
    ]);
    const again = await callRoute(apiUnsubscribe, request());
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ unsubscribed: true, already_unsubscribed: true });
    expect(sandbox.query("SELECT COUNT(*) AS n FROM unsubscribes")).toEqual([{ n: 1 }]);
    expect(await isUnsubscribed("CLICK@example.com")).toBe(true);
    // With the legacy provider the audience entry is marked unsubscribed too.
    await expect
      .poll(() => resend.contacts)
      .toEqual([{ method: "PATCH", audienceId: "aud_main", email: "click@example.com", unsubscribed: true }]);
  });

  it("POST with the address and token in a JSON body works too", async () => {
    const res = await callRoute(
      apiUnsubscribe,
      jsonRequest("/api/unsubscribe", { email: "json@example.com", token: tokenFor("json@example.com") }),
    );
    expect(res.status).toBe(200);
    expect(await isUnsubscribed("json@example.com")).toBe(true);
  });

  it("GET does not unsubscribe: it sends the browser to the confirmation page", async () => {
    const res = await callRoute(
      apiUnsubscribe,
      new Request(`http://localhost/api/unsubscribe?${query("look@example.com")}`),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/unsubscribe?${query("look@example.com")}`);
    expect(await isUnsubscribed("look@example.com")).toBe(false);
  });

  it.each([
    ["a wrong token", `email=bad%40example.com&token=${tokenFor("someone@example.com")}`],
    ["no token", "email=bad%40example.com"],
    ["no address", `token=${tokenFor("bad@example.com")}`],
    ["nothing", ""],
  ])("answers 400 for %s (GET and POST) and records nothing", async (_label, search) => {
    for (const method of ["GET", "POST"]) {
      const res = await callRoute(
        apiUnsubscribe,
        new Request(`http://localhost/api/unsubscribe?${search}`, { method }),
      );
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_unsubscribe_link");
    }
    expect(sandbox.query("SELECT COUNT(*) AS n FROM unsubscribes WHERE email_key = 'bad@example.com'")).toEqual([
      { n: 0 },
    ]);
  });

  it("answers 503 when no secret is configured", async () => {
    await sandbox.configure({ UNSUBSCRIBE_TOKEN_SECRET: undefined });
    for (const method of ["GET", "POST"]) {
      const res = await callRoute(
        apiUnsubscribe,
        new Request(`http://localhost/api/unsubscribe?${query("x@example.com")}`, { method }),
      );
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unsubscribe_unavailable");
    }
  });
});

describe("the /unsubscribe page", () => {
  it("GET shows the confirmation for a valid link and changes nothing", async () => {
    const res = await callRoute(
      unsubscribePage,
      new Request(`http://localhost/unsubscribe?${query("page@example.com")}`),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      state: "confirm",
      email: "page@example.com",
      token: tokenFor("page@example.com"),
    });
    expect(await isUnsubscribed("page@example.com")).toBe(false);
  });

  it("POST (the button, no JavaScript needed) unsubscribes and redirects to the done state", async () => {
    const res = await callRoute(
      unsubscribePage,
      formRequest("/unsubscribe", { email: "page@example.com", token: tokenFor("page@example.com") }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/unsubscribe?status=done");
    expect(sandbox.query("SELECT method FROM unsubscribes WHERE email_key = 'page@example.com'")).toEqual([
      { method: "page" },
    ]);
    const again = await callRoute(
      unsubscribePage,
      formRequest("/unsubscribe", { email: "page@example.com", token: tokenFor("page@example.com") }),
    );
    expect(again.status).toBe(302);
  });

  it("shows 400 for a bad link and 503 without a secret", async () => {
    const bad = await callRoute(
      unsubscribePage,
      new Request("http://localhost/unsubscribe?email=a%40example.com&token=nope"),
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ state: "invalid" });
    const badPost = await callRoute(
      unsubscribePage,
      formRequest("/unsubscribe", { email: "a@example.com", token: "nope" }),
    );
    expect(badPost.status).toBe(400);
    await sandbox.configure({ UNSUBSCRIBE_TOKEN_SECRET: undefined });
    const off = await callRoute(unsubscribePage, new Request(`http://localhost/unsubscribe?${query("a@example.com")}`));
    expect(off.status).toBe(503);
    expect(await off.json()).toEqual({ state: "unavailable" });
  });
});
