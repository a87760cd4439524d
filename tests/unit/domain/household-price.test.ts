import fc from "fast-check";
import { describe, expect, it } from "vitest";
import testVectors from "../../fixtures/parameters/aca-test-vectors.json";
import type { Member } from "../../../app/domain/rating";
import { priceForHousehold, ratingTable } from "../../../app/domain/household-price";
import { csrVariantFor } from "../../../app/domain/eligibility/csr";
import {
  creditShown,
  creditUsableOn,
  ehbPremium,
  premiumAfterCredit,
  premiumWithCreditOf,
} from "../../../app/domain/pricing";

/**
 * Household pricing: store rate tables → household premium in cents
 * (priceForHousehold, ratingTable), and the credit on a plan
 * (premiumAfterCredit, ehbPremium). Hand calculations cite eligibility-rules.md §§5, 6, 8
 * and aca-parameters.json (ageCurves, familyTiers) and tests/fixtures/parameters/aca-test-vectors.json.
 */

const person = (age: number, relationship: Member["relationship"] = "self", usesTobacco = false): Member => ({
  age,
  relationship,
  usesTobacco,
});
/** A plan that files only its age-21 rate: every other age is derived with the state's curve. */
const only21 = (individual: number, tobacco: number | null = null) =>
  ratingTable({ ageRates: { "21": { individual, tobacco } } });
/** A NY "Family Option" rate row: no age rows, one single-adult rate. */
const familyOption = (individual: number) => ratingTable({ ageRates: {}, familyTiers: { individual } });

describe("age curves: federal default, or the state's own", () => {
  it("TX (federal default): 400.00 at 21 → 40: × 1.278 = 511.20; 10: × 0.765 = 306.00; 70: × 3.000 = 1200.00", () => {
    const table = only21(400);
    expect(priceForHousehold(table, [person(40)], "TX", 2027).premium).toBe(511.2);
    expect(priceForHousehold(table, [person(10, "child")], "TX", 2027).premium).toBe(306);
    expect(priceForHousehold(table, [person(70)], "TX", 2027).premium).toBe(1200);
  });

  it("UT (its own curve): 40 → × 1.479 = 591.60; 10 → × 0.793 = 317.20; 59 already × 3.000", () => {
    const table = only21(400);
    expect(priceForHousehold(table, [person(40)], "UT", 2027).premium).toBe(591.6);
    expect(priceForHousehold(table, [person(10, "child")], "UT", 2027).premium).toBe(317.2);
    expect(priceForHousehold(table, [person(59)], "UT", 2027).premium).toBe(1200);
    // Federal at 59: × 2.603 = 1041.20.
    expect(priceForHousehold(table, [person(59)], "TX", 2027).premium).toBe(1041.2);
  });

  it("AL (its own curve): children × 0.635 = 254.00 instead of the federal 306.00", () => {
    expect(priceForHousehold(only21(400), [person(10, "child")], "AL", 2027).premium).toBe(254);
  });

  it("a rate the plan files for an age wins over the curve", () => {
    const table = ratingTable({
      ageRates: { "21": { individual: 400, tobacco: null }, "40": { individual: 500, tobacco: null } },
    });
    expect(priceForHousehold(table, [person(40)], "TX", 2027).premium).toBe(500);
  });
});

describe("household rules", () => {
  it("PolicyEngine child-count vector (aca_child_index.yaml): ages 40, 39, 14, 13, 12, 12 → the fourth child pays nothing", () => {
    // TX, 300.00 at 21: 40 → 383.40; 39 → 378.60; 14, 13, 12 → 229.50 each; the second 12 → 0.
    // 383.40 + 378.60 + 3 × 229.50 = 1450.50.
    const people = [
      person(40),
      person(39, "spouse"),
      person(14, "child"),
      person(13, "child"),
      person(12, "child"),
      person(12, "child"),
    ];
    expect(priceForHousehold(only21(300), people, "TX", 2027).premium).toBe(1450.5);
    expect(priceForHousehold(only21(300), people.slice(0, 5), "TX", 2027).premium).toBe(1450.5);
  });

  it("tobacco: the tobacco rate (derived with the curve) and the surcharge it adds", () => {
    // 400.00 / 500.00 (tobacco) at 21; 40 → 511.20 / 639.00: surcharge 127.80.
    const price = priceForHousehold(only21(400, 500), [person(40, "self", true)], "TX", 2027);
    expect(price).toEqual({ premium: 639, premiumWithoutTobacco: 511.2, tobaccoSurcharge: 127.8 });
    // A plan that does not rate tobacco charges a user the ordinary rate.
    expect(priceForHousehold(only21(400), [person(40, "self", true)], "TX", 2027).tobaccoSurcharge).toBe(0);
    // Only the user's part is surcharged: a non-smoking spouse of 40 pays 511.20.
    const couple = priceForHousehold(only21(400, 500), [person(40, "self", true), person(40, "spouse")], "TX", 2027);
    expect(couple).toEqual({ premium: 1150.2, premiumWithoutTobacco: 1022.4, tobaccoSurcharge: 127.8 });
  });

  it("NY: no tobacco rating; family tiers on the single-adult rate (PolicyEngine family_tier_integration.yaml)", () => {
    const base760 = familyOption(760);
    expect(priceForHousehold(base760, [person(30, "self", true)], "NY", 2027)).toEqual({
      premium: 760,
      premiumWithoutTobacco: 760,
      tobaccoSurcharge: 0,
    });
    // Two adults and a child: 760 × 2.85 = 2166.
    expect(priceForHousehold(base760, [person(35), person(32, "spouse"), person(5, "child")], "NY", 2027).premium).toBe(
      2166,
    );
    // Two adults and a dependent of 26 (young-adult rider): 760 × 2.85 × 1.05 = 2274.30.
    expect(
      priceForHousehold(base760, [person(30), person(30, "spouse"), person(26, "child")], "NY", 2027).premium,
    ).toBe(2274.3);
    // Two adults and a dependent of 60 (a third adult): 760 × (2.00 + 1.00) = 2280.
    expect(
      priceForHousehold(base760, [person(30), person(30, "spouse"), person(60, "other")], "NY", 2027).premium,
    ).toBe(2280);
    // Child only: 560 × 0.412 = 230.72.
    expect(priceForHousehold(familyOption(560), [person(17, "child"), person(15, "child")], "NY", 2027).premium).toBe(
      230.72,
    );
  });
});

describe("PolicyEngine family-tier vectors, read from tests/fixtures/parameters/aca-test-vectors.json", () => {
  // Members as the vectors write them: the first is the subscriber; "N (tax dependent)" is a
  // dependent of N; a later member of 21 or more is the spouse; one under 21 a child.
  type Vector = {
    state: string;
    slcspBaseMonthly?: number;
    members: Array<number | string>;
    expectedMonthly: number;
    tier: string;
  };
  const vectors = (testVectors.familyTier.cases as Vector[]).filter((v) => v.slcspBaseMonthly !== undefined);
  const membersOf = (list: Array<number | string>): Member[] =>
    list.map((m, i) => {
      if (typeof m === "string") return person(Number.parseInt(m, 10), "child");
      if (i === 0) return person(m);
      return person(m, m >= 21 ? "spouse" : "child");
    });

  it("there are NY and VT vectors to check", () => {
    expect(vectors.map((v) => v.state)).toEqual(["NY", "NY", "NY", "NY", "NY", "VT"]);
  });

  it.each(vectors)("$state $members on base $slcspBaseMonthly → $expectedMonthly ($tier)", (v) => {
    expect(priceForHousehold(familyOption(v.slcspBaseMonthly!), membersOf(v.members), v.state, 2027).premium).toBe(
      v.expectedMonthly,
    );
  });
});

describe("the credit on a plan", () => {
  const price = (premium: number, tobaccoSurcharge = 0) => ({
    premium,
    premiumWithoutTobacco: premium - tobaccoSurcharge,
    tobaccoSurcharge,
  });

  it("is capped at the plan's EHB premium: 600.00 × 0.9935 = 596.10, so a 700.00 credit leaves 3.90", () => {
    expect(premiumAfterCredit(price(600), 700, 0.9935)).toEqual({ premiumWithCredit: 3.9, creditApplied: 596.1 });
  });

  it("below the cap the whole credit applies: 600.00 − 250.55 = 349.45", () => {
    expect(premiumAfterCredit(price(600), 250.55, 0.9935)).toEqual({
      premiumWithCredit: 349.45,
      creditApplied: 250.55,
    });
  });

  it("never pays the tobacco surcharge: 639.00 with 127.80 surcharge and a 900.00 credit leaves 127.80", () => {
    expect(premiumAfterCredit(price(639, 127.8), 900, 1)).toEqual({ premiumWithCredit: 127.8, creditApplied: 511.2 });
  });

  it("ehb_premium is the EHB share of the premium without tobacco, in cents: 911.67 × 0.9935 = 905.744 → 905.74", () => {
    expect(ehbPremium(911.67, 0.9935)).toBe(905.74);
  });

  it("for any premium, surcharge, EHB share and credit: 0 ≤ surcharge ≤ net ≤ premium and net + applied = premium to the cent", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 5000, max: 10_000 }),
        fc.integer({ min: 0, max: 600_000 }),
        (premiumCents, surchargePercent, ehbBasisPoints, aptcCents) => {
          const premium = premiumCents / 100;
          const surcharge = Math.floor((premiumCents * surchargePercent) / 400) / 100;
          const { premiumWithCredit, creditApplied } = premiumAfterCredit(
            price(premium, surcharge),
            aptcCents / 100,
            ehbBasisPoints / 10_000,
          );
          expect(premiumWithCredit).toBeGreaterThanOrEqual(surcharge);
          expect(premiumWithCredit).toBeLessThanOrEqual(premium);
          expect(creditApplied).toBeLessThanOrEqual(aptcCents / 100 + 0.005);
          expect(Math.round(premiumWithCredit * 100) + Math.round(creditApplied * 100)).toBe(premiumCents);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("the credit a plan can use, and the CSR variant it is priced on", () => {
  it("a catastrophic plan cannot be bought with the credit (26 CFR 1.36B-2(a)): 0 of a 250.00 credit", () => {
    expect(creditUsableOn("Catastrophic", 250)).toBe(0);
    expect(creditUsableOn("Bronze", 250)).toBe(250);
  });

  it("the household's CSR level applies to silver plans only", () => {
    expect(csrVariantFor("Silver", "87")).toBe("87");
    expect(csrVariantFor("Gold", "87")).toBeNull();
    expect(csrVariantFor("Silver", null)).toBeNull();
  });

  it("credit shown is the difference: 911.67 − 305.76 = 605.91, not the credit rounded alone (605.915 → 605.92)", () => {
    // Net 911.67 − 605.915 = 305.755 → 305.76 (half away from zero); shown credit 911.67 − 305.76 = 605.91,
    // so premium = premium_w_credit + credit_applied to the cent (docs/decisions/094).
    const withCredit = premiumWithCreditOf({ premium: 911.67, tobaccoSurcharge: 0 }, 605.915, 1);
    expect(withCredit).toBe(305.76);
    expect(creditShown({ premium: 911.67 }, withCredit)).toBe(605.91);
  });
});
