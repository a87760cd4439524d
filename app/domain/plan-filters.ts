// The plan list's filters: which plans a person's choices keep.

/** The filters of a plans request (POST /api/plans `filters`). */
export interface PlanFilterValues {
  metal_levels?: string[];
  types?: string[];
  issuers?: string[];
  hsa_eligible?: boolean;
  max_premium?: number;
  max_deductible?: number;
}

/** What the filters read of a priced plan. */
export interface FilterFields {
  metal_level: string;
  type: string | null;
  issuer: { id: string; name: string };
  hsa_eligible: boolean;
  premium_w_credit: number;
  deductible: { individual: number | null };
}

/** Whether a plan passes every filter set (an unset filter keeps every plan). */
export function passesFilters(plan: FilterFields, filters: PlanFilterValues | undefined): boolean {
  if (!filters) return true;
  if (filters.metal_levels?.length && !filters.metal_levels.includes(plan.metal_level)) return false;
  if (filters.types?.length && !filters.types.includes(plan.type ?? "")) return false;
  if (filters.issuers?.length) {
    const wanted = filters.issuers.map((i) => i.trim().toLowerCase());
    if (!wanted.includes(plan.issuer.id.toLowerCase()) && !wanted.includes(plan.issuer.name.toLowerCase()))
      return false;
  }
  if (filters.hsa_eligible !== undefined && plan.hsa_eligible !== filters.hsa_eligible) return false;
  if (filters.max_premium !== undefined && plan.premium_w_credit > filters.max_premium) return false;
  if (filters.max_deductible !== undefined && (plan.deductible.individual ?? Infinity) > filters.max_deductible)
    return false;
  return true;
}
