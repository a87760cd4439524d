import { apiRoute, jsonResponse, parseJsonBody } from "../server/platform/api.server";
import { suggestProviders } from "../server/upstream/lookups.server";
import { ProviderAutocompleteBody } from "../server/upstream/requests.server";

// POST {query, zip, year?} → {providers: [{npi, name, type, ...}], upstream, failedTypes?, sample}.
// Three upstream calls (Individual, Facility, Group); one failing leaves the others (docs/api.md).
const route = apiRoute({
  POST: async ({ request }) =>
    jsonResponse(await suggestProviders(await parseJsonBody(request, ProviderAutocompleteBody))),
});

export const loader = route.loader;
export const action = route.action;
