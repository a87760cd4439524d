import { apiRoute, jsonResponse, parseWith } from "../server/platform/api.server";
import { CountiesQuery } from "../schemas/shopping";
import { lookUpCounties } from "../server/shopping/counties.server";

// GET /api/counties?zip=75201[&state=TX][&year=2027] → counties, largest share first (docs/api.md).
const route = apiRoute({
  GET: async ({ request }) => {
    const query = parseWith(CountiesQuery, Object.fromEntries(new URL(request.url).searchParams), "query string");
    return jsonResponse(await lookUpCounties(query));
  },
});

export const loader = route.loader;
export const action = route.action;
