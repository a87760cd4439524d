import { describe, expect, it } from "vitest";
import { passesFilters, type FilterFields } from "../../../app/domain/plan-filters";

/** Which plans the list's filters keep (POST /api/plans `filters`; the /plans filter form). */

const plan: FilterFields = {
  metal_level: "Silver",
  type: "HMO",
  issuer: { id: "10101", name: "Lone Star Health" },
  hsa_eligible: false,
  standardized: true,
  premium_w_credit: 250.5,
  deductible: { individual: 3000 },
  quality_rating: 4,
};

describe("passesFilters", () => {
  it("keeps only standardized designs when filters.standardized is set (issue 17 item 11)", () => {
    expect(passesFilters(plan, { standardized: true })).toBe(true);
    expect(passesFilters({ ...plan, standardized: false }, { standardized: true })).toBe(false);
  });

  it("keeps every plan when no filter is set", () => {
    expect(passesFilters(plan, undefined)).toBe(true);
    expect(passesFilters(plan, {})).toBe(true);
    expect(passesFilters(plan, { metal_levels: [], types: [], issuers: [] })).toBe(true);
  });

  it("metal levels and plan types: the plan's must be one of those chosen", () => {
    expect(passesFilters(plan, { metal_levels: ["Bronze", "Silver"] })).toBe(true);
    expect(passesFilters(plan, { metal_levels: ["Gold"] })).toBe(false);
    expect(passesFilters(plan, { types: ["PPO"] })).toBe(false);
    expect(passesFilters({ ...plan, type: null }, { types: ["HMO"] })).toBe(false);
  });

  it("issuers: by id or by name, in any case", () => {
    expect(passesFilters(plan, { issuers: ["10101"] })).toBe(true);
    expect(passesFilters(plan, { issuers: [" lone star HEALTH "] })).toBe(true);
    expect(passesFilters(plan, { issuers: ["20202", "Other"] })).toBe(false);
  });

  it("hsa_eligible: the plan's flag must match", () => {
    expect(passesFilters(plan, { hsa_eligible: true })).toBe(false);
    expect(passesFilters(plan, { hsa_eligible: false })).toBe(true);
  });

  it("maximum premium after credit and maximum deductible: at most the amount, to the cent", () => {
    expect(passesFilters(plan, { max_premium: 250.5 })).toBe(true);
    expect(passesFilters(plan, { max_premium: 250.49 })).toBe(false);
    expect(passesFilters(plan, { max_deductible: 3000 })).toBe(true);
    expect(passesFilters(plan, { max_deductible: 2999.99 })).toBe(false);
    // A plan that states no deductible cannot be shown to be under any maximum.
    expect(passesFilters({ ...plan, deductible: { individual: null } }, { max_deductible: 1_000_000 })).toBe(false);
  });

  it("every filter set must pass", () => {
    expect(passesFilters(plan, { metal_levels: ["Silver"], max_premium: 100 })).toBe(false);
    expect(passesFilters(plan, { metal_levels: ["Silver"], max_premium: 300, issuers: ["10101"] })).toBe(true);
  });
});
