/**
 * Plan records put together from store rows: the list summary of many plans
 * at once (a county can offer hundreds: a handful of set-wise queries, not
 * one per plan) and the full record of one plan. The reader caches both per
 * store version (./caches.server.ts); nothing here caches.
 */
import { ratingAreaLabel } from "../../../db/plan-store-values";
import type { Queries } from "./queries.server";
import {
  baseVariant,
  benefitDetail,
  csrKey,
  deductibleOf,
  groupBy,
  json,
  KEY_BENEFIT_NAMES,
  keyBenefitsOf,
  moopOf,
  rateTablesFrom,
  sbcOf,
  URL_KEYS,
  type RateValues,
  type VariantLimits,
  type VariantRow,
} from "./rows.server";
import type { CsrLevel } from "../../domain/eligibility/csr";
import type {
  CostLimitDetail,
  CsrVariantSummary,
  PlanDetail,
  PlanSummary,
  PlanUrls,
  QualityRating,
  RateTable,
  VariantDetail,
} from "./types";

/** Summaries of the plans `ids` of `year`, in plan-id order; plans without a variant are left out. */
export function buildSummaries(q: Queries, year: number, ids: string[]): PlanSummary[] {
  if (ids.length === 0) return [];
  const args = { year, ids: json(ids) };
  const planRows = q.planList.all(args);
  const variantsByPlan = groupBy(q.variantLimits.all(args), (v) => v.planId);
  const quality = new Map(q.overallRatings.all(args).map((r) => [r.planId, r.overall]));
  const docs = groupBy(q.documents.all(args), (d) => d.planId);
  const bases = new Map<string, VariantLimits>();
  for (const [planId, vs] of variantsByPlan) {
    const b = baseVariant(vs);
    if (b) bases.set(planId, b);
  }
  // Key cost-shares of the base variant and of every CSR variant (a CSR
  // household is priced on its own variant's cost sharing).
  const keyVariantIds = [...bases.values()].map((b) => b.variantId);
  for (const vs of variantsByPlan.values()) for (const v of vs) if (csrKey(v.csrLevel)) keyVariantIds.push(v.variantId);
  const baseBenefits = groupBy(
    q.keyBenefitsOfVariants.all({ year, ids: json(keyVariantIds), names: KEY_BENEFIT_NAMES }),
    (b) => b.variantId,
  );
  return planRows.flatMap((plan) => {
    const variants = variantsByPlan.get(plan.planId) ?? [];
    const base = bases.get(plan.planId);
    if (!base) return [];
    const urls: PlanUrls = {};
    for (const d of docs.get(plan.planId) ?? []) urls[URL_KEYS[d.kind]] = d.url;
    const csrVariantIds: Partial<Record<CsrLevel, string>> = {};
    const csrVariants: Partial<Record<CsrLevel, CsrVariantSummary>> = {};
    for (const v of variants) {
      const key = csrKey(v.csrLevel);
      if (!key) continue;
      csrVariantIds[key] = v.variantId;
      csrVariants[key] = {
        variantId: v.variantId,
        deductible: deductibleOf(v),
        moop: moopOf(v),
        keyBenefits: keyBenefitsOf(baseBenefits.get(v.variantId) ?? []),
      };
    }
    const summary: PlanSummary = {
      id: plan.planId,
      year: plan.planYear,
      name: plan.name,
      state: plan.state,
      issuer: { id: plan.issuerId, name: plan.issuerName ?? plan.issuerId },
      metalLevel: plan.metalLevel,
      type: plan.planType,
      hsaEligible: plan.hsaEligible === true,
      designType: plan.designType,
      ehbShare: plan.ehbShare,
      variantId: base.variantId,
      deductible: deductibleOf(base),
      moop: moopOf(base),
      qualityRating: quality.get(plan.planId) ?? null,
      urls,
      csrVariantIds,
      csrVariants,
      keyBenefits: keyBenefitsOf(baseBenefits.get(base.variantId) ?? []),
    };
    return [summary];
  });
}

/**
 * The full record of one plan (all variants, benefits, limits, SBC examples,
 * rates in every area) around its list `summary`; `premium` is the lowest
 * area's (the reader puts the asked-for area's premium in its place).
 */
export function buildPlanDetail(
  q: Queries,
  year: number,
  planId: string,
  summary: PlanSummary | undefined,
): PlanDetail | undefined {
  const plan = q.planRow.get({ year, planId });
  const variants = q.variantsOfPlan.all({ year, planId });
  const base = variants.find((v) => v.variantId === summary?.variantId);
  if (!summary || !plan || !base) return undefined;
  const quality = q.qualityOfPlan.get({ year, planId });
  const variantIds = variants.map((v) => v.variantId);
  const benefitRows = groupBy(q.benefitsOfVariants.all({ year, ids: json(variantIds) }), (b) => b.variantId);
  const limitRows = groupBy(q.limitsOfVariants.all({ year, ids: json(variantIds) }), (l) => l.variantId);
  const sbcRows = groupBy(q.sbcOfVariants.all({ year, ids: json(variantIds) }), (s) => s.variantId);

  const limitDetails = (variantId: string, kind: "deductible" | "moop"): CostLimitDetail[] =>
    (limitRows.get(variantId) ?? [])
      .filter((l) => l.kind === kind && l.familyCost !== null)
      .map((l) => ({
        coverage: l.coverage,
        networkTier: l.networkTier,
        familyCost: l.familyCost!,
        amount: l.amount,
        display: l.raw,
      }));
  const variantDetail = (v: VariantRow): VariantDetail => ({
    variantId: v.variantId,
    csrLevel: csrKey(v.csrLevel),
    csrVariationType: v.csrVariationType,
    actuarialValue: v.issuerActuarialValue,
    deductible: deductibleOf(v),
    moop: moopOf(v),
    deductibles: limitDetails(v.variantId, "deductible"),
    moops: limitDetails(v.variantId, "moop"),
    benefitDetails: (benefitRows.get(v.variantId) ?? []).map(benefitDetail),
    sbcScenarios: sbcOf(sbcRows.get(v.variantId) ?? []),
  });

  const baseDetail = variantDetail(base);
  const csrVariants: Partial<Record<CsrLevel, VariantDetail>> = {};
  for (const v of variants) {
    const key = csrKey(v.csrLevel);
    if (key) csrVariants[key] = variantDetail(v);
  }
  const copays: Record<string, number | null> = {};
  const coinsurance: Record<string, number | null> = {};
  for (const b of baseDetail.benefitDetails) {
    if (b.covered === false) continue;
    copays[b.name] = b.inNetwork.copay.value;
    coinsurance[b.name] = b.inNetwork.coinsurance.value;
  }

  const tables = rateTablesFrom(q.ratesOfPlan.values({ year, planId }) as RateValues[]);
  const ageRatesByArea: PlanDetail["ageRatesByArea"] = {};
  const familyTiersByArea: PlanDetail["familyTiersByArea"] = {};
  const premiumsByRatingArea: PlanDetail["premiumsByRatingArea"] = {};
  for (const [area, t] of tables.get(planId) ?? new Map<number, RateTable>()) {
    const label = ratingAreaLabel(area);
    if (Object.keys(t.ageRates).length > 0) ageRatesByArea[label] = t.ageRates;
    if (t.familyTiers) familyTiersByArea[label] = t.familyTiers;
    const age21 = t.ageRates["21"]?.individual ?? t.familyTiers?.individual;
    if (age21 !== undefined) premiumsByRatingArea[label] = age21;
  }
  const premiums = Object.values(premiumsByRatingArea);
  // The lowest; planById puts the asked-for area's premium in its place.
  const premium = premiums.length > 0 ? Math.min(...premiums) : null;

  const qualityRating: QualityRating | null = quality
    ? {
        overall: quality.overall,
        medicalCare: quality.medicalCare,
        memberExperience: quality.memberExperience,
        planAdministration: quality.planAdministration,
        notRatedReason: quality.overall === null ? quality.overallRaw : null,
      }
    : null;

  return {
    ...summary,
    premium,
    premiumsByRatingArea,
    ageRatesByArea,
    familyTiersByArea,
    deductibles: baseDetail.deductibles,
    moops: baseDetail.moops,
    copays,
    coinsurance,
    details: {
      networkId: plan.networkId,
      serviceAreaId: plan.serviceAreaId,
      formularyId: plan.formularyId,
      isReferralRequiredForSpecialist: plan.isReferralRequiredForSpecialist,
      specialistRequiringReferral: plan.specialistRequiringReferral,
      nationalNetwork: plan.nationalNetwork,
      outOfCountryCoverage: plan.outOfCountryCoverage,
      outOfServiceAreaCoverage: plan.outOfServiceAreaCoverage,
      ehbPercentPremium: plan.ehbPercentPremium,
      isNewPlan: plan.isNewPlan,
    },
    puf: {
      variantId: base.variantId,
      variantIds,
      csrVariationType: base.csrVariationType,
      actuarialValue: base.issuerActuarialValue,
      csrVariants,
      sbcScenarios: baseDetail.sbcScenarios,
      qualityRating,
      urls: summary.urls,
      benefitDetails: baseDetail.benefitDetails,
    },
  } satisfies PlanDetail;
}
