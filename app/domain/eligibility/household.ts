// Who is who in a household: the relationship rule for people whose relationship is not given,
// the checks a household must pass before anything is priced, and who is treated as on Medicare.
//
// The rule is the same for the API, the page and the upstream household
// (docs/api.md "Relationships"; docs/decisions/210-relationship-rule.md). It does not depend on
// the order of the list, so reordering people never changes a price.

import type { Relationship } from "../rating";

/** Under this age a person whose relationship is not given is a child (CHIP and children's Medicaid stop at 19). */
export const CHILD_AGE_LIMIT = 19;
/** A spouse younger than this is taken to be a typing mistake, not a marriage. */
export const MIN_SPOUSE_AGE = 14;
/** From this age a person can be the adult of a household. */
export const ADULT_AGE = 18;
/** From this age a person is treated as eligible for premium-free Medicare Part A unless told otherwise. */
export const MEDICARE_AGE = 65;

/** A person as a request gives them: the relationship and the Medicare answer may be missing. */
export interface PersonFacts {
  age: number;
  relationship?: Relationship;
  /** Eligible for premium-free Medicare Part A; default: aged 65 or older. */
  medicareEligible?: boolean;
  /** Pregnant on the coverage date: decided against the state's pregnancy Medicaid/CHIP line. */
  pregnant?: boolean;
  /** Babies she expects (default 1); they count in her Medicaid/CHIP household (42 CFR 435.603(b)). */
  expectedBabies?: number;
}

/** The ages the page asks about pregnancy for (docs/decisions/311-pregnancy-per-person.md). */
export const PREGNANCY_ASKED_AGES = [12, 55] as const;

/** The babies a pregnant person counts as in her Medicaid/CHIP household; 0 when not pregnant. */
export function expectedBabiesOf(person: PersonFacts): number {
  return person.pregnant ? (person.expectedBabies ?? 1) : 0;
}

/** A problem with the household, naming the person (index) and the field. */
export interface HouseholdProblem {
  /** Index of the person the problem is about, or null for the household as a whole. */
  person: number | null;
  field: "relationship" | "age" | "people";
  message: string;
}

/**
 * The subscriber when nobody is marked `self`: the oldest person (the first listed among people of
 * that age, who are priced alike). Order-independent, so the same family priced in any order costs
 * the same.
 */
export function impliedSubscriber(people: readonly PersonFacts[]): number {
  let best = -1;
  for (let i = 0; i < people.length; i++) {
    if (people[i].relationship !== undefined) continue;
    if (best === -1 || people[i].age > people[best].age) best = i;
    else if (people[i].age === people[best].age && subscriberRank(people[i]) < subscriberRank(people[best])) best = i;
  }
  return best;
}

/**
 * Between people of the same age, who is the subscriber must not depend on the order they were
 * listed in: one covered by the plan before one on Medicare, then one not pregnant, then fewer
 * babies expected. People equal on all of these are interchangeable for every figure. (Two
 * infants, one on Medicare, listed in the other order priced the family 5 % differently: the
 * Medicare one was the subscriber and left the coverage family without one; decision 525.)
 */
function subscriberRank(p: PersonFacts): number {
  return (p.medicareEligible === true ? 1_000_000 : 0) + (p.pregnant === true ? 1_000 : 0) + (p.expectedBabies ?? 0);
}

/**
 * Relationships with the gaps filled in: nobody marked `self` → the oldest person without a
 * relationship is the subscriber; everyone else without one is a `child` when under 19, otherwise
 * `other` (a partner must be marked `spouse` to be priced as a couple).
 */
export function resolveRelationships(people: readonly PersonFacts[]): Relationship[] {
  const hasSelf = people.some((p) => p.relationship === "self");
  const subscriber = hasSelf ? -1 : impliedSubscriber(people);
  return people.map((p, i) => {
    if (p.relationship !== undefined) return p.relationship;
    if (i === subscriber) return "self";
    return p.age < CHILD_AGE_LIMIT ? "child" : "other";
  });
}

/** The relationship the page proposes for an added person as their age is typed (they can change it). */
export function proposedRelationship(age: number): Relationship {
  return age < CHILD_AGE_LIMIT ? "child" : "other";
}

/**
 * The checks a household must pass before it is priced: at most one `self` and one `spouse`, no
 * spouse under 14, a relationship for every adult but the subscriber, and an adult (18+) somewhere
 * in the tax household. People applying only for their children are fine when the tax household is
 * larger than the people listed.
 */
export function householdProblems(people: readonly PersonFacts[], householdSize?: number): HouseholdProblem[] {
  const problems: HouseholdProblem[] = [];
  const seen: Partial<Record<Relationship, number>> = {};
  people.forEach((p, i) => {
    const r = p.relationship;
    if (r === "self" || r === "spouse") {
      if (seen[r] !== undefined) {
        problems.push({
          person: i,
          field: "relationship",
          message: `Only one person can be "${r}" (person ${seen[r]! + 1} already is)`,
        });
      } else seen[r] = i;
    }
    if (r === "spouse" && p.age < MIN_SPOUSE_AGE) {
      problems.push({
        person: i,
        field: "relationship",
        message: `A spouse must be at least ${MIN_SPOUSE_AGE}; check the age or choose another relationship`,
      });
    }
  });
  // An adult's relationship moves money (a partner aged 26-29 is a young-adult dependant in NY unless a
  // spouse), so it is asked, never guessed: when nobody is "self", the first adult without one is the
  // subscriber; any other adult (19+) without one is refused. Children under 19 stay children
  // (docs/decisions/312-adult-relationship-asked.md).
  const hasSelf = people.some((p) => p.relationship === "self");
  let subscriberTaken = hasSelf;
  people.forEach((p, i) => {
    if (p.relationship !== undefined || p.age < CHILD_AGE_LIMIT) return;
    if (!subscriberTaken) {
      subscriberTaken = true;
      return;
    }
    problems.push({
      person: i,
      field: "relationship",
      message: 'Say how this adult is related to the subscriber: "spouse", "child" or "other"',
    });
  });
  const size = householdSize ?? people.length;
  if (people.length > 0 && size <= people.length && !people.some((p) => p.age >= ADULT_AGE)) {
    problems.push({
      person: null,
      field: "people",
      message: `A household needs an adult (${ADULT_AGE} or older); if the adults are not applying, give the household size`,
    });
  }
  return problems;
}

/** Medicare-eligible: as the request says, else aged 65 or older. */
export function isMedicareEligible(person: PersonFacts): boolean {
  return person.medicareEligible ?? person.age >= MEDICARE_AGE;
}
