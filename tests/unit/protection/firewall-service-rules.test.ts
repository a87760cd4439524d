import { describe, expect, it } from "vitest";
import { SERVICE_RULES, topLevelAlternatives } from "../../../server/firewall/service-rules";
import { buildRuleSet } from "../../../server/firewall/ruleset";
import { FirewallEngine } from "../../../server/firewall/engine";

/**
 * The service rules as the engine loads them (docs/decisions/414): long patterns split into
 * several rules at their top-level alternatives, each within RE2's per-expression bound.
 */
describe("service rules split at top-level alternatives", () => {
  it("splits only at a top-level bar, never inside a group, a class or after a backslash", () => {
    expect(topLevelAlternatives(String.raw`a|b(c|d)|[|]x|\|y`)).toEqual(["a", "b(c|d)", "[|]x", String.raw`\|y`]);
    expect(topLevelAlternatives(String.raw`(?:a|b)`)).toEqual([String.raw`(?:a|b)`]);
    expect(topLevelAlternatives(String.raw`[\]|]|z`)).toEqual([String.raw`[\]|]`, "z"]);
  });

  it("keeps every rule id unique and every split pattern within 2,000 characters or one alternative", () => {
    const ids = SERVICE_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of SERVICE_RULES) {
      const regex = rule.conditions[0]!.parameters.regex as string;
      if (regex.length > 2_000) expect(topLevelAlternatives(regex), rule.id).toHaveLength(1);
    }
  });

  it("gives a split rule's parts the family of the rule they come from, and the engine loads them all", () => {
    const ruleSet = buildRuleSet();
    expect(ruleSet.types.get("svc-cmdi-001-2")).toBe("command_injection");
    expect(ruleSet.types.get("svc-cmdi-001")).toBe("command_injection");
    expect(() => new FirewallEngine(ruleSet)).not.toThrow();
  });
});
