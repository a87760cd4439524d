import { errorResponse } from "../server/platform/api.server";

// Any /api path no other route claims: a JSON 404, whatever the method.
function notFound({ request }: { request: Request }) {
  const path = new URL(request.url).pathname;
  return errorResponse(404, "not_found", `No API route at ${path}.`);
}

export const loader = notFound;
export const action = notFound;
