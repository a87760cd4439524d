import { estimateHousehold, type HouseholdInput } from "../../domain/eligibility/household-eligibility";
import { impliedBenchmarkMonthly, repaymentRisk } from "../../domain/repayment/repayment-risk";
import type { ShoppingRequest } from "../../schemas/shopping";
import type { PlanStore } from "../plan-store/plan-store.server";
import { ApiError } from "../platform/api.server";
import { householdBenchmark } from "./benchmark.server";
import type { EligibilityAnswer, EligibilityEstimate } from "./eligibility.server";
import { householdInputOf, type HouseholdDecisions } from "./household.server";

/**
 * The credit taken in advance (the request's `aptc_applied`, at most the credit; default all of it)
 * and what the household would pay back at tax time if its income ends higher
 * (app/domain/repayment; docs/decisions/320-repayment-risk.md).
 */

/** The monthly credit taken in advance, or a 400 naming the field when it is more than the credit. */
export function appliedCredit(request: Pick<ShoppingRequest, "aptc_applied">, aptc: number): number {
  const asked = request.aptc_applied;
  if (asked === undefined) return aptc;
  // Compared in cents, so 311.33 against a credit shown as 311.33 is never refused by binary noise.
  if (Math.round(asked * 100) > Math.round(aptc * 100)) {
    throw new ApiError(
      400,
      "validation_failed",
      `aptc_applied ($${asked}) is more than the estimated monthly credit ($${aptc.toFixed(2)}).`,
      { aptc_applied: `At most the monthly credit, ${aptc.toFixed(2)}` },
    );
  }
  return asked;
}

/**
 * The benchmark the allowed credit is recomputed with: our own (answers we computed), else the one
 * that gives the federal credit under our rules, else our own for the coverage family (a federal
 * answer of no credit), else none.
 */
function riskBenchmark(
  estimate: EligibilityEstimate,
  request: ShoppingRequest,
  year: number,
  store: PlanStore,
  input: HouseholdInput,
  coverageFamily: readonly number[],
): number | null {
  if (estimate.benchmark_premium !== null) return estimate.benchmark_premium;
  const implied = impliedBenchmarkMonthly(input, estimate.aptc);
  if (implied !== null) return implied;
  if (coverageFamily.length === 0) return null;
  return householdBenchmark(request, year, store, coverageFamily)?.monthly ?? null;
}

/** The estimate with the credit taken in advance and its repayment risk (yearly dollars to the cent). */
export function withRepaymentRisk(
  estimate: EligibilityEstimate,
  request: ShoppingRequest,
  year: number,
  store: PlanStore,
  /** The request's own household decisions when the caller has made them already (householdDecisions). */
  decided?: Pick<HouseholdDecisions, "input" | "estimate">,
): EligibilityAnswer {
  const applied = appliedCredit(request, estimate.aptc);
  // Who enrols with the credit, by our own per-person rules (the same people in every answer).
  const input = decided?.input ?? householdInputOf(request, year);
  const { coverageFamily } = decided?.estimate ?? estimateHousehold(input, () => null);
  const rows = repaymentRisk({
    household: input,
    coverageFamily,
    benchmarkMonthly: riskBenchmark(estimate, request, year, store, input, coverageFamily),
    appliedMonthly: applied,
  });
  return {
    ...estimate,
    aptc_applied: applied,
    repayment_risk: rows.map((r) => ({
      scenario: r.scenario,
      income: r.income,
      allowed_credit: r.allowedCredit,
      advance_credit: r.advanceCredit,
      repayment: r.repayment,
      cap: r.cap,
    })),
  };
}
