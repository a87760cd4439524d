import { apiRoute, jsonResponse, parseJsonBody } from "../server/platform/api.server";
import { ShoppingRequest } from "../schemas/shopping";
import { determineEligibility } from "../server/shopping/eligibility.server";

// POST {income, household, place, year?} → {aptc, csr, is_medicaid_chip, in_coverage_gap, …} (docs/api.md).
const route = apiRoute({
  POST: async ({ request }) => jsonResponse(await determineEligibility(await parseJsonBody(request, ShoppingRequest))),
});

export const loader = route.loader;
export const action = route.action;
