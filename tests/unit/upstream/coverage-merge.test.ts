import { describe, expect, it } from "vitest";
import {
  batchPlanIds,
  isFlagSet,
  mergeDrugCoverage,
  mergeProviderCoverage,
  pickNetworkTier,
  type FormularyRow,
} from "../../../app/domain/coverage";

const A = "11111TX0010001";
const B = "11111TX0010002";
const C = "22222TX0020001";
const D = "22222TX0020002";

function plainRow(
  rxcui: string,
  planId: string,
  drugTier: string | null,
  flags: Partial<FormularyRow> = {},
): FormularyRow {
  return { rxcui, planId, drugTier, priorAuth: false, stepTherapy: false, quantityLimit: false, ...flags };
}

describe("batchPlanIds", () => {
  it("cuts 25 plan ids into 10 + 10 + 5, in request order", () => {
    const ids = Array.from({ length: 25 }, (_, i) => `11111TX00${String(i).padStart(5, "0")}`);
    const batches = batchPlanIds(ids);
    expect(batches.map((b) => b.length)).toEqual([10, 10, 5]);
    expect(batches.flat()).toEqual(ids);
  });

  it("drops repeated ids before batching (11 ids with one repeat → one batch of 10)", () => {
    const ids = Array.from({ length: 10 }, (_, i) => `11111TX00${String(i).padStart(5, "0")}`);
    expect(batchPlanIds([...ids, ids[3]])).toEqual([ids]);
  });

  it("answers no batch for no plan", () => {
    expect(batchPlanIds([])).toEqual([]);
  });
});

describe("mergeDrugCoverage", () => {
  it("fills drug_tier from own rows when upstream says Covered without one", () => {
    const [result] = mergeDrugCoverage({
      rxcuis: ["617318"],
      planIds: [A],
      upstream: [{ rxcui: "617318", plan_id: A, coverage: "Covered" }],
      own: [plainRow("617318", A, "PREFERRED-BRAND")],
    });
    expect(result).toEqual({
      rxcui: "617318",
      plan_id: A,
      coverage: "Covered",
      drug_tier: "PREFERRED-BRAND",
      source: "upstream",
    });
  });

  it("keeps Covered with a null tier when the own rows do not list the pair", () => {
    const [result] = mergeDrugCoverage({
      rxcuis: ["617318"],
      planIds: [A],
      upstream: [{ rxcui: "617318", plan_id: A, coverage: "Covered" }],
      own: [plainRow("617318", B, "GENERIC")],
    });
    expect(result.coverage).toBe("Covered");
    expect(result.drug_tier).toBeNull();
  });

  it("reports PartialCovered with the restriction when own rows show prior auth, step therapy or a quantity limit", () => {
    const results = mergeDrugCoverage({
      rxcuis: ["1", "2", "3"],
      planIds: [A],
      upstream: ["1", "2", "3"].map((rxcui) => ({ rxcui, plan_id: A, coverage: "Covered" })),
      own: [
        plainRow("1", A, "BRAND", { priorAuth: true }),
        plainRow("2", A, "BRAND", { stepTherapy: "Yes" }),
        plainRow("3", A, "BRAND", { quantityLimit: "30 tablets per 30 days" }),
      ],
    });
    expect(results.map((r) => r.coverage)).toEqual(["PartialCovered", "PartialCovered", "PartialCovered"]);
    expect(results[0].restrictions).toEqual({ prior_authorization: true, step_therapy: false, quantity_limit: false });
    expect(results[1].restrictions).toEqual({ prior_authorization: false, step_therapy: true, quantity_limit: false });
    expect(results[2].restrictions).toEqual({ prior_authorization: false, step_therapy: false, quantity_limit: true });
    expect(results.every((r) => r.drug_tier === "BRAND")).toBe(true);
  });

  it("keeps GenericCovered, names the generic and takes the generic's tier", () => {
    const [result] = mergeDrugCoverage({
      rxcuis: ["262095"],
      planIds: [A],
      upstream: [{ rxcui: "262095", plan_id: A, coverage: "GenericCovered", generic_rxcui: "259255" }],
      own: [plainRow("259255", A, "GENERIC")],
    });
    expect(result).toEqual({
      rxcui: "262095",
      plan_id: A,
      coverage: "GenericCovered",
      drug_tier: "GENERIC",
      generic_rxcui: "259255",
      source: "upstream",
    });
  });

  it("never turns DataNotProvided, an unknown value or a missing plan into NotCovered", () => {
    const results = mergeDrugCoverage({
      rxcuis: ["617318"],
      planIds: [A, B, C],
      upstream: [
        { rxcui: "617318", plan_id: A, coverage: "DataNotProvided" },
        { rxcui: "617318", plan_id: B, coverage: "SomethingNew" },
        // C missing from the answer altogether
      ],
      own: [],
    });
    expect(results.map((r) => [r.plan_id, r.coverage, r.source])).toEqual([
      [A, "DataNotProvided", "none"],
      [B, "DataNotProvided", "none"],
      [C, "DataNotProvided", "none"],
    ]);
  });

  it("answers an unknown upstream pair from the own rows when they list it", () => {
    const results = mergeDrugCoverage({
      rxcuis: ["617318"],
      planIds: [A, B],
      upstream: [{ rxcui: "617318", plan_id: A, coverage: "DataNotProvided" }],
      own: [plainRow("617318", A, "PREFERRED-BRAND"), plainRow("617318", B, "BRAND", { priorAuth: 1 })],
    });
    expect(results[0]).toMatchObject({
      plan_id: A,
      coverage: "Covered",
      drug_tier: "PREFERRED-BRAND",
      source: "own_data",
    });
    expect(results[1]).toMatchObject({
      plan_id: B,
      coverage: "PartialCovered",
      drug_tier: "BRAND",
      source: "own_data",
    });
  });

  it("keeps upstream NotCovered even if own rows list the drug (upstream is primary)", () => {
    const [result] = mergeDrugCoverage({
      rxcuis: ["617318"],
      planIds: [A],
      upstream: [{ rxcui: "617318", plan_id: A, coverage: "NotCovered" }],
      own: [plainRow("617318", A, "BRAND")],
    });
    expect(result).toEqual({
      rxcui: "617318",
      plan_id: A,
      coverage: "NotCovered",
      drug_tier: null,
      source: "upstream",
    });
  });

  it("gives one result per (code, plan), codes then plans in request order, without repeats", () => {
    const results = mergeDrugCoverage({
      rxcuis: ["2", "1", "2"],
      planIds: [B, A, B],
      upstream: [],
      own: [],
    });
    expect(results.map((r) => `${r.rxcui}@${r.plan_id}`)).toEqual([`2@${B}`, `2@${A}`, `1@${B}`, `1@${A}`]);
  });
});

describe("mergeProviderCoverage", () => {
  it("fills network_tier from own rows when upstream says Covered", () => {
    const [result] = mergeProviderCoverage({
      npis: ["1000000004"],
      planIds: [A],
      upstream: [{ npi: "1000000004", plan_id: A, coverage: "Covered", accepting: "accepting" }],
      own: [{ npi: "1000000004", planId: A, networkTier: "PREFERRED" }],
    });
    expect(result).toEqual({
      npi: "1000000004",
      plan_id: A,
      coverage: "Covered",
      network_tier: "PREFERRED",
      accepting: "accepting",
      source: "upstream",
    });
  });

  it("reports PartialCovered for a provider accepting in some locations", () => {
    const [result] = mergeProviderCoverage({
      npis: ["1000000012"],
      planIds: [A],
      upstream: [{ npi: "1000000012", plan_id: A, coverage: "Covered", accepting: "accepting in some locations" }],
      own: [
        { npi: "1000000012", planId: A, networkTier: "NON-PREFERRED" },
        { npi: "1000000012", planId: A, networkTier: "PREFERRED" },
      ],
    });
    expect(result.coverage).toBe("PartialCovered");
    expect(result.network_tier).toBe("PREFERRED");
  });

  it("treats DataNotProvided and missing plans as unknown, answered by own rows when they can", () => {
    const results = mergeProviderCoverage({
      npis: ["1000000004"],
      planIds: [A, B, C, D],
      upstream: [
        { npi: "1000000004", plan_id: A, coverage: "DataNotProvided", accepting: "unknown" },
        { npi: "1000000004", plan_id: D, coverage: "NotCovered", accepting: "unknown" },
      ],
      own: [{ npi: "1000000004", planId: B, networkTier: "TIER-1" }],
    });
    expect(results.map((r) => [r.plan_id, r.coverage, r.network_tier, r.source])).toEqual([
      [A, "DataNotProvided", null, "none"],
      [B, "Covered", "TIER-1", "own_data"],
      [C, "DataNotProvided", null, "none"],
      [D, "NotCovered", null, "upstream"],
    ]);
  });
});

describe("own-row helpers", () => {
  it("reads restriction flags from booleans, numbers and text", () => {
    expect([true, 1, "Yes", "Y-limit 30", "TRUE"].map(isFlagSet)).toEqual([true, true, true, true, true]);
    expect([false, 0, "No", "", "false", null, undefined].map(isFlagSet)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("picks a stable network tier, preferring one that is not non-preferred", () => {
    expect(pickNetworkTier(["NON-PREFERRED", "PREFERRED"])).toBe("PREFERRED");
    expect(pickNetworkTier(["PREFERRED", "NON-PREFERRED"])).toBe("PREFERRED");
    expect(pickNetworkTier(["NON-PREFERRED"])).toBe("NON-PREFERRED");
    expect(pickNetworkTier([null, ""])).toBeNull();
  });
});
