import { apiRoute, jsonResponse, parseJsonBody } from "../server/platform/api.server";
import { requestLanguage } from "../i18n/language.server";
import { AgentDiscoveryInput, clientIp, submitAgentDiscovery } from "../server/intake/write-store.server";

/**
 * POST /api/agents/discovery: the agent discovery form as JSON
 * -> 200 {discovery_submission_id} after the commit; the agent confirmation
 * and the operations notification are sent afterwards.
 */
const route = apiRoute({
  POST: async ({ request, context }) => {
    const input = await parseJsonBody(request, AgentDiscoveryInput);
    const result = await submitAgentDiscovery(input, {
      source: "api",
      ip: clientIp(context),
      lang: requestLanguage(request),
    });
    return jsonResponse({ discovery_submission_id: result.discoverySubmissionId });
  },
});

export const loader = route.loader;
export const action = route.action;
