import { JSON_TEXT, KEPT_ANSWER, apiRoute, parseJsonBody } from "../server/platform/api.server";
import { languageFromAcceptLanguage } from "../i18n/language.server";
import { PlansRequest } from "../schemas/shopping";
import { ServerTiming } from "../server/platform/server-timing.server";
import { plansAnswerJson } from "../server/shopping/plan-list-json.server";
import { plansAnswerText } from "../server/shopping/plan-list-cache.server";
import { pricePlans } from "../server/shopping/priced-plans.server";

// POST {income, household, place, year?, filters?, sort?, order?, usage?} → priced plans (docs/api.md).
const route = apiRoute({
  POST: async ({ request }) => {
    const timing = new ServerTiming();
    // The ranking's reasons in the Accept-Language's words (docs/decisions/301), English otherwise.
    const lang = languageFromAcceptLanguage(request.headers.get("Accept-Language"));
    const asked = await parseJsonBody(request, PlansRequest);
    // The same request a minute ago: its answer as it was written (docs/decisions/402).
    const { bytes, hit } = await plansAnswerText(asked, lang, async () => {
      const answer = await pricePlans(asked, timing, { lang });
      return { answer, text: timing.measure("serialisation", () => plansAnswerJson(answer)) };
    });
    // A kept answer says so in Server-Timing ("answer-cache"), with no pricing parts.
    if (hit) timing.add("answer-cache", 0);
    const response = new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "no-store",
        "server-timing": timing.header(),
      },
    });
    // The bytes as they are, for the API fast path (decision 400): not read back through a stream;
    // a kept answer's are the same Buffer every time, so its compressed copy is kept with it.
    const marked = response as Response & { [JSON_TEXT]?: Buffer; [KEPT_ANSWER]?: boolean };
    marked[JSON_TEXT] = bytes;
    if (hit) marked[KEPT_ANSWER] = true;
    return response;
  },
});

export const loader = route.loader;
export const action = route.action;
