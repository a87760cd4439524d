/**
 * Express → Remix: the request handler server.ts mounts (in the place of
 * @remix-run/express's `createRequestHandler`, which it follows: the same URL,
 * headers, abort signal and response writing). One difference
 * (docs/decisions/124-firewall-body-handed-to-remix.md): a body the firewall
 * has already read and judged is handed to Remix as those bytes. Before, the
 * firewall re-pointed the request's stream surface at a copy (some thirty
 * properties redefined per request) and Remix streamed the copy back in
 * through a web stream; both showed in profiles of `POST /api/plans` at load.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  writeReadableStreamToWritable,
  type AppLoadContext,
  type ServerBuild,
} from "@remix-run/node";
import { inspectedBody } from "./firewall/body";

export function remixRequestHandler(options: {
  build: ServerBuild;
  mode: string;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
}) {
  const handle = createRequestHandler(options.build, options.mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> => {
    try {
      const response = await handle(remixRequest(req, res), options.getLoadContext(req, res));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function remixRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const controller = new AbortController();
  // Loaders and actions are aborted when the answer can no longer be written (closed before finished).
  let finished = false;
  res.on("finish", () => (finished = true));
  res.on("close", () => {
    if (!finished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers: remixHeaders(req.headers),
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = inspectedBody(req);
    // A Buffer is a Uint8Array; TypeScript's BodyInit wants one over a plain ArrayBuffer, which this is.
    if (body !== undefined) init.body = body.byteLength > 0 ? (body as Uint8Array<ArrayBuffer>) : null;
    else {
      // Not read by the firewall (multipart uploads, counted as they stream): streamed through.
      init.body = createReadableStreamFromReadable(req);
      init.duplex = "half";
    }
  }
  return new Request(requestUrl(req), init);
}

/** The port from X-Forwarded-Host or Host, the host name from req.hostname (which honours trust proxy), the path as sent. */
function requestUrl(req: ExpressRequest): string {
  const port = portOf(req.get("x-forwarded-host")) ?? portOf(req.get("host"));
  return `${req.protocol}://${req.hostname}${port === undefined ? "" : `:${port}`}${req.originalUrl}`;
}

function portOf(host: string | undefined): number | undefined {
  const port = Number.parseInt(host?.split(":")[1] ?? "", 10);
  return Number.isSafeInteger(port) ? port : undefined;
}

function remixHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) out.append(name, v);
    else out.set(name, value);
  }
  return out;
}

async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
