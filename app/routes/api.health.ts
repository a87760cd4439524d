import { apiRoute, jsonResponse } from "../server/platform/api.server";
import { buildRevision } from "../server/platform/build-info.server";
import { env, usesSampleUpstream } from "../server/platform/env.server";
import { sharedStateStatus } from "../server/platform/shared-state.server";
import { planDataInfo, siteDataStatus } from "../server/platform/site-status.server";
import { eligibilityDrift } from "../server/shopping/eligibility-fallback.server";
import { upstreamStatus } from "../server/upstream/client.server";
import { writeStoreStatus } from "../server/intake/write-store-health.server";

/**
 * Load-balancer health check: cheap by design (no upstream call, no query
 * beyond the plan store's cached status). `upstream` is "key_rejected" once
 * upstream has refused our key (401/403) and not answered since, "busy" while
 * upstream's Retry-After after a 429 runs; else "sample" or "live".
 * `status` is "degraded" (still 200: pages and prices are served) while the
 * write store cannot be reached and writes answer 503 (docs/decisions/370).
 */
const route = apiRoute({
  GET: () => {
    const config = env();
    const upstream = upstreamStatus();
    const writeStore = writeStoreStatus();
    return jsonResponse({
      status: writeStore.state === "ok" ? "ok" : "degraded",
      commit: buildRevision(),
      env: config.DEPLOY_ENV,
      upstream: upstream.keyRejected
        ? "key_rejected"
        : upstream.paused
          ? "busy"
          : usesSampleUpstream(config)
            ? "sample"
            : "live",
      planData: siteDataStatus().planData,
      // The loaded data's date and source, and whether it passed the seed's completeness gate.
      planStore: planDataInfo(),
      // How far our own subsidy estimate is from upstream's, over fresh upstream answers (decision 205).
      eligibilityDrift: eligibilityDrift(),
      // Limits shared on Redis, and decisions this process made alone while Redis could not answer.
      sharedState: sharedStateStatus(),
      // "unavailable" while the write store cannot be reached (writes answer 503 with Retry-After).
      writeStore,
      warnings: config.warnings.map((w) => w.split(":")[0]),
    });
  },
});

export const loader = route.loader;
export const action = route.action;
