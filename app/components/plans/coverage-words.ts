import { ENGLISH, type Words } from "./format";
import { tierWords } from "./plan-words";
import type { UpstreamState } from "./upstream-state";

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

export { noUpstreamAnswer, type UpstreamState } from "./upstream-state";

function unknown(upstream: UpstreamState, where: "drugList" | "providerDirectory", w: Words): CoverageWords {
  if (upstream === "busy") return { tone: "unknown", text: w.t("coverage.unknownBusy") };
  return upstream === "unavailable"
    ? { tone: "unknown", text: w.t("coverage.unknownUnavailable") }
    : { tone: "unknown", text: w.t(`coverage.unknownNotSaid.${where}`) };
}

function restrictionList(r: CoverageAnswer["restrictions"], w: Words): string {
  if (!r) return w.t("coverage.restrictions");
  const list = [
    r.prior_authorization && w.t("coverage.priorAuthorization"),
    r.step_therapy && w.t("coverage.stepTherapy"),
    r.quantity_limit && w.t("coverage.quantityLimit"),
  ].filter(Boolean) as string[];
  return list.length ? list.join(", ") : w.t("coverage.restrictions");
}

function onTier(tier: string | null, w: Words): string {
  return tier ? ` ${w.t("coverage.tier", { tier })}` : "";
}

export function drugCoverageWords(
  answer: CoverageAnswer | undefined,
  upstream: UpstreamState,
  w: Words = ENGLISH,
): CoverageWords {
  if (!answer) return unknown(upstream, "drugList", w);
  const tier = onTier(tierWords(answer.drug_tier, w), w);
  switch (answer.coverage) {
    case "Covered":
      return { tone: "covered", text: w.t("coverage.covered") + tier };
    case "GenericCovered":
      return { tone: "covered", text: w.t("coverage.genericCovered") + tier };
    case "PartialCovered":
      return {
        tone: "restricted",
        text: w.t("coverage.coveredWith", { list: restrictionList(answer.restrictions, w) }) + tier,
      };
    case "NotCovered":
      return { tone: "not-covered", text: w.t("coverage.notCovered") };
    default:
      return unknown(upstream, "drugList", w);
  }
}

export function doctorCoverageWords(
  answer: CoverageAnswer | undefined,
  upstream: UpstreamState,
  w: Words = ENGLISH,
): CoverageWords {
  if (!answer) return unknown(upstream, "providerDirectory", w);
  const tier = onTier(tierWords(answer.network_tier, w), w);
  switch (answer.coverage) {
    case "Covered":
      return { tone: "covered", text: w.t("coverage.inNetwork") + tier };
    case "PartialCovered":
      return { tone: "restricted", text: w.t("coverage.someLocations") + tier };
    case "NotCovered":
      return { tone: "not-covered", text: w.t("coverage.notInNetwork") };
    default:
      return unknown(upstream, "providerDirectory", w);
  }
}
