import { apiRoute, jsonResponse } from "../server/platform/api.server";
import { countiesForUrl } from "../server/shopping/counties-query.server";

// GET /api/counties?zip=75201[&state=TX][&year=2027] → counties, largest share first (docs/api.md).
// The API fast path answers a plain GET from the same function without a Response (decision 462).
const route = apiRoute({
  GET: async ({ request }) => jsonResponse(await countiesForUrl(request.url)),
});

export const loader = route.loader;
export const action = route.action;
