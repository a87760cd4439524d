import { z } from "zod";
import { householdProblems } from "../domain/eligibility/household";
import { PLAN_FILTERS, type PlanFilter, type PlanFilterValues } from "../domain/plan-filters";
import { RELATIONSHIPS } from "../domain/eligibility/relationship";
import { DEFAULT_FILLS_PER_YEAR, DEFAULT_VISITS, MAX_CHOSEN } from "../domain/yearly-cost/assumptions";
import { PlanSort, UsageLevel } from "./shopping-enums";

export { PlanSort, UsageLevel };
// The answers' shapes live beside the requests' (one module to import, files kept small).
export * from "./shopping-answers";

/**
 * Request shapes of the shopping routes (/api/counties, /api/eligibility,
 * /api/plans), with their answers' shapes re-exported from shopping-answers.ts. The same schemas validate requests, feed
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
