// Benefits grouped by kind of care (issue 28 item 4), in one fixed order for the plan page and the
// comparison: a shopper reads "doctor visits" first and "other" last, not 60 names A to Z.
// Pure data and a classifier over the public-use files' standard benefit names (English, as the
// plan store holds them); words for the groups live in the catalogues (benefits.group.<key>).

export const CARE_GROUPS = [
  "doctor_visits",
  "drugs",
  "hospital",
  "emergency",
  "maternity",
  "children",
  "other",
] as const;
export type CareGroup = (typeof CARE_GROUPS)[number];

/**
 * The first rule that matches names the group; order matters (children's and maternity care
 * before the hospital and visit rules that would also match them). A name no rule knows, such as
 * an insurer's own benefit, is "other".
 */
const RULES: ReadonlyArray<readonly [CareGroup, RegExp]> = [
  ["children", /\bchild(ren)?\b|pediatric|well baby/i],
  ["maternity", /maternity|prenatal|postnatal|\bdelivery\b/i],
  ["emergency", /emergency|urgent care|ambulance/i],
  ["drugs", /\bdrugs?\b/i],
  [
    "doctor_visits",
    /primary care|specialist visit|office visit|preventive care|outpatient services|mental\/behavioral health outpatient/i,
  ],
  ["hospital", /inpatient|hospital|skilled nursing|surg(ery|ical)|transplant|hospice|facility fee/i],
];

export function careGroupOf(benefitName: string): CareGroup {
  for (const [group, rule] of RULES) if (rule.test(benefitName)) return group;
  return "other";
}

/**
 * Items in the fixed group order; within a group they keep the order they came in. Groups with
 * nothing in them are left out.
 */
export function groupByCare<T>(
  items: readonly T[],
  nameOf: (item: T) => string,
): Array<{ group: CareGroup; items: T[] }> {
  const byGroup = new Map<CareGroup, T[]>(CARE_GROUPS.map((g) => [g, []]));
  for (const item of items) byGroup.get(careGroupOf(nameOf(item)))!.push(item);
  return CARE_GROUPS.filter((g) => byGroup.get(g)!.length > 0).map((group) => ({ group, items: byGroup.get(group)! }));
}
