// Subsidy eligibility: FPL percent, applicable percentage, premium tax credit (APTC), CSR,
// Medicaid/CHIP, the coverage gap and the NY Essential Plan.
//
// Rules: docs/reference/eligibility-rules.md; numbers: ./parameters (aca-parameters.json).
// Money is computed in full precision; callers round at the edge (roundCents in ./pricing).
// Eligibility lines (100%, 138%, CSR bands, Essential Plan limits, 400%) are compared in dollars;
// the truncated whole FPL percent is used only to look up the applicable percentage
// (docs/decisions/012-eligibility-lines-in-dollars.md).

import type { CsrLevel } from "./csr";
import {
  ESSENTIAL_PLAN_STATE,
  MissingParameterError,
  applicablePercentageTable,
  csrBands,
  currentGuidelineYear,
  essentialPlanAgeRange,
  essentialPlanPeriodOn,
  fractionToPercent,
  isMedicaidExpansionState,
  isoDateYear,
  medicaidExpansionThresholdFpl,
  medicaidToCreditFloorStates,
  nonExpansionStates,
  normaliseStateCode,
  povertyGuideline,
  ptcGuidelineYear,
} from "./parameters";

// ---------------------------------------------------------------------------
// Exact income-to-guideline comparisons.

function assertIncome(income: number): void {
  if (!Number.isFinite(income)) throw new RangeError(`income must be a finite number of dollars, got ${income}`);
}

/**
 * Income in cents, exactly: a whole number of cents when the income is one (0.29 × 100 is
 * 28.999999999999996 in binary, so it is snapped), otherwise the fraction of a cent is kept. Nothing
 * is rounded before a line is tested: $63,840.004 is above a $63,840 line (docs/decisions/212).
 */
function incomeCents(income: number): number {
  assertIncome(income);
  const cents = income * 100;
  const whole = Math.round(cents);
  return Math.abs(cents - whole) < 1e-6 ? whole : cents;
}

// income ⋛ fraction × guideline, compared exactly: cents × 100 against basis points × dollars
// (integers whenever the income is whole cents).
function compareToLine(income: number, fraction: number, guideline: number): number {
  const lhs = incomeCents(income) * 100;
  const rhs = Math.round(fraction * 10_000) * guideline;
  return lhs === rhs ? 0 : lhs < rhs ? -1 : 1;
}

/** −1, 0 or 1 as income is below, on or above fraction × guideline, compared exactly. */
export function compareIncomeToLine(income: number, fraction: number, guideline: number): number {
  return compareToLine(income, fraction, guideline);
}

/** True when income ≥ fraction × guideline, compared exactly in cents. */
export function incomeAtOrAbove(income: number, fraction: number, guideline: number): boolean {
  return compareToLine(income, fraction, guideline) >= 0;
}

/** True when income ≤ fraction × guideline, compared exactly in cents. */
export function incomeAtOrBelow(income: number, fraction: number, guideline: number): boolean {
  return compareToLine(income, fraction, guideline) <= 0;
}

// ---------------------------------------------------------------------------
// FPL percent and applicable percentage.

/** Income as a whole percent of the poverty guideline, truncated: floor(100 × income / guideline) (Form 8962). */
export function fplPercent(income: number, householdSize: number, stateCode: string, guidelineYear: number): number {
  const guideline = povertyGuideline(guidelineYear, stateCode, householdSize);
  // Integer cents over integer dollars: exact floor, no binary-fraction surprises at the edges.
  return Math.floor(incomeCents(income) / guideline);
}

/**
 * Applicable percentage (decimal, e.g. 0.0772) for a whole FPL percent: linear within the band,
 * rounded to the nearest 0.01% (26 CFR 1.36B-3(g)(1)). Null where the year's table defines none
 * (above 400% in a cliff year).
 */
export function applicablePercentage(coverageYear: number, fplPct: number): number | null {
  if (!Number.isInteger(fplPct)) throw new RangeError(`FPL percent must be a whole number, got ${fplPct}`);
  const table = applicablePercentageTable(coverageYear);
  const maxPct = table.maxFplForCredit === null ? null : fractionToPercent(table.maxFplForCredit);
  for (const band of table.bands) {
    const from = fractionToPercent(band.fromFpl);
    const to = band.toFpl === null ? Infinity : fractionToPercent(band.toFpl);
    // Lower edge inclusive, upper exclusive, except the top edge of a capped table (400% inclusive).
    const inBand = fplPct >= from && (fplPct < to || (table.maxInclusive && to === maxPct && fplPct === to));
    if (!inBand) continue;
    // Work in basis points (hundredths of a percent) so the rounding step is exact.
    const initial = Math.round(band.initial * 10_000);
    const final = Math.round(band.final * 10_000);
    const basisPoints =
      to === Infinity || initial === final ? initial : initial + ((fplPct - from) / (to - from)) * (final - initial);
    return Math.round(basisPoints) / 10_000;
  }
  return null;
}

/** Monthly premium tax credit: max(0, benchmark − applicable% × annual income / 12) (26 USC 36B(b)(2)). */
export function premiumTaxCreditMonthly(benchmarkMonthly: number, income: number, applicablePct: number): number {
  assertIncome(income);
  return Math.max(0, benchmarkMonthly - (applicablePct * income) / 12);
}

// ---------------------------------------------------------------------------
// CSR.

/**
 * CSR level from income against the PTC guideline (45 CFR 155.305(g)): 94 for 100–150%, 87 for
 * >150–200%, 73 for >200–250%; null above 250% or when the household is not APTC-eligible.
 */
export function csrLevel(income: number, guideline: number, aptcEligible: boolean): CsrLevel | null {
  if (!aptcEligible) return null;
  for (const band of csrBands()) {
    const cmpLower = compareToLine(income, band.lowerFpl, guideline);
    const aboveLower = band.lowerInclusive ? cmpLower >= 0 : cmpLower > 0;
    if (aboveLower && incomeAtOrBelow(income, band.upperFpl, guideline)) return band.variant;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Programme tests.

/** The facts about a household that the programme tests read. */
export interface HouseholdFacts {
  /** Plan/tax year of the coverage. */
  coverageYear: number;
  /** First day of coverage, YYYY-MM-DD, inside coverageYear (default: 1 January of coverageYear). */
  coverageDate?: string;
  /** Two-letter state code. */
  state: string;
  /** Annual household MAGI in dollars. */
  income: number;
  /** Tax household size (people, ≥ 1). */
  householdSize: number;
  /** Age of the applicant; when absent the applicant is taken to be an adult aged 19–64. */
  applicantAge?: number;
}

interface Normalised {
  coverageYear: number;
  coverageDate: string;
  state: string;
  income: number;
  householdSize: number;
  applicantAge: number | undefined;
}

function normalise(h: HouseholdFacts): Normalised {
  if (!Number.isInteger(h.coverageYear))
    throw new RangeError(`coverage year must be an integer, got ${h.coverageYear}`);
  const coverageDate = h.coverageDate ?? `${h.coverageYear}-01-01`;
  if (isoDateYear(coverageDate) !== h.coverageYear) {
    throw new RangeError(`coverage date ${coverageDate} is not in coverage year ${h.coverageYear}`);
  }
  assertIncome(h.income);
  if (!Number.isInteger(h.householdSize) || h.householdSize < 1) {
    throw new RangeError(`household size must be a whole number of at least 1, got ${h.householdSize}`);
  }
  if (h.applicantAge !== undefined && (!Number.isInteger(h.applicantAge) || h.applicantAge < 0)) {
    throw new RangeError(`applicant age must be a whole number ≥ 0, got ${h.applicantAge}`);
  }
  return {
    coverageYear: h.coverageYear,
    coverageDate,
    state: normaliseStateCode(h.state),
    income: h.income,
    householdSize: h.householdSize,
    applicantAge: h.applicantAge,
  };
}

/**
 * Medicaid/CHIP (simplified adult rule): income at or below 138% of the current-year guideline in an
 * expansion state; in WI (Medicaid to the PTC floor) income below 100% of the current-year guideline.
 */
export function medicaidChipEligible(household: HouseholdFacts): boolean {
  const h = normalise(household);
  const guideline = povertyGuideline(currentGuidelineYear(h.coverageDate), h.state, h.householdSize);
  // Expansion status is only needed for incomes that could qualify, so ask for it last.
  if (incomeAtOrBelow(h.income, medicaidExpansionThresholdFpl(), guideline)) {
    if (isMedicaidExpansionState(h.state, h.coverageYear)) return true;
  }
  if (medicaidToCreditFloorStates().includes(h.state)) {
    const floor = applicablePercentageTable(h.coverageYear).minFplForCredit;
    return !incomeAtOrAbove(h.income, floor, guideline);
  }
  return false;
}

/**
 * NY Essential Plan: NY resident aged 19–64, not Medicaid-eligible, income at or below the limit in
 * force on the coverage date (250% until 2026-06-30, 200% from 2026-07-01) of the current guideline.
 */
export function essentialPlanEligible(household: HouseholdFacts): boolean {
  const h = normalise(household);
  if (h.state !== ESSENTIAL_PLAN_STATE) return false;
  const [minAge, maxAge] = essentialPlanAgeRange();
  if (h.applicantAge !== undefined && (h.applicantAge < minAge || h.applicantAge > maxAge)) return false;
  if (medicaidChipEligible(h)) return false;
  const guideline = povertyGuideline(currentGuidelineYear(h.coverageDate), h.state, h.householdSize);
  return incomeAtOrBelow(h.income, essentialPlanPeriodOn(h.coverageDate).upperFpl, guideline);
}

/**
 * Coverage gap (36B(c)(1)(A)): a non-expansion state other than WI, income below 100% of the PTC
 * guideline and not Medicaid-eligible. Never true in NY.
 */
export function inCoverageGap(household: HouseholdFacts): boolean {
  const h = normalise(household);
  if (h.state === ESSENTIAL_PLAN_STATE) return false;
  const guideline = povertyGuideline(ptcGuidelineYear(h.coverageYear), h.state, h.householdSize);
  const floor = applicablePercentageTable(h.coverageYear).minFplForCredit;
  if (incomeAtOrAbove(h.income, floor, guideline)) return false;
  if (!nonExpansionStates(h.coverageYear).includes(h.state)) return false;
  if (medicaidToCreditFloorStates().includes(h.state)) return false;
  return !medicaidChipEligible(h);
}

// ---------------------------------------------------------------------------
// The whole estimate.

/** Input of estimateEligibility: the household plus its monthly benchmark (SLCSP) premium. */
export interface EligibilityInput extends HouseholdFacts {
  /** Household benchmark premium per month: second-lowest silver, EHB share, no tobacco surcharge. */
  benchmarkMonthly: number;
}

/** The eligibility estimate; the four specified fields plus the figures behind them. */
export interface EligibilityEstimate {
  /** Income as a whole percent of the PTC (prior-year) guideline, truncated. */
  fplPercent: number;
  /** Monthly advance premium tax credit in dollars, full precision (round at the edge). */
  aptc: number;
  /** The CSR level the household gets on a silver plan, or null for none. */
  csr: CsrLevel | null;
  is_medicaid_chip: boolean;
  in_coverage_gap: boolean;
  /** NY only: true when the household is routed to the Essential Plan. */
  essential_plan?: boolean;
  /** True when the household is income-eligible for the credit (it may still compute to $0). */
  ptcEligible: boolean;
  /** Expected monthly contribution toward the benchmark, or null when no credit applies. */
  expectedContributionMonthly: number | null;
  /** Applicable percentage (decimal), or null when no credit applies. */
  applicablePercentage: number | null;
  /** Guideline year used for the credit and CSR (coverage year − 1). */
  ptcGuidelineYear: number;
  /** Guideline year used for Medicaid/CHIP and the Essential Plan. */
  currentGuidelineYear: number;
  /** Plain-language explanation of each step, in order. */
  reasons: string[];
}

function percentText(decimal: number): string {
  return `${(decimal * 100).toFixed(2)}%`;
}

function dollars(x: number): string {
  return `$${x.toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;
}

/** Estimates APTC, CSR, Medicaid/CHIP, coverage gap and (NY) Essential Plan for a household. */
export function estimateEligibility(input: EligibilityInput): EligibilityEstimate {
  const h = normalise(input);
  if (!Number.isFinite(input.benchmarkMonthly) || input.benchmarkMonthly < 0) {
    throw new RangeError(`benchmark premium must be a finite amount ≥ 0, got ${input.benchmarkMonthly}`);
  }
  const reasons: string[] = [];
  const isNy = h.state === ESSENTIAL_PLAN_STATE;

  const ptcYear = ptcGuidelineYear(h.coverageYear);
  const guideline = povertyGuideline(ptcYear, h.state, h.householdSize);
  const fplPct = fplPercent(h.income, h.householdSize, h.state, ptcYear);
  const table = applicablePercentageTable(h.coverageYear);
  const currentYear = currentGuidelineYear(h.coverageDate);
  const currentGuideline = povertyGuideline(currentYear, h.state, h.householdSize);

  reasons.push(
    `Income is ${fplPct}% of the ${ptcYear} poverty guideline (${dollars(guideline)} for ${h.householdSize}), ` +
      `which prices ${h.coverageYear} tax credits and cost-sharing reductions.`,
  );
  if (currentYear !== isoDateYear(h.coverageDate)) {
    reasons.push(
      `The ${isoDateYear(h.coverageDate)} poverty guidelines are not published yet; Medicaid and the Essential Plan ` +
        `use the ${currentYear} guidelines (${dollars(currentGuideline)} for ${h.householdSize}).`,
    );
  }

  const isMedicaid = medicaidChipEligible(h);
  if (isMedicaid) {
    reasons.push(
      `Income is within the Medicaid/CHIP limit of ${h.state} on the ${currentYear} guideline: likely eligible ` +
        `for Medicaid or CHIP, which rules out the premium tax credit.`,
    );
  }

  // What an Essential Plan household is told: docs/decisions/014-ny-essential-plan-result.md.
  let essentialPlan: boolean | undefined;
  if (isNy) {
    essentialPlan = essentialPlanEligible(h);
    const period = essentialPlanPeriodOn(h.coverageDate);
    if (h.applicantAge === undefined) {
      reasons.push("Applicant age not given: treated as an adult aged 19–64 for the Essential Plan.");
    }
    const [minAge, maxAge] = essentialPlanAgeRange();
    if (h.applicantAge !== undefined && (h.applicantAge < minAge || h.applicantAge > maxAge)) {
      reasons.push(
        `The Essential Plan covers ages ${minAge}–${maxAge}; at ${h.applicantAge} the applicant is not routed to it ` +
          `(Child Health Plus and Medicare are outside this estimate).`,
      );
    }
    if (essentialPlan) {
      reasons.push(
        `Income is at or below ${fractionToPercent(period.upperFpl)}% of the ${currentYear} guideline, the ` +
          `Essential Plan limit on ${h.coverageDate}: routed to the Essential Plan, which has no premium tax credit ` +
          `or cost-sharing reduction.`,
      );
    }
  }

  const aboveFloor = incomeAtOrAbove(h.income, table.minFplForCredit, guideline);
  const belowCliff =
    !table.cliffAbove400 ||
    table.maxFplForCredit === null ||
    (table.maxInclusive
      ? incomeAtOrBelow(h.income, table.maxFplForCredit, guideline)
      : compareToLine(h.income, table.maxFplForCredit, guideline) < 0);
  if (!aboveFloor && !isMedicaid) {
    reasons.push(
      `Income is below ${fractionToPercent(table.minFplForCredit)}% of the guideline: no premium tax credit ` +
        `(26 USC 36B(c)(1)(A)).`,
    );
  }
  if (!belowCliff && table.maxFplForCredit !== null) {
    reasons.push(
      `Income is above ${fractionToPercent(table.maxFplForCredit)}% of the guideline and ${h.coverageYear} has ` +
        `no enhanced credits: no premium tax credit.`,
    );
  }

  const ptcEligible = !isMedicaid && !essentialPlan && aboveFloor && belowCliff;
  let pct: number | null = null;
  let contributionMonthly: number | null = null;
  let aptc = 0;
  if (ptcEligible) {
    pct = applicablePercentage(h.coverageYear, fplPct);
    if (pct === null) {
      throw new MissingParameterError("applicable-percentage band", h.coverageYear, `FPL ${fplPct}%`);
    }
    contributionMonthly = (pct * h.income) / 12;
    aptc = premiumTaxCreditMonthly(input.benchmarkMonthly, h.income, pct);
    reasons.push(
      `Expected contribution is ${percentText(pct)} of income, ${dollars(Math.round(contributionMonthly * 100) / 100)} ` +
        `a month; the credit is the benchmark premium minus that, not below zero.`,
    );
  }

  const csr = csrLevel(h.income, guideline, ptcEligible);
  if (csr !== null) reasons.push(`Cost-sharing reduction: silver ${csr} variant on a silver plan.`);

  const gap = !isNy && inCoverageGap(h);
  if (gap) {
    reasons.push(
      `${h.state} has not expanded Medicaid and income is below 100% of the guideline: in the coverage gap.`,
    );
  }

  const estimate: EligibilityEstimate = {
    fplPercent: fplPct,
    aptc,
    csr,
    is_medicaid_chip: isMedicaid,
    in_coverage_gap: gap,
    ptcEligible,
    expectedContributionMonthly: contributionMonthly,
    applicablePercentage: pct,
    ptcGuidelineYear: ptcYear,
    currentGuidelineYear: currentYear,
    reasons,
  };
  if (isNy) estimate.essential_plan = essentialPlan;
  return estimate;
}
