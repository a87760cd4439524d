import { buildRevision } from "./build-info.server";
import { env, usesSampleUpstream } from "./env.server";
import { sharedStateStatus } from "./shared-state.server";
import { planDataInfo, siteDataStatus } from "./site-status.server";
import { eligibilityDrift } from "../shopping/eligibility-fallback.server";
import { upstreamStatus } from "../upstream/client.server";
import { writeStoreStatus } from "../intake/write-store-health.server";

/**
 * What GET /api/health answers (app/routes/api.health.ts; the API fast path writes the same object
 * as plain JSON text, docs/decisions/462). Cheap by design: no upstream call, no query beyond the
 * plan store's cached status. `upstream` is "key_rejected" once upstream has refused our key
 * (401/403) and not answered since, "busy" while upstream's Retry-After after a 429 runs; else
 * "sample" or "live". `status` is "degraded" (still 200: pages and prices are served) while the
 * write store cannot be reached and writes answer 503 (docs/decisions/370).
 */
export function healthStatus() {
  const config = env();
  const upstream = upstreamStatus();
  const writeStore = writeStoreStatus();
  return {
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
  };
}
