// The household estimate's steps in plain words (the `reasons` of an own-calculation answer).

import type { HouseholdEstimate } from "./household-eligibility";

function dollars(x: number): string {
  return `$${x.toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;
}

function people(indexes: readonly number[]): string {
  const names = indexes.map((i) => `person ${i + 1}`);
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Plain-language steps of an estimate, in order. */
export function householdReasons(e: HouseholdEstimate, coverageYear: number, state: string): string[] {
  const reasons: string[] = [
    `Income is ${e.fplPercent}% of the ${e.ptcGuidelineYear} poverty guideline (${dollars(e.ptcGuideline)} for ` +
      `${e.householdSize}), which prices ${coverageYear} tax credits and cost-sharing reductions.`,
  ];
  if (e.currentGuidelineYear !== coverageYear) {
    reasons.push(
      `The ${coverageYear} poverty guidelines are not published yet; Medicaid, CHIP and the Essential Plan use the ` +
        `${e.currentGuidelineYear} guidelines (${dollars(e.currentGuideline)} for ${e.householdSize}).`,
    );
  }
  if (e.medicareMembers.length > 0) {
    reasons.push(
      `${people(e.medicareMembers)}: treated as eligible for premium-free Medicare Part A, so left out of the ` +
        `premium tax credit (26 CFR 1.36B-2(c)).`,
    );
  }
  if (e.medicaidChipMembers.length > 0) {
    reasons.push(
      `${people(e.medicaidChipMembers)}: within ${state}'s Medicaid/CHIP income limit, so left out of the credit.`,
    );
  }
  if (e.essentialPlanMembers.length > 0) {
    reasons.push(
      `${people(e.essentialPlanMembers)}: routed to the Essential Plan ($0), which has no premium tax credit or ` +
        `cost-sharing reduction.`,
    );
  }
  if (e.inCoverageGap) {
    reasons.push(`${state} has not expanded Medicaid and income is below 100% of the guideline: in the coverage gap.`);
  }
  if (e.coverageFamily.length === 0) {
    reasons.push("Nobody in the household needs a marketplace plan's credit: everyone has other coverage.");
  } else if (!e.ptcEligible) {
    reasons.push("Income is outside 100%–400% of the guideline: no premium tax credit (26 USC 36B(c)(1)).");
  } else if (e.applicablePercentage !== null && e.expectedContributionMonthly !== null) {
    reasons.push(
      `Expected contribution is ${(e.applicablePercentage * 100).toFixed(2)}% of income, ` +
        `${dollars(Math.round(e.expectedContributionMonthly * 100) / 100)} a month; the credit is the benchmark ` +
        `premium for ${people(e.coverageFamily)} minus that, not below zero.`,
    );
  }
  if (e.csr !== null) reasons.push(`Cost-sharing reduction: silver ${e.csr} variant on a silver plan.`);
  return reasons;
}
