/**
 * GET /api/health straight to its route module's loader (docs/decisions/360): the load
 * balancer's check is asked for every few seconds by every balancer, and Remix's request
 * handling (route matching, the data-request protocol, its Response plumbing) was most of its
 * cost. Everything in front of Remix still runs for it (security headers, request log, the
 * firewall, compression); only Remix's handler is skipped, and the answer is the same module's.
 * HEAD, and anything else, go through Remix as before.
 */
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { ServerBuild } from "@remix-run/node";

export const HEALTH_ROUTE_ID = "routes/api.health";

type Loader = (args: { request: Request; params: Record<string, string>; context: unknown }) => Promise<unknown>;

export function healthFastPath(build: ServerBuild) {
  const loader = build.routes[HEALTH_ROUTE_ID]?.module.loader as Loader | undefined;
  return async function health(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
    if (!loader || req.method !== "GET") return next();
    try {
      const language = req.headers["accept-language"];
      const request = new Request(`http://localhost${req.originalUrl}`, {
        headers: language === undefined ? undefined : { "accept-language": language },
      });
      const response = await loader({ request, params: {}, context: {} });
      // Not a Response (a route that returns plain data): Remix knows what to do with it.
      if (!(response instanceof Response)) return next();
      const body = Buffer.from(await response.arrayBuffer());
      res.status(response.status);
      for (const [name, value] of response.headers) res.append(name, value);
      res.end(body);
    } catch (error) {
      next(error);
    }
  };
}
