import { apiRoute, jsonResponse, parseJsonBody } from "../server/platform/api.server";
import { suggestDrugs } from "../server/upstream/lookups.server";
import { DrugAutocompleteBody } from "../server/upstream/requests.server";

// POST {query, year?} → {drugs: [{rxcui, name, strength, route, full_name}], upstream, sample}.
// Upstream down → 200 with an empty list and upstream "unavailable" (docs/api.md).
const route = apiRoute({
  POST: async ({ request }) => jsonResponse(await suggestDrugs(await parseJsonBody(request, DrugAutocompleteBody))),
});

export const loader = route.loader;
export const action = route.action;
