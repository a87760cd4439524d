import { z } from "zod";
import { CSR_LEVELS } from "../domain/eligibility/csr";
import { INCOME_LINE_KINDS } from "../domain/income-line-kinds";
import { PlanSort, UsageLevel } from "./shopping-enums";

/**
 * Answer shapes of the shopping routes (/api/counties, /api/eligibility,
 * /api/plans); app/schemas/shopping.ts re-exports them beside the requests.
 */

// ---- responses (documentation; the routes build these shapes) ----
// Strict, so a test that parses a real answer with them fails on an undocumented field.

export const SbeRedirect = z.strictObject({
  state: z.string().describe("Two-letter code of the state that runs its own marketplace"),
  marketplace_name: z.string().describe("The state's marketplace, e.g. Covered California"),
  marketplace_url: z.string().describe("Where to shop instead"),
});

export const County = z.strictObject({
  fips: z.string().describe("Five-digit county FIPS code"),
  name: z.string().describe("County name, e.g. Dallas County"),
  state: z.string().describe("Two-letter state code of the county"),
  share: z
    .number()
    .nullable()
    .describe("Share of the ZIP's addresses in this county (0-1); null when upstream answered"),
  owned_data: z.boolean().describe("Whether the service prices plans for this county from its own data"),
  sbeRedirect: SbeRedirect.nullable().describe("Set when the county's state runs its own marketplace"),
});

export const CountiesResponse = z.strictObject({
  zip: z.string(),
  year: z.number().int().describe("Plan year the answer is for"),
  counties: z.array(County).describe("Largest share first (own data); upstream's order otherwise"),
  source: z
    .enum(["own", "upstream"])
    .describe("own: the service's ZIP-county data; upstream: the federal look-up (ZIP not in own data)"),
  sbeRedirect: SbeRedirect.nullable().describe("Set when every matching county is in a state-based-exchange state"),
  zip_prefix_state: z
    .string()
    .nullable()
    .describe(
      "Set when the ZIP is in neither the own ZIP-county data nor upstream's: the state of its 3-digit prefix (USPS); counties are then every county of that state on file, or none with sbeRedirect set",
    ),
});

export const CsrLevelAnswer = z.enum(CSR_LEVELS);

const MemberIndexes = z.array(z.number().int().min(0)).describe("Indexes into household.people, ascending");

export const IncomeLineAnswer = z.strictObject({
  kind: z
    .enum(INCOME_LINE_KINDS)
    .describe(
      "What changes at the line: adult Medicaid, the coverage-gap floor (100%, non-expansion states), children's Medicaid/CHIP, the NY Essential Plan, the top of a CSR level, the 400% credit limit",
    ),
  percent: z.number().describe("The line as a percent of its poverty guideline"),
  amount: z.number().describe("Yearly household income at the line, dollars"),
  side: z
    .enum(["at_or_below", "below"])
    .describe("at_or_below: the programme applies up to and including amount; below: only under it"),
  guideline_year: z.number().int().describe("Poverty-guideline year the line is measured on"),
});

export const RepaymentRiskRow = z.strictObject({
  scenario: z
    .enum(["rise_10", "rise_25", "rise_50", "above_400_fpl"])
    .describe(
      "The year-end income: the expected income +10%, +25%, +50%, or the next dollar above 400% of the guideline",
    ),
  income: z.number().describe("Household income for the year, dollars"),
  allowed_credit: z
    .number()
    .describe("Credit allowed at that income for the year: 12 x the monthly credit there (same benchmark and rules)"),
  advance_credit: z.number().describe("Credit taken in advance for the year: 12 x aptc_applied"),
  repayment: z
    .number()
    .describe("Owed back at tax time: max(0, advance_credit - allowed_credit), capped only in tax years with a cap"),
  cap: z
    .number()
    .nullable()
    .describe("The tax year's repayment cap at that income (Form 8962 Table 5); null: no cap (every year from 2026)"),
});

export const EligibilityResponse = z.strictObject({
  year: z.number().int(),
  aptc: z.number().describe("Monthly advance premium tax credit in dollars (2 decimals)"),
  csr: CsrLevelAnswer.nullable().describe("Cost-sharing reduction level, or null for none"),
  is_medicaid_chip: z.boolean(),
  in_coverage_gap: z.boolean(),
  essential_plan: z.boolean().optional().describe("NY only: the household should be routed to the Essential Plan"),
  fpl_percent: z
    .number()
    .describe(
      "Household income as a percent of the credit's poverty guideline (the year before the plan year), truncated to one decimal; our own estimate in every state, also where the credit comes from upstream",
    ),
  medicaid_chip_members: MemberIndexes.describe(
    "Indexes of the people likely eligible for Medicaid or CHIP (children against the state's children's limit): left out of the credit",
  ),
  essential_plan_members: MemberIndexes.describe("NY: indexes of the adults (19-64) routed to the Essential Plan"),
  medicare_members: MemberIndexes.describe(
    "Indexes of the people treated as eligible for premium-free Medicare Part A (65+, unless medicare_eligible is false): no credit",
  ),
  coverage_family_members: MemberIndexes.describe(
    "Indexes of the people the benchmark, the credit and the plan prices are for (everyone else has other coverage)",
  ),
  income_lines: z
    .array(IncomeLineAnswer)
    .describe("The income lines that change what this household gets, in yearly dollars, ascending"),
  benchmark_premium: z
    .number()
    .nullable()
    .describe("Monthly second-lowest-cost silver premium for the household (own data)"),
  expected_contribution: z
    .number()
    .nullable()
    .describe(
      "Monthly expected contribution (applicable percentage x income / 12); null when no credit applies or from upstream",
    ),
  source: z.enum(["own", "upstream"]),
  upstream: z
    .enum(["unavailable", "busy", "key_rejected", "year_not_served"])
    .optional()
    .describe("Only on our own estimate made because the federal estimate could not be had: why not"),
  note: z
    .string()
    .optional()
    .describe("Only on our own estimate standing in for the federal one: a sentence saying so"),
  reasons: z.array(z.string()).describe("Plain-language steps of the own calculation; empty from upstream"),
  aptc_applied: z
    .number()
    .describe("Monthly credit taken in advance: the request's aptc_applied, or the whole aptc; the plan prices use it"),
  state_subsidy: z
    .number()
    .optional()
    .describe(
      "Only on our own estimate where the state gives its own help after the federal credit (no state is registered today): dollars a month, subtracted from every premium_w_credit",
    ),
  repayment_risk: z
    .array(RepaymentRiskRow)
    .describe(
      "What is paid back at tax time if the year's income ends higher, with aptc_applied taken in advance; ascending by income",
    ),
});

export const CostLimitAnswer = z.strictObject({
  individual: z.number().nullable().describe("Dollars per person; null when the plan states none"),
  family: z.number().nullable().describe("Dollars per family; null when the plan states none"),
});

const Money = z.number().describe("Dollars a year, to the cent");
const CoverageAnswer = z.enum(["Covered", "NotCovered", "PartialCovered", "GenericCovered", "DataNotProvided"]);

/** `my_yearly_cost` (docs/yearly-cost.md "Your year"; decisions 330-332). */
export const MyYearlyCostAnswer = z
  .strictObject({
    typical: Money.describe(
      "12 x premium_w_credit + out-of-pocket for the usage level's care, the drugs and the doctors",
    ),
    bad_year: Money.describe("The same with the high level of care (about the 90th-95th percentile of spending, MEPS)"),
    worst_case: Money.describe(
      "12 x premium_w_credit + the out-of-pocket maximum (family when more than one person is covered)",
    ),
    parts: z.strictObject({
      premiums: Money.describe("12 x premium_w_credit"),
      drugs: z.array(
        z.strictObject({
          rxcui: z.string(),
          coverage: CoverageAnswer,
          tier: z.string().nullable().describe("The plan's formulary tier (the generic's with GenericCovered)"),
          fills_per_year: z.number().int(),
          yearly_cost: Money.describe("Out-of-pocket for the year's fills in a typical year"),
          counts_toward_max: z
            .boolean()
            .describe("False when the plan does not cover it: in reality no maximum caps it"),
          prior_authorization: z.boolean(),
          step_therapy: z.boolean(),
        }),
      ),
      doctors: z.array(
        z.strictObject({
          npi: z.string(),
          in_network: z.boolean().nullable().describe("null when the network is not known"),
          kind: z.enum(["primary", "specialist"]),
          visits_per_year: z.number().int(),
          yearly_cost: Money,
          counts_toward_max: z.boolean(),
        }),
      ),
      other_care: z.strictObject({ usage: UsageLevel, yearly_cost: Money }),
      out_of_pocket_max: Money.describe("The maximum worst_case adds"),
      outside_max: Money.describe(
        "What care outside the plan's cover (drugs not covered, doctors out of network) costs in a bad year, uncapped: the figures count it toward the maximum, which in reality does not cap it (decision 332); 0 when all of it is covered",
      ),
    }),
    unknowns: z
      .array(
        z.strictObject({
          kind: z.enum([
            "drug_coverage",
            "doctor_network",
            "drug_tier",
            "drug_cost_share",
            "deductible",
            "out_of_pocket_max",
          ]),
          rxcui: z.string().optional(),
          npi: z.string().optional(),
          tier: z.string().optional(),
          low: Money.optional().describe("The part's yearly cost if covered / in network (the figure used)"),
          high: Money.optional().describe("The part's yearly cost if not"),
          assumed: Money.optional(),
        }),
      )
      .describe(
        "What the figures had to assume; drug_coverage and doctor_network mark plans resting on unknown coverage",
      ),
  })
  .describe("The shopper's own yearly cost with their drugs and doctors, as a range");

export const RankingAnswer = z
  .strictObject({
    position: z.number().int().describe("1-based place in the sorted, filtered list"),
    reasons: z.array(z.string()).describe("Why it is here, in plain words"),
    changes: z.array(z.string()).describe("What would change the order"),
    warnings: z.array(z.string()).describe("Likely poor choices"),
  })
  .describe("Why this plan ranks where it does");

export const PricedPlan = z.strictObject({
  id: z.string().describe("14-character HIOS plan id"),
  name: z.string(),
  issuer: z.strictObject({ id: z.string(), name: z.string() }),
  metal_level: z.string().describe("Catastrophic, Bronze, Expanded Bronze, Silver, Gold or Platinum"),
  type: z.string().nullable().describe("HMO, PPO, EPO, POS or Indemnity"),
  hsa_eligible: z.boolean(),
  standardized: z
    .boolean()
    .describe("A standardized plan design (Easy Pricing on HealthCare.gov; PUF DesignType other than Not Applicable)"),
  premium: z.number().describe("Monthly premium for the household before the credit, tobacco surcharges included"),
  premium_w_credit: z
    .number()
    .describe(
      "Monthly premium after the credit: never below 0; the credit never pays tobacco surcharges or the non-EHB share",
    ),
  credit_applied: z.number().describe("premium - premium_w_credit"),
  ehb_premium: z
    .number()
    .describe(
      "Essential-health-benefit share of the premium without tobacco surcharges: what the benchmark is built from",
    ),
  tobacco_surcharge: z.number().describe("Part of premium that is tobacco surcharge"),
  csr_variant: CsrLevelAnswer.nullable().describe("CSR variant priced (silver plans, eligible households); else null"),
  variant_id: z.string().describe("Plan variant whose cost sharing is shown, e.g. 10101TX0010004-04"),
  deductible: CostLimitAnswer.describe("In-network deductible of that variant"),
  moop: CostLimitAnswer.describe("In-network maximum out-of-pocket of that variant"),
  key_benefits: z
    .record(z.string(), z.string().nullable())
    .describe("What a member pays for common services, in the plan's words"),
  quality_rating: z.number().nullable().describe("Overall star rating 1-5; null when not rated"),
  estimated_yearly_cost: z.number().describe("12 x premium_w_credit + expected out-of-pocket for the usage level"),
  estimated_yearly_cost_complete: z
    .boolean()
    .describe("False when a cost share the estimate needs was missing from the data"),
  my_yearly_cost: MyYearlyCostAnswer,
  ranking: RankingAnswer,
});

export const PlansResponse = z.strictObject({
  year: z.number().int(),
  source: z.enum(["own", "upstream"]),
  place: z.strictObject({
    state: z.string(),
    county_fips: z.string(),
    zip: z.string(),
    rating_area: z.string().nullable(),
  }),
  household_size: z.number().int(),
  eligibility: EligibilityResponse.nullable().describe("The estimate the prices use; null when it is unavailable"),
  fpl_percent: z.number().describe("As eligibility.fpl_percent; given also when the estimate is unavailable"),
  coverage_family_members: MemberIndexes.describe(
    "Indexes of the people the plan prices are for: those not on Medicaid/CHIP, the Essential Plan or Medicare (everyone, when nobody is left)",
  ),
  income_lines: z
    .array(IncomeLineAnswer)
    .describe("As eligibility.income_lines; given also when the estimate is unavailable"),
  eligibility_unavailable: z
    .string()
    .nullable()
    .describe("Why prices carry no credit (the estimate could not be made)"),
  aptc_applied: z
    .number()
    .nullable()
    .describe("As eligibility.aptc_applied: the monthly credit every premium_w_credit uses; null without an estimate"),
  repayment_risk: z.array(RepaymentRiskRow).describe("As eligibility.repayment_risk; empty without an estimate"),
  usage: UsageLevel,
  sort: PlanSort,
  order: z.enum(["asc", "desc"]),
  total_plan_count: z
    .number()
    .int()
    .describe("Plans offered and priced before filters (catastrophic plans only when catastrophic_reason is set)"),
  catastrophic_reason: z
    .enum(["under_30", "hardship_exemption", "income_hardship"])
    .nullable()
    .describe(
      "Why catastrophic plans are listed: everyone covered is under 30, the request's hardship_exemption, or (from 2026, HealthCare.gov states) income that rules out the credit; null: none listed (decision 313)",
    ),
  plan_count: z.number().int().describe("Plans after filters, on all pages"),
  limit: z.number().int().describe("Plans per page asked for"),
  offset: z.number().int().describe("Plans of the sorted, filtered list skipped before this page"),
  plans: z.array(PricedPlan).describe("This page: plans offset to offset + limit of the sorted, filtered list"),
});
