import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerTiming } from "../../../app/server/platform/server-timing.server";
import { edgeHeaders } from "../../../server/edge-headers";
import { listen } from "./helpers";

/** Issue 29: the first middleware, made of shared parts, sets what it set before on every answer. */
let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  const app = express();
  app.use(edgeHeaders());
  app.get("/measured", (_req, res) => {
    (res.locals.serverTiming as ServerTiming).add("store", 1.25);
    res.setHeader("server-timing", "own;dur=2");
    res.json({ nonce: res.locals.cspNonce });
  });
  app.get("/plain", (_req, res) => {
    res.end("x");
  });
  server = await listen(app);
});
afterAll(() => server.close());

describe("edgeHeaders", () => {
  it("sets the security headers with this answer's nonce, a request id and Server-Timing", async () => {
    const [a, b] = await Promise.all([fetch(`${server.url}/measured`), fetch(`${server.url}/measured`)]);
    const nonceA = ((await a.json()) as { nonce: string }).nonce;
    const nonceB = ((await b.json()) as { nonce: string }).nonce;
    expect(nonceA).not.toBe(nonceB);
    expect(a.headers.get("content-security-policy")).toContain(`script-src 'self' 'nonce-${nonceA}'`);
    expect(b.headers.get("content-security-policy")).toContain(`'nonce-${nonceB}'`);
    expect(a.headers.get("x-frame-options")).toBe("DENY");
    expect(a.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get("server-timing")).toMatch(/^own;dur=2, store;dur=1\.3, total;dur=\d+\.\d$/);
  });

  it("keeps a request id the client sent (at most 64 characters) and times answers that measured nothing", async () => {
    const r = await fetch(`${server.url}/plain`, { headers: { "x-request-id": "abc-123" } });
    expect(r.headers.get("x-request-id")).toBe("abc-123");
    expect(r.headers.get("server-timing")).toMatch(/^total;dur=\d+\.\d$/);
  });
});
