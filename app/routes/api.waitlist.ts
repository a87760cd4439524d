import { apiRoute, jsonResponse, parseJsonBody } from "../server/platform/api.server";
import { requestLanguage } from "../i18n/language.server";
import { WaitlistInput, submitWaitlist } from "../server/intake/write-store.server";

/**
 * POST /api/waitlist {email, zip, interest} -> 200 {waitlist_submission_id}.
 * Answers only after the row (and its emails, in the outbox) is committed;
 * the emails go out after the answer. The same address and interest again
 * returns the existing id.
 */
const route = apiRoute({
  POST: async ({ request }) => {
    const input = await parseJsonBody(request, WaitlistInput);
    // The emails are in the request's language (lang, cookie, Accept-Language: docs/decisions/230).
    const result = await submitWaitlist(input, { source: "api", lang: requestLanguage(request) });
    return jsonResponse({ waitlist_submission_id: result.waitlistSubmissionId });
  },
});

export const loader = route.loader;
export const action = route.action;
