import { describe, expect, it } from "vitest";
import { PLAN_FILTERS, type PlanFilter } from "../../../app/domain/plan-filters";
import EN from "../../../app/i18n/locales/en.json";
import ES from "../../../app/i18n/locales/es.json";

/**
 * Issue 28 item 9: the filter words live only in the catalogues; the filter descriptor holds keys
 * (its `field`, its group, its options' keys), and each key has words in English and in Spanish.
 */

const FILTERS = PLAN_FILTERS as readonly PlanFilter[];

function lookUp(catalogue: unknown, key: string): unknown {
  return key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
}

function keysOf(filter: PlanFilter): string[] {
  return [
    `filters.label.${filter.field}`,
    `filters.noun.${filter.field}`,
    ...(filter.kind === "choices" ? Object.values(filter.optionKeys ?? {}) : [`filters.group.${filter.group}`]),
  ];
}

describe("the filter descriptor holds keys (issue 28 item 9)", () => {
  it("has no label, noun or option words of its own", () => {
    for (const filter of FILTERS) {
      expect(Object.keys(filter)).not.toContain("label");
      expect(Object.keys(filter)).not.toContain("noun");
      expect(Object.keys(filter)).not.toContain("optionWords");
    }
  });

  it.each([
    ["en", EN],
    ["es", ES],
  ])("every key it names has words in the %s catalogue", (_lang, catalogue) => {
    const missing = FILTERS.flatMap(keysOf).filter((key) => {
      const words = lookUp(catalogue, key);
      return typeof words !== "string" || words.trim() === "";
    });
    expect(missing).toEqual([]);
  });

  it("words an option only through its key", () => {
    const metal = FILTERS.find((f) => f.field === "metal_levels");
    expect(metal?.kind === "choices" && metal.optionKeys?.["Expanded Bronze"]).toBe("filters.option.ExpandedBronze");
  });
});
