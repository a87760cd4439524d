import type { AddressInfo } from "node:net";
import http from "node:http";
import type { Express } from "express";
import type { ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll } from "vitest";

/** Run an Express app on 127.0.0.1 (a random port) for one test file. */
export async function listen(
  app: Express | http.RequestListener,
  server?: http.Server,
): Promise<{ url: string; server: http.Server; close: () => Promise<void> }> {
  const s = server ?? http.createServer(app as http.RequestListener);
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server: s,
    close: () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  };
}

type Listening = Awaited<ReturnType<typeof listen>>;

/**
 * The same app twice for one test file, with the fast path and without it (everything through
 * Remix), to compare their answers: `servers.withFastPath` and `servers.throughRemix` once started.
 */
export function fastPathAndRemix(app: (fast: boolean) => Express): {
  withFastPath: Listening;
  throughRemix: Listening;
} {
  const servers = {} as { withFastPath: Listening; throughRemix: Listening };
  beforeAll(async () => {
    servers.withFastPath = await listen(app(true));
    servers.throughRemix = await listen(app(false));
  });
  afterAll(async () => {
    await servers.withFastPath.close();
    await servers.throughRemix.close();
  });
  return servers;
}

type RouteFn = (args: {
  request: Request;
  params: Record<string, string | undefined>;
  context: unknown;
}) => Promise<Response> | Response;

/**
 * The smallest real Remix server build: a root route and resource routes
 * whose loader/action are given, so @remix-run/express's createRequestHandler
 * runs exactly as in production (request built from the Express `req`, body
 * streamed from it).
 */
export function resourceRouteBuild(
  routes: Record<string, { loader?: RouteFn; action?: RouteFn }>,
  handleError: (error: unknown) => void = () => undefined,
): ServerBuild {
  const manifest: Record<string, unknown> = {
    root: { id: "root", path: "", module: { default: () => null } },
  };
  for (const [path, module] of Object.entries(routes)) {
    const id = `routes/${path}`;
    manifest[id] = { id, parentId: "root", path, module };
  }
  return {
    mode: "production",
    entry: {
      module: {
        default: () => new Response("document requests are not used in these tests", { status: 500 }),
        // Errors thrown by a route land here instead of on the console.
        handleError,
      },
    },
    routes: manifest,
    assets: { entry: { imports: [], module: "" }, routes: {}, url: "", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "",
    future: {},
    isSpaMode: false,
  } as unknown as ServerBuild;
}

/** Raw HTTP request (no fetch niceties), for chunked bodies and slow clients. */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    chunks?: Buffer[];
    endAfterChunks?: boolean;
  },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: options.method ?? "POST",
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    // Headers go out now even if no body byte follows (a client that
    // announces a body and waits).
    req.flushHeaders();
    for (const chunk of options.chunks ?? []) req.write(chunk);
    if (options.endAfterChunks !== false) req.end();
  });
}
