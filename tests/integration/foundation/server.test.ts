import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import { startServer, type RunningServer } from "../../helpers/server";

const REQUIRED_HEADERS: Record<string, string | RegExp> = {
  "strict-transport-security": "max-age=31536000; includeSubDomains; preload",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": /.+/,
  "content-security-policy": /script-src 'self' 'nonce-/,
  server: "health-plan-marketplace",
};

function expectSecurityHeaders(res: Response, what: string) {
  for (const [name, want] of Object.entries(REQUIRED_HEADERS)) {
    const got = res.headers.get(name);
    expect(got, `${name} on ${what}`).not.toBeNull();
    if (typeof want === "string") expect(got, `${name} on ${what}`).toBe(want);
    else expect(got, `${name} on ${what}`).toMatch(want);
  }
  expect(res.headers.get("x-powered-by"), `x-powered-by on ${what}`).toBeNull();
}

describe("production server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { COMMIT_SHA: "abc1234def" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("GET /api/health answers status, commit and env", async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: "ok", commit: "abc1234def", env: "test" });
    expect(body.upstream).toBe("sample");
  });

  it("puts the header set on a page, an API route, a static file, assets and 404s", async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expectSecurityHeaders(page, "page");
    const html = await page.text();
    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(asset, "a fingerprinted stylesheet is linked").toBeTruthy();

    const assetRes = await fetch(`${server.url}${asset}`);
    expect(assetRes.status).toBe(200);
    expectSecurityHeaders(assetRes, "asset");
    expect(assetRes.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");

    const staticRes = await fetch(`${server.url}/favicon.svg`);
    expect(staticRes.status).toBe(200);
    expectSecurityHeaders(staticRes, "static file");

    const api = await fetch(`${server.url}/api/health`);
    expectSecurityHeaders(api, "api");

    const missingPage = await fetch(`${server.url}/no-such-page`);
    expect(missingPage.status).toBe(404);
    expectSecurityHeaders(missingPage, "404 page");
    expect(await missingPage.text()).toContain("We couldn");

    const missingApi = await fetch(`${server.url}/api/no-such-route`, { method: "POST" });
    expect(missingApi.status).toBe(404);
    expectSecurityHeaders(missingApi, "404 api");
    expect(missingApi.headers.get("content-type")).toMatch(/application\/json/);
    expect((await missingApi.json()).error.code).toBe("not_found");
  });

  it("answers a wrong method on an /api route with 405 JSON and Allow", async () => {
    const res = await fetch(`${server.url}/api/health`, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });

  it("serves every page of the site with 200", async () => {
    for (const path of [
      "/",
      "/plans",
      "/agents",
      "/agent-onboarding",
      "/agent-discovery",
      "/updates",
      "/privacy",
      "/terms",
    ]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/text\/html/);
    }
  });

  it("compresses pages for clients that accept gzip", async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${server.url}/privacy`, { headers: { "accept-encoding": "gzip" } }, resolve).on("error", reject),
    );
    res.resume();
    expect(res.headers["content-encoding"]).toBe("gzip");
  });
});

describe("start-up configuration", () => {
  it("refuses to start with an unknown EMAIL_PROVIDER, listing the allowed values", async () => {
    await expect(startServer({ env: { EMAIL_PROVIDER: "mailgun" } })).rejects.toThrow(
      /EMAIL_PROVIDER must be one of: resend, ses/,
    );
  });

  it("warns at start-up, naming the setting, when the upstream key is empty", async () => {
    const server = await startServer({ env: { MARKETPLACE_API_KEY: "  \\n" } });
    try {
      expect(server.output()).toMatch(/MARKETPLACE_API_KEY is set but empty/);
    } finally {
      await server.stop();
    }
  });

  it("records a build revision when COMMIT_SHA is not set", async () => {
    const server = await startServer({ env: { COMMIT_SHA: undefined } });
    try {
      const body = await (await fetch(`${server.url}/api/health`)).json();
      expect(body.commit).toEqual(expect.any(String));
      expect(body.commit.length).toBeGreaterThan(6);
      expect(body.commit).not.toBe("undefined");
    } finally {
      await server.stop();
    }
  });
});

describe("graceful shutdown", () => {
  it("finishes an in-flight request after SIGTERM, then exits 0", async () => {
    const server = await startServer();
    const url = new URL(`${server.url}/api/drugs/autocomplete`);
    // Send the headers and half a body, signal, then finish the body.
    const body = JSON.stringify({ query: "lipitor" });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
        },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        server.process.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    const started = Date.now();
    const { status } = await answer;
    expect(status).toBe(200);
    const code = await server.kill("SIGTERM");
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(server.output()).toMatch(/shutdown complete/);
  });
});
