import { apiRoute, jsonResponse } from "../server/platform/api.server";
import { openApiDocument } from "../server/platform/openapi.server";

// GET /api/openapi.json → the OpenAPI 3.0 document generated from the routes' zod schemas (docs/api.md).
const route = apiRoute({
  GET: () => jsonResponse(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } }),
});

export const loader = route.loader;
export const action = route.action;
