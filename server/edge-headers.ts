import { randomUUID } from "node:crypto";
import { ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { ServerTiming } from "../app/server/platform/server-timing.server";
import { cspNonce, setSecurityHeaders } from "./security-headers";

/**
 * The first middleware of server.ts: every answer's security headers with a fresh CSP nonce, its
 * request id, and Server-Timing — what the route measured (store, pricing, serialisation), then
 * `total`, the time to the first byte (pages measure into context.serverTiming, decision 116).
 *
 * Nothing here is made per request but the nonce, the id and the ServerTiming (issue 29): the
 * header values are worked out once, and the writeHead that adds Server-Timing is one shared
 * function reading the answer's own locals (it was a closure made for every request).
 */
export function edgeHeaders(analyticsHost?: string) {
  return function edgeHeaders(req: Request, res: Response, next: NextFunction): void {
    const locals = res.locals;
    const nonce = cspNonce();
    locals.cspNonce = nonce;
    const requestId = (req.headers["x-request-id"] as string | undefined)?.slice(0, 64) || randomUUID();
    locals.requestId = requestId;
    setSecurityHeaders(res, nonce, analyticsHost);
    res.setHeader("x-request-id", requestId);
    locals.serverTiming = new ServerTiming();
    locals.startedAt = performance.now();
    res.writeHead = writeHeadWithTiming as Response["writeHead"];
    next();
  };
}

const plainWriteHead = ServerResponse.prototype.writeHead as (...args: unknown[]) => ServerResponse;

function writeHeadWithTiming(this: Response, ...args: unknown[]): ServerResponse {
  const own = this.getHeader("server-timing");
  const measured = (this.locals.serverTiming as ServerTiming).header();
  const total = `total;dur=${(performance.now() - (this.locals.startedAt as number)).toFixed(1)}`;
  let value = typeof own === "string" && own !== "" ? `${own}, ` : "";
  if (measured !== "") value += `${measured}, `;
  this.setHeader("server-timing", value + total);
  return plainWriteHead.apply(this, args);
}
