// The parameter tree: one block per file, laid out as the law is (federal ACA and tax rules,
// Medicaid/CHIP, state programmes, marketplaces), each {description, unit, values, reference, notes?}.
// This list registers each file under its block name; parameter-file.ts validates the whole at load
// (each block's schema is in ./parameter-blocks.ts). Adding a block: its JSON file here, one import
// and one line in BLOCK_FILES, and its schema in BLOCKS (docs/decisions/314-parameters-laid-out-by-the-law.md).

import meta from "./meta.json";
import povertyGuidelines from "./federal/hhs/poverty-guidelines.json";
import ptcGuidelineYear from "./federal/premium-tax-credit/guideline-year.json";
import applicablePercentage from "./federal/premium-tax-credit/applicable-percentage.json";
import requiredContributionPercentage from "./federal/premium-tax-credit/required-contribution-percentage.json";
import enhancedCreditEvents from "./federal/premium-tax-credit/enhanced-credit-events.json";
import repaymentCap from "./federal/premium-tax-credit/repayment-cap.json";
import csrBands from "./federal/cost-sharing-reductions/csr-bands.json";
import maxOutOfPocket from "./federal/cost-sharing-reductions/max-out-of-pocket.json";
import catastrophicEligibility from "./federal/catastrophic/eligibility.json";
import ageCurveFederalDefault from "./federal/rating/age-curve-federal-default.json";
import ageCurveStateSpecific from "./federal/rating/age-curve-state-specific.json";
import ageRatingExemptStates from "./federal/rating/age-rating-exempt-states.json";
import familyTiers from "./federal/rating/family-tiers.json";
import nationalAverageBenchmarkAge40 from "./federal/rating/national-average-benchmark-age-40.json";
import medicaidExpansionThreshold from "./medicaid-chip/expansion-threshold.json";
import medicaidNonExpansionStates from "./medicaid-chip/non-expansion-states.json";
import medicaidChipLines from "./medicaid-chip/lines-by-state.json";
import nyYoungAdultRider from "./states/ny/young-adult-rider.json";
import nyEssentialPlanIncomeLimit from "./states/ny/essential-plan/income-limit.json";
import nyEssentialPlanAgeRange from "./states/ny/essential-plan/age-range.json";
import nyEssentialPlanPremium from "./states/ny/essential-plan/premium.json";
import marketplaceType from "./marketplaces/marketplace-type.json";
import marketplaceTypeExpectedChanges from "./marketplaces/marketplace-type-expected-changes.json";

/** Every block file, by block name. */
export const BLOCK_FILES = {
  povertyGuidelines,
  ptcGuidelineYear,
  applicablePercentage,
  requiredContributionPercentage,
  enhancedCreditEvents,
  repaymentCap,
  csrBands,
  maxOutOfPocket,
  catastrophicEligibility,
  ageCurveFederalDefault,
  ageCurveStateSpecific,
  ageRatingExemptStates,
  familyTiers,
  nationalAverageBenchmarkAge40,
  medicaidExpansionThreshold,
  medicaidNonExpansionStates,
  medicaidChipLines,
  nyYoungAdultRider,
  nyEssentialPlanIncomeLimit,
  nyEssentialPlanAgeRange,
  nyEssentialPlanPremium,
  marketplaceType,
  marketplaceTypeExpectedChanges,
};

/** Where each block lives in the tree (for messages and documentation). */
export const BLOCK_PATHS: Record<keyof typeof BLOCK_FILES, string> = {
  povertyGuidelines: "federal/hhs/poverty-guidelines.json",
  ptcGuidelineYear: "federal/premium-tax-credit/guideline-year.json",
  applicablePercentage: "federal/premium-tax-credit/applicable-percentage.json",
  requiredContributionPercentage: "federal/premium-tax-credit/required-contribution-percentage.json",
  enhancedCreditEvents: "federal/premium-tax-credit/enhanced-credit-events.json",
  repaymentCap: "federal/premium-tax-credit/repayment-cap.json",
  csrBands: "federal/cost-sharing-reductions/csr-bands.json",
  maxOutOfPocket: "federal/cost-sharing-reductions/max-out-of-pocket.json",
  catastrophicEligibility: "federal/catastrophic/eligibility.json",
  ageCurveFederalDefault: "federal/rating/age-curve-federal-default.json",
  ageCurveStateSpecific: "federal/rating/age-curve-state-specific.json",
  ageRatingExemptStates: "federal/rating/age-rating-exempt-states.json",
  familyTiers: "federal/rating/family-tiers.json",
  nationalAverageBenchmarkAge40: "federal/rating/national-average-benchmark-age-40.json",
  medicaidExpansionThreshold: "medicaid-chip/expansion-threshold.json",
  medicaidNonExpansionStates: "medicaid-chip/non-expansion-states.json",
  medicaidChipLines: "medicaid-chip/lines-by-state.json",
  nyYoungAdultRider: "states/ny/young-adult-rider.json",
  nyEssentialPlanIncomeLimit: "states/ny/essential-plan/income-limit.json",
  nyEssentialPlanAgeRange: "states/ny/essential-plan/age-range.json",
  nyEssentialPlanPremium: "states/ny/essential-plan/premium.json",
  marketplaceType: "marketplaces/marketplace-type.json",
  marketplaceTypeExpectedChanges: "marketplaces/marketplace-type-expected-changes.json",
};

/** The whole parameter set as parameter-file.ts validates it. */
export const PARAMETER_SET = { meta, blocks: BLOCK_FILES };
