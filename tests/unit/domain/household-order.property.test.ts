// Reordering the people of a household never changes a money figure or a flag (issue 15).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { householdProblems, resolveRelationships, type PersonFacts } from "../../../app/domain/eligibility/household";
import { estimateHousehold } from "../../../app/domain/eligibility/household-eligibility";
import { householdRater, type Member, type RateTable } from "../../../app/domain/rating";
import { roundCents } from "../../../app/domain/pricing";

// Two made-up silver plans: an age-rated table (TX) and a single-adult rate (NY tiers).
function table(base: number): RateTable {
  const ageRates: RateTable["ageRates"] = { "0-14": { individual: base * 0.765, tobacco: null } };
  for (let age = 15; age <= 63; age++)
    ageRates[String(age)] = { individual: base * (1 + (age - 15) / 30), tobacco: base * (1.3 + (age - 15) / 30) };
  ageRates["64 and over"] = { individual: base * 3, tobacco: base * 3.5 };
  return { ageRates };
}
const SILVER = [table(410), table(437.5)];

interface Person extends PersonFacts {
  tobacco: boolean;
}

const person = fc.record({
  age: fc.integer({ min: 0, max: 90 }),
  relationship: fc.option(fc.constantFrom("self", "spouse", "child", "other") as fc.Arbitrary<Member["relationship"]>, {
    nil: undefined,
  }),
  medicareEligible: fc.option(fc.boolean(), { nil: undefined }),
  tobacco: fc.boolean(),
});

const household = fc
  .record({
    people: fc.array(person, { minLength: 1, maxLength: 10 }),
    extra: fc.integer({ min: 0, max: 2 }),
    income: fc.integer({ min: 0, max: 30_000_000 }).map((c) => c / 100),
    state: fc.constantFrom("NY", "TX", "WI", "AK", "FL"),
    keys: fc.array(fc.double({ noNaN: true }), { minLength: 10, maxLength: 10 }),
  })
  .filter((h) => householdProblems(h.people, h.people.length + h.extra).length === 0);

function figures(people: readonly Person[], h: { income: number; state: string; extra: number }) {
  const relationships = resolveRelationships(people);
  const members: Member[] = people.map((p, i) => ({
    age: p.age,
    usesTobacco: p.tobacco,
    relationship: relationships[i],
  }));
  const pick = (indexes: readonly number[]) => indexes.map((i) => members[i]);
  const e = estimateHousehold(
    { coverageYear: 2027, state: h.state, income: h.income, householdSize: people.length + h.extra, people },
    (family) => {
      const rate = householdRater(pick(family), h.state, 2027, { excludeTobaccoSurcharge: true });
      const premiums = SILVER.map((t) => roundCents(rate(t))).sort((a, b) => a - b);
      return premiums[1];
    },
  );
  const priced = e.coverageFamily.length > 0 ? pick(e.coverageFamily) : members;
  const premiums = SILVER.map((t) => roundCents(householdRater(priced, h.state, 2027)(t)));
  return { e, premiums };
}

describe("reordering a household", () => {
  it("never changes a money figure or a flag (1-10 people, ages 0-90, relationships given or not)", () => {
    fc.assert(
      fc.property(household, (h) => {
        const order = h.people.map((_, i) => i).sort((a, b) => h.keys[a] - h.keys[b] || a - b);
        const shuffled = order.map((i) => h.people[i]);
        const a = figures(h.people, h);
        const b = figures(shuffled, h);
        // Same money and flags.
        expect(roundCents(b.e.aptc)).toBe(roundCents(a.e.aptc));
        expect(b.e.benchmarkMonthly).toBe(a.e.benchmarkMonthly);
        expect(b.premiums).toEqual(a.premiums);
        expect([
          b.e.csr,
          b.e.isMedicaidChip,
          b.e.inCoverageGap,
          b.e.essentialPlan,
          b.e.ptcEligible,
          b.e.fplPercent,
        ]).toEqual([
          a.e.csr,
          a.e.isMedicaidChip,
          a.e.inCoverageGap,
          a.e.essentialPlan,
          a.e.ptcEligible,
          a.e.fplPercent,
        ]);
        // The same people in each list, wherever they were listed.
        const back = (list: number[]) => list.map((j) => order[j]).sort((x, y) => x - y);
        expect(back(b.e.medicaidChipMembers)).toEqual(a.e.medicaidChipMembers);
        expect(back(b.e.essentialPlanMembers)).toEqual(a.e.essentialPlanMembers);
        expect(back(b.e.medicareMembers)).toEqual(a.e.medicareMembers);
      }),
      { numRuns: 400 },
    );
  });
});
