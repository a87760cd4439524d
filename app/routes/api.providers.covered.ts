import { apiRoute, jsonResponse, parseJsonBody } from "../server/platform/api.server";
import { checkProviderCoverage } from "../server/upstream/lookups.server";
import { ProviderCoveredBody } from "../server/upstream/requests.server";

// POST {npis, plan_ids, year?} → {coverage: [one per (npi, plan_id)], upstream, year, sample}.
// Upstream primary, network tiers from own provider-network rows (docs/api.md).
const route = apiRoute({
  POST: async ({ request }) =>
    jsonResponse(await checkProviderCoverage(await parseJsonBody(request, ProviderCoveredBody))),
});

export const loader = route.loader;
export const action = route.action;
