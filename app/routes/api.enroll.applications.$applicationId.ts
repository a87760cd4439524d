import { apiRoute, jsonResponse } from "../server/platform/api.server";
import { bearerToken, readEnrollmentApplication } from "../server/intake/enrollment.server";

/**
 * GET /api/enroll/applications/<id> with `Authorization: Bearer <access_token>`
 * -> 200 the application; 401 without a token, 403 with another token, 404 unknown id.
 */
const route = apiRoute({
  GET: async ({ request, params }) =>
    jsonResponse(await readEnrollmentApplication(params.applicationId ?? "", bearerToken(request))),
});

export const loader = route.loader;
export const action = route.action;
