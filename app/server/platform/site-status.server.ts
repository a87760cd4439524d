import { env, usesSampleUpstream } from "./env.server";
import { localPublishedVersion } from "../plan-store/published.server";
import { planStore } from "../plan-store/plan-store.server";
import { storeMetadata } from "../plan-store/store-meta.server";

export type PlanDataStatus = "sample" | "real" | "missing";

export interface SiteStatus {
  /** Whether prices come from the bundled made-up sample data. */
  planData: PlanDataStatus;
  /** Whether drug/doctor/eligibility answers come from the bundled fake upstream. */
  sampleUpstream: boolean;
  /** False when the store was loaded with --allow-incomplete despite failing the completeness gate. */
  planDataComplete: boolean;
}

/** Where the plan data comes from and how complete it is, for /api/health. */
export interface PlanDataInfo {
  complete: boolean;
  /** One line per failed gate condition (empty when complete). */
  problems: string[];
  /** When the store was loaded (ISO 8601), null for a store that did not record it. */
  loadedAt: string | null;
  /** The source directory the store was loaded from. */
  source: string | null;
  planYears: number[];
  /** With PLAN_STORE_URL: the published version the local file is (null: not one), for watching a roll-out. */
  publishedVersion?: string | null;
}

/** What every page's banner and /api/health report about where answers come from. */
export function siteDataStatus(): SiteStatus {
  let planData: PlanDataStatus;
  let planDataComplete = true;
  try {
    const store = planStore();
    planData = store.isSample() ? "sample" : "real";
    planDataComplete = storeMetadata(store.path)?.complete ?? true;
  } catch {
    planData = "missing";
  }
  return { planData, sampleUpstream: usesSampleUpstream(), planDataComplete };
}

/** The store's own account of itself (store_meta), or null when no store is readable. */
export function planDataInfo(): PlanDataInfo | null {
  let file: string;
  try {
    file = planStore().path;
  } catch {
    return null;
  }
  const meta = storeMetadata(file);
  if (!meta) return null;
  return {
    complete: meta.complete,
    problems: meta.problems,
    loadedAt: meta.loadedAt,
    source: meta.source,
    planYears: meta.planYears,
    ...(env().PLAN_STORE_URL ? { publishedVersion: localPublishedVersion(file)?.version ?? null } : {}),
  };
}
