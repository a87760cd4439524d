// The ACA parameter file (./parameters/aca-parameters.json), validated with zod when it is
// loaded: a figure of the wrong kind, a year key that is not a year, or a block without its
// source stops the process at start-up with the path of the bad value, instead of a wrong
// price later. The types the accessors in ./parameters.ts read come from these schemas.
//
// Each block carries `source` (where its figures come from; per year where they differ) next to
// values keyed by year ("2026") or effective date ("2026-07-01"). Prose notes beside the figures
// (regime, stepAt133, thresholdNote …) are kept and allowed. To add a block: add it to the JSON
// with its values and source, add one line to `AcaParameterFileSchema` below (for example
// `yearKeyed(entry)` for a table per year), and read it through an accessor in ./parameters.ts.

import { z } from "zod";
import raw from "./parameters/aca-parameters.json";

const YEAR = /^\d{4}$/;
const Source = z.string().min(1);
const Fraction = z.number().nonnegative();
const Money = z.number().nonnegative();

/**
 * An object whose entries are keyed by year (plus the named non-year keys, such as `source`),
 * each entry of the given schema.
 */
function yearKeyed<Entry extends z.ZodType, Named extends z.ZodRawShape = Record<never, never>>(
  entry: Entry,
  named: Named = {} as Named,
) {
  return z
    .object(named)
    .catchall(z.unknown())
    .superRefine((block, ctx) => {
      for (const [key, value] of Object.entries(block)) {
        if (key in named) continue;
        if (!YEAR.test(key)) {
          ctx.addIssue({ code: "custom", path: [key], message: `"${key}" is neither a year nor a known field` });
          continue;
        }
        const parsed = entry.safeParse(value);
        if (!parsed.success) {
          for (const issue of parsed.error.issues)
            ctx.addIssue({ code: "custom", path: [key, ...issue.path], message: issue.message });
        }
      }
    })
    .transform((block) => block as z.infer<z.ZodObject<Named>> & Record<string, z.infer<Entry>>);
}

const GuidelineColumn = z.strictObject({ base: Money, perAdditional: Money });
const GuidelineYear = z.strictObject({
  contiguous: GuidelineColumn,
  AK: GuidelineColumn,
  HI: GuidelineColumn,
  source: Source,
});

const Band = z.strictObject({
  fromFpl: Fraction,
  toFpl: Fraction.nullable(),
  initial: Fraction,
  final: Fraction,
});
const ApplicableYear = z.looseObject({
  regime: z.string(),
  bands: z.array(Band).min(1).optional(),
  sameAs: z.string().regex(YEAR).optional(),
  minFplForCredit: Fraction.optional(),
  maxFplForCredit: Fraction.nullable().optional(),
  maxInclusive: z.boolean().optional(),
  cliffAbove400: z.boolean(),
  source: Source,
});

const CsrBand = z.strictObject({
  variant: z.enum(["94", "87", "73"]),
  avPercent: Fraction,
  fplAtLeast: Fraction.optional(),
  fplAbove: Fraction.optional(),
  fplAtMost: Fraction,
});

const StateList = z.array(z.string().regex(/^[A-Z]{2}$/));
const AgeFactors = z.record(z.string().regex(/^\d+(-\d+|\+)?$/), z.number().positive());

const FamilyTiers = z.looseObject({
  ONE_ADULT: z.number().positive(),
  TWO_ADULTS: z.number().positive(),
  ONE_ADULT_AND_CHILDREN: z.number().positive(),
  TWO_ADULTS_AND_CHILDREN: z.number().positive(),
  CHILD_ONLY: z.number().positive().optional(),
  extraAdultNotDependent: z.string().optional(),
  age29RiderMultiplier: z.looseObject({ value: z.number().positive(), from: z.number().int() }).optional(),
  validFrom: z.number().int().optional(),
  source: Source,
});

const EssentialPlanPeriod = z.strictObject({
  from: z.iso.date(),
  to: z.iso.date().nullable(),
  authority: z.string(),
  upperFpl: Fraction,
});

export const AcaParameterFileSchema = z.looseObject({
  meta: z.looseObject({ title: z.string(), compiled: z.iso.date() }),
  povertyGuidelines: yearKeyed(GuidelineYear, { formula: z.string() }),
  guidelineYearForCoverageYear: z.looseObject({
    ptcAndCsr: yearKeyed(z.number().int(), { source: Source }),
    medicaidChipAndNyEssentialPlan: z.looseObject({ rule: z.string(), source: Source }),
  }),
  fplPercentPrecision: z.looseObject({ rule: z.string(), source: Source }),
  applicablePercentage: yearKeyed(ApplicableYear, {
    interpolation: z.string(),
    interpolationSource: Source,
  }),
  enhancedCreditStatus: z.looseObject({ status: z.string(), source: Source }),
  requiredContributionPercentage_36B_c2C: yearKeyed(Fraction, { use: z.string(), source: Source }),
  repaymentCap: z.looseObject({ source: Source }),
  csr: z.looseObject({ bands: z.array(CsrBand).length(3), source: Source }),
  medicaid: z.looseObject({
    expansionAdultThresholdFpl: Fraction,
    nonExpansionStates: yearKeyed(StateList, { notes: z.record(z.string(), z.string()), source: Source }),
    source: Source,
  }),
  benchmark: z.looseObject({ source: Source }),
  ageCurves: z.looseObject({
    federalDefault: z.looseObject({ validFrom: z.number().int(), factors: AgeFactors, source: Source }),
    stateSpecific: z.looseObject({ curves: z.record(z.string().regex(/^[A-Z]{2}$/), AgeFactors), source: Source }),
    noAgeRating: z.looseObject({ states: StateList, source: Source }),
    ownedDataStatesWithOwnCurve: StateList,
  }),
  familyTiers: z.record(z.string().regex(/^[A-Z]{2}$/), FamilyTiers),
  nyEssentialPlan: z.looseObject({
    ageRange: z.tuple([z.number().int(), z.number().int()]),
    premiumMonthly: z.looseObject({ value: Money, source: Source }),
    periods: z.array(EssentialPlanPeriod).min(1),
    source: Source,
  }),
  marketplaceType: yearKeyed(z.looseObject({ source: Source }), { history: z.record(z.string(), z.string()) }),
  otherParameters: z.looseObject({
    maxOutOfPocket: yearKeyed(z.tuple([Money, Money]), { source: Source }),
    nationalAverageBenchmarkAge40Monthly: yearKeyed(Money, { source: Source }),
  }),
});

export type AcaParameterFile = z.infer<typeof AcaParameterFileSchema>;

/** Thrown at load when the parameter file does not have the expected shape; names every bad value. */
export class ParameterFileError extends Error {}

/** Validate a parameter file (the one in the repository unless given). */
export function parseAcaParameterFile(data: unknown = raw): AcaParameterFile {
  const result = AcaParameterFileSchema.safeParse(data);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ParameterFileError(`aca-parameters.json is not valid:\n  ${lines.join("\n  ")}`);
  }
  return result.data;
}

/** The repository's parameter file, validated once when this module is loaded. */
export const ACA_PARAMETERS: AcaParameterFile = parseAcaParameterFile();
