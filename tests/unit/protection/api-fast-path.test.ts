import express from "express";
import { describe, expect, it } from "vitest";
import type { ServerBuild } from "@remix-run/node";
import { apiFastPath } from "../../../server/api-fast-path";
import { keepInspectedBody } from "../../../server/firewall/body";
import { JSON_TEXT, jsonResponse } from "../../../app/server/platform/api.server";
import { remixRequestHandler } from "../../../server/remix-handler";
import { fastPathAndRemix, resourceRouteBuild } from "./helpers";

/**
 * Decision 400 (issue 29): the health check, counties and the plan list go straight to their
 * route modules, past Remix's request handling, and answer exactly what Remix would have.
 */
const seen: string[] = [];
let throughRemixOnFastServer = 0;
const echo = async ({ request }: { request: Request }) => {
  const body = request.method === "POST" ? await request.text() : "";
  seen.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
  const status = new URL(request.url).searchParams.get("zip") === "bad" ? 400 : 200;
  return new Response(
    JSON.stringify({
      search: new URL(request.url).search,
      language: request.headers.get("accept-language"),
      type: request.headers.get("content-type"),
      body,
    }),
    {
      status,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store",
        "server-timing": "pricing;dur=0.1",
      },
    },
  );
};

/**
 * The same answer made with the routes' own jsonResponse, which keeps its JSON text on the
 * Response: the fast path writes that text instead of reading the body (it must answer alike).
 */
const kept: Response[] = [];
const echoJson = async (args: { request: Request }) => {
  const answer = await echo(args);
  const response = jsonResponse(await answer.json(), {
    status: answer.status,
    headers: { "server-timing": "pricing;dur=0.1" },
  });
  kept.push(response);
  return response;
};

/** resourceRouteBuild names a route by its path ("routes/api/plans"); the real build by its file ("routes/api.plans"). */
function buildWithFileIds(): ServerBuild {
  const build = resourceRouteBuild({
    "api/health": { loader: echo },
    "api/counties": { loader: echoJson },
    "api/plans": { action: echo },
  });
  const routes: Record<string, unknown> = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const fileId = id === "root" ? id : id.replace(/^routes\/api\//, "routes/api.");
    routes[fileId] = { ...route, id: fileId };
  }
  return { ...build, routes } as unknown as ServerBuild;
}
const build = buildWithFileIds();

function app(fast: boolean) {
  const a = express();
  a.set("query parser", false);
  // What the firewall does for a JSON body it has read and judged.
  a.use((req, _res, next) => {
    if (req.method !== "POST") return next();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      keepInspectedBody(req, Buffer.concat(chunks));
      next();
    });
  });
  if (fast) a.use(apiFastPath(build));
  const remix = remixRequestHandler({ build, mode: "production", getLoadContext: () => ({}) });
  a.all("*", (req, res, next) => {
    if (fast) throughRemixOnFastServer++;
    void remix(req, res, next);
  });
  return a;
}

const servers = fastPathAndRemix(app);

async function both(path: string, init: RequestInit = {}) {
  seen.length = 0;
  throughRemixOnFastServer = 0;
  const [fast, remix] = await Promise.all(
    [servers.withFastPath, servers.throughRemix].map((s) => fetch(`${s.url}${path}`, init)),
  );
  return { fast, remix, fastText: await fast.text(), remixText: await remix.text() };
}

describe("JSON API routes without Remix's request handling", () => {
  it.each([
    ["GET", "/api/health", undefined],
    ["GET", "/api/counties?zip=32119&year=2027", undefined],
    ["GET", "/api/counties?zip=bad", undefined],
    ["POST", "/api/plans", JSON.stringify({ income: 90000, place: { zip: "32119" } })],
  ])("%s %s answers what Remix answers: status, type, headers and body", async (method, path, body) => {
    const { fast, remix, fastText, remixText } = await both(path, {
      method,
      body,
      headers: { "accept-language": "es", ...(body ? { "content-type": "application/json" } : {}) },
    });
    expect(fast.status).toBe(remix.status);
    for (const name of ["content-type", "cache-control", "server-timing"])
      expect(fast.headers.get(name)).toBe(remix.headers.get(name));
    expect(fastText).toBe(remixText);
    expect(JSON.parse(fastText)).toMatchObject({ language: "es", body: body ?? "" });
    expect(seen).toHaveLength(2);
    expect(throughRemixOnFastServer).toBe(0);
  });

  it("writes the JSON text a jsonResponse kept, without reading the Response's body", async () => {
    kept.length = 0;
    const answer = await fetch(`${servers.withFastPath.url}/api/counties?zip=32119`, {
      headers: { "accept-language": "en" },
    });
    expect(answer.status).toBe(200);
    expect(kept).toHaveLength(1);
    const response = kept[0]! as Response & { [JSON_TEXT]?: string };
    expect(await answer.text()).toBe(response[JSON_TEXT]);
    expect(response.bodyUsed).toBe(false);
    // Through Remix the same kind of answer is read as a stream, as before.
    kept.length = 0;
    await (await fetch(`${servers.throughRemix.url}/api/counties?zip=32119`)).text();
    expect(kept[0]!.bodyUsed).toBe(true);
  });

  it("leaves HEAD, other methods and _data requests to Remix", async () => {
    const head = await fetch(`${servers.withFastPath.url}/api/health`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const { fast, remix } = await both("/api/plans", { method: "GET" });
    expect(fast.status).toBe(remix.status);
    const data = await both("/api/counties?zip=32119&_data=routes%2Fapi.counties");
    expect(data.fast.status).toBe(data.remix.status);
    expect(data.fastText).toBe(data.remixText);
    expect(throughRemixOnFastServer).toBe(1);
  });
});
