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
import { inspectedBody, refusedBody } from "./firewall/body";

export function remixRequestHandler(options: {
  /** The production build, or (`npm run dev`) a function that loads the current one through Vite. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
}) {
  const handle = createRequestHandler(options.build, options.mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> => {
    const refusal = unreadableRequest(req);
    if (refusal) {
      next(refusal);
      return;
    }
    try {
      const response = await handle(remixRequest(req, res), options.getLoadContext(req, res));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/** An Express error with a 4xx status: server.ts's last-resort handler answers it in the error shape. */
export class UnreadableRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "UnreadableRequestError";
  }
}

/** The body types a page's action can read: what an HTML form sends (`request.formData()`). */
const FORM_BODY_TYPE = /^(?:application\/x-www-form-urlencoded|multipart\/form-data)\s*(?:;|$)/i;

/**
 * Requests no route can be given, answered 4xx before Remix builds a Request
 * from them (each used to end in a 500 from `new Request` or `formData()`):
 * a target that is not a path (`GET *`, absolute-form URLs are rebuilt by
 * Node), a Host that is not a host name (`Host: a b`), and a body on a page
 * (not /api/) path that is not a form encoding, which `request.formData()`
 * cannot read (docs/decisions/180).
 */
export function unreadableRequest(req: ExpressRequest): UnreadableRequestError | undefined {
  const target = req.originalUrl || req.url || "";
  if (!target.startsWith("/")) return new UnreadableRequestError(400, "request target is not a path");
  try {
    new URL(requestUrl(req));
  } catch {
    return new UnreadableRequestError(400, "request URL could not be built (Host)");
  }
  if (req.method === "GET" || req.method === "HEAD" || req.path.startsWith("/api/")) return undefined;
  if (req.method === "OPTIONS") return undefined;
  if (!FORM_BODY_TYPE.test(req.headers["content-type"] ?? ""))
    return new UnreadableRequestError(415, "page actions read form encodings only");
  return undefined;
}

function remixRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const controller = new AbortController();
  // Loaders and actions are aborted when the answer can no longer be written (closed before finished):
  // one shared listener reading the answer's own controller, no closures per request (issue 29).
  res.locals.abortController = controller;
  res.once("close", abortUnlessFinished);
  const headers = remixHeaders(req.headers);
  if (refusedBody(req)) {
    // The body was over the limit and never read: the action gets an empty form (it reads
    // `context.refusedBody` to say why) instead of a multipart type with no parts.
    headers.set("content-type", "application/x-www-form-urlencoded");
    headers.delete("content-length");
  }
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers,
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

function abortUnlessFinished(this: ExpressResponse): void {
  if (!this.writableFinished) (this.locals.abortController as AbortController).abort();
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
