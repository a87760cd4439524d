// A state's own subsidy on top of the federal premium tax credit (as NJ, CA, MD, NM and others
// give), applied by the one engine after the federal credit (docs/decisions/314, 315).
//
// Each programme is a folder beside this file (`<st>/index.ts` with its parameter blocks under
// `parameters/states/<st>/`) and one line in PROGRAMS below. No real state subsidy is claimed yet:
// the list is empty in production, so every figure is the federal one. Tests register a made-up
// programme with `registerStateProgram` (tests/fixtures/state-programs/).

import type { PersonFacts } from "../eligibility/household";

/** What a state programme may read: the household and the engine's federal answer for it. */
export interface StateProgramFacts {
  coverageYear: number;
  /** YYYY-MM-DD inside coverageYear. */
  coverageDate: string;
  /** Two-letter code, upper case. */
  state: string;
  /** Yearly household MAGI, dollars. */
  income: number;
  householdSize: number;
  people: readonly PersonFacts[];
  /** Indexes of the people who shop on the marketplace (the credit's coverage family). */
  coverageFamily: readonly number[];
  /** Income as a percent of the credit's poverty guideline, truncated to one decimal. */
  fplPercent: number;
  ptcEligible: boolean;
}

/** A programme's monthly help for the household, full precision, with the reason shown for it. */
export interface StateSubsidy {
  amount: number;
  reason: string;
}

export interface StateProgram {
  /** A stable name, e.g. "nj-health-plan-savings". */
  id: string;
  /** Two-letter state code, upper case. */
  state: string;
  /** Plan years the programme runs. */
  years: readonly number[];
  /**
   * Monthly help after the federal credit. `federalCredit` is the engine's monthly credit (0 when
   * none); `benchmark` the coverage family's benchmark, or null when the federal credit was not
   * priced (no credit eligibility).
   */
  monthlySubsidy(facts: StateProgramFacts, federalCredit: number, benchmark: number | null): StateSubsidy;
}

/** The programmes in production: one import and one line each. None is claimed yet. */
const PROGRAMS: StateProgram[] = [];

/** The programmes that apply to a state and plan year, in registration order. */
export function stateProgramsFor(state: string, year: number): readonly StateProgram[] {
  return PROGRAMS.filter((p) => p.state === state && p.years.includes(year));
}

/** Adds a programme (tests; production lists its programmes in PROGRAMS). Returns its removal. */
export function registerStateProgram(program: StateProgram): () => void {
  if (!/^[A-Z]{2}$/.test(program.state))
    throw new RangeError(`state program ${program.id}: bad state ${program.state}`);
  if (PROGRAMS.some((p) => p.id === program.id))
    throw new RangeError(`state program ${program.id} is registered twice`);
  PROGRAMS.push(program);
  return () => {
    const i = PROGRAMS.indexOf(program);
    if (i >= 0) PROGRAMS.splice(i, 1);
  };
}

/** One programme's answer for the household, as the estimate carries it. */
export interface AppliedStateSubsidy extends StateSubsidy {
  program: string;
}

/** Every programme's help for this household (only those giving more than 0), and their monthly sum. */
export function stateSubsidiesOf(
  facts: StateProgramFacts,
  federalCredit: number,
  benchmark: number | null,
): { subsidies: AppliedStateSubsidy[]; monthly: number } {
  const subsidies: AppliedStateSubsidy[] = [];
  if (facts.coverageFamily.length === 0) return { subsidies, monthly: 0 };
  for (const program of stateProgramsFor(facts.state, facts.coverageYear)) {
    const { amount, reason } = program.monthlySubsidy(facts, federalCredit, benchmark);
    if (!Number.isFinite(amount) || amount < 0) {
      throw new RangeError(`state program ${program.id} gave ${amount}: a monthly amount must be dollars ≥ 0`);
    }
    if (amount > 0) subsidies.push({ program: program.id, amount, reason });
  }
  return { subsidies, monthly: subsidies.reduce((sum, s) => sum + s.amount, 0) };
}
