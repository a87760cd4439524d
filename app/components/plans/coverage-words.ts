import { tierWords } from "./format";

/**
 * One plan's answer for one chosen drug or doctor, in plain words. Four
 * outcomes a person can act on: covered (with the tier), covered with
 * restrictions, not covered, unknown. "Unknown" is never shown as "not
 * covered" (docs/decisions/041-coverage-unknown-falls-back-to-own-rows.md).
 */

export type CoverageTone = "covered" | "restricted" | "not-covered" | "unknown";

export interface CoverageWords {
  tone: CoverageTone;
  text: string;
}

/** The fields of a coverage result the words need (drug or provider). */
export interface CoverageAnswer {
  coverage: string;
  drug_tier?: string | null;
  network_tier?: string | null;
  restrictions?: { prior_authorization: boolean; step_therapy: boolean; quantity_limit: boolean };
}

export type UpstreamState = "ok" | "partial" | "unavailable" | "busy";

/** Upstream gave no answer at all: down, or too busy to ask (the call budget was spent). */
export function noUpstreamAnswer(upstream: unknown): boolean {
  return upstream === "unavailable" || upstream === "busy";
}

function unknown(upstream: UpstreamState, where: string): CoverageWords {
  if (upstream === "busy")
    return { tone: "unknown", text: "Unknown: the coverage check is busy; try again in a minute" };
  return upstream === "unavailable"
    ? { tone: "unknown", text: "Unknown: the coverage check is unavailable right now" }
    : { tone: "unknown", text: `Unknown: the plan has not said. Check its ${where}` };
}

function restrictionList(r: CoverageAnswer["restrictions"]): string {
  if (!r) return "restrictions";
  const list = [
    r.prior_authorization && "prior authorization",
    r.step_therapy && "step therapy",
    r.quantity_limit && "a quantity limit",
  ].filter(Boolean) as string[];
  return list.length ? list.join(", ") : "restrictions";
}

export function drugCoverageWords(answer: CoverageAnswer | undefined, upstream: UpstreamState): CoverageWords {
  if (!answer) return unknown(upstream, "drug list");
  const tier = tierWords(answer.drug_tier);
  const onTier = tier ? ` (tier: ${tier})` : "";
  switch (answer.coverage) {
    case "Covered":
      return { tone: "covered", text: `Covered${onTier}` };
    case "GenericCovered":
      return { tone: "covered", text: `Covered as a generic${onTier}` };
    case "PartialCovered":
      return {
        tone: "restricted",
        text: `Covered with restrictions: ${restrictionList(answer.restrictions)}${onTier}`,
      };
    case "NotCovered":
      return { tone: "not-covered", text: "Not covered" };
    default:
      return unknown(upstream, "drug list");
  }
}

export function doctorCoverageWords(answer: CoverageAnswer | undefined, upstream: UpstreamState): CoverageWords {
  if (!answer) return unknown(upstream, "provider directory");
  const tier = tierWords(answer.network_tier);
  const onTier = tier ? ` (tier: ${tier})` : "";
  switch (answer.coverage) {
    case "Covered":
      return { tone: "covered", text: `In network${onTier}` };
    case "PartialCovered":
      return { tone: "restricted", text: `In network at some of their locations only${onTier}` };
    case "NotCovered":
      return { tone: "not-covered", text: "Not in network" };
    default:
      return unknown(upstream, "provider directory");
  }
}
