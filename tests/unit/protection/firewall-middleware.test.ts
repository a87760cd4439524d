import { createHash } from "node:crypto";
import express from "express";
import { remixRequestHandler } from "../../../server/remix-handler";
import { inspectedBody, refusedBody } from "../../../server/firewall/body";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { apiRoute, jsonResponse, parseJsonBody } from "../../../app/server/platform/api.server";
import { DISCARD_MAX_BYTES, MULTIPART_LIMIT_BYTES, requestFirewall } from "../../../server/firewall/index";
import { listen, rawRequest, resourceRouteBuild } from "./helpers";

/**
 * The firewall over real HTTP, in front of the Remix request handler
 * (server/remix-handler.ts, a minimal server build with resource routes), exactly as server.ts
 * mounts it. The routes echo what Remix handed them, so a test can compare
 * the bytes that arrived with the bytes that were sent.
 */
const blockLines: Array<Record<string, unknown>> = [];
const routeCalls: string[] = [];
const routeErrors: unknown[] = [];
const MULTIPART_LIMIT = 256 * 1024;

const Waitlist = z.object({ email: z.string(), zip: z.string(), interest: z.string() });
const waitlist = apiRoute({
  POST: async ({ request }) => jsonResponse({ received: await parseJsonBody(request, Waitlist) }),
});

const build = resourceRouteBuild(
  {
    "api/echo": {
      action: async ({ request }) => {
        routeCalls.push("echo");
        const bytes = Buffer.from(await request.arrayBuffer());
        return new Response(bytes, {
          headers: { "content-type": "application/octet-stream", "x-sha256": sha256(bytes) },
        });
      },
      loader: () => jsonResponse({ ok: true }),
    },
    "api/form": {
      action: async ({ request }) => {
        routeCalls.push("form");
        const form = await request.formData();
        const fields: Record<string, unknown> = {};
        for (const [key, value] of form) {
          fields[key] =
            typeof value === "string"
              ? value
              : { name: value.name, size: value.size, sha256: sha256(Buffer.from(await value.arrayBuffer())) };
        }
        return jsonResponse(fields);
      },
    },
    "api/waitlist": waitlist,
    "agent-discovery": {
      action: async ({ request, context }) => {
        routeCalls.push("page");
        const fields = Object.fromEntries(await request.formData());
        const refused = (context as { refusedBody?: unknown }).refusedBody;
        return jsonResponse(refused ? { ...fields, refused } : fields);
      },
      loader: () => new Response("<p>page</p>", { headers: { "content-type": "text/html" } }),
    },
  },
  (error) => routeErrors.push(error),
);

let server: Awaited<ReturnType<typeof listen>>;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(
    requestFirewall({
      multipartLimitBytes: MULTIPART_LIMIT,
      log: { warn: (obj) => blockLines.push(obj as Record<string, unknown>) },
    }),
  );
  // A plain Express handler reading what the firewall kept for the route.
  app.post("/raw", (req, res) => {
    const body = inspectedBody(req);
    res.type("text/plain").send(body === undefined ? "(none kept)" : body);
  });
  app.all(
    "*",
    remixRequestHandler({ build, mode: "production", getLoadContext: (req) => ({ refusedBody: refusedBody(req) }) }),
  );
  server = await listen(app);
  base = server.url;
});
afterAll(() => server.close());

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

describe("blocking", () => {
  it("answers a SQL-injection probe in the query with 403 JSON in the error shape", async () => {
    const res = await fetch(`${base}/api/echo?zip=10001&q=${encodeURIComponent("' OR 1=1 --")}`);
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body.error.code).toBe("forbidden");
    expect(typeof body.error.message).toBe("string");
    expect(Object.keys(body.error).sort()).toEqual(["code", "message"]);
  });

  it("answers a browser (Accept: text/html) with a short HTML page, but an /api path always with JSON", async () => {
    const html = await fetch(`${base}/agent-discovery?ref=${encodeURIComponent("<script>alert(1)</script>")}`, {
      headers: { accept: "text/html,*/*;q=0.8" },
    });
    expect(html.status).toBe(403);
    expect(html.headers.get("content-type")).toMatch(/text\/html/);
    const page = await html.text();
    expect(page).toContain("<h1>Request blocked</h1>");
    expect(page).not.toContain("<script>");
    const api = await fetch(`${base}/api/echo?ref=${encodeURIComponent("<script>alert(1)</script>")}`, {
      headers: { accept: "text/html" },
    });
    expect(api.headers.get("content-type")).toMatch(/application\/json/);
  });

  it("answers 413 to a body with more to read than the engine is handed, without running the route", async () => {
    const before = routeCalls.length;
    const res = await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ notes: Array.from({ length: 2_000 }, (_, i) => `call back ${i} times`) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("payload_too_large");
    expect(routeCalls.length).toBe(before);
    expect(blockLines.at(-1)).toMatchObject({ overLimit: expect.any(Number) });
    const ids = await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ plan_ids: Array.from({ length: 2_000 }, (_, i) => `12345FL00${i}-01`) }),
    });
    expect(ids.status).toBe(200);
  });

  it("blocks a traversal in the raw path before Express or Remix normalise it", async () => {
    const res = await rawRequest(base, { method: "GET", path: "/assets/..%2f..%2f..%2fetc%2fpasswd" });
    expect(res.status).toBe(403);
  });

  it("blocks an attack in a header that reaches the app (User-Agent, Cookie, X-)", async () => {
    const cases: Array<Record<string, string>> = [
      { "user-agent": "() { :; }; /bin/bash -c 'id'" },
      { cookie: "theme=dark; session=' OR '1'='1" },
      { "x-forwarded-host": "x<svg/onload=alert(1)>" },
    ];
    for (const headers of cases) {
      const res = await fetch(`${base}/api/echo`, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
  });

  it("blocks an attack in a JSON body field without running the route", async () => {
    const before = routeCalls.length;
    const res = await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "jane@example.com", zip: "'; DROP TABLE waitlist; --" }),
    });
    expect(res.status).toBe(403);
    expect(routeCalls.length).toBe(before);
  });

  it("blocks an attack in a form field and in a text/plain body", async () => {
    const form = await fetch(`${base}/agent-discovery`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: new URLSearchParams({ name: "O'Brien", notes: "<img src=x onerror=alert(1)>" }),
    });
    expect(form.status).toBe(403);
    expect(form.headers.get("content-type")).toMatch(/text\/html/);
    const text = await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "; cat /etc/passwd",
    });
    expect(text.status).toBe(403);
  });

  it("logs the rule and where it matched, never the value", async () => {
    blockLines.length = 0;
    await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "jane@example.com", income: 45000, search: "1 UNION SELECT password FROM users" }),
    });
    expect(blockLines).toHaveLength(1);
    expect(blockLines[0]).toMatchObject({
      method: "POST",
      path: "/api/echo",
      type: "sql_injection",
      where: "body:search",
    });
    const line = JSON.stringify(blockLines[0]);
    expect(line).not.toContain("jane@example.com");
    expect(line).not.toContain("45000");
    expect(line).not.toContain("UNION");
  });
});

describe("bodies still reach the route intact after inspection", () => {
  it("hands Remix the exact JSON bytes (unicode, apostrophes, 90 KB)", async () => {
    const payload = JSON.stringify({
      name: "Nguyễn O'Brien 王",
      address: "123 Main St #4",
      notes: 'Drop-in clinic; Humalog Mix 75-25 (insulin lispro-aabc) -- "select the best plan"',
      pad: "é".repeat(45_000),
    });
    const bytes = Buffer.from(payload);
    expect(bytes.byteLength).toBeGreaterThan(90_000);
    const res = await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: payload,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-sha256")).toBe(sha256(bytes));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("hands over a chunked JSON body (no Content-Length) intact", async () => {
    const parts = [
      Buffer.from('{"email":"jane+plans@example.com",'),
      Buffer.from('"zip":"10001",'),
      Buffer.from('"interest":"consumer"}'),
    ];
    const res = await rawRequest(base, {
      path: "/api/waitlist",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      chunks: parts,
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      received: { email: "jane+plans@example.com", zip: "10001", interest: "consumer" },
    });
  });

  it("lets a route built with apiRoute + parseJsonBody validate the body as usual", async () => {
    const ok = await fetch(`${base}/api/waitlist`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "o'brien@example.ie", zip: "10001", interest: "consumer" }),
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).received.email).toBe("o'brien@example.ie");
    const bad = await fetch(`${base}/api/waitlist`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("malformed_json");
  });

  it("hands Remix a urlencoded form intact (request.formData())", async () => {
    const fields = {
      name: "D'Angelo",
      address: "Apt #12B",
      email: "jane+plans@example.com",
      notes: "Tylenol 500 mg; 50% coinsurance & <$50 copays",
    };
    const res = await fetch(`${base}/api/form`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(fields);
  });

  it("serves a second request on the same keep-alive connection after a replayed body", async () => {
    const agentRequests = [];
    for (let i = 0; i < 3; i++) {
      agentRequests.push(
        await fetch(`${base}/api/echo`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ i }),
        }).then((r) => r.text()),
      );
    }
    expect(agentRequests).toEqual(['{"i":0}', '{"i":1}', '{"i":2}']);
  });

  it("keeps the judged body, byte for byte, for the request's route", async () => {
    const res = await fetch(`${base}/raw`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":"O\'Brien"}',
    });
    expect(await res.text()).toBe('{"a":"O\'Brien"}');
  });

  it("passes an empty POST", async () => {
    const res = await fetch(`${base}/api/echo`, { method: "POST", headers: { "content-length": "0" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("passes a body of a type no route parses (limited, not inspected)", async () => {
    const bytes = Buffer.from("' OR 1=1 -- is only bytes here");
    const res = await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: bytes,
    });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });
});

describe("size limits", () => {
  it("accepts a JSON body of exactly 100 KB and refuses 100 KB + 1 with 413", async () => {
    const exact = `"${"a".repeat(100 * 1024 - 2)}"`;
    expect(Buffer.byteLength(exact)).toBe(100 * 1024);
    const ok = await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: exact,
    });
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    const over = await fetch(`${base}/api/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `${exact} `,
    });
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({
      error: { code: "payload_too_large", message: "Request body is larger than 100 KB." },
    });
  });

  it("refuses an oversized declared body from its headers alone, without waiting for it", async () => {
    const res = await rawRequest(base, {
      path: "/api/echo",
      headers: { "content-type": "application/json", "content-length": String(5 * 1024 * 1024) },
      endAfterChunks: false,
    });
    expect(res.status).toBe(413);
    // A body declaring more than can be thrown away is refused the same way (its connection closed).
    const huge = await rawRequest(base, {
      path: "/api/echo",
      headers: { "content-type": "application/json", "content-length": String(DISCARD_MAX_BYTES + 1) },
      endAfterChunks: false,
    });
    expect(huge.status).toBe(413);
  });

  it("refuses an oversized chunked JSON body (no Content-Length) once it passes 100 KB", async () => {
    const chunk = Buffer.alloc(16 * 1024, "a");
    const res = await rawRequest(base, {
      path: "/api/echo",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      chunks: Array.from({ length: 8 }, () => chunk),
      endAfterChunks: false,
    });
    expect(res.status).toBe(413);
  });

  it("streams a multipart upload under the ceiling through untouched", async () => {
    const file = Buffer.alloc(200 * 1024);
    for (let i = 0; i < file.length; i++) file[i] = (i * 31) % 251;
    const form = new FormData();
    form.set("docType", "license");
    form.set("blankConfirmed", "true");
    form.set("file", new Blob([file], { type: "application/pdf" }), "O'Brien license.pdf");
    const res = await fetch(`${base}/api/form`, { method: "POST", body: form });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      docType: "license",
      blankConfirmed: "true",
      file: { name: "O'Brien license.pdf", size: file.length, sha256: sha256(file) },
    });
  });

  it("refuses a multipart body whose declared length passes the ceiling with 413", async () => {
    const res = await rawRequest(base, {
      path: "/api/form",
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(MULTIPART_LIMIT + 1) },
      endAfterChunks: false,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe("payload_too_large");
  });

  it("hands a browser's upload over the ceiling to its page with no body and a note of the refusal (issue 17 item 8)", async () => {
    const before = routeCalls.length;
    for (const headers of [
      { accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
      // Remix's own request for the same submission when JavaScript is on.
      { accept: "*/*" },
    ]) {
      const path = headers.accept === "*/*" ? "/agent-discovery?_data=routes%2Fagent-discovery" : "/agent-discovery";
      const res = await rawRequest(base, {
        path,
        headers: {
          ...headers,
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(MULTIPART_LIMIT + 1),
        },
        chunks: [Buffer.from('--x\r\ncontent-disposition: form-data; name="docType"\r\n\r\nother\r\n')],
        endAfterChunks: false,
      });
      expect(res.status, path).toBe(200); // the page's action decides; this test route answers 200
      // Nothing of the body reached the route: the fields it sent are not there.
      expect(JSON.parse(res.body), path).toEqual({
        refused: { status: 413, limitBytes: MULTIPART_LIMIT, multipart: true },
      });
    }
    expect(routeCalls.slice(before)).toEqual(["page", "page"]);
    // An API client still gets the plain 413.
    const api = await rawRequest(base, {
      path: "/api/form",
      headers: {
        accept: "text/html",
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(MULTIPART_LIMIT + 1),
      },
      endAfterChunks: false,
    });
    expect(api.status).toBe(413);
  });

  it("cuts off a chunked multipart body once it passes the ceiling, before the route runs", async () => {
    const before = routeCalls.length;
    const boundary = "----b";
    const head = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n`,
    );
    const chunk = Buffer.alloc(32 * 1024, 1);
    const res = await rawRequest(base, {
      path: "/api/form",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "transfer-encoding": "chunked" },
      chunks: [head, ...Array.from({ length: 10 }, () => chunk)],
      endAfterChunks: false,
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: "payload_too_large", message: "Request body is larger than 256 KB." },
    });
    // Multipart bodies are read whole before any route runs (issue 18): the route never saw it.
    await new Promise((r) => setTimeout(r, 100));
    expect(routeCalls.length).toBe(before);
  });

  it("inspects a multipart request's text fields, its query and headers, not its file bytes", async () => {
    const attack = new FormData();
    attack.set("docType", "' UNION SELECT password FROM users--");
    const inField = await fetch(`${base}/api/form`, { method: "POST", body: attack });
    expect(inField.status).toBe(403);

    const file = new FormData();
    file.set("docType", "intake_form");
    file.set("file", new Blob(["<script>alert(1)</script> ' OR 1=1 --"], { type: "application/pdf" }), "form.pdf");
    const inFile = await fetch(`${base}/api/form`, { method: "POST", body: file });
    expect(inFile.status).toBe(200);

    const inQuery = await fetch(`${base}/api/form?subpath=${encodeURIComponent("../../etc/passwd")}`, {
      method: "POST",
      body: file,
    });
    expect(inQuery.status).toBe(403);
  });

  it("lets free text through a multipart form, and answers 400 to a multipart body that does not parse", async () => {
    const form = new FormData();
    form.set("notes", "Ambetter; Select * Health; Oscar");
    form.set("file", new Blob(["x"]), "Consent form; blank.pdf");
    const ok = await fetch(`${base}/api/form`, { method: "POST", body: form });
    expect(ok.status).toBe(200);
    expect((await ok.json()).notes).toBe("Ambetter; Select * Health; Oscar");

    const broken = await fetch(`${base}/api/form`, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
      body: '--zzz\r\ncontent-disposition: form-data; name="a"\r\n\r\nvalue-without-end',
    });
    expect(broken.status).toBe(400);
  });

  it("uses a 10 MB + 64 KB multipart ceiling by default", () => {
    expect(MULTIPART_LIMIT_BYTES).toBe(10 * 1024 * 1024 + 64 * 1024);
  });
});
