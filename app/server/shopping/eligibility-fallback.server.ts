import type { EligibilityResponse } from "../../schemas/shopping";
import type { z } from "zod";
import { logger } from "../platform/logger.server";
import { processSingleton } from "../platform/lifecycle.server";
import { type UpstreamRejectedError, type UpstreamUnavailableError, upstreamProblem } from "../upstream/client.server";

/**
 * When the federal estimate cannot be had, owned-data states answer from our
 * own calculation (docs/decisions/205-own-estimate-when-upstream-cannot.md),
 * and where both exist the difference is kept as a metric.
 */

type EligibilityAnswer = Omit<z.infer<typeof EligibilityResponse>, "aptc_applied" | "repayment_risk">;
export type FallbackReason = NonNullable<EligibilityAnswer["upstream"]>;

/** Upstream failures our own estimate stands in for; others (a place or code it refused) are answered as errors. */
export function fallbackReason(error: UpstreamUnavailableError | UpstreamRejectedError): FallbackReason | null {
  const problem = upstreamProblem(error);
  switch (problem.kind) {
    case "outage":
      return "unavailable";
    case "over_budget":
      return "busy";
    case "key_rejected":
      return "key_rejected";
    case "year_not_served":
      return "year_not_served";
    default:
      return null;
  }
}

const WHY: Record<FallbackReason, string> = {
  unavailable: "the federal Marketplace did not answer",
  busy: "the federal Marketplace is busy right now",
  key_rejected: "the federal Marketplace is not accepting our connection right now",
  year_not_served: "the federal Marketplace has not published this plan year yet",
};

/** Our own estimate, marked as such, in place of the federal one. */
export function ownEstimateInstead(own: EligibilityAnswer, reason: FallbackReason): EligibilityAnswer {
  return {
    ...own,
    source: "own",
    upstream: reason,
    note: `This is our own estimate, worked out from the federal rules and the plans sold here, because ${WHY[reason]}. The Marketplace's figure may differ slightly; it decides your credit when you apply.`,
  };
}

// ------------------------------------------------------------ drift metric

interface DriftState {
  compared: number;
  sumAbsAptc: number;
  maxAbsAptc: number;
  csrDiffers: number;
  medicaidDiffers: number;
  lastLogAt: number;
}
const DRIFT_LOG_INTERVAL_MS = 10 * 60_000;

function drift(): DriftState {
  return processSingleton<DriftState>("eligibility-drift", () => ({
    compared: 0,
    sumAbsAptc: 0,
    maxAbsAptc: 0,
    csrDiffers: 0,
    medicaidDiffers: 0,
    lastLogAt: Date.now(),
  }));
}

export interface EligibilityDrift {
  /** Fresh upstream estimates compared with our own since start. */
  compared: number;
  /** Mean and largest difference of the monthly credit, in dollars. */
  meanAbsAptc: number;
  maxAbsAptc: number;
  /** Comparisons where the savings level, or Medicaid/CHIP, differed. */
  csrDiffers: number;
  medicaidDiffers: number;
}

/**
 * Records how far our own estimate is from upstream's for one household. One
 * summary line every ten minutes at most (a metric, not per-request noise).
 */
export function recordEligibilityDrift(
  upstream: EligibilityAnswer,
  own: Pick<EligibilityAnswer, "aptc" | "csr" | "is_medicaid_chip">,
): void {
  const d = drift();
  const diff = Math.abs(upstream.aptc - own.aptc);
  d.compared++;
  d.sumAbsAptc += diff;
  d.maxAbsAptc = Math.max(d.maxAbsAptc, diff);
  if (upstream.csr !== own.csr) d.csrDiffers++;
  if (upstream.is_medicaid_chip !== own.is_medicaid_chip) d.medicaidDiffers++;
  const now = Date.now();
  if (now - d.lastLogAt >= DRIFT_LOG_INTERVAL_MS) {
    d.lastLogAt = now;
    logger().info({ event: "eligibility_drift", ...eligibilityDrift() }, "own estimate against upstream's");
  }
}

export function eligibilityDrift(): EligibilityDrift {
  const d = drift();
  return {
    compared: d.compared,
    meanAbsAptc: d.compared ? Math.round((d.sumAbsAptc / d.compared) * 100) / 100 : 0,
    maxAbsAptc: Math.round(d.maxAbsAptc * 100) / 100,
    csrDiffers: d.csrDiffers,
    medicaidDiffers: d.medicaidDiffers,
  };
}
