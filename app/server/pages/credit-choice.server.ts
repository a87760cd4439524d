import { tFor, type Language } from "../../i18n/i18n";
import type { ShoppingState } from "../../lib/shopping-url";
import type { PlansRequest } from "../../schemas/shopping";
import { ApiError } from "../platform/api.server";

/**
 * The results list with the credit taken in advance that the URL asks for (`aptc_applied`,
 * docs/decisions/320). The JSON API refuses more than the credit with a 400; the page instead
 * prices with the whole credit and says that the amount was more than the credit (a changed
 * household can leave an old amount in the URL), dropping it from the links it writes.
 */
export async function listWithinCredit<T>(
  list: (request: PlansRequest) => Promise<T>,
  check: { request: PlansRequest; ignored: string[]; state: ShoppingState },
  lang: Language,
): Promise<T> {
  try {
    return await list(check.request);
  } catch (error) {
    const asked = check.request.aptc_applied;
    if (!(error instanceof ApiError) || error.status !== 400 || !error.fields?.aptc_applied || asked === undefined) {
      throw error;
    }
    check.ignored.push(
      tFor(lang)("repaymentRisk.moreThanCredit", { amount: check.state.aptcApplied ?? String(asked) }),
    );
    delete check.state.aptcApplied;
    const { aptc_applied: _dropped, ...rest } = check.request;
    return list(rest);
  }
}
