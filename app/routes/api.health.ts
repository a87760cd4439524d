import { apiRoute, jsonResponse } from "../server/platform/api.server";
import { buildRevision } from "../server/platform/build-info.server";
import { env, usesSampleUpstream } from "../server/platform/env.server";
import { planDataInfo, siteDataStatus } from "../server/platform/site-status.server";

/**
 * Load-balancer health check: cheap by design (no upstream call, no query
 * beyond the plan store's cached status).
 */
const route = apiRoute({
  GET: () => {
    const config = env();
    return jsonResponse({
      status: "ok",
      commit: buildRevision(),
      env: config.DEPLOY_ENV,
      upstream: usesSampleUpstream(config) ? "sample" : "live",
      planData: siteDataStatus().planData,
      // The loaded data's date and source, and whether it passed the seed's completeness gate.
      planStore: planDataInfo(),
      warnings: config.warnings.map((w) => w.split(":")[0]),
    });
  },
});

export const loader = route.loader;
export const action = route.action;
