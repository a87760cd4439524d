// Eligibility decided person by person, whatever the order of the list: Medicare, Medicaid/CHIP
// (children against the state's children's limit, adults against the expansion line), the NY
// Essential Plan (adults 19–64) and the coverage gap. The people left — the credit's coverage
// family — are the ones the benchmark is priced for and the premium tax credit helps pay for
// (26 CFR 1.36B-2(c), 1.36B-3(b); docs/decisions/211-per-person-programmes.md).
//
// The household's income, tax-household size and place decide the FPL percent, the credit's floor
// and cliff and the CSR level; who is in the coverage family decides the benchmark.

import { childMedicaidChipLimitFpl, pregnancyMedicaidChipLimitFpl } from "./child-coverage-limits";
import {
  applicablePercentage,
  compareIncomeToLine,
  csrLevel,
  fplPercentOf,
  incomeAtOrAbove,
  incomeCents,
  incomeAtOrBelow,
  premiumTaxCreditMonthly,
} from "./credit-formulas";
import type { CsrLevel } from "./csr";
import type { IncomeLineKind } from "../income-line-kinds";
import { CHILD_AGE_LIMIT, expectedBabiesOf, isMedicareEligible, type PersonFacts } from "./household";
import {
  ESSENTIAL_PLAN_STATE,
  MissingParameterError,
  applicablePercentageTable,
  csrBands,
  currentGuidelineYear,
  essentialPlanAgeRange,
  essentialPlanPeriodOn,
  isMedicaidExpansionState,
  isoDateYear,
  medicaidExpansionThresholdFpl,
  medicaidToCreditFloorStates,
  nonExpansionStates,
  normaliseStateCode,
  povertyGuideline,
  ptcGuidelineYear,
} from "../parameters";
import { stateSubsidiesOf, type AppliedStateSubsidy } from "../state-programs";

/** Where one person's coverage comes from, as far as this estimate can tell. */
export type PersonProgramme = "medicare" | "medicaid_chip" | "essential_plan" | "coverage_gap" | "marketplace";

/** The household as the programme tests read it. */
export interface HouseholdInput {
  coverageYear: number;
  /** YYYY-MM-DD inside coverageYear; default 1 January. */
  coverageDate?: string;
  state: string;
  /** Yearly household MAGI in dollars; compared exactly, never rounded first. */
  income: number;
  /** Tax-household size; default the number of people; never smaller. */
  householdSize?: number;
  people: readonly PersonFacts[];
}

interface Facts {
  coverageYear: number;
  coverageDate: string;
  state: string;
  income: number;
  size: number;
  people: readonly PersonFacts[];
  ptcYear: number;
  ptcGuideline: number;
  currentYear: number;
  currentGuideline: number;
}

function factsOf(h: HouseholdInput): Facts {
  if (!Number.isInteger(h.coverageYear)) throw new RangeError(`coverage year must be an integer`);
  const coverageDate = h.coverageDate ?? `${h.coverageYear}-01-01`;
  if (isoDateYear(coverageDate) !== h.coverageYear) {
    throw new RangeError(`coverage date ${coverageDate} is not in coverage year ${h.coverageYear}`);
  }
  if (!Number.isFinite(h.income) || h.income < 0) throw new RangeError(`income must be dollars ≥ 0, got ${h.income}`);
  if (h.people.length === 0) throw new RangeError("a household needs at least one person");
  for (const p of h.people) {
    if (p.pregnant && !(Number.isInteger(expectedBabiesOf(p)) && expectedBabiesOf(p) >= 1)) {
      throw new RangeError(`expected babies must be a whole number of at least 1, got ${p.expectedBabies}`);
    }
  }
  const size = h.householdSize ?? h.people.length;
  if (!Number.isInteger(size) || size < h.people.length) {
    throw new RangeError(`household size ${size} is smaller than the ${h.people.length} people listed`);
  }
  const state = normaliseStateCode(h.state);
  const ptcYear = ptcGuidelineYear(h.coverageYear);
  const currentYear = currentGuidelineYear(coverageDate);
  return {
    coverageYear: h.coverageYear,
    coverageDate,
    state,
    income: h.income,
    size,
    people: h.people,
    ptcYear,
    ptcGuideline: povertyGuideline(ptcYear, state, size),
    currentYear,
    currentGuideline: povertyGuideline(currentYear, state, size),
  };
}

/** A state line, or null for a state the table does not hold (the person then meets the adult rule). */
function stateLine(read: (state: string, year: number) => number, state: string, year: number): number | null {
  try {
    return read(state, year);
  } catch (error) {
    if (error instanceof MissingParameterError) return null;
    throw error;
  }
}

function childLimit(state: string, year: number): number | null {
  return stateLine(childMedicaidChipLimitFpl, state, year);
}

/**
 * A pregnant person's own Medicaid/CHIP household counts the babies she expects (42 CFR
 * 435.603(b)): every Medicaid/CHIP line is measured for her on the guideline of that larger
 * household. Everyone else keeps the tax household's size (the state option of counting her as one
 * for others, docs/decisions/311-pregnancy-per-person.md). The credit never counts them.
 */
function pregnantFacts(person: PersonFacts, f: Facts): Facts {
  const babies = expectedBabiesOf(person);
  if (babies === 0) return f;
  return { ...f, currentGuideline: povertyGuideline(f.currentYear, f.state, f.size + babies) };
}

function pregnancyMedicaid(person: PersonFacts, f: Facts): boolean {
  if (!person.pregnant) return false;
  const g = pregnantFacts(person, f);
  const limit = stateLine(pregnancyMedicaidChipLimitFpl, f.state, f.coverageYear);
  if (limit !== null && incomeAtOrBelow(f.income, limit, g.currentGuideline)) return true;
  // A pregnant girl may also meet the children's line, a pregnant adult the adult rule, on her larger household.
  if (person.age < CHILD_AGE_LIMIT) {
    const child = childLimit(f.state, f.coverageYear);
    if (child !== null && incomeAtOrBelow(f.income, child, g.currentGuideline)) return true;
  }
  return person.age <= essentialPlanAgeRange()[1] && adultMedicaid(g);
}

function adultMedicaid(f: Facts): boolean {
  // Expansion status is asked only for an income that could qualify: a year whose state list the
  // file does not hold still prices households above the line (PolicyEngine's 2025 vectors).
  if (incomeAtOrBelow(f.income, medicaidExpansionThresholdFpl(), f.currentGuideline)) {
    if (isMedicaidExpansionState(f.state, f.coverageYear)) return true;
  }
  // WI covers adults below the credit's floor (docs/decisions/013-wisconsin-medicaid.md).
  if (medicaidToCreditFloorStates().includes(f.state)) {
    return !incomeAtOrAbove(f.income, applicablePercentageTable(f.coverageYear).minFplForCredit, f.currentGuideline);
  }
  return false;
}

function inGapState(f: Facts): boolean {
  return (
    f.state !== ESSENTIAL_PLAN_STATE &&
    nonExpansionStates(f.coverageYear).includes(f.state) &&
    !medicaidToCreditFloorStates().includes(f.state)
  );
}

function programmeOf(person: PersonFacts, f: Facts): PersonProgramme {
  if (isMedicareEligible(person)) return "medicare";
  if (pregnancyMedicaid(person, f)) return "medicaid_chip";
  if (person.age < CHILD_AGE_LIMIT) {
    const limit = childLimit(f.state, f.coverageYear);
    if (limit !== null ? incomeAtOrBelow(f.income, limit, f.currentGuideline) : adultMedicaid(f)) {
      return "medicaid_chip";
    }
    return "marketplace";
  }
  const [minAge, maxAge] = essentialPlanAgeRange();
  // Adult Medicaid and the Essential Plan are for ages 19–64; older people without Medicare shop.
  if (person.age > maxAge) return "marketplace";
  if (adultMedicaid(f)) return "medicaid_chip";
  if (f.state === ESSENTIAL_PLAN_STATE && person.age >= minAge) {
    if (incomeAtOrBelow(f.income, essentialPlanPeriodOn(f.coverageDate).upperFpl, f.currentGuideline)) {
      return "essential_plan";
    }
  }
  const floor = applicablePercentageTable(f.coverageYear).minFplForCredit;
  if (!incomeAtOrAbove(f.income, floor, f.ptcGuideline) && inGapState(f)) return "coverage_gap";
  return "marketplace";
}

/** Each person's programme, by index. */
export function programmesOf(input: HouseholdInput): PersonProgramme[] {
  const f = factsOf(input);
  return f.people.map((p) => programmeOf(p, f));
}

/** Indexes of the people with a given programme, ascending. */
function indexesOf(programmes: readonly PersonProgramme[], which: PersonProgramme): number[] {
  const out: number[] = [];
  programmes.forEach((p, i) => {
    if (p === which) out.push(i);
  });
  return out;
}

/** FPL percent to one decimal, truncated (so it never reads above a line the household is below). */
export function fplPercentOneDecimal(income: number, guideline: number): number {
  // Tenths of a percent = income × 1000 / guideline; compared on the exact cents (see credit-formulas.ts).
  const tenths = Math.floor((incomeCents(income) * 10) / guideline + 1e-9);
  return tenths / 10;
}

/** The whole estimate for a household, person by person. */
export interface HouseholdEstimate {
  programmes: PersonProgramme[];
  medicaidChipMembers: number[];
  essentialPlanMembers: number[];
  medicareMembers: number[];
  /** The people the benchmark is priced for and the credit helps pay for (may be empty). */
  coverageFamily: number[];
  /** Income as a percent of the PTC guideline, truncated to one decimal. */
  fplPercent: number;
  /** Truncated whole percent: the applicable percentage's lookup point. */
  fplPercentWhole: number;
  ptcEligible: boolean;
  /** Monthly credit, full precision (round at the edge). */
  aptc: number;
  /**
   * The state's own help after the federal credit (../state-programs), monthly, full precision:
   * 0 where the state has no registered programme (every state today).
   */
  stateSubsidyMonthly: number;
  /** Each programme's part of `stateSubsidyMonthly`, with its reason. */
  stateSubsidies: AppliedStateSubsidy[];
  csr: CsrLevel | null;
  isMedicaidChip: boolean;
  inCoverageGap: boolean;
  /** NY only. */
  essentialPlan?: boolean;
  applicablePercentage: number | null;
  expectedContributionMonthly: number | null;
  /** Benchmark for the coverage family (EHB, no tobacco), or null when nobody needs one or none was found. */
  benchmarkMonthly: number | null;
  ptcGuidelineYear: number;
  currentGuidelineYear: number;
  ptcGuideline: number;
  currentGuideline: number;
  householdSize: number;
}

/**
 * The household's estimate. `benchmarkFor` prices the benchmark for a coverage family (indexes
 * ascending) and is called only when the family is credit-eligible; null means no benchmark could
 * be found (the credit is then 0).
 */
export function estimateHousehold(
  input: HouseholdInput,
  benchmarkFor: (coverageFamily: readonly number[]) => number | null,
): HouseholdEstimate {
  const f = factsOf(input);
  const programmes = f.people.map((p) => programmeOf(p, f));
  const coverageFamily = [...indexesOf(programmes, "marketplace"), ...indexesOf(programmes, "coverage_gap")].sort(
    (a, b) => a - b,
  );
  const fplWhole = fplPercentOf(f.income, f.ptcGuideline);
  const ptcEligible = coverageFamily.length > 0 && creditTests(f).eligible;
  let pct: number | null = null;
  let contribution: number | null = null;
  let aptc = 0;
  let benchmark: number | null = null;
  if (ptcEligible) {
    pct = applicablePercentage(f.coverageYear, fplWhole);
    if (pct === null) throw new MissingParameterError("applicable-percentage band", f.coverageYear, `${fplWhole}%`);
    contribution = (pct * f.income) / 12;
    benchmark = benchmarkFor(coverageFamily);
    aptc = benchmark === null ? 0 : premiumTaxCreditMonthly(benchmark, f.income, pct);
  }
  const fplPercent = fplPercentOneDecimal(f.income, f.ptcGuideline);
  // A state's own subsidy is applied after the federal credit (docs/decisions/315).
  const state = stateSubsidiesOf(
    {
      coverageYear: f.coverageYear,
      coverageDate: f.coverageDate,
      state: f.state,
      income: f.income,
      householdSize: f.size,
      people: f.people,
      coverageFamily,
      fplPercent,
      ptcEligible,
    },
    aptc,
    benchmark,
  );
  const estimate: HouseholdEstimate = {
    programmes,
    medicaidChipMembers: indexesOf(programmes, "medicaid_chip"),
    essentialPlanMembers: indexesOf(programmes, "essential_plan"),
    medicareMembers: indexesOf(programmes, "medicare"),
    coverageFamily,
    fplPercent,
    fplPercentWhole: fplWhole,
    ptcEligible,
    aptc,
    stateSubsidyMonthly: state.monthly,
    stateSubsidies: state.subsidies,
    csr: csrLevel(f.income, f.ptcGuideline, ptcEligible),
    isMedicaidChip: programmes.includes("medicaid_chip"),
    inCoverageGap: programmes.includes("coverage_gap"),
    applicablePercentage: pct,
    expectedContributionMonthly: contribution,
    benchmarkMonthly: benchmark,
    ptcGuidelineYear: f.ptcYear,
    currentGuidelineYear: f.currentYear,
    ptcGuideline: f.ptcGuideline,
    currentGuideline: f.currentGuideline,
    householdSize: f.size,
  };
  if (f.state === ESSENTIAL_PLAN_STATE) estimate.essentialPlan = programmes.includes("essential_plan");
  return estimate;
}

// ---------------------------------------------------------------------------
// Income lines in dollars.

/** One line, in yearly dollars of household income, for this household and year. */
export interface IncomeLine {
  kind: IncomeLineKind;
  /** The line as a percent of the guideline it is measured on (138, 405, 400…). */
  percent: number;
  /** Yearly household income at the line, dollars (exact: percent × guideline). */
  amount: number;
  /** "at_or_below": the programme applies up to and including `amount`; "below": only under it. */
  side: "at_or_below" | "below";
  /** Guideline year the line is measured on (Medicaid/CHIP/EP: current; credit and CSR: prior year). */
  guidelineYear: number;
}

// Exact dollars of fraction × guideline (fractions have at most 4 decimals in the files).
function lineDollars(fraction: number, guideline: number): number {
  return (Math.round(fraction * 10_000) * guideline) / 10_000;
}

/**
 * Every line that can change what this household gets, ascending by amount: Medicaid for adults
 * (or, in a non-expansion state, the coverage-gap floor at 100%), children's Medicaid/CHIP when
 * someone is under 19, the NY Essential Plan, the CSR 94/87/73 tops and the 400% credit line.
 */
export function incomeLines(input: HouseholdInput): IncomeLine[] {
  const f = factsOf(input);
  const lines: IncomeLine[] = [];
  const add = (kind: IncomeLineKind, fraction: number, guideline: number, side: IncomeLine["side"], year: number) =>
    lines.push({
      kind,
      percent: Math.round(fraction * 100),
      amount: lineDollars(fraction, guideline),
      side,
      guidelineYear: year,
    });
  const table = applicablePercentageTable(f.coverageYear);
  if (isMedicaidExpansionState(f.state, f.coverageYear)) {
    add("medicaid_adults", medicaidExpansionThresholdFpl(), f.currentGuideline, "at_or_below", f.currentYear);
  } else if (medicaidToCreditFloorStates().includes(f.state)) {
    add("medicaid_adults", table.minFplForCredit, f.currentGuideline, "below", f.currentYear);
  } else {
    add("coverage_gap", table.minFplForCredit, f.ptcGuideline, "below", f.ptcYear);
  }
  if (f.people.some((p) => p.age < CHILD_AGE_LIMIT && !isMedicareEligible(p))) {
    const limit = childLimit(f.state, f.coverageYear);
    if (limit !== null) add("medicaid_children", limit, f.currentGuideline, "at_or_below", f.currentYear);
  }
  // The pregnancy line, measured on the first pregnant person's own household (herself and her babies).
  const pregnant = f.people.find((p) => p.pregnant && !isMedicareEligible(p));
  if (pregnant !== undefined) {
    const limit = stateLine(pregnancyMedicaidChipLimitFpl, f.state, f.coverageYear);
    if (limit !== null) {
      add("medicaid_pregnancy", limit, pregnantFacts(pregnant, f).currentGuideline, "at_or_below", f.currentYear);
    }
  }
  if (f.state === ESSENTIAL_PLAN_STATE) {
    add(
      "essential_plan",
      essentialPlanPeriodOn(f.coverageDate).upperFpl,
      f.currentGuideline,
      "at_or_below",
      f.currentYear,
    );
  }
  for (const band of csrBands()) add(`csr_${band.variant}`, band.upperFpl, f.ptcGuideline, "at_or_below", f.ptcYear);
  if (table.cliffAbove400 && table.maxFplForCredit !== null) {
    add(
      "premium_tax_credit",
      table.maxFplForCredit,
      f.ptcGuideline,
      table.maxInclusive ? "at_or_below" : "below",
      f.ptcYear,
    );
  }
  // Only the lines that change something for this household (in NY in 2027 the CSR 94 and 87
  // lines fall inside the Essential Plan, so they change nothing for adults under 65).
  // What each kind of line changes: the CSR level, the credit, or someone's programme.
  const signature = (kind: IncomeLineKind, income: number) => {
    const g = { ...f, income };
    const programmes = f.people.map((p) => programmeOf(p, g));
    const family = programmes.some((p) => p === "marketplace" || p === "coverage_gap");
    const eligible = family && creditTests(g).eligible;
    if (kind.startsWith("csr_")) return String(csrLevel(income, f.ptcGuideline, eligible) === kind.slice(4));
    if (kind === "premium_tax_credit") return String(eligible);
    return programmes.join(",");
  };
  return lines
    .filter((line) => {
      const inside = line.side === "at_or_below" ? line.amount : cents(line.amount - 0.01);
      return signature(line.kind, inside) !== signature(line.kind, cents(inside + 0.01));
    })
    .sort((a, b) => a.amount - b.amount || a.kind.localeCompare(b.kind));
}

const cents = (x: number) => Math.round(x * 100) / 100;

function creditTests(f: Facts): { eligible: boolean } {
  const table = applicablePercentageTable(f.coverageYear);
  const aboveFloor = incomeAtOrAbove(f.income, table.minFplForCredit, f.ptcGuideline);
  const belowCliff =
    !table.cliffAbove400 ||
    table.maxFplForCredit === null ||
    (table.maxInclusive
      ? incomeAtOrBelow(f.income, table.maxFplForCredit, f.ptcGuideline)
      : compareIncomeToLine(f.income, table.maxFplForCredit, f.ptcGuideline) < 0);
  return { eligible: aboveFloor && belowCliff };
}

/** The nearest line at or above the income and the nearest below it (either may be missing). */
export function nearestLines(
  lines: readonly IncomeLine[],
  income: number,
): { above: IncomeLine | null; below: IncomeLine | null } {
  let above: IncomeLine | null = null;
  let below: IncomeLine | null = null;
  for (const line of lines) {
    const onOrUnder = line.side === "at_or_below" ? income <= line.amount : income < line.amount;
    if (onOrUnder) {
      if (above === null || line.amount < above.amount) above = line;
    } else if (below === null || line.amount >= below.amount) below = line;
  }
  return { above, below };
}
