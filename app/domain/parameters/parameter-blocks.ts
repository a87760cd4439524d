// The blocks of the ACA parameter file: for each, the schema of one value (a figure or a table)
// and how a year or date finds its value. "exact": only a key the block holds (a year not listed
// is missing; no borrowing between years, docs/decisions/010-parameter-lookups.md). "inForce":
// the latest key at or before the year or date (status lists and rules that hold until replaced).
// The common block shape and the accessor are in ./parameter-file.ts.

import { z } from "zod";

const STATE = z.string().regex(/^[A-Z]{2}$/);
/** A non-negative multiple or share (1.38 = 138% of the guideline; 0.0996 = 9.96% of income). */
const Fraction = z.number().nonnegative();
const Money = z.number().nonnegative();
const Factor = z.number().positive();
const StateList = z.array(STATE);

const GuidelineColumn = z.strictObject({ base: Money, perAdditional: Money });
/** Poverty guidelines of one year: the 48 states and DC, Alaska, Hawaii. */
const GuidelineTable = z.strictObject({ contiguous: GuidelineColumn, AK: GuidelineColumn, HI: GuidelineColumn });

const ApplicableBand = z.strictObject({
  fromFpl: Fraction,
  toFpl: Fraction.nullable(),
  initial: Fraction,
  final: Fraction,
});
/** The applicable-percentage bands of one coverage year, with the credit's floor and cliff. */
const ApplicableTable = z.strictObject({
  bands: z.array(ApplicableBand).min(1),
  minFplForCredit: Fraction,
  maxFplForCredit: Fraction.nullable(),
  maxInclusive: z.boolean().optional(),
  cliffAbove400: z.boolean(),
});

const CsrBand = z.strictObject({
  variant: z.enum(["94", "87", "73"]),
  avPercent: Fraction,
  fplAtLeast: Fraction.optional(),
  fplAbove: Fraction.optional(),
  fplAtMost: Fraction,
});

const RepaymentBand = z.tuple([Money, Money]).nullable();

/** Age label ("0-14", "15", "64+") → factor relative to age 21. */
const AgeCurve = z.record(z.string().regex(/^\d+(-\d+|\+)?$/), Factor);

const TierFactors = z.strictObject({
  ONE_ADULT: Factor,
  TWO_ADULTS: Factor,
  ONE_ADULT_AND_CHILDREN: Factor,
  TWO_ADULTS_AND_CHILDREN: Factor,
  CHILD_ONLY: Factor.optional(),
  /** Factor each adult beyond two adds, where the source gives one. */
  extraAdultBeyondTwo: z.number().nonnegative().optional(),
});

const StateLists = z.strictObject({
  stateBasedOwnPlatform: StateList,
  healthcareGov: StateList,
  healthcareGovOfWhichSbeFp: StateList,
});

/** One state's line: the fraction of the guideline, the date it is known in force from, and its source's key. */
const StateLine = z.strictObject({ limit: Fraction, since: z.iso.date(), source: z.string().min(1) });
/** Each state's children's and pregnancy lines; every line's source names an entry of `sources`. */
const MedicaidChipLines = z
  .strictObject({
    states: z.record(STATE, z.strictObject({ children: StateLine, pregnancy: StateLine })),
    sources: z.record(z.string().min(1), z.string().min(1)),
    programmeNames: z.record(STATE, z.string().min(1)).optional(),
  })
  .superRefine((v, ctx) => {
    for (const [state, lines] of Object.entries(v.states))
      for (const kind of ["children", "pregnancy"] as const)
        if (!(lines[kind].source in v.sources))
          ctx.addIssue({
            code: "custom",
            path: ["states", state, kind, "source"],
            message: `names no entry of sources: "${lines[kind].source}"`,
          });
  });

/** `label` names the figure in a MissingParameterError; `lookup` and `value` as above. */
function block<V extends z.ZodType>(label: string, lookup: "exact" | "inForce", value: V) {
  return { label, lookup, value };
}

export const BLOCKS = {
  povertyGuidelines: block("poverty guidelines", "exact", GuidelineTable),
  ptcGuidelineYear: block("PTC/CSR guideline year mapping", "exact", z.number().int()),
  applicablePercentage: block("applicable-percentage table", "exact", ApplicableTable),
  requiredContributionPercentage: block("required contribution percentage", "exact", Fraction),
  enhancedCreditEvents: block("enhanced-credit events", "inForce", z.string().min(1)),
  repaymentCap: block(
    "repayment caps",
    "inForce",
    z
      .strictObject({
        under200: RepaymentBand,
        "200to300": RepaymentBand,
        "300to400": RepaymentBand,
        atOrAbove400: RepaymentBand,
      })
      .nullable(),
  ),
  csrBands: block("CSR bands", "inForce", z.array(CsrBand).length(3)),
  medicaidExpansionThreshold: block("Medicaid expansion line", "inForce", Fraction),
  medicaidNonExpansionStates: block(
    "Medicaid non-expansion state list",
    "inForce",
    z.strictObject({ states: StateList, notes: z.record(STATE, z.string().min(1)) }),
  ),
  medicaidChipLines: block("Medicaid/CHIP lines for children and pregnancy", "exact", MedicaidChipLines),
  ageCurveFederalDefault: block("federal default age curve", "inForce", AgeCurve),
  ageCurveStateSpecific: block("state age curves", "inForce", z.record(STATE, AgeCurve)),
  ageRatingExemptStates: block("community-rated state list", "inForce", StateList),
  familyTiers: block("family-tier factors", "inForce", z.record(STATE, TierFactors)),
  nyYoungAdultRider: block("NY young-adult rider", "inForce", Factor),
  nyEssentialPlanIncomeLimit: block(
    "NY Essential Plan income limit",
    "inForce",
    z.strictObject({ upperFpl: Fraction, authority: z.string().min(1) }),
  ),
  nyEssentialPlanAgeRange: block(
    "NY Essential Plan age range",
    "inForce",
    z.tuple([z.number().int(), z.number().int()]),
  ),
  nyEssentialPlanPremium: block("NY Essential Plan premium", "inForce", Money),
  marketplaceType: block("marketplace types", "inForce", StateLists),
  marketplaceTypeExpectedChanges: block(
    "expected marketplace-type changes",
    "exact",
    z.strictObject({
      changes: z.array(z.strictObject({ state: STATE, change: z.string().min(1), confidence: z.string().min(1) })),
      unverified: z.array(z.string().min(1)),
    }),
  ),
  maxOutOfPocket: block(
    "federal out-of-pocket limits",
    "exact",
    z.strictObject({ selfOnly: Money, otherThanSelfOnly: Money }),
  ),
  nationalAverageBenchmarkAge40: block("national average benchmark premium", "exact", Money),
  catastrophicEligibility: block(
    "catastrophic-plan eligibility",
    "inForce",
    z.strictObject({
      underAge: z.number().int().positive(),
      incomeHardship: z.boolean(),
      incomeHardshipExchanges: z.array(z.enum(["healthcareGov", "stateBasedOwnPlatform"])),
    }),
  ),
} as const;

export type BlockName = keyof typeof BLOCKS;
/** The type of one value of a block, from its schema. */
export type ParameterValue<N extends BlockName> = z.infer<(typeof BLOCKS)[N]["value"]>;
