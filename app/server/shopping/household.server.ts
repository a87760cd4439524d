import { resolveRelationships } from "../../domain/eligibility/household";
import {
  estimateHousehold,
  incomeLines,
  type HouseholdEstimate,
  type HouseholdInput,
  type IncomeLine,
} from "../../domain/eligibility/household-eligibility";
import type { Member, Relationship } from "../../domain/rating";
import type { ShoppingRequest } from "../../schemas/shopping";
import type { UpstreamHousehold } from "../upstream/client.server";

/** The request's household as the rating rules read it, its tax-household size, and upstream's shape of it. */

/** Each person's relationship, the missing ones filled in by the one rule (docs/api.md "Relationships"). */
export function relationshipsOf(request: Pick<ShoppingRequest, "household">): Relationship[] {
  return resolveRelationships(request.household.people);
}

export function membersOf(request: Pick<ShoppingRequest, "household">): Member[] {
  const relationships = relationshipsOf(request);
  return request.household.people.map((p, i) => ({
    age: p.age,
    usesTobacco: p.uses_tobacco,
    isPregnant: p.is_pregnant,
    relationship: relationships[i],
  }));
}

const UPSTREAM_RELATIONSHIP: Record<Relationship, string> = {
  self: "Self",
  spouse: "Spouse",
  child: "Child",
  other: "Other Relative",
};

/** The household as the per-person programme tests read it (docs/decisions/211). */
export function householdInputOf(request: ShoppingRequest, year: number): HouseholdInput {
  return {
    coverageYear: year,
    coverageDate: request.coverage_date ?? `${year}-01-01`,
    state: request.place.state,
    income: request.income,
    householdSize: householdSizeOf(request),
    people: request.household.people.map((p) => ({
      age: p.age,
      relationship: p.relationship,
      medicareEligible: p.medicare_eligible,
      ...(p.is_pregnant ? { pregnant: true, expectedBabies: p.expected_babies ?? 1 } : {}),
    })),
  };
}

/** Who gets Medicare, Medicaid/CHIP, the Essential Plan or a plan, from our own rules, in every state. */
export interface HouseholdDecisions {
  input: HouseholdInput;
  /** The estimate without a benchmark (its credit is 0): the people, the FPL percent, CSR, flags. */
  estimate: HouseholdEstimate;
  lines: IncomeLine[];
  /** The people plans are priced for: the coverage family, or everyone when nobody is in it. */
  pricedMembers: number[];
}

export function householdDecisions(request: ShoppingRequest, year: number): HouseholdDecisions {
  const input = householdInputOf(request, year);
  const estimate = estimateHousehold(input, () => null);
  const pricedMembers =
    estimate.coverageFamily.length > 0 ? estimate.coverageFamily : request.household.people.map((_, i) => i);
  return { input, estimate, lines: incomeLines(input), pricedMembers };
}

/** The income lines in the answers' shape. */
export function incomeLinesAnswer(lines: readonly IncomeLine[]) {
  return lines.map((l) => ({
    kind: l.kind,
    percent: l.percent,
    amount: l.amount,
    side: l.side,
    guideline_year: l.guidelineYear,
  }));
}

/** The members a plan is priced for (indexes into the request's people). */
export function membersAt(request: Pick<ShoppingRequest, "household">, indexes: readonly number[]): Member[] {
  const all = membersOf(request);
  return indexes.map((i) => all[i]);
}

export function householdSizeOf(request: Pick<ShoppingRequest, "household">): number {
  return request.household.size ?? request.household.people.length;
}

/**
 * The household in upstream's shape. Upstream takes the household size from
 * `people`, so for the eligibility estimate the tax-household members who are
 * not applying are added as people with other coverage (`has_mec`, not
 * `aptc_eligible`): counted in the size, left out of the benchmark. Their age
 * is not asked; the subscriber's stands in (docs/decisions/092-upstream-household-size.md).
 */
export function upstreamHousehold(
  request: ShoppingRequest,
  options: {
    countNonApplicants?: boolean;
    /**
     * People our rules put outside the credit's coverage family (docs/decisions/211): sent as not
     * APTC-eligible, so upstream's credit is for the same people; Medicare is also minimum coverage.
     */
    outsideCoverageFamily?: { medicare: readonly number[]; other: readonly number[] };
  } = {},
): UpstreamHousehold {
  const relationships = relationshipsOf(request);
  const medicare = new Set(options.outsideCoverageFamily?.medicare ?? []);
  const other = new Set(options.outsideCoverageFamily?.other ?? []);
  const people: UpstreamHousehold["people"] = request.household.people.map((p, i) => ({
    age: p.age,
    uses_tobacco: p.uses_tobacco,
    is_pregnant: p.is_pregnant,
    ...(p.is_pregnant ? { pregnant_with: p.expected_babies ?? 1 } : {}),
    relationship: UPSTREAM_RELATIONSHIP[relationships[i]],
    aptc_eligible: !medicare.has(i) && !other.has(i),
    ...(medicare.has(i) ? { has_mec: true } : {}),
  }));
  if (options.countNonApplicants) {
    const notApplying = householdSizeOf(request) - request.household.people.length;
    for (let i = 0; i < notApplying; i++) {
      people.push({
        age: request.household.people[0].age,
        relationship: "Other Relative",
        aptc_eligible: false,
        has_mec: true,
      });
    }
  }
  return {
    income: request.income,
    people,
    has_married_couple: relationships.includes("spouse"),
    effective_date: request.coverage_date,
  };
}
