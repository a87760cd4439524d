import { RenewalRequest } from "../schemas/renewal";
import { apiRoute, parseJsonBody } from "../server/platform/api.server";
import { ServerTiming } from "../server/platform/server-timing.server";
import { renewal } from "../server/renewal/renewal.server";

// POST {current_plan_id, income, household, place, usage?, drugs?, doctors?, alternatives?} → this year's plan,
// next year's plan from the Plan ID Crosswalk, both priced, the changes and better plans (docs/api.md).
const route = apiRoute({
  POST: async ({ request }) => {
    const timing = new ServerTiming();
    const answer = await renewal(await parseJsonBody(request, RenewalRequest), timing);
    return new Response(JSON.stringify(answer), {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store",
        "server-timing": timing.header(),
      },
    });
  },
});

export const loader = route.loader;
export const action = route.action;
