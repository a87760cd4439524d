import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, TEST_PLAN_STORE, type RunningServer } from "../../helpers/server";
import { freePort } from "../../helpers/engines";
import { WRITE_STORE_DIALECTS, writeStoreTarget, type WriteStoreTarget } from "../../helpers/write-store-target";
import { startFakeResend, type FakeResend } from "../../fakes/resend";
import { pdf } from "../../unit/intake/files";
import { waitUntil } from "../../fakes/fake-http";

/**
 * The intake routes and pages through the real built server (server.ts over
 * the production build): pages and forms with JavaScript off, the JSON API,
 * 1,000 concurrent waitlist posts, and the upload size limit on the wire,
 * on both write stores: the SQLite file and PostgreSQL (decision 190).
 */

describe.each(WRITE_STORE_DIALECTS)("intake on the %s write store", (dialect) => {
  let server: RunningServer;
  let resend: FakeResend;
  let dir: string;
  let store: WriteStoreTarget;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "intake-server-"));
    store = await writeStoreTarget(dialect, dir);
    resend = await startFakeResend();
    server = await startServer({
      env: {
        DATABASE_URL: store.databaseUrl,
        UPLOAD_LOCAL_DIR: path.join(dir, "uploads"),
        RESEND_BASE_URL: resend.url,
        RESEND_API_KEY: resend.apiKey,
        OPERATIONS_EMAIL: "ops@marketplace.test",
        PUBLIC_BASE_URL: "https://marketplace.test",
        RATE_LIMIT_MAX: "1000000",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await resend?.close();
    await store?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function rows<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    return store.query<T>(sql, ...params);
  }

  /** A form post the way a browser without JavaScript sends it. */
  function postForm(pathname: string, fields: Record<string, string | string[]>) {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return fetch(`${server.url}${pathname}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body,
      redirect: "manual",
    });
  }

  describe("pages (no JavaScript needed)", () => {
    it.each([
      ["/agents", "For licensed agents and brokers"],
      ["/agent-onboarding", "Agent onboarding"],
      ["/agent-discovery", "Agent discovery form"],
      ["/updates", "Get updates"],
    ])("GET %s answers 200 with its content and plain HTML forms", async (pathname, heading) => {
      const res = await fetch(`${server.url}${pathname}`, { headers: { accept: "text/html" } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(heading);
      if (pathname === "/updates" || pathname === "/agent-discovery") expect(html).toMatch(/<form[^>]+method="post"/);
      if (pathname === "/agent-discovery") expect(html).toMatch(/<form[^>]+enctype="multipart\/form-data"/i);
    });

    it("signs up on /updates with a plain form post, then shows the thank-you state", async () => {
      const res = await postForm("/updates", { email: "nojs@example.com", zip: "10001", interest: "consumer" });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/updates?joined=1");
      const thanks = await (await fetch(`${server.url}/updates?joined=1`)).text();
      expect(thanks).toContain("You are on the list");
      // The email is only queued when the page answers: it must not claim it was sent.
      expect(thanks).toContain("We will send you a confirmation email");
      expect(thanks).not.toMatch(/\bsent a confirmation/);
      expect(await rows("SELECT source FROM waitlist_submissions WHERE email_key = 'nojs@example.com'")).toEqual([
        { source: "form" },
      ]);
    });

    it("shows field errors inline on /updates when the form is wrong", async () => {
      const res = await postForm("/updates", { email: "nojs-bad", zip: "12", interest: "consumer" });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain('aria-invalid="true"');
      expect(html).toContain('id="zip-error"');
      expect(html).toContain("Enter a 5-digit ZIP code.");
    });

    it("sends the agent discovery form and a blank-form upload with plain posts", async () => {
      const res = await postForm("/agent-discovery", {
        name: "No Script Agent",
        email: "noscript.agent@example.com",
        phone: "2125550111",
        npn: "1234567",
        licensed_states: "NY, NJ",
        tools: ["HealthSherpa"],
        consent: "yes",
        consent_version: "2025-11-01",
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/agent-discovery?submitted=1");
      expect(
        await rows(
          "SELECT source, consent_ip FROM agent_discovery_submissions WHERE email_key = 'noscript.agent@example.com'",
        ),
      ).toEqual([{ source: "form", consent_ip: expect.any(String) }]);

      const form = new FormData();
      form.append("docType", "intake_form");
      form.append("blankConfirmed", "true");
      form.append("file", new File([new Uint8Array(pdf())], "blank intake.pdf", { type: "application/pdf" }));
      const upload = await fetch(`${server.url}/agent-discovery`, {
        method: "POST",
        body: form,
        redirect: "manual",
        headers: { accept: "text/html" },
      });
      expect(upload.status).toBe(302);
      expect(upload.headers.get("location")).toBe("/agent-discovery?uploaded=1#upload");
    });
  });

  describe("JSON API over HTTP", () => {
    it("POST /api/waitlist answers 200 with the id and the two emails arrive", async () => {
      resend.reset();
      const res = await fetch(`${server.url}/api/waitlist`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "http.user@example.com", zip: "10001", interest: "agent" }),
      });
      expect(res.status).toBe(200);
      const { waitlist_submission_id: id } = (await res.json()) as { waitlist_submission_id: string };
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      // Earlier tests' emails may still arrive after the reset (sending is fire-and-forget):
      // keep only the two about this submission.
      const aboutThisSignUp = () =>
        resend.emails.filter(
          (e) =>
            e.to[0] === "http.user@example.com" ||
            (e.to[0] === "ops@marketplace.test" && `${e.text ?? ""}${e.html ?? ""}`.includes("http.user@example.com")),
        );
      const emails = await waitUntil(
        () => (aboutThisSignUp().length >= 2 ? aboutThisSignUp() : null),
        5_000,
        "the sign-up's two emails",
      );
      expect(emails.map((e) => e.to[0]).sort()).toEqual(["http.user@example.com", "ops@marketplace.test"]);
      expect(emails.every((e) => e.headers["List-Unsubscribe-Post"] === "List-Unsubscribe=One-Click")).toBe(true);
    });

    it("POST /api/agents/discovery/upload answers 413 for a file over 10 MB and 400 for a renamed text file", async () => {
      const big = new FormData();
      big.append("docType", "other");
      big.append("blankConfirmed", "true");
      big.append("file", new File([new Uint8Array(Buffer.concat([pdf(), Buffer.alloc(10 * 1024 * 1024)]))], "big.pdf"));
      const tooBig = await fetch(`${server.url}/api/agents/discovery/upload`, { method: "POST", body: big });
      expect(tooBig.status).toBe(413);

      const text = new FormData();
      text.append("docType", "other");
      text.append("blankConfirmed", "true");
      text.append("file", new File(["hello, not a pdf"], "notes.pdf", { type: "application/pdf" }));
      const refused = await fetch(`${server.url}/api/agents/discovery/upload`, { method: "POST", body: text });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
        "Only PDF, JPG or PNG files are accepted.",
      );
    });

    it("an upload sent 10 times at once with one Idempotency-Key is recorded once and answered alike (decision 503)", async () => {
      const send = (key: string) => {
        const form = new FormData();
        form.append("docType", "intake_form");
        form.append("blankConfirmed", "true");
        form.append("file", new File([new Uint8Array(pdf())], "retried-intake.pdf", { type: "application/pdf" }));
        return fetch(`${server.url}/api/agents/discovery/upload`, {
          method: "POST",
          headers: { "idempotency-key": key },
          body: form,
        }).then(async (res) => ({
          status: res.status,
          replayed: res.headers.get("idempotent-replayed"),
          body: (await res.json()) as { upload_id: string; key: string },
        }));
      };
      const answers = await Promise.all(Array.from({ length: 10 }, () => send(`${dialect}-upload-1`)));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(new Set(answers.map((a) => a.body.upload_id)).size).toBe(1);
      expect(new Set(answers.map((a) => a.body.key)).size).toBe(1);
      expect(answers.filter((a) => a.replayed === null)).toHaveLength(1);
      const stored = await rows<{ id: string }>(
        "SELECT id FROM agent_uploads WHERE original_file_name = 'retried-intake.pdf'",
      );
      expect(stored.map((r) => r.id)).toEqual([answers[0]!.body.upload_id]);
      // The row's file is there, and it is the only one: the copies that lost the race were removed
      // (decision 505). Another key is another upload.
      expect(existsSync(path.join(dir, "uploads", answers[0]!.body.key))).toBe(true);
      const copies = readdirSync(path.join(dir, "uploads"), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith("-retried-intake.pdf"));
      expect(copies.map((f) => path.basename(f))).toEqual([path.basename(answers[0]!.body.key)]);
      expect((await send(`${dialect}-upload-2`)).body.upload_id).not.toBe(answers[0]!.body.upload_id);
      // The PDFs were read by the upload worker, off the event loop (decision 507).
      expect(server.output()).toContain("upload worker started: PDFs are read off the event loop");
    });

    it("1,000 concurrent waitlist posts make 1,000 rows with 1,000 distinct ids", async () => {
      const before = (await rows<{ n: number }>("SELECT COUNT(*) AS n FROM waitlist_submissions"))[0]!.n;
      const responses = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          fetch(`${server.url}/api/waitlist`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              email: `load-${i}@example.com`,
              zip: "10001",
              interest: i % 2 ? "consumer" : "agent_independent",
            }),
          }).then(async (res) => ({
            status: res.status,
            body: (await res.json()) as { waitlist_submission_id?: string },
          })),
        ),
      );
      expect(responses.filter((r) => r.status !== 200)).toEqual([]);
      const ids = responses.map((r) => r.body.waitlist_submission_id!);
      expect(new Set(ids).size).toBe(1000);
      expect((await rows<{ n: number }>("SELECT COUNT(*) AS n FROM waitlist_submissions"))[0]!.n).toBe(before + 1000);
      const stored = new Set(
        (await rows<{ id: string }>("SELECT id FROM waitlist_submissions WHERE email_key LIKE 'load-%'")).map(
          (r) => r.id,
        ),
      );
      expect(ids.every((id) => stored.has(id))).toBe(true);
    }, 120_000);
  });

  describe("enrollment applications over HTTP", () => {
    /** The sample's first New York plan of its newest year, straight from the plan store file. */
    function newestNewYorkPlan(): { id: string; year: number } {
      const planStore = new Database(TEST_PLAN_STORE, { readonly: true });
      try {
        return planStore
          .prepare(
            "SELECT plan_id AS id, plan_year AS year FROM plans WHERE state = 'NY' ORDER BY plan_year DESC, plan_id LIMIT 1",
          )
          .get() as { id: string; year: number };
      } finally {
        planStore.close();
      }
    }

    it("POST answers 201 with a token that opens GET /api/enroll/applications/<id>", async () => {
      const plan = newestNewYorkPlan();
      const res = await fetch(`${server.url}/api/enroll/applications`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          plan_id: plan.id,
          year: plan.year,
          place: { state: "NY", county_fips: "36061", zip: "10001" },
          household: { people: [{ age: 30, relationship: "self" }] },
          income: 38000,
          contact: { first_name: "Ana", last_name: "Diaz", email: "ana.diaz@example.com" },
          attestation: { agreed: true, version: "2025-11-01", signature: "Ana Diaz" },
        }),
      });
      expect(res.status).toBe(201);
      const created = (await res.json()) as { application_id: string; access_token: string; status: string };
      expect(created.status).toBe("received");
      const read = await fetch(`${server.url}/api/enroll/applications/${created.application_id}`, {
        headers: { authorization: `Bearer ${created.access_token}` },
      });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { plan_id: string }).plan_id).toBe(plan.id);
      expect((await fetch(`${server.url}/api/enroll/applications/${created.application_id}`)).status).toBe(401);
    });

    it("an application sent again with its Idempotency-Key, 20 times at once, is stored once and answered alike (decision 495)", async () => {
      const plan = newestNewYorkPlan();
      const body = JSON.stringify({
        plan_id: plan.id,
        year: plan.year,
        place: { state: "NY", county_fips: "36061", zip: "10001" },
        household: { people: [{ age: 52, relationship: "self" }] },
        income: 41000,
        contact: { first_name: "Rosa", last_name: "Vega", email: "rosa.vega.twice@example.com" },
        attestation: { agreed: true, version: "2025-11-01", signature: "Rosa Vega" },
      });
      const send = (key: string) =>
        fetch(`${server.url}/api/enroll/applications`, {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": key },
          body,
        }).then(async (res) => ({
          status: res.status,
          replayed: res.headers.get("idempotent-replayed"),
          body: (await res.json()) as { application_id: string; access_token: string },
        }));
      // A double tap and a client retrying on a lost answer: all at once, one key.
      const answers = await Promise.all(Array.from({ length: 20 }, () => send(`${dialect}-retry-1`)));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((a) => a.body.application_id)).size).toBe(1);
      expect(new Set(answers.map((a) => a.body.access_token)).size).toBe(1);
      expect(answers.filter((a) => a.replayed === null)).toHaveLength(1);
      const stored = await rows<{ id: string }>(
        "SELECT id FROM enrollment_applications WHERE email_key = 'rosa.vega.twice@example.com'",
      );
      expect(stored.map((r) => r.id)).toEqual([answers[0]!.body.application_id]);
      // The replayed token opens the application; another key makes another one.
      const read = await fetch(`${server.url}/api/enroll/applications/${answers[0]!.body.application_id}`, {
        headers: { authorization: `Bearer ${answers[5]!.body.access_token}` },
      });
      expect(read.status).toBe(200);
      const other = await send(`${dialect}-retry-2`);
      expect(other.status).toBe(201);
      expect(other.body.application_id).not.toBe(answers[0]!.body.application_id);
      expect(
        await rows("SELECT id FROM enrollment_applications WHERE email_key = 'rosa.vega.twice@example.com'"),
      ).toHaveLength(2);
    });
  });

  describe("a write store that cannot be used", () => {
    it("answers 500 naming DATABASE_URL when it is set but empty, 503 with Retry-After when it cannot be reached, on the API and the page", async () => {
      // SQLite: the setting set but empty (500: fix the setting); PostgreSQL: a server that is not
      // there (503 and Retry-After: try again shortly, docs/decisions/370).
      const unusable = dialect === "sqlite" ? "" : `postgres://postgres@127.0.0.1:${await freePort()}/gone`;
      const status = dialect === "sqlite" ? 500 : 503;
      const broken = await startServer({ env: { DATABASE_URL: unusable } });
      try {
        const res = await fetch(`${broken.url}/api/waitlist`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "lost@example.com", zip: "10001", interest: "consumer" }),
        });
        expect(res.status).toBe(status);
        expect(res.headers.get("retry-after")).toBe(status === 503 ? "2" : null);
        expect(await res.json()).toEqual({
          error: { code: "write_store_unavailable", message: expect.stringContaining("DATABASE_URL") },
        });
        const page = await fetch(`${broken.url}/updates`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "email=lost%40example.com&zip=10001&interest=consumer",
          redirect: "manual",
        });
        expect(page.status).toBe(status);
        expect(await page.text()).not.toContain("You are on the list");
      } finally {
        await broken.stop();
      }
    });
  });
});
