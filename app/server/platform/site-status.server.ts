import { usesSampleUpstream } from "./env.server";
import { planStore } from "../plan-store/plan-store.server";

export type PlanDataStatus = "sample" | "real" | "missing";

export interface SiteStatus {
  /** Whether prices come from the bundled made-up sample data. */
  planData: PlanDataStatus;
  /** Whether drug/doctor/eligibility answers come from the bundled fake upstream. */
  sampleUpstream: boolean;
}

/** What every page's banner and /api/health report about where answers come from. */
export function siteDataStatus(): SiteStatus {
  let planData: PlanDataStatus;
  try {
    planData = planStore().isSample() ? "sample" : "real";
  } catch {
    planData = "missing";
  }
  return { planData, sampleUpstream: usesSampleUpstream() };
}
