import { enrollSteps, type EnrollLink } from "../../domain/marketplaces";
import { isStandardizedDesign } from "../../domain/plan-design";
import { planStore } from "../plan-store/plan-store.server";
import type { PlanSummary } from "../plan-store/types";
import type { PlaceSummary } from "./page-parts.server";

/** What the consumer pages show of a plan beyond its price: where to enroll and whether its design is standardized. */
export interface PlanExtras {
  enroll: EnrollLink[];
  standardized: boolean;
}

export function planExtrasOf(
  plan: Pick<PlanSummary, "id" | "name" | "state" | "issuer" | "designType" | "urls"> | undefined,
  fallback: { id: string; name: string; issuerName: string; state: string },
  year: number,
): PlanExtras {
  const state = plan?.state ?? fallback.state;
  const info = planStore().state(state, year);
  return {
    enroll: enrollSteps({
      state,
      kind: info?.exchangeKind,
      planId: fallback.id,
      planName: plan?.name ?? fallback.name,
      year,
      issuerName: plan?.issuer.name ?? fallback.issuerName,
      insurerUrl: plan?.urls.enrollment ?? null,
    }),
    standardized: isStandardizedDesign(plan?.designType),
  };
}

/** Extras of the priced plans of a place, by plan id (plans upstream priced get the marketplace step only). */
export function planExtrasFor(
  place: PlaceSummary,
  year: number,
  plans: ReadonlyArray<{ id: string; name: string; issuer: { name: string } }>,
): Record<string, PlanExtras> {
  const offered = new Map(
    planStore()
      .plansOffered({ year, state: place.state, countyFips: place.countyFips, zip: place.zip })
      .map((p) => [p.id, p]),
  );
  return Object.fromEntries(
    plans.map((p) => [
      p.id,
      planExtrasOf(offered.get(p.id), { id: p.id, name: p.name, issuerName: p.issuer.name, state: place.state }, year),
    ]),
  );
}
