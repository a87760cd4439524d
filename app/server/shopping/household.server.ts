import { resolveRelationships } from "../../domain/household";
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
  options: { countNonApplicants?: boolean } = {},
): UpstreamHousehold {
  const relationships = relationshipsOf(request);
  const people: UpstreamHousehold["people"] = request.household.people.map((p, i) => ({
    age: p.age,
    uses_tobacco: p.uses_tobacco,
    is_pregnant: p.is_pregnant,
    relationship: UPSTREAM_RELATIONSHIP[relationships[i]],
    aptc_eligible: true,
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
