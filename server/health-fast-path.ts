/**
 * GET /api/health straight to its route module's loader (docs/decisions/360): the load
 * balancer's check is asked for every few seconds by every balancer, and Remix's request
 * handling (route matching, the data-request protocol, its Response plumbing) was most of its
 * cost. Now one of the routes of server/api-fast-path.ts (docs/decisions/400), which server.ts
 * mounts; this is that path for the health check alone.
 */
import type { ServerBuild } from "@remix-run/node";
import { apiFastPath, FAST_API_ROUTES } from "./api-fast-path";

export const HEALTH_ROUTE_ID = "routes/api.health";

export function healthFastPath(build: ServerBuild) {
  return apiFastPath(build, { "/api/health": FAST_API_ROUTES["/api/health"] });
}
