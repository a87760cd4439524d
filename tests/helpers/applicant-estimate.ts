// One applicant (plus, optionally, a larger tax household) decided by the production engine,
// `estimateHousehold`, with the benchmark given directly. Unit tests written for a single person use
// this, so every eligibility test checks the engine shoppers see (issue 25).

import { estimateHousehold, type HouseholdEstimate } from "../../app/domain/eligibility/household-eligibility";
import { householdReasons } from "../../app/domain/eligibility/household-reasons";
import { normaliseStateCode } from "../../app/domain/parameters";

export interface ApplicantInput {
  coverageYear: number;
  coverageDate?: string;
  state: string;
  income: number;
  /** Tax-household size (the applicant is the only person who applies). */
  householdSize: number;
  /** Default 40: an adult aged 19–64. */
  applicantAge?: number;
  /** The applicant's benchmark premium a month. */
  benchmarkMonthly: number;
  /** Default: aged 65 or older (the engine's rule). */
  medicareEligible?: boolean;
  pregnant?: boolean;
  expectedBabies?: number;
}

export interface ApplicantEstimate extends HouseholdEstimate {
  /** The whole FPL percent (truncated) the applicable percentage is looked up at. */
  fplPercent: number;
  fplPercentOneDecimal: number;
  is_medicaid_chip: boolean;
  in_coverage_gap: boolean;
  essential_plan?: boolean;
  reasons: string[];
}

export function estimateApplicant(input: ApplicantInput): ApplicantEstimate {
  if (!Number.isFinite(input.benchmarkMonthly) || input.benchmarkMonthly < 0) {
    throw new RangeError(`benchmark premium must be dollars ≥ 0, got ${input.benchmarkMonthly}`);
  }
  const person = {
    age: input.applicantAge ?? 40,
    ...(input.medicareEligible !== undefined ? { medicareEligible: input.medicareEligible } : {}),
    ...(input.pregnant ? { pregnant: true, expectedBabies: input.expectedBabies ?? 1 } : {}),
  };
  const e = estimateHousehold(
    {
      coverageYear: input.coverageYear,
      coverageDate: input.coverageDate,
      state: input.state,
      income: input.income,
      householdSize: input.householdSize,
      people: [person],
    },
    () => input.benchmarkMonthly,
  );
  const out: ApplicantEstimate = {
    ...e,
    fplPercent: e.fplPercentWhole,
    fplPercentOneDecimal: e.fplPercent,
    is_medicaid_chip: e.isMedicaidChip,
    in_coverage_gap: e.inCoverageGap,
    reasons: householdReasons(e, input.coverageYear, normaliseStateCode(input.state)),
  };
  if (e.essentialPlan !== undefined) out.essential_plan = e.essentialPlan;
  return out;
}
