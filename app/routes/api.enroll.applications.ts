import { apiRoute, jsonResponse, parseJsonBody } from "../server/platform/api.server";
import { createEnrollmentApplication, EnrollmentApplicationInput } from "../server/intake/enrollment.server";
import { planStore } from "../server/plan-store/plan-store.server";
import { clientIp } from "../server/intake/write-store.server";

/**
 * POST /api/enroll/applications -> 201 {application_id, status: "received", access_token}.
 * The plan must exist and be offered in the given county and year.
 */
const route = apiRoute({
  POST: async ({ request, context }) => {
    const input = await parseJsonBody(request, EnrollmentApplicationInput);
    const created = await createEnrollmentApplication(input, { plans: planStore(), ip: clientIp(context) });
    return jsonResponse(created, {
      status: 201,
      headers: { location: `/api/enroll/applications/${created.application_id}` },
    });
  },
});

export const loader = route.loader;
export const action = route.action;
