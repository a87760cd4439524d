import { apiRoute, jsonResponse, parseJsonBody } from "../server/platform/api.server";
import { createEnrollmentApplication, EnrollmentApplicationInput } from "../server/intake/enrollment.server";
import { planStore } from "../server/plan-store/plan-store.server";
import { clientIp } from "../server/intake/write-store.server";
import { idempotencyKeyOf } from "../server/intake/idempotency.server";

/**
 * POST /api/enroll/applications -> 201 {application_id, status: "received", access_token}.
 * The plan must exist and be offered in the given county and year. With an Idempotency-Key, the
 * same request sent again answers with the first application (decision 495).
 */
const route = apiRoute({
  POST: async ({ request, context }) => {
    const idempotencyKey = idempotencyKeyOf(request);
    const input = await parseJsonBody(request, EnrollmentApplicationInput);
    const { replayed, ...created } = await createEnrollmentApplication(input, {
      plans: planStore(),
      ip: clientIp(context),
      idempotencyKey,
    });
    return jsonResponse(created, {
      status: 201,
      headers: {
        location: `/api/enroll/applications/${created.application_id}`,
        ...(replayed ? { "idempotent-replayed": "true" } : {}),
      },
    });
  },
});

export const loader = route.loader;
export const action = route.action;
