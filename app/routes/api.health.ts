import { apiRoute, jsonResponse } from "../server/platform/api.server";
import { healthStatus } from "../server/platform/health.server";

/**
 * Load-balancer health check: what it answers and why, app/server/platform/health.server.ts. The API
 * fast path answers a plain GET with the same object without this module's Response
 * (app/server/platform/plain-answers.server.ts, docs/decisions/462); HEAD, other methods and errors
 * come here.
 */
const route = apiRoute({
  GET: () => jsonResponse(healthStatus()),
});

export const loader = route.loader;
export const action = route.action;
