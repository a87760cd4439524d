import http from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonResponse } from "../../../app/server/platform/api.server";
import { requestFirewall } from "../../../server/firewall/index";
import { remixRequestHandler } from "../../../server/remix-handler";
import { listen, resourceRouteBuild } from "./helpers";

/**
 * Our Express → Remix glue (server/remix-handler.ts, decision 124)
 * in place of @remix-run/express's: the Request a route sees (URL, method,
 * headers, body), the answer written back (status, headers, repeated
 * headers), and the abort signal that fires when the client goes away before
 * the answer is finished — and only then.
 */
const signals: Array<{ route: string; aborted: () => boolean }> = [];

const build = resourceRouteBuild({
  "api/seen": {
    loader: ({ request }) =>
      jsonResponse({
        url: request.url,
        method: request.method,
        accept: request.headers.get("accept"),
        custom: request.headers.get("x-custom"),
      }),
    action: async ({ request }) =>
      jsonResponse({ url: request.url, method: request.method, body: await request.text() }),
  },
  "api/teapot": {
    loader: () =>
      new Response("short and stout", {
        status: 418,
        statusText: "I'm a teapot",
        headers: [
          ["content-type", "text/plain"],
          ["set-cookie", "a=1"],
          ["set-cookie", "b=2"],
        ],
      }),
  },
  "api/slow": {
    loader: async ({ request }) => {
      signals.push({ route: "slow", aborted: () => request.signal.aborted });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 3_000);
        request.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return jsonResponse({ done: true });
    },
  },
  "api/quick": {
    loader: ({ request }) => {
      signals.push({ route: "quick", aborted: () => request.signal.aborted });
      return jsonResponse({ done: true });
    },
  },
});

let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  const app = express();
  app.use(requestFirewall());
  app.all("*", remixRequestHandler({ build, mode: "production", getLoadContext: () => ({}) }));
  server = await listen(app);
});
afterAll(() => server.close());

describe("the Request a route sees", () => {
  it("has the URL as sent (path and query), the Host's port, the method and the headers", async () => {
    const res = await fetch(`${server.url}/api/seen?zip=10001&x=a%20b`, {
      headers: { accept: "application/json", "x-custom": "yes" },
    });
    expect(res.status).toBe(200);
    const seen = (await res.json()) as { url: string; method: string; accept: string; custom: string };
    expect(seen).toMatchObject({ method: "GET", accept: "application/json", custom: "yes" });
    // Remix re-serialises the query (a%20b may come back as a+b): compare what it means.
    const url = new URL(seen.url);
    expect(url.origin).toBe(server.url);
    expect(url.pathname).toBe("/api/seen");
    expect(Object.fromEntries(url.searchParams)).toEqual({ zip: "10001", x: "a b" });
  });

  it("gets a POST body the firewall read, byte for byte", async () => {
    const body = JSON.stringify({ name: "Zoë O'Brien", note: "ünïcödé ✓" });
    const res = await fetch(`${server.url}/api/seen`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(await res.json()).toEqual({ url: `${server.url}/api/seen`, method: "POST", body });
  });
});

describe("the answer written back", () => {
  it("keeps the status, its text and repeated headers", async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${server.url}/api/teapot`, resolve).on("error", reject),
    );
    res.resume();
    expect(res.statusCode).toBe(418);
    expect(res.statusMessage).toBe("I'm a teapot");
    expect(res.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
  });
});

describe("the abort signal", () => {
  it("fires when the client goes away before the answer is finished", async () => {
    const started = Date.now();
    await new Promise<void>((resolve) => {
      const req = http.get(`${server.url}/api/slow`);
      req.on("error", () => resolve());
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 150);
    });
    await expect.poll(() => signals.find((s) => s.route === "slow")?.aborted(), { timeout: 2_000 }).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_500); // well before the route's own 3 s
  });

  it("does not fire for an answer that finished", async () => {
    const res = await fetch(`${server.url}/api/quick`);
    expect(await res.json()).toEqual({ done: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(signals.find((s) => s.route === "quick")?.aborted()).toBe(false);
  });
});
