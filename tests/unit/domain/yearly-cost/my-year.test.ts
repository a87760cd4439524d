import { describe, expect, it } from "vitest";
import { PRICE_PER_FILL, doctorKindOf, drugTierKind } from "../../../../app/domain/yearly-cost/assumptions";
import {
  myYearlyCost,
  type MyDoctor,
  type MyDrug,
  type MyPlanCostShare,
  type MyYearInput,
} from "../../../../app/domain/yearly-cost/my-year";
import type { ServiceCostShare, ServiceKind } from "../../../../app/domain/yearly-cost/usage-level";

// Hand calculations. Prices a fill and a visit are the cited table (docs/yearly-cost.md "Your year"):
// generic $15, preferred and non-preferred brand $300, specialty $950; primary care visit $150,
// specialist $250. The usage level's services are "No Charge" here unless a case says otherwise, so
// the figures are the premiums plus the chosen drugs and doctors alone.

const share = (copay: number, coinsurance = 0, subjectToDeductible = false): ServiceCostShare => ({
  copay,
  coinsurance,
  subjectToDeductible,
  covered: true,
});
const NO_CHARGE = share(0);
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
const services = (s: ServiceCostShare) =>
  Object.fromEntries(SERVICES.map((k) => [k, s])) as MyPlanCostShare["services"];

function plan(over: Partial<MyPlanCostShare> = {}): MyPlanCostShare {
  return {
    deductible: 1000,
    moop: 9000,
    services: services(NO_CHARGE),
    drugTiers: {
      generic: share(10),
      preferredBrand: share(50, 0, true),
      nonPreferredBrand: share(0, 0.5, true),
      specialty: share(0, 0.5, true),
    },
    outOfNetwork: {},
    ...over,
  };
}
const drug = (rxcui: string, over: Partial<MyDrug> = {}): MyDrug => ({
  rxcui,
  fillsPerYear: 12,
  coverage: "Covered",
  tier: "GENERIC",
  ...over,
});
const doctor = (npi: string, over: Partial<MyDoctor> = {}): MyDoctor => ({
  npi,
  visitsPerYear: 4,
  kind: "specialist",
  coverage: "Covered",
  ...over,
});
const input = (over: Partial<MyYearInput>): MyYearInput => ({
  monthlyPremiumAfterCredit: 300,
  costShare: plan(),
  usage: "medium",
  coveredMembers: 1,
  planYear: 2027,
  drugs: [],
  doctors: [],
  ...over,
});

describe("the shopper's own year: hand calculations", () => {
  it("copay before the deductible: metformin as a generic at $10 a fill", () => {
    // Generic tier "$10 Copay" (not after deductible): each $15 fill costs min($15, $10) = $10.
    // 12 fills × $10 = $120. Premiums 12 × $300 = $3,600. typical = $3,600 + $120 = $3,720.
    // worst = $3,600 + the $9,000 maximum = $12,600.
    const r = myYearlyCost(input({ drugs: [drug("861007")] }));
    expect(r.parts.drugs[0].yearly_cost).toBe(120);
    expect(r.typical).toBe(3720);
    expect(r.bad_year).toBe(3720); // the high level's services are No Charge in this plan
    expect(r.worst_case).toBe(12600);
    expect(r.unknowns).toEqual([]);
  });

  it("copay after the deductible: Lipitor as a preferred brand, $50 after a $1,000 deductible", () => {
    // Fills 1-3: $300 each to the deductible = $900. Fill 4: the last $100 of the deductible, then
    // the $50 copay on the $200 left = $150. Fills 5-12: 8 × $50 = $400. Year: $900 + $150 + $400 = $1,450.
    const r = myYearlyCost(input({ drugs: [drug("617318", { tier: "PREFERRED-BRAND" })] }));
    expect(r.parts.drugs[0].yearly_cost).toBe(1450);
    expect(r.typical).toBe(3600 + 1450);
  });

  it("coinsurance: a non-preferred brand at 50% after the deductible", () => {
    // Fills 1-3: $900 to the deductible. Fill 4: $100 + 50% × $200 = $200. Fills 5-12: 8 × 50% × $300 = $1,200.
    // Year: $900 + $200 + $1,200 = $2,300.
    const r = myYearlyCost(input({ drugs: [drug("617318", { tier: "NON-PREFERRED-BRAND" })] }));
    expect(r.parts.drugs[0].yearly_cost).toBe(2300);
  });

  it("not covered: the full price of every fill, outside the maximum (more than the same drug at a copay)", () => {
    // Not on the formulary; other plans list it as a preferred brand: 12 × $300 = $3,600, paid in full,
    // no deductible credit. The figures count it toward the $9,000 maximum (decision 332), so
    // worst = $3,600 premiums + $9,000 = $12,600, and outside_max says $3,600 of the year is care no
    // real maximum caps.
    const notCovered = myYearlyCost(
      input({ drugs: [drug("617318", { coverage: "NotCovered", tier: null, usualTier: "PREFERRED-BRAND" })] }),
    );
    expect(notCovered.parts.drugs[0]).toMatchObject({ yearly_cost: 3600, counts_toward_max: false });
    expect(notCovered.worst_case).toBe(12600);
    expect(notCovered.typical).toBe(3600 + 3600);
    expect(notCovered.parts.outside_max).toBe(3600);
    // The same drug covered at a $50 copay from the first fill: 12 × $50 = $600.
    const copay = myYearlyCost(
      input({
        costShare: plan({ drugTiers: { preferredBrand: share(50) } }),
        drugs: [drug("617318", { tier: "PREFERRED-BRAND" })],
      }),
    );
    expect(copay.parts.drugs[0].yearly_cost).toBe(600);
    expect(notCovered.typical).toBeGreaterThan(copay.typical);
  });

  it("unknown coverage: priced as covered, with the range it could take", () => {
    // Upstream gave no answer and no own row lists it; other plans list it as GENERIC.
    // Covered: 12 × $10 = $120 (the figure). Not covered: 12 × $15 = $180 (the top of the range).
    const r = myYearlyCost(
      input({ drugs: [drug("861007", { coverage: "DataNotProvided", tier: null, usualTier: "GENERIC" })] }),
    );
    expect(r.parts.drugs[0].yearly_cost).toBe(120);
    expect(r.unknowns).toEqual([{ kind: "drug_coverage", rxcui: "861007", low: 120, high: 180 }]);
    expect(r.worst_case).toBe(3600 + 9000);
  });

  it("the family maximum reached: three people in a high year", () => {
    // Every service 50% coinsurance after a $2,000 deductible ($4,000 family); maximum $5,000 each,
    // $10,000 family. A high year is $24,460 of care per person.
    // Person 1: $2,000 deductible + 50% × $22,460 = $13,230 → capped at $5,000.
    // Person 2: same → $5,000; the family has now paid its $10,000 maximum.
    // Person 3: $0. Out-of-pocket $10,000; premiums $3,600; typical = bad year = worst = $13,600.
    const r = myYearlyCost(
      input({
        usage: "high",
        coveredMembers: 3,
        costShare: plan({
          deductible: 2000,
          familyDeductible: 4000,
          moop: 5000,
          familyMoop: 10000,
          services: services(share(0, 0.5, true)),
        }),
      }),
    );
    expect(r.typical).toBe(13600);
    expect(r.bad_year).toBe(13600);
    expect(r.worst_case).toBe(13600);
    expect(r.parts.out_of_pocket_max).toBe(10000);
  });

  it("a member at the maximum credits the family deductible only with what they paid", () => {
    // The case of usage-level.test.ts in the shopper's own year: deductible 300, family 600, maximum
    // 250, three members, medium year, urgent care $200 (its allowed cost, under a $450 copay),
    // imaging $300 to the deductible. Each member pays 200 + 50 = 250 and credits 50 to the family
    // deductible: 3 × 250 = 750 (crediting the full $300 would give 250 + 250 + 200 = 700).
    const r = myYearlyCost(
      input({
        costShare: plan({
          deductible: 300,
          familyDeductible: 600,
          moop: 250,
          familyMoop: 3000,
          services: { ...services(NO_CHARGE), urgentCare: share(450), imaging: share(0, 0, true) },
        }),
        monthlyPremiumAfterCredit: 0,
        usage: "medium",
        coveredMembers: 3,
      }),
    );
    expect(r.typical).toBe(750);
  });

  it("a CSR variant: the 94% silver's own deductible, maximum and specialist copay", () => {
    // Standard silver: $5,000 deductible, $9,200 maximum, specialist "$80 Copay after deductible":
    // 4 visits × $250 all go to the deductible = $1,000. worst = $3,600 + $9,200 = $12,800.
    // Its 94% variant: $300 deductible, $1,400 maximum, specialist "$10 Copay": 4 × $10 = $40, and
    // the medium year's own 2 specialist visits 2 × $10 = $20: typical = $3,600 + $40 + $20 = $3,660.
    // worst = $3,600 + $1,400 = $5,000.
    const standard = myYearlyCost(
      input({
        costShare: plan({
          deductible: 5000,
          moop: 9200,
          services: { ...services(NO_CHARGE), specialist: share(80, 0, true) },
        }),
        doctors: [doctor("1480000045")],
      }),
    );
    const csr94 = myYearlyCost(
      input({
        costShare: plan({ deductible: 300, moop: 1400, services: { ...services(NO_CHARGE), specialist: share(10) } }),
        doctors: [doctor("1480000045")],
      }),
    );
    expect(standard.parts.doctors[0].yearly_cost).toBe(1000);
    expect(standard.worst_case).toBe(12800);
    expect(csr94.parts.doctors[0].yearly_cost).toBe(40);
    expect(csr94.parts.other_care.yearly_cost).toBe(20);
    expect(csr94.typical).toBe(3660);
    expect(csr94.worst_case).toBe(5000);
  });

  it("a doctor out of network on a plan with no out-of-network cover: every visit in full, outside the maximum", () => {
    // 3 primary care visits × $150 = $450.
    const r = myYearlyCost(
      input({ doctors: [doctor("1480000003", { kind: "primary", visitsPerYear: 3, coverage: "NotCovered" })] }),
    );
    expect(r.parts.doctors[0]).toMatchObject({ in_network: false, yearly_cost: 450, counts_toward_max: false });
    expect(r.worst_case).toBe(3600 + 9000);
    expect(r.parts.outside_max).toBe(450);
  });

  it("a bad year is the high level of care: all of a $3,000 deductible instead of the medium year's $1,630", () => {
    // Every service "$0 Copay after deductible": the member pays each service until the deductible is met.
    // Medium year: $1,630 of care, all under the $3,000 deductible → $1,630. High year ($24,460) → $3,000.
    const r = myYearlyCost(
      input({ costShare: plan({ deductible: 3000, moop: 8000, services: services(share(0, 0, true)) }) }),
    );
    expect(r.parts.other_care.yearly_cost).toBe(1630);
    expect(r.typical).toBe(3600 + 1630);
    expect(r.bad_year).toBe(3600 + 3000);
    expect(r.worst_case).toBe(3600 + 8000);
  });

  it("an unstated maximum is the federal one for the year, and says so", () => {
    // 2027 self-only limit: $12,000 (maxOutOfPocket block: CMS memo of 30 January 2026).
    // worst = $3,600 + $12,000 = $15,600.
    const r = myYearlyCost(input({ costShare: plan({ moop: null }) }));
    expect(r.unknowns).toContainEqual({ kind: "out_of_pocket_max", assumed: 12000 });
    expect(r.worst_case).toBe(15600);
  });
});

describe("assumptions", () => {
  it("maps formulary tiers onto the benefit rows that price them", () => {
    expect(drugTierKind("PREFERRED-GENERIC")).toBe("generic");
    expect(drugTierKind("NON-PREFERRED-GENERIC")).toBe("generic");
    expect(drugTierKind("PREFERRED-BRAND")).toBe("preferredBrand");
    expect(drugTierKind("NON-PREFERRED-BRAND")).toBe("nonPreferredBrand");
    expect(drugTierKind("SPECIALTY")).toBe("specialty");
    expect(drugTierKind("ZERO-COST-SHARE-PREVENTIVE")).toBe("preventive");
    expect(drugTierKind(null)).toBeNull();
    expect(PRICE_PER_FILL.specialty).toBe(950);
  });
  it("prices family medicine and internal medicine as primary care, other specialties as specialists", () => {
    expect(doctorKindOf(["Family Medicine"])).toBe("primary");
    expect(doctorKindOf(["Internal Medicine"])).toBe("primary");
    expect(doctorKindOf(["Cardiology"])).toBe("specialist");
    expect(doctorKindOf([])).toBe("specialist");
  });
  it("prices pediatrics as primary care as upstream names it, a pediatric subspecialty as a specialist (decision 490)", () => {
    expect(doctorKindOf(["Pediatrics"])).toBe("primary");
    expect(doctorKindOf(["Pediatric Medicine"])).toBe("primary");
    expect(doctorKindOf(["General Practice"])).toBe("primary");
    expect(doctorKindOf(["Pediatric Cardiology", "Pediatrics"])).toBe("primary");
    expect(doctorKindOf(["Orthopaedic Surgery"])).toBe("specialist");
    expect(doctorKindOf(["Pediatric Cardiology"])).toBe("specialist");
  });
});
