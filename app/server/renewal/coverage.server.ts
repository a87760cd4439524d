import type { CoverageValue, DrugCoverageResult, ProviderCoverageResult } from "../../domain/coverage";
import { isFlagSet } from "../../domain/coverage";
import { planStore } from "../plan-store/plan-store.server";
import { checkDrugCoverage, checkProviderCoverage } from "../upstream/lookups.server";

/**
 * Drug and doctor coverage of a few plans in one plan year, for the renewal
 * answer (issue 27): the same look-ups as /api/drugs/covered and
 * /api/providers/covered (upstream first, tiers from own rows). When the
 * upstream gives no answer for the year (outage, or a year it does not serve
 * — last year's plans during open enrollment), the plan store's own formulary
 * and network rows answer alone: a row is Covered (PartialCovered with a
 * restriction); no row is DataNotProvided, never NotCovered (spec decision 7;
 * decision 342).
 */

export type CoverageOne = {
  coverage: CoverageValue;
  tier: string | null;
  source: "upstream" | "own_data" | "none";
};

export type YearCoverage = {
  drugs: Map<string, CoverageOne>;
  doctors: Map<string, CoverageOne>;
  upstream: "ok" | "partial" | "own_rows_only";
};

const key = (code: string, planId: string) => `${code}|${planId}`;

function ownDrugs(year: number, rxcuis: string[], planIds: string[]): Map<string, CoverageOne> {
  const out = new Map<string, CoverageOne>();
  for (const row of planStore().formularyRows({ year, rxcuis, planIds })) {
    const k = key(row.rxcui, row.planId);
    if (out.has(k)) continue;
    const restricted = isFlagSet(row.priorAuth) || isFlagSet(row.stepTherapy) || isFlagSet(row.quantityLimit);
    out.set(k, { coverage: restricted ? "PartialCovered" : "Covered", tier: row.drugTier, source: "own_data" });
  }
  return out;
}

function ownDoctors(year: number, npis: string[], planIds: string[]): Map<string, CoverageOne> {
  const out = new Map<string, CoverageOne>();
  for (const row of planStore().networkRows({ year, npis, planIds })) {
    const k = key(row.npi, row.planId);
    if (!out.has(k)) out.set(k, { coverage: "Covered", tier: row.networkTier, source: "own_data" });
  }
  return out;
}

function fromDrugResults(rows: DrugCoverageResult[]): Map<string, CoverageOne> {
  return new Map(
    rows.map((r) => [key(r.rxcui, r.plan_id), { coverage: r.coverage, tier: r.drug_tier, source: r.source }]),
  );
}

function fromDoctorResults(rows: ProviderCoverageResult[]): Map<string, CoverageOne> {
  return new Map(
    rows.map((r) => [key(r.npi, r.plan_id), { coverage: r.coverage, tier: r.network_tier, source: r.source }]),
  );
}

export async function coverageInYear(
  year: number,
  planIds: string[],
  rxcuis: string[],
  npis: string[],
): Promise<YearCoverage> {
  const ids = [...new Set(planIds)];
  if (ids.length === 0 || (rxcuis.length === 0 && npis.length === 0))
    return { drugs: new Map(), doctors: new Map(), upstream: "ok" };
  const [drugAnswer, doctorAnswer] = await Promise.all([
    rxcuis.length ? checkDrugCoverage({ rxcuis, plan_ids: ids, year }) : null,
    npis.length ? checkProviderCoverage({ npis, plan_ids: ids, year }) : null,
  ]);
  const drugsFailed = drugAnswer !== null && (drugAnswer.upstream === "unavailable" || drugAnswer.upstream === "busy");
  const doctorsFailed =
    doctorAnswer !== null && (doctorAnswer.upstream === "unavailable" || doctorAnswer.upstream === "busy");
  return {
    drugs: drugsFailed ? ownDrugs(year, rxcuis, ids) : fromDrugResults(drugAnswer?.coverage ?? []),
    doctors: doctorsFailed ? ownDoctors(year, npis, ids) : fromDoctorResults(doctorAnswer?.coverage ?? []),
    upstream:
      drugsFailed || doctorsFailed
        ? "own_rows_only"
        : drugAnswer?.upstream === "partial" || doctorAnswer?.upstream === "partial"
          ? "partial"
          : "ok",
  };
}

/** One pair's coverage; unknown (DataNotProvided) when no answer names it. */
export function coverageOf(map: Map<string, CoverageOne>, code: string, planId: string): CoverageOne {
  return map.get(key(code, planId)) ?? { coverage: "DataNotProvided", tier: null, source: "none" };
}

/** Counted as covered for "why" and the page: Covered, GenericCovered or PartialCovered. */
export function isCovered(c: CoverageOne): boolean {
  return c.coverage === "Covered" || c.coverage === "GenericCovered" || c.coverage === "PartialCovered";
}
