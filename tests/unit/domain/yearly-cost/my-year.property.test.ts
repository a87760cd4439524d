import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { federalOutOfPocketLimits } from "../../../../app/domain/parameters";
import { roundCents } from "../../../../app/domain/pricing";
import { myYearlyCost, withPremiums, type MyDrug, type MyYearInput } from "../../../../app/domain/yearly-cost/my-year";
import { USAGE_LEVELS, type ServiceCostShare, type ServiceKind } from "../../../../app/domain/yearly-cost/usage-level";

const SERVICES: ServiceKind[] = [
  "primaryCare",
  "specialist",
  "urgentCare",
  "imaging",
  "genericDrug",
  "preferredBrandDrug",
  "emergencyRoom",
  "inpatientStay",
];
const TIERS = [
  "GENERIC",
  "PREFERRED-GENERIC",
  "PREFERRED-BRAND",
  "NON-PREFERRED-BRAND",
  "SPECIALTY",
  "ZERO-COST-SHARE-PREVENTIVE",
];

const share: fc.Arbitrary<ServiceCostShare> = fc.record({
  copay: fc.integer({ min: 0, max: 500 }),
  coinsurance: fc.constantFrom(0, 0.1, 0.2, 0.3, 0.5, 1),
  subjectToDeductible: fc.boolean(),
  covered: fc.constant(true),
});

const coveredDrug: fc.Arbitrary<MyDrug> = fc.record({
  rxcui: fc.integer({ min: 1, max: 999999 }).map(String),
  fillsPerYear: fc.integer({ min: 0, max: 24 }),
  coverage: fc.constantFrom("Covered" as const, "PartialCovered" as const, "GenericCovered" as const),
  tier: fc.constantFrom(...TIERS),
});

const anyDrug: fc.Arbitrary<MyDrug> = fc.record({
  rxcui: fc.integer({ min: 1, max: 999999 }).map(String),
  fillsPerYear: fc.integer({ min: 0, max: 24 }),
  coverage: fc.constantFrom(
    "Covered" as const,
    "NotCovered" as const,
    "PartialCovered" as const,
    "GenericCovered" as const,
    "DataNotProvided" as const,
  ),
  tier: fc.option(fc.constantFrom(...TIERS), { nil: null }),
  usualTier: fc.option(fc.constantFrom(...TIERS), { nil: null }),
});

const plan = (drugs: fc.Arbitrary<MyDrug>, coveredDoctors: boolean): fc.Arbitrary<MyYearInput> =>
  fc.record({
    monthlyPremiumAfterCredit: fc.integer({ min: 0, max: 300000 }).map((c) => c / 100),
    costShare: fc.record({
      deductible: fc.option(fc.integer({ min: 0, max: 9000 }), { nil: null }),
      familyDeductible: fc.option(fc.integer({ min: 0, max: 18000 }), { nil: null }),
      moop: fc.option(fc.integer({ min: 0, max: 10600 }), { nil: null }),
      familyMoop: fc.option(fc.integer({ min: 0, max: 21200 }), { nil: null }),
      services: fc
        .tuple(...SERVICES.map(() => share))
        .map((s) => Object.fromEntries(SERVICES.map((k, i) => [k, s[i]]))),
      drugTiers: fc.record(
        { generic: share, preferredBrand: share, nonPreferredBrand: share, specialty: share },
        { requiredKeys: [] },
      ),
      outOfNetwork: fc.record({ primary: share, specialist: share }, { requiredKeys: [] }),
    }) as fc.Arbitrary<MyYearInput["costShare"]>,
    usage: fc.constantFrom(...USAGE_LEVELS),
    coveredMembers: fc.integer({ min: 1, max: 4 }),
    planYear: fc.constant(2027),
    drugs: fc.array(drugs, { maxLength: 4 }),
    doctors: fc.array(
      fc.record({
        npi: fc.integer({ min: 1000000000, max: 1999999999 }).map(String),
        visitsPerYear: fc.integer({ min: 0, max: 12 }),
        kind: fc.constantFrom("primary" as const, "specialist" as const),
        coverage: coveredDoctors
          ? fc.constantFrom("Covered" as const, "PartialCovered" as const)
          : fc.constantFrom("Covered" as const, "NotCovered" as const, "DataNotProvided" as const),
      }),
      { maxLength: 3 },
    ),
  });

/** The maximum worst_case adds: the plan's, or the federal one for the year, family when more than one person. */
function applicableMax(input: MyYearInput): number {
  const federal = federalOutOfPocketLimits(input.planYear);
  const { moop, familyMoop } = input.costShare;
  const individual = moop ?? federal.selfOnly;
  if (input.coveredMembers === 1) return individual;
  return familyMoop ?? (moop === null ? federal.family : individual * (federal.family / federal.selfOnly));
}

/** The household with a family deductible no member's spending can reduce for another (every member's own deductible fits in it). */
function withoutSharedDeductible(input: MyYearInput): MyYearInput {
  const { deductible, familyDeductible } = input.costShare;
  if (familyDeductible == null || familyDeductible >= input.coveredMembers * (deductible ?? 0)) return input;
  return { ...input, costShare: { ...input.costShare, familyDeductible: null } };
}

describe("the shopper's own year: properties", () => {
  it("typical ≤ bad year ≤ worst case, whatever is covered", () => {
    fc.assert(
      fc.property(plan(anyDrug, false), (input) => {
        const r = myYearlyCost(input);
        expect(r.typical).toBeLessThanOrEqual(r.bad_year);
        expect(r.bad_year).toBeLessThanOrEqual(r.worst_case);
      }),
      { numRuns: 300 },
    );
  });

  it("worst case = 12 × premium after credit + the applicable maximum, whatever is covered", () => {
    fc.assert(
      fc.property(plan(anyDrug, false), (input) => {
        const r = myYearlyCost(input);
        expect(r.worst_case).toBe(roundCents(roundCents(12 * input.monthlyPremiumAfterCredit) + applicableMax(input)));
      }),
      { numRuns: 300 },
    );
  });

  it("nothing lies outside the maximum when every chosen drug and doctor is covered", () => {
    fc.assert(
      fc.property(plan(coveredDrug, true), (input) => {
        expect(myYearlyCost(input).parts.outside_max).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  // With a shared family deductible it can: care that one member at the maximum pays toward the
  // deductible meets the family deductible for the others (the real accumulator rule, decision 335).
  it("adding a covered drug never lowers a figure, unless a shared family deductible is met by it", () => {
    fc.assert(
      fc.property(plan(anyDrug, false).map(withoutSharedDeductible), coveredDrug, fc.nat(), (input, extra, at) => {
        const before = myYearlyCost(input);
        const drugs = [...input.drugs];
        drugs.splice(at % (drugs.length + 1), 0, extra);
        const after = myYearlyCost({ ...input, drugs });
        expect(after.typical).toBeGreaterThanOrEqual(before.typical);
        expect(after.bad_year).toBeGreaterThanOrEqual(before.bad_year);
        expect(after.worst_case).toBeGreaterThanOrEqual(before.worst_case);
      }),
      { numRuns: 300 },
    );
  });
});

describe("withPremiums", () => {
  it("adds the year's premiums to a $0-premium result exactly as the whole calculation does", () => {
    fc.assert(
      fc.property(plan(anyDrug, false), (input) => {
        const whole = myYearlyCost(input);
        const split = withPremiums(
          myYearlyCost({ ...input, monthlyPremiumAfterCredit: 0 }),
          input.monthlyPremiumAfterCredit,
        );
        expect(split).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });
});
