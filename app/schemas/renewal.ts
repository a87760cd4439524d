import { z } from "zod";
import { Household, Place, PricedPlan, UsageLevel, Year } from "./shopping";

/**
 * POST /api/renewal (issue 27): the plan a household has this year, what the
 * Plan ID Crosswalk renews it into next year, both priced by the /api/plans
 * engine, what changes, and the plans that beat the one it becomes.
 */

export const RenewalDrug = z
  .object({
    rxcui: z.string().regex(/^\d{1,10}$/, "An RxCUI is a number of up to 10 digits, sent as a string"),
    name: z.string().trim().min(1).max(200).optional().describe("The drug's name, repeated in the answer"),
  })
  .strict();

export const RenewalDoctor = z
  .object({
    npi: z.string().regex(/^\d{10}$/, "An NPI has 10 digits, sent as a string"),
    name: z.string().trim().min(1).max(200).optional().describe("The doctor's name, repeated in the answer"),
  })
  .strict();

export const RenewalRequest = z
  .object({
    current_plan_id: z
      .string()
      .max(40)
      .regex(
        /^\s*[0-9]{5}[A-Za-z]{2}[0-9]{7}(-[0-9]{2})?\s*$/,
        "A plan ID: 14 characters like 10101TX0010001, with or without a variant suffix like -01",
      )
      .describe(
        "This year's plan, as on the insurance card or renewal notice: the 14-character HIOS plan ID, with or without the variant suffix (-01, -04 …)",
      ),
    income: z
      .number()
      .min(0, "Income cannot be negative")
      .max(100_000_000)
      .multipleOf(0.01, "Whole cents: at most two decimals")
      .describe("Expected yearly household income (MAGI) next year, in US dollars; both years are priced with it"),
    household: Household,
    place: Place,
    year: Year.optional().describe(
      "Next year, the year renewed into (default: the plan year shopped today); this year is the year before",
    ),
    usage: UsageLevel.default("medium").describe("Expected use of care, for the yearly costs that rank alternatives"),
    drugs: z.array(RenewalDrug).max(20).default([]).describe("The household's drugs: coverage in both years"),
    doctors: z.array(RenewalDoctor).max(20).default([]).describe("The household's doctors: network in both years"),
    alternatives: z.number().int().min(0).max(10).default(3).describe("How many better plans to list (0-10)"),
  })
  .strict();
export type RenewalRequest = z.infer<typeof RenewalRequest>;

const Coverage = z.strictObject({
  coverage: z.enum(["Covered", "NotCovered", "PartialCovered", "GenericCovered", "DataNotProvided"]),
  tier: z.string().nullable().describe("Drug tier or network tier"),
  source: z.enum(["upstream", "own_data", "none"]),
});

const Change = z.strictObject({
  from: z.number().nullable().describe("This year's figure"),
  to: z.number().nullable().describe("Next year's figure"),
  change: z.number().nullable().describe("to - from, to the cent; null when either is unknown"),
});

const YearPlan = z.strictObject({
  year: z.number().int(),
  plan: PricedPlan,
  aptc: z.number().nullable().describe("Monthly premium tax credit of that year for the household"),
  yearly_cost: z.number().describe("The household's yearly cost used for ranking (my_yearly_cost when priced)"),
});

export const RenewalResponse = z.strictObject({
  current_plan_id: z.string().describe("As sent"),
  plan_id: z.string().describe("Its 14-character standard component id"),
  variant_suffix: z.string().nullable().describe("The suffix sent, if any; prices use the household's own variant"),
  current: YearPlan,
  outcome: z
    .enum(["same_plan", "renewed", "other_issuer", "no_successor", "not_in_crosswalk"])
    .describe("What the crosswalk does with the plan in the household's county"),
  crosswalk: z
    .strictObject({
      from_year: z.number().int(),
      to_year: z.number().int(),
      county_fips: z.string(),
      zip: z.string().nullable().describe("null: the row covers the whole county"),
      level: z.number().int(),
      level_words: z.string(),
      reason: z.number().int().nullable(),
      reason_words: z.string(),
      to_plan_id: z.string().nullable(),
    })
    .nullable()
    .describe("The Plan ID Crosswalk row applied; null when the county has none"),
  words: z.string().describe("The outcome in one sentence"),
  next: YearPlan.nullable().describe("The plan it becomes, priced for next year; null when none"),
  next_not_priced: z
    .string()
    .nullable()
    .describe("Why the mapped plan could not be priced at the household's place, when it could not"),
  changes: z
    .strictObject({ premium_w_credit: Change, deductible: Change, moop: Change, yearly_cost: Change })
    .nullable()
    .describe("Next year's plan against this year's (monthly premium after credit, individual deductible and MOOP)"),
  drugs: z.array(
    z.strictObject({ rxcui: z.string(), name: z.string().nullable(), current: Coverage, next: Coverage.nullable() }),
  ),
  doctors: z.array(
    z.strictObject({ npi: z.string(), name: z.string().nullable(), current: Coverage, next: Coverage.nullable() }),
  ),
  coverage_source: z
    .strictObject({ current: z.string(), next: z.string() })
    .describe("ok / partial: upstream answered; own_rows_only: the plan store's formulary and network rows alone"),
  alternatives: z.array(
    z.strictObject({
      plan: PricedPlan,
      yearly_cost: z.number(),
      saves_per_year: z.number().nullable().describe("Against next year's mapped plan; null when there is none"),
      why: z.array(z.string()).describe("Why it beats the mapped plan, in words"),
    }),
  ),
  ranked_by: z
    .enum(["my_yearly_cost", "estimated_yearly_cost"])
    .describe("The yearly cost that ranks the plans: the household's own (my_yearly_cost) where priced"),
});
export type RenewalResponse = z.infer<typeof RenewalResponse>;
