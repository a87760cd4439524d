import express from "express";
import { describe, expect, it } from "vitest";
import { healthFastPath } from "../../../server/health-fast-path";
import { remixRequestHandler } from "../../../server/remix-handler";
import { fastPathAndRemix, resourceRouteBuild } from "./helpers";

/**
 * Decision 360 (issue 29): GET /api/health goes straight to its route module's loader, past
 * Remix's request handling, and answers exactly what Remix would have answered.
 */
const seen: string[] = [];
const build = resourceRouteBuild({
  "api/health": {
    loader: ({ request }) => {
      seen.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get("accept-language")}`);
      return new Response(JSON.stringify({ status: "ok" }), {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
      });
    },
  },
});

function app(fast: boolean) {
  const a = express();
  if (fast) a.get("/api/health", healthFastPath(build));
  a.all("*", remixRequestHandler({ build, mode: "production", getLoadContext: () => ({}) }));
  return a;
}

const servers = fastPathAndRemix(app);

describe("GET /api/health without Remix's request handling", () => {
  it("answers what Remix answers: status, type, cache header and body", async () => {
    const [fast, remix] = await Promise.all(
      [servers.withFastPath, servers.throughRemix].map((s) =>
        fetch(`${s.url}/api/health`, { headers: { "accept-language": "es" } }),
      ),
    );
    expect(fast.status).toBe(remix.status);
    expect(fast.headers.get("content-type")).toBe(remix.headers.get("content-type"));
    expect(fast.headers.get("cache-control")).toBe("no-store");
    expect(await fast.text()).toBe(await remix.text());
    expect(seen).toEqual(["GET /api/health es", "GET /api/health es"]);
  });

  it("leaves HEAD to Remix", async () => {
    seen.length = 0;
    const head = await fetch(`${servers.withFastPath.url}/api/health`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    // (fetch itself sends Accept-Language: *)
    expect(seen).toEqual(["HEAD /api/health *"]);
  });
});
