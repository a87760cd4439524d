import { apiRoute, jsonResponse, parseJsonBody } from "../server/platform/api.server";
import { requestLanguage } from "../i18n/language.server";
import { AgentDiscoveryInput, clientIp, submitAgentDiscovery } from "../server/intake/write-store.server";
import { idempotencyKeyOf } from "../server/intake/idempotency.server";

/**
 * POST /api/agents/discovery: the agent discovery form as JSON
 * -> 200 {discovery_submission_id} after the commit; the agent confirmation
 * and the operations notification are sent afterwards. With an Idempotency-Key, the same request
 * sent again answers with the first submission's id and sends nothing more (decision 495).
 */
const route = apiRoute({
  POST: async ({ request, context }) => {
    const idempotencyKey = idempotencyKeyOf(request);
    const input = await parseJsonBody(request, AgentDiscoveryInput);
    const result = await submitAgentDiscovery(input, {
      source: "api",
      ip: clientIp(context),
      lang: requestLanguage(request),
      idempotencyKey,
    });
    return jsonResponse(
      { discovery_submission_id: result.discoverySubmissionId },
      result.replayed ? { headers: { "idempotent-replayed": "true" } } : undefined,
    );
  },
});

export const loader = route.loader;
export const action = route.action;
