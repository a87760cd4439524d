/**
 * What the upstream coverage answer was (the drug list, the provider directory). Its own module:
 * the results page needs only this of coverage-words.ts, whose words load with the parts that
 * show them (issue 29 item 4, decision 407).
 */
export type UpstreamState = "ok" | "partial" | "unavailable" | "busy";

/** Upstream gave no answer at all: down, or too busy to ask (the call budget was spent). */
export function noUpstreamAnswer(upstream: unknown): boolean {
  return upstream === "unavailable" || upstream === "busy";
}
