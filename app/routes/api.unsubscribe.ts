import { apiRoute, ApiError, jsonResponse, readBodyText } from "../server/platform/api.server";
import { checkUnsubscribeLink, unsubscribe, type UnsubscribeMethod } from "../server/intake/unsubscribe.server";

/**
 * /api/unsubscribe?email=<address>&token=<hmac> (the List-Unsubscribe URL of every email)
 *   GET  -> 303 to the confirmation page /unsubscribe (so a link opened in a browser asks first)
 *   POST -> 200 {unsubscribed: true, already_unsubscribed} (RFC 8058 one-click: body
 *           "List-Unsubscribe=One-Click"; email/token may also come in a form or JSON body)
 * 400 for a missing or bad token, 503 when UNSUBSCRIBE_TOKEN_SECRET is not set.
 */

async function readLink(
  request: Request,
): Promise<{ email: string | null; token: string | null; method: UnsubscribeMethod }> {
  const url = new URL(request.url);
  let email = url.searchParams.get("email");
  let token = url.searchParams.get("token");
  let method: UnsubscribeMethod = "api";
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const text = await readBodyText(request, 4 * 1024);
  if (text) {
    let fields: Record<string, unknown> = {};
    if (type.startsWith("application/json")) {
      try {
        const parsed = JSON.parse(text) as unknown;
        if (parsed && typeof parsed === "object") fields = parsed as Record<string, unknown>;
      } catch {
        throw new ApiError(400, "malformed_json", "The request body is not valid JSON.");
      }
    } else if (type.startsWith("multipart/form-data")) {
      const form = await new Request(request.url, { method: "POST", headers: { "content-type": type }, body: text })
        .formData()
        .catch(() => null);
      if (form) fields = Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === "string" ? v : ""]));
    } else if (type === "" || type.startsWith("application/x-www-form-urlencoded") || type.startsWith("text/plain")) {
      fields = Object.fromEntries(new URLSearchParams(text));
    } else {
      // Only types the request firewall inspects are read as a form (docs/decisions/104).
      throw new ApiError(
        415,
        "unsupported_media_type",
        "Send the unsubscribe request as a form, JSON or multipart body.",
      );
    }
    if (typeof fields.email === "string") email = fields.email;
    if (typeof fields.token === "string") token = fields.token;
    if (fields["List-Unsubscribe"] === "One-Click") method = "one_click";
  }
  return { email, token, method };
}

const route = apiRoute({
  GET: ({ request }) => {
    const url = new URL(request.url);
    const email = url.searchParams.get("email");
    const token = url.searchParams.get("token");
    checkUnsubscribeLink(email, token);
    const query = new URLSearchParams({ email: email!, token: token! });
    return new Response(null, {
      status: 303,
      headers: { location: `/unsubscribe?${query}`, "cache-control": "no-store" },
    });
  },
  POST: async ({ request }) => {
    const link = await readLink(request);
    const result = await unsubscribe(link.email, link.token, link.method);
    return jsonResponse({ unsubscribed: true, already_unsubscribed: result.alreadyUnsubscribed });
  },
});

export const loader = route.loader;
export const action = route.action;
