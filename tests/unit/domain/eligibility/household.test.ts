import { describe, expect, it } from "vitest";
import {
  householdProblems,
  isMedicareEligible,
  proposedRelationship,
  resolveRelationships,
} from "../../../../app/domain/eligibility/household";

describe("relationship rule (docs/api.md, decision 210)", () => {
  it("makes the oldest person the subscriber when nobody is self, children under 19, others other", () => {
    expect(resolveRelationships([{ age: 40 }, { age: 38 }, { age: 10 }, { age: 7 }])).toEqual([
      "self",
      "other",
      "child",
      "child",
    ]);
    // Listed children first: the same people, the same roles.
    expect(resolveRelationships([{ age: 10 }, { age: 40 }])).toEqual(["child", "self"]);
    expect(resolveRelationships([{ age: 19 }, { age: 45 }, { age: 18 }])).toEqual(["other", "self", "child"]);
  });

  it("picks the same subscriber between people of one age whatever their order (decision 525)", () => {
    // Two infants, one on Medicare (premium-free Part A, as for end-stage renal disease), and an
    // older child marked as one: the infant the plan covers is the subscriber in either order. The
    // property test found the first listed made the subscriber, and the family priced 5 % apart.
    const onMedicare = { age: 0, medicareEligible: true };
    const covered = { age: 0 };
    const older = { age: 26, relationship: "child" as const };
    expect(resolveRelationships([covered, onMedicare, older])).toEqual(["self", "child", "child"]);
    expect(resolveRelationships([onMedicare, covered, older])).toEqual(["child", "self", "child"]);
    // Pregnant or not, and babies expected, are settled the same way.
    expect(resolveRelationships([{ age: 17, pregnant: true }, { age: 17 }])).toEqual(["child", "self"]);
    expect(
      resolveRelationships([
        { age: 17, pregnant: true, expectedBabies: 2 },
        { age: 17, pregnant: true, expectedBabies: 1 },
      ]),
    ).toEqual(["child", "self"]);
  });

  it("keeps given relationships and fills only the gaps", () => {
    expect(
      resolveRelationships([{ age: 30, relationship: "self" }, { age: 50 }, { age: 31, relationship: "spouse" }]),
    ).toEqual(["self", "other", "spouse"]);
    // Someone else is self: the unmarked oldest is not made a second subscriber.
    expect(resolveRelationships([{ age: 70 }, { age: 40, relationship: "self" }])).toEqual(["other", "self"]);
  });

  it("proposes child under 19 on the page, other from 19", () => {
    expect(proposedRelationship(18)).toBe("child");
    expect(proposedRelationship(19)).toBe("other");
  });

  it("refuses two subscribers, two spouses, a spouse under 14 and a household with no adult", () => {
    expect(
      householdProblems([
        { age: 40, relationship: "self" },
        { age: 38, relationship: "self" },
      ]),
    ).toEqual([expect.objectContaining({ person: 1, field: "relationship" })]);
    expect(
      householdProblems([
        { age: 40, relationship: "spouse" },
        { age: 38, relationship: "spouse" },
      ]),
    ).toEqual([expect.objectContaining({ person: 1, field: "relationship" })]);
    expect(householdProblems([{ age: 40 }, { age: 13, relationship: "spouse" }])).toEqual([
      expect.objectContaining({ person: 1, field: "relationship" }),
    ]);
    expect(householdProblems([{ age: 14, relationship: "spouse" }, { age: 40 }])).toEqual([]);
    expect(householdProblems([{ age: 12 }, { age: 9 }])).toEqual([
      expect.objectContaining({ person: null, field: "people" }),
    ]);
    // Children applying while their parents (counted in the size) are not: fine.
    expect(householdProblems([{ age: 12 }, { age: 9 }], 4)).toEqual([]);
    expect(householdProblems([{ age: 18 }])).toEqual([]);
  });

  it("asks the relationship of every adult but the subscriber; children under 19 stay children (decision 312)", () => {
    const rel = (person: number) => expect.objectContaining({ person, field: "relationship" });
    // A second adult without one: refused, naming that adult, in either order.
    expect(householdProblems([{ age: 40 }, { age: 38 }])).toEqual([rel(1)]);
    expect(householdProblems([{ age: 38 }, { age: 40 }])).toEqual([rel(1)]);
    expect(householdProblems([{ age: 40 }, { age: 38 }, { age: 10 }, { age: 27 }])).toEqual([rel(1), rel(3)]);
    // 19 is an adult; 18 is still a child.
    expect(householdProblems([{ age: 40 }, { age: 19 }])).toEqual([rel(1)]);
    expect(householdProblems([{ age: 40 }, { age: 18 }, { age: 7 }])).toEqual([]);
    // Someone marked self: every adult without a relationship is asked, the first listed too.
    expect(householdProblems([{ age: 50 }, { age: 45, relationship: "self" }])).toEqual([rel(0)]);
    // A child listed first, then the one adult: the adult is the subscriber.
    expect(householdProblems([{ age: 10 }, { age: 40 }])).toEqual([]);
    expect(householdProblems([{ age: 40 }, { age: 38, relationship: "spouse" }, { age: 10 }])).toEqual([]);
  });

  it("treats 65 and over as Medicare-eligible unless told otherwise", () => {
    expect(isMedicareEligible({ age: 64 })).toBe(false);
    expect(isMedicareEligible({ age: 65 })).toBe(true);
    expect(isMedicareEligible({ age: 66, medicareEligible: false })).toBe(false);
    expect(isMedicareEligible({ age: 50, medicareEligible: true })).toBe(true);
  });
});
