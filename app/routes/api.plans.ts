import { apiRoute, parseJsonBody } from "../server/platform/api.server";
import { languageFromAcceptLanguage } from "../i18n/language.server";
import { PlansRequest } from "../schemas/shopping";
import { ServerTiming } from "../server/platform/server-timing.server";
import { plansAnswerJson } from "../server/shopping/plan-list-json.server";
import { pricePlans } from "../server/shopping/priced-plans.server";

// POST {income, household, place, year?, filters?, sort?, order?, usage?} → priced plans (docs/api.md).
const route = apiRoute({
  POST: async ({ request }) => {
    const timing = new ServerTiming();
    // The ranking's reasons in the Accept-Language's words (docs/decisions/301), English otherwise.
    const lang = languageFromAcceptLanguage(request.headers.get("Accept-Language"));
    const answer = await pricePlans(await parseJsonBody(request, PlansRequest), timing, { lang });
    const body = timing.measure("serialisation", () => plansAnswerJson(answer));
    return new Response(body, {
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
