import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectedBody } from "../../../server/firewall/body";
import { requestFirewall } from "../../../server/firewall/index";
import { createRateLimiter } from "../../../server/rate-limit";
import { requestLog } from "../../../server/request-log";
import { listen } from "./helpers";

/**
 * Issue 8 part 5: one pino line per request (request id, method, path,
 * status, duration) and no email address, income or age in any line, for
 * requests that carry them in the query and the body, whether they pass, are
 * blocked by the firewall or are rate limited. The middleware order is
 * server.ts's.
 */
const lines: Array<Record<string, unknown>> = [];
const raw: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    for (const text of chunk.toString("utf8").split("\n").filter(Boolean)) {
      raw.push(text);
      lines.push(JSON.parse(text) as Record<string, unknown>);
    }
    callback();
  },
});
const log = pino({ level: "info", base: { service: "test" } }, sink);

const EMAIL = "jane.doe+plans@example.com";
const INCOME = "48213.77"; // a dot: cannot turn up by chance inside a request id
const AGE = "37";
const PERSONAL = [EMAIL, "jane.doe", INCOME, `"age":${AGE}`, `age=${AGE}`, "@example.com"];

let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  const app = express();
  app.use((req, res, next) => {
    res.locals.requestId = randomUUID();
    next();
  });
  app.use(requestLog(log));
  app.use(createRateLimiter({ max: 4, windowMs: 60_000, exemptPaths: ["/api/health"], log }));
  app.use(requestFirewall({ log }));
  // Routes read the body the firewall kept (docs/decisions/124), as the Remix handler does.
  app.post("/api/eligibility", (req, res) =>
    res.json({ ok: true, echoedFields: Object.keys(JSON.parse(String(inspectedBody(req))) as object) }),
  );
  app.get("/plans", (_req, res) => res.send("<p>plans</p>"));
  server = await listen(app);
});
afterAll(() => server.close());

describe("request log lines", () => {
  it("writes one line per request with id, method, path, status and duration, and no personal data", async () => {
    const query = `zip=10001&income=${INCOME}&age=${AGE}&email=${encodeURIComponent(EMAIL)}`;
    const body = JSON.stringify({
      email: EMAIL,
      household: { income: Number(INCOME), people: [{ age: Number(AGE) }] },
    });

    const passed = await fetch(`${server.url}/api/eligibility?${query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(passed.status).toBe(200);
    const page = await fetch(`${server.url}/plans?${query}`);
    expect(page.status).toBe(200);
    const blocked = await fetch(`${server.url}/api/eligibility?${query}&q=${encodeURIComponent("' OR 1=1 --")}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(blocked.status).toBe(403);
    const blockedBody = await fetch(`${server.url}/api/eligibility?${query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: EMAIL, notes: "<script>alert(1)</script>", income: Number(INCOME) }),
    });
    expect(blockedBody.status).toBe(403);
    const limited = await fetch(`${server.url}/plans?${query}`);
    expect(limited.status).toBe(429);
    // A request's line is written when its answer finishes on the server, which may be just after
    // the client has the answer: wait for the fifth line rather than a fixed time.
    await expect.poll(() => lines.filter((l) => l.msg === "request").length).toBe(5);

    const requestLines = lines.filter((l) => l.msg === "request");
    expect(requestLines).toHaveLength(5);
    expect(requestLines.map((l) => [l.method, l.path, l.status])).toEqual([
      ["POST", "/api/eligibility", 200],
      ["GET", "/plans", 200],
      ["POST", "/api/eligibility", 403],
      ["POST", "/api/eligibility", 403],
      ["GET", "/plans", 429],
    ]);
    for (const line of requestLines) {
      expect(line.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof line.durationMs).toBe("number");
    }
    expect(new Set(requestLines.map((l) => l.requestId)).size).toBe(5);

    const firewallLines = lines.filter((l) => l.msg === "request blocked by firewall");
    expect(firewallLines.map((l) => [l.type, l.where])).toEqual([
      ["sql_injection", "query:q"],
      ["xss", "body:notes"],
    ]);
    for (const line of firewallLines) expect(line.rule).toMatch(/^(?:crs|dog|sqr|svc|ua0)-/);
    // A block line carries the request id of its request line, for support.
    expect(firewallLines[0].requestId).toBe(requestLines[2].requestId);
    expect(lines.filter((l) => l.msg === "client rate limited")).toHaveLength(1);

    for (const text of raw) {
      for (const personal of PERSONAL) expect(text, text).not.toContain(personal);
    }
    // The 403 answer quotes the request id so a user can report a false positive.
    expect((await blocked.json()).error.message).toContain(String(firewallLines[0].requestId));
  });
});
