import { z } from "zod";
import { CSR_LEVELS } from "../domain/eligibility/csr";
import { householdProblems } from "../domain/eligibility/household";
import { INCOME_LINE_KINDS } from "../domain/income-line-kinds";
import { PLAN_FILTERS, type PlanFilter, type PlanFilterValues } from "../domain/plan-filters";
import { PLAN_SORTS } from "../domain/plan-order";
import { RELATIONSHIPS } from "../domain/eligibility/relationship";
import { USAGE_LEVELS } from "../domain/yearly-cost";
import { DEFAULT_FILLS_PER_YEAR, DEFAULT_VISITS, MAX_CHOSEN } from "../domain/yearly-cost/assumptions";

/**
 * Request and response shapes of the shopping routes (/api/counties,
 * /api/eligibility, /api/plans). The same schemas validate requests, feed
 * /api/openapi.json and docs/api.md.
 */

export const StateCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "Two-letter state code, e.g. TX")
  .transform((s) => s.toUpperCase())
  .describe("Two-letter USPS state code");

export const Zip = z
  .string()
  .regex(/^\d{5}$/, "Five-digit ZIP code")
  .describe("Five-digit ZIP code");
export const CountyFips = z
  .string()
  .regex(/^\d{5}$/, "Five-digit county FIPS code")
  .describe("Five-digit county FIPS code");

export const Relationship = z.enum(RELATIONSHIPS);

export const Person = z
  .object({
    age: z.number().int("Whole years").min(0).max(120).describe("Age in whole years on the coverage start date"),
    uses_tobacco: z.boolean().default(false).describe("Regular tobacco use in the last 6 months"),
    is_pregnant: z
      .boolean()
      .default(false)
      .describe(
        "Pregnant on the coverage date: decided against the state's pregnancy Medicaid/CHIP line, her expected babies counted in her household (docs/api.md)",
      ),
    expected_babies: z
      .number()
      .int("A whole number")
      .min(1)
      .max(8)
      .optional()
      .describe("With is_pregnant: the number of babies expected (default 1)"),
    relationship: Relationship.optional().describe(
      "Relationship to the subscriber. When missing: the first adult is the subscriber if nobody is self; a child under 19 is a child; any other adult without one is a 400 (docs/api.md)",
    ),
    medicare_eligible: z
      .boolean()
      .optional()
      .describe(
        "Eligible for premium-free Medicare Part A; default true from age 65. Medicare-eligible people get no premium tax credit",
      ),
  })
  .strict()
  .refine((p) => p.expected_babies === undefined || p.is_pregnant, {
    message: "Expected babies are asked only with is_pregnant: true",
    path: ["expected_babies"],
  })
  // The same rule in the OpenAPI document (decision 380): is_pregnant true, or no expected_babies.
  .meta({
    anyOf: [
      { required: ["is_pregnant"], properties: { is_pregnant: { enum: [true] } } },
      { not: { required: ["expected_babies"] } },
    ],
  });

export const Household = z
  .object({
    size: z
      .number()
      .int()
      .min(1)
      .max(20)
      .optional()
      .describe(
        "Tax household size; at least the number of people, and may exceed it (people not applying). Defaults to the number of people.",
      ),
    people: z
      .array(Person)
      .min(1, "At least one person")
      .max(20)
      .describe(
        'The people who need coverage; the first is the subscriber. At most one "self" and one "spouse", no spouse under 14, and someone 18 or older unless `size` counts more people than are listed (checked by the API; answered 400 naming the field)',
      ),
  })
  .strict()
  .refine((h) => h.size === undefined || h.size >= h.people.length, {
    message: "Household size cannot be smaller than the number of people applying",
    path: ["size"],
  })
  // At most one self and one spouse, no spouse under 14, an adult in the household (docs/api.md).
  .superRefine((h, ctx) => {
    const people = h.people.map((p) => ({ age: p.age, relationship: p.relationship }));
    for (const problem of householdProblems(people, h.size)) {
      ctx.addIssue({
        code: "custom",
        message: problem.message,
        path: problem.person === null ? ["people"] : ["people", problem.person, problem.field],
      });
    }
  });

/** True when a dollar amount has at most two decimals (whole cents); 0.29 is, 63840.004 is not. */
export function isWholeCents(amount: number): boolean {
  const cents = amount * 100;
  return Math.abs(cents - Math.round(cents)) < 1e-6;
}

export const Place = z
  .object({
    state: StateCode,
    county_fips: CountyFips,
    zip: Zip,
  })
  .strict();

export const Year = z
  .number()
  .int()
  .min(2014)
  .max(2100)
  .describe("Plan year; defaults to the year being shopped on the request date");

/** The credit taken in advance each month (docs/decisions/320); above the credit is a 400 naming the field. */
export const AptcApplied = z
  .number()
  .min(0, "Cannot be negative")
  .max(1_000_000)
  .describe(
    "Monthly dollars of the credit to take in advance (0 to the estimated aptc); default the whole credit. Every premium_w_credit follows it; more than the credit is a 400",
  );

export const ShoppingRequest = z
  .object({
    income: z
      .number()
      .min(0, "Income cannot be negative")
      .max(100_000_000)
      // multipleOf (zod checks it without float error) puts the rule in the OpenAPI document too.
      .multipleOf(0.01, "Whole cents: at most two decimals")
      .describe("Expected yearly household income (MAGI) in US dollars, at most two decimals"),
    household: Household,
    place: Place,
    year: Year.optional(),
    coverage_date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD")
      .optional()
      .describe("Coverage start date; defaults to 1 January of the plan year"),
    aptc_applied: AptcApplied.optional(),
  })
  .strict();
export type ShoppingRequest = z.infer<typeof ShoppingRequest>;

export const UsageLevel = z.enum(USAGE_LEVELS);

/** A drug the shopper takes (issue 26): its RxCUI and fills a year. */
export const ChosenDrug = z
  .object({
    rxcui: z.string().regex(/^\d{1,10}$/, "An RxCUI is a number of up to 10 digits, sent as a string"),
    fills_per_year: z
      .number()
      .int("Whole fills")
      .min(0)
      .max(365)
      .optional()
      .describe(`30-day fills a year; default ${DEFAULT_FILLS_PER_YEAR}`),
  })
  .strict();

/** A doctor the shopper sees (issue 26): NPI, visits a year, specialty (primary care or specialist). */
export const ChosenDoctor = z
  .object({
    npi: z.string().regex(/^\d{10}$/, "An NPI has 10 digits, sent as a string"),
    visits_per_year: z
      .number()
      .int("Whole visits")
      .min(0)
      .max(365)
      .optional()
      .describe(
        `Visits a year; default ${DEFAULT_VISITS.primary} to primary care, ${DEFAULT_VISITS.specialist} to a specialist`,
      ),
    specialty: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe(
        "e.g. Family Medicine, Cardiology: family, general, internal medicine and pediatrics are primary care; anything else, or none, a specialist",
      ),
  })
  .strict();
export const PlanSort = z.enum(PLAN_SORTS);

/** One filter's schema, by its kind (app/domain/plan-filters.ts describes each filter once). */
function filterSchema(filter: PlanFilter): z.ZodType {
  let schema: z.ZodOptional;
  switch (filter.kind) {
    case "choices": {
      const item = filter.values
        ? z.enum(filter.values as readonly [string, ...string[]])
        : z
            .string()
            .min(1)
            .max(filter.maxLength ?? 200);
      schema = z.array(item).max(filter.maxItems).optional();
      break;
    }
    case "flag":
      schema = z.boolean().optional();
      break;
    case "amount":
      schema = z.number().min(filter.min).max(filter.max).optional();
      break;
  }
  return filter.description ? schema.describe(filter.description) : schema;
}

/** POST /api/plans `filters`: every filter of PLAN_FILTERS under its `field`, each optional. */
export const PlanFilters = z
  .object(Object.fromEntries((PLAN_FILTERS as readonly PlanFilter[]).map((f) => [f.field, filterSchema(f)])))
  .strict() as unknown as z.ZodType<PlanFilterValues>;

export const PlansRequest = ShoppingRequest.extend({
  filters: PlanFilters.optional(),
  sort: PlanSort.default("premium"),
  order: z.enum(["asc", "desc"]).default("asc"),
  usage: UsageLevel.default("medium").describe("Expected use of care, for the estimated yearly cost"),
  drugs: z
    .array(ChosenDrug)
    .max(MAX_CHOSEN)
    .optional()
    .describe("The shopper's drugs, for my_yearly_cost (docs/yearly-cost.md): coverage is looked up for every plan"),
  doctors: z
    .array(ChosenDoctor)
    .max(MAX_CHOSEN)
    .optional()
    .describe("The shopper's doctors, for my_yearly_cost: network is looked up for every plan"),
  // Paged like the upstream plan search (docs/decisions/119-plan-list-pages.md): the sort is over all plans.
  hardship_exemption: z
    .boolean()
    .optional()
    .describe(
      "The household holds a hardship exemption (45 CFR 155.605(d)): catastrophic plans are listed whatever the ages (docs/api.md)",
    ),
  limit: z.number().int().min(1).max(500).default(50).describe("Plans per page (1-500)"),
  offset: z.number().int().min(0).max(100_000).default(0).describe("Plans of the sorted, filtered list to skip"),
}).strict();
export type PlansRequest = z.infer<typeof PlansRequest>;

export const CountiesQuery = z
  .object({
    zip: Zip,
    state: StateCode.optional(),
    // Digits only, as the document's integer says ("2027 " or "0x7EB" is a 400, not 2027; decision 380).
    year: z
      .preprocess(
        (v) => (typeof v === "string" && /^\d{1,6}$/.test(v) ? Number(v) : v),
        z.number({ error: "A plan year, e.g. 2027" }).int().min(2014).max(2100),
      )
      .optional(),
  })
  .strict();

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
