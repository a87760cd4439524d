import express from "express";
import { describe, expect, it } from "vitest";
import type { ServerBuild } from "@remix-run/node";
import { apiFastPath, FAST_API_ROUTES } from "../../../server/api-fast-path";
import { apiRoute, jsonResponse, plainJsonAnswer } from "../../../app/server/platform/api.server";
import { plainAnswers as realPlainAnswers } from "../../../app/server/platform/plain-answers.server";
import * as healthRoute from "../../../app/routes/api.health";
import { remixRequestHandler } from "../../../server/remix-handler";
import { fastPathAndRemix, resourceRouteBuild } from "./helpers";

/**
 * Decision 462 (issue 29): a route with a plain answer in the server build (the health check) is
 * answered by the API fast path with its JSON text and headers, no web Request or Response made;
 * the answer is what the route module answers through Remix, byte for byte. A plain answer that
 * throws is answered by the route module (which words the error); HEAD, other methods and `_data`
 * requests go to Remix.
 */
let status: Record<string, unknown> = { status: "ok", commit: "abc", planData: "sample" };
let failing = false;
const calls = { plain: 0, loader: 0 };
const state = () => {
  if (failing) throw new Error("state unreadable");
  return status;
};
const route = apiRoute({ GET: () => jsonResponse(state()) });

function build(): ServerBuild {
  const made = resourceRouteBuild({
    "api/health": {
      loader: (args) => {
        calls.loader++;
        return route.loader(args as Parameters<typeof route.loader>[0]) as Promise<Response>;
      },
    },
  });
  // The real build names routes by file ("routes/api.health") and its entry module re-exports the plain answers.
  const routes: Record<string, unknown> = {};
  for (const [id, entry] of Object.entries(made.routes)) {
    const fileId = id === "root" ? id : id.replace(/^routes\/api\//, "routes/api.");
    routes[fileId] = { ...entry, id: fileId };
  }
  const plainAnswers = {
    "routes/api.health": () => {
      calls.plain++;
      return plainJsonAnswer(state());
    },
  };
  return { ...made, routes, entry: { module: { ...made.entry.module, plainAnswers } } } as ServerBuild;
}

const serverBuild = build();
function app(fast: boolean) {
  const a = express();
  if (fast) a.use(apiFastPath(serverBuild, { "/api/health": FAST_API_ROUTES["/api/health"]! }));
  a.all("*", remixRequestHandler({ build: serverBuild, mode: "production", getLoadContext: () => ({}) }));
  return a;
}
const servers = fastPathAndRemix(app);

describe("plain answers of the API fast path", () => {
  it("answers GET /api/health from the plain answer, as Remix answers it through the route module", async () => {
    status = { status: "ok", commit: "abc", planData: "sample", note: "naïve ✓" };
    calls.plain = calls.loader = 0;
    const fast = await fetch(`${servers.withFastPath.url}/api/health`);
    expect(calls).toEqual({ plain: 1, loader: 0 });
    const remix = await fetch(`${servers.throughRemix.url}/api/health`);
    expect(calls).toEqual({ plain: 1, loader: 1 });
    expect(fast.status).toBe(200);
    expect(fast.status).toBe(remix.status);
    for (const header of ["content-type", "cache-control"])
      expect(fast.headers.get(header)).toBe(remix.headers.get(header));
    expect(fast.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(fast.headers.get("cache-control")).toBe("no-store");
    const text = await fast.text();
    expect(text).toBe(await remix.text());
    expect(text).toBe(JSON.stringify(status));
  });

  it("lets the route module answer when the plain answer throws (the error in the API's shape)", async () => {
    failing = true;
    calls.plain = calls.loader = 0;
    try {
      const [fast, remix] = await Promise.all(
        [servers.withFastPath, servers.throughRemix].map((s) => fetch(`${s.url}/api/health`)),
      );
      expect(calls).toEqual({ plain: 1, loader: 2 });
      expect(fast.status).toBe(500);
      expect(await fast.json()).toEqual(await remix.json());
    } finally {
      failing = false;
    }
  });

  it("leaves HEAD and _data requests to Remix", async () => {
    calls.plain = calls.loader = 0;
    const head = await fetch(`${servers.withFastPath.url}/api/health`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const [fast, remix] = await Promise.all(
      [servers.withFastPath, servers.throughRemix].map((s) => fetch(`${s.url}/api/health?_data=routes%2Fapi.health`)),
    );
    expect(fast.status).toBe(remix.status);
    expect(await fast.text()).toBe(await remix.text());
    expect(calls.plain).toBe(0);
  });
});

describe("the real health check's plain answer", () => {
  it("is the route module's answer: the same status, headers and JSON", async () => {
    const plain = await realPlainAnswers["routes/api.health"]!("http://localhost/api/health");
    const response = (await healthRoute.loader({
      request: new Request("http://localhost/api/health"),
      params: {},
      context: {},
    } as Parameters<typeof healthRoute.loader>[0])) as Response;
    expect(plain.status).toBe(response.status);
    expect(plain.headers).toEqual(Object.fromEntries(response.headers));
    // Two answers a moment apart: the same keys and the same settled parts.
    const fromRoute = JSON.parse(await response.text()) as Record<string, unknown>;
    const fromPlain = JSON.parse(plain.text) as Record<string, unknown>;
    expect(Object.keys(fromPlain)).toEqual(Object.keys(fromRoute));
    expect(fromPlain).toEqual(fromRoute);
  });
});
