import { apiRoute, jsonResponse, parseJsonBody } from "../server/platform/api.server";
import { checkDrugCoverage } from "../server/upstream/lookups.server";
import { DrugCoveredBody } from "../server/upstream/requests.server";

// POST {rxcuis, plan_ids, year?} → {coverage: [one per (rxcui, plan_id)], upstream, year, sample}.
// Upstream primary, tiers and PartialCovered from own formulary rows (docs/api.md).
const route = apiRoute({
  POST: async ({ request }) => jsonResponse(await checkDrugCoverage(await parseJsonBody(request, DrugCoveredBody))),
});

export const loader = route.loader;
export const action = route.action;
