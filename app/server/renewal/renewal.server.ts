import { levelWords, outcomeOf, outcomeWords, reasonWords } from "../../domain/renewal/crosswalk-words";
import { alternativesTo, changeOf, parsePlanId, rowForPlace, whyWords } from "../../domain/renewal/renewal";
import type { RenewalRequest, RenewalResponse } from "../../schemas/renewal";
import { PlansRequest } from "../../schemas/shopping";
import { planStore } from "../plan-store/plan-store.server";
import { ApiError } from "../platform/api.server";
import { ServerTiming } from "../platform/server-timing.server";
import type { PricedPlan } from "../shopping/plan-list.server";
import { resolvePlanYear } from "../shopping/plan-year.server";
import { pricePlans } from "../shopping/priced-plans.server";
import { coverageInYear, coverageOf, isCovered, type YearCoverage } from "./coverage.server";
import { crosswalkRows, planNamed } from "./crosswalk.server";

/**
 * POST /api/renewal (issue 27, docs/api.md): this year's plan and next year's
 * plan the Plan ID Crosswalk maps it to, both priced by the /api/plans engine
 * (pricePlans) with each year's own credit, the changes, drug and doctor
 * coverage in both years, and the plans that beat the mapped one.
 */

const money = (n: number) =>
  `$${n.toLocaleString("en-US", { minimumFractionDigits: Number.isInteger(n) ? 0 : 2, maximumFractionDigits: 2 })}`;

/** The yearly cost that ranks plans: the household's own (issue 26) where the engine gives it. */
export function yearlyCostOf(plan: PricedPlan): { cost: number; by: "my_yearly_cost" | "estimated_yearly_cost" } {
  const mine = (plan as { my_yearly_cost?: { typical?: number } | null }).my_yearly_cost?.typical;
  return typeof mine === "number"
    ? { cost: mine, by: "my_yearly_cost" }
    : { cost: plan.estimated_yearly_cost, by: "estimated_yearly_cost" };
}

function notFound(raw: string, why: string): ApiError {
  return new ApiError(404, "plan_not_found", `No plan ${raw.trim()}: ${why}`, { current_plan_id: why });
}

async function priced(
  request: RenewalRequest,
  year: number,
  timing: ServerTiming,
  onlyPlanIds?: string[],
): Promise<{ plans: PricedPlan[]; aptc: number | null }> {
  const plansRequest = PlansRequest.parse({
    income: request.income,
    household: request.household,
    place: request.place,
    year,
    usage: request.usage,
    // The household's own yearly cost (my_yearly_cost, issue 26) counts the chosen drugs and doctors.
    drugs: request.drugs.map((d) => ({ rxcui: d.rxcui })),
    doctors: request.doctors.map((d) => ({ npi: d.npi })),
    limit: 500,
  });
  const answer = await pricePlans(plansRequest, timing, onlyPlanIds ? { onlyPlanIds } : {});
  return { plans: answer.plans, aptc: answer.aptc_applied };
}

export async function renewal(request: RenewalRequest, timing = new ServerTiming()): Promise<RenewalResponse> {
  const store = planStore();
  const raw = request.current_plan_id;
  const parsed = parsePlanId(raw);
  if (!parsed) throw notFound(raw, "not a plan ID");
  const { planId, suffix } = parsed;
  const nextYear = resolvePlanYear(request.year, store);
  const currentYear = nextYear - 1;
  if (!store.yearsWithData().includes(currentYear)) throw notFound(raw, `no ${currentYear} plans are on file`);
  const named = planNamed(store, currentYear, planId);
  if (!named) {
    const later = planNamed(store, nextYear, planId);
    throw notFound(
      raw,
      later
        ? `${planId} is a ${nextYear} plan; enter the plan you have in ${currentYear}`
        : `no ${currentYear} plan has the ID ${planId}`,
    );
  }

  // The whole list, as /api/plans gives it (a plan's ranking is against the others), then the plan.
  const current = await priced(request, currentYear, timing);
  const currentPlan =
    current.plans.find((p) => p.id === planId) ??
    (await priced(request, currentYear, timing, [planId])).plans.find((p) => p.id === planId);
  if (!currentPlan) {
    throw new ApiError(
      400,
      "plan_not_offered_here",
      `Plan ${planId} (${named.name}) was not sold in county ${request.place.county_fips} in ${currentYear}.`,
      {
        current_plan_id: `Not sold in county ${request.place.county_fips}, ZIP ${request.place.zip} in ${currentYear}`,
      },
    );
  }

  const rows = crosswalkRows(store, currentYear, planId).filter((r) => r.toYear === nextYear);
  const row = rowForPlace(rows, { countyFips: request.place.county_fips, zip: request.place.zip });
  const outcome = outcomeOf(planId, row ? row.toPlanId : undefined);

  const nextList = await priced(request, nextYear, timing);
  let nextPlan = row?.toPlanId ? nextList.plans.find((p) => p.id === row.toPlanId) : undefined;
  if (row?.toPlanId && !nextPlan) {
    // Beyond the first 500 by yearly cost (a very large county): priced on its own.
    nextPlan = (await priced(request, nextYear, timing, [row.toPlanId])).plans[0];
  }
  const nextNotPriced =
    row?.toPlanId && !nextPlan
      ? `Plan ${row.toPlanId} has no ${nextYear} price at county ${request.place.county_fips}, ZIP ${request.place.zip}`
      : null;

  const drugs = request.drugs.map((d) => d.rxcui);
  const npis = request.doctors.map((d) => d.npi);
  const ranked = nextList.plans
    .map((p) => ({ ...p, yearly_cost: yearlyCostOf(p).cost }))
    .sort((a, b) => a.yearly_cost - b.yearly_cost || a.premium_w_credit - b.premium_w_credit);
  const cheapest = ranked.slice(0, Math.max(request.alternatives * 3, 10));
  const nextRanked = nextPlan ? { ...nextPlan, yearly_cost: yearlyCostOf(nextPlan).cost } : null;
  const [coverageNow, coverageNext]: [YearCoverage, YearCoverage] = await Promise.all([
    coverageInYear(currentYear, [planId], drugs, npis),
    coverageInYear(nextYear, [...(nextPlan ? [nextPlan.id] : []), ...cheapest.map((p) => p.id)], drugs, npis),
  ]);
  const coverageCounts = new Map(
    [...(nextPlan ? [nextPlan] : []), ...cheapest].map((p) => [
      p.id,
      {
        drugsCovered: drugs.filter((r) => isCovered(coverageOf(coverageNext.drugs, r, p.id))).length,
        doctorsInNetwork: npis.filter((n) => isCovered(coverageOf(coverageNext.doctors, n, p.id))).length,
      },
    ]),
  );
  const alternatives = alternativesTo(cheapest, nextRanked, {
    limit: request.alternatives,
    coverage: coverageCounts,
    drugs: drugs.length,
    doctors: npis.length,
  });

  const currentCost = yearlyCostOf(currentPlan);
  return {
    current_plan_id: raw,
    plan_id: planId,
    variant_suffix: suffix,
    current: { year: currentYear, plan: currentPlan, aptc: current.aptc, yearly_cost: currentCost.cost },
    outcome,
    crosswalk: row
      ? {
          from_year: row.fromYear,
          to_year: row.toYear,
          county_fips: row.countyFips,
          zip: row.zip,
          level: row.level,
          level_words: levelWords(row.level),
          reason: row.reason,
          reason_words: reasonWords(row.reason),
          to_plan_id: row.toPlanId,
        }
      : null,
    words: outcomeWords(outcome, planId, row?.toPlanId),
    next: nextPlan
      ? { year: nextYear, plan: nextPlan, aptc: nextList.aptc, yearly_cost: yearlyCostOf(nextPlan).cost }
      : null,
    next_not_priced: nextNotPriced,
    changes: nextPlan
      ? {
          premium_w_credit: changeOf(currentPlan.premium_w_credit, nextPlan.premium_w_credit),
          deductible: changeOf(currentPlan.deductible.individual, nextPlan.deductible.individual),
          moop: changeOf(currentPlan.moop.individual, nextPlan.moop.individual),
          yearly_cost: changeOf(currentCost.cost, yearlyCostOf(nextPlan).cost),
        }
      : null,
    drugs: request.drugs.map((d) => ({
      rxcui: d.rxcui,
      name: d.name ?? null,
      current: coverageOf(coverageNow.drugs, d.rxcui, planId),
      next: nextPlan ? coverageOf(coverageNext.drugs, d.rxcui, nextPlan.id) : null,
    })),
    doctors: request.doctors.map((d) => ({
      npi: d.npi,
      name: d.name ?? null,
      current: coverageOf(coverageNow.doctors, d.npi, planId),
      next: nextPlan ? coverageOf(coverageNext.doctors, d.npi, nextPlan.id) : null,
    })),
    coverage_source: { current: coverageNow.upstream, next: coverageNext.upstream },
    alternatives: alternatives.map((a) => {
      const { yearly_cost, ...plan } = a.plan;
      return { plan, yearly_cost, saves_per_year: a.saves_per_year, why: a.why.map((w) => whyWords(w, money)) };
    }),
    ranked_by: nextPlan ? yearlyCostOf(nextPlan).by : currentCost.by,
  };
}
