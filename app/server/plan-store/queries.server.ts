/**
 * The prepared statements of one open store file, made once per handle:
 * drizzle builds each SQL text once and better-sqlite3 keeps it compiled.
 */
import { and, asc, eq, exists, or, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type * as schema from "../../../db/plan-store";
import {
  benefits,
  costLimits,
  counties,
  dataVersions as dataVersionsTable,
  formulary,
  issuers,
  planDocuments,
  planVariants,
  plans,
  providerNetwork,
  qualityRatings,
  rates,
  ratingAreaCounties,
  ratingAreaZip3,
  sbcScenarios,
  serviceAreaZips,
  serviceAreas,
  states,
  storeMeta,
  zipCounties,
} from "../../../db/plan-store";

/** `column IN (the JSON list passed as placeholder `name`)`: one statement for any number of ids. */
const inList = (column: unknown, name: string) =>
  sql`${column} IN (SELECT value FROM json_each(${sql.placeholder(name)}))`;

const RATE_COLUMNS = {
  planId: rates.planId,
  ratingArea: rates.ratingArea,
  ageBand: rates.ageBand,
  tobacco: rates.tobacco,
  individualRate: rates.individualRate,
  tobaccoRate: rates.tobaccoRate,
  couple: rates.couple,
  p1: rates.primarySubscriberAndOneDependent,
  p2: rates.primarySubscriberAndTwoDependents,
  p3: rates.primarySubscriberAndThreeOrMoreDependents,
  c1: rates.coupleAndOneDependent,
  c2: rates.coupleAndTwoDependents,
  c3: rates.coupleAndThreeOrMoreDependents,
};
const FORMULARY_COLUMNS = {
  rxcui: formulary.rxcui,
  planId: formulary.planId,
  drugTier: formulary.drugTier,
  priorAuth: formulary.priorAuth,
  stepTherapy: formulary.stepTherapy,
  quantityLimit: formulary.quantityLimit,
};
const NETWORK_COLUMNS = {
  npi: providerNetwork.npi,
  planId: providerNetwork.planId,
  networkTier: providerNetwork.networkTier,
};

export function prepareQueries(db: BetterSQLite3Database<typeof schema>) {
  const P = {
    year: sql.placeholder("year"),
    state: sql.placeholder("state"),
    county: sql.placeholder("county"),
    zip: sql.placeholder("zip"),
  };
  const zipListed = exists(
    db
      .select({ one: sql`1` })
      .from(serviceAreaZips)
      .where(
        and(
          eq(serviceAreaZips.planYear, serviceAreas.planYear),
          eq(serviceAreaZips.issuerId, serviceAreas.issuerId),
          eq(serviceAreaZips.serviceAreaId, serviceAreas.serviceAreaId),
          eq(serviceAreaZips.countyFips, serviceAreas.countyFips),
          eq(serviceAreaZips.zip, P.zip),
        ),
      ),
  );
  // A plan is offered in a place when its issuer's service area covers the
  // state, or the county (a partial county only for its listed ZIPs).
  const servesPlace = and(
    eq(serviceAreas.planYear, plans.planYear),
    eq(serviceAreas.issuerId, plans.issuerId),
    eq(serviceAreas.serviceAreaId, plans.serviceAreaId),
    eq(serviceAreas.state, P.state),
    or(
      eq(serviceAreas.coverEntireState, true),
      and(
        eq(serviceAreas.countyFips, P.county),
        or(eq(serviceAreas.partialCounty, false), sql`${P.zip} IS NULL`, zipListed),
      ),
    ),
  );

  return preparedOnFirstUse({
    meta: () => db.select().from(storeMeta).prepare(),
    dataVersions: () => db.select().from(dataVersionsTable).orderBy(asc(dataVersionsTable.id)).prepare(),
    years: () => db.selectDistinct({ year: plans.planYear }).from(plans).orderBy(asc(plans.planYear)).prepare(),
    stateRows: () => db.select().from(states).where(eq(states.code, P.state)).orderBy(asc(states.planYear)).prepare(),
    countiesForZip: () =>
      db
        .select({
          zip: zipCounties.zip,
          countyFips: zipCounties.countyFips,
          countyName: counties.name,
          state: zipCounties.state,
          share: zipCounties.share,
        })
        .from(zipCounties)
        .leftJoin(counties, eq(counties.fips, zipCounties.countyFips))
        .where(eq(zipCounties.zip, P.zip))
        .orderBy(asc(zipCounties.rank))
        .prepare(),
    countiesOfState: () =>
      db
        .select({ fips: counties.fips, name: counties.name, state: counties.state })
        .from(counties)
        .where(eq(counties.state, P.state))
        .orderBy(asc(counties.name))
        .prepare(),
    ratingAreaByCounty: () =>
      db
        .select({ ratingArea: ratingAreaCounties.ratingArea })
        .from(ratingAreaCounties)
        .where(
          and(
            eq(ratingAreaCounties.planYear, P.year),
            eq(ratingAreaCounties.countyFips, P.county),
            eq(ratingAreaCounties.state, P.state),
          ),
        )
        .prepare(),
    ratingAreaByZip3: () =>
      db
        .select({ ratingArea: ratingAreaZip3.ratingArea })
        .from(ratingAreaZip3)
        .where(
          and(
            eq(ratingAreaZip3.planYear, P.year),
            eq(ratingAreaZip3.state, P.state),
            eq(ratingAreaZip3.zip3, sql.placeholder("zip3")),
          ),
        )
        .prepare(),
    plansOffered: () =>
      db
        .selectDistinct({ planId: plans.planId })
        .from(plans)
        .innerJoin(serviceAreas, servesPlace)
        .where(and(eq(plans.planYear, P.year), eq(plans.state, P.state), eq(plans.onExchange, true)))
        .orderBy(asc(plans.planId))
        .prepare(),
    planOffered: () =>
      db
        .select({ planId: plans.planId })
        .from(plans)
        .innerJoin(serviceAreas, servesPlace)
        .where(
          and(
            eq(plans.planYear, P.year),
            eq(plans.planId, sql.placeholder("planId")),
            eq(plans.state, P.state),
            eq(plans.onExchange, true),
          ),
        )
        .limit(1)
        .prepare(),
    // List queries select only what a plan list shows: wide rows cost more to
    // turn into objects than to read (a county can offer hundreds of plans).
    planList: () =>
      db
        .select({
          planId: plans.planId,
          planYear: plans.planYear,
          name: plans.name,
          state: plans.state,
          issuerId: plans.issuerId,
          issuerName: issuers.name,
          metalLevel: plans.metalLevel,
          planType: plans.planType,
          hsaEligible: plans.hsaEligible,
          designType: plans.designType,
          ehbShare: plans.ehbPercentPremium,
        })
        .from(plans)
        .leftJoin(issuers, and(eq(issuers.planYear, plans.planYear), eq(issuers.issuerId, plans.issuerId)))
        .where(and(eq(plans.planYear, P.year), inList(plans.planId, "ids")))
        .orderBy(asc(plans.planId))
        .prepare(),
    planRow: () =>
      db
        .select()
        .from(plans)
        .where(and(eq(plans.planYear, P.year), eq(plans.planId, sql.placeholder("planId"))))
        .prepare(),
    variantLimits: () =>
      db
        .select({
          variantId: planVariants.variantId,
          planId: planVariants.planId,
          suffix: planVariants.suffix,
          csrLevel: planVariants.csrLevel,
          deductibleIndividualRaw: planVariants.deductibleIndividualRaw,
          deductibleIndividual: planVariants.deductibleIndividual,
          deductibleFamilyRaw: planVariants.deductibleFamilyRaw,
          deductibleFamily: planVariants.deductibleFamily,
          drugDeductibleIndividualRaw: planVariants.drugDeductibleIndividualRaw,
          drugDeductibleIndividual: planVariants.drugDeductibleIndividual,
          drugDeductibleFamilyRaw: planVariants.drugDeductibleFamilyRaw,
          drugDeductibleFamily: planVariants.drugDeductibleFamily,
          moopIndividualRaw: planVariants.moopIndividualRaw,
          moopIndividual: planVariants.moopIndividual,
          moopFamilyRaw: planVariants.moopFamilyRaw,
          moopFamily: planVariants.moopFamily,
        })
        .from(planVariants)
        .where(and(eq(planVariants.planYear, P.year), inList(planVariants.planId, "ids")))
        .orderBy(asc(planVariants.variantId))
        .prepare(),
    variantsOfPlan: () =>
      db
        .select()
        .from(planVariants)
        .where(and(eq(planVariants.planYear, P.year), eq(planVariants.planId, sql.placeholder("planId"))))
        .orderBy(asc(planVariants.variantId))
        .prepare(),
    overallRatings: () =>
      db
        .select({ planId: qualityRatings.planId, overall: qualityRatings.overall })
        .from(qualityRatings)
        .where(and(eq(qualityRatings.planYear, P.year), inList(qualityRatings.planId, "ids")))
        .prepare(),
    qualityOfPlan: () =>
      db
        .select()
        .from(qualityRatings)
        .where(and(eq(qualityRatings.planYear, P.year), eq(qualityRatings.planId, sql.placeholder("planId"))))
        .prepare(),
    keyBenefitsOfVariants: () =>
      db
        .select({
          variantId: benefits.variantId,
          benefitName: benefits.benefitName,
          copayInnTier1: benefits.copayInnTier1,
          copayInnTier1Amount: benefits.copayInnTier1Amount,
          coinsInnTier1: benefits.coinsInnTier1,
          coinsInnTier1Rate: benefits.coinsInnTier1Rate,
          copayOutOfNet: benefits.copayOutOfNet,
          copayOutOfNetAmount: benefits.copayOutOfNetAmount,
          coinsOutOfNet: benefits.coinsOutOfNet,
          coinsOutOfNetRate: benefits.coinsOutOfNetRate,
        })
        .from(benefits)
        .where(
          and(
            eq(benefits.planYear, P.year),
            inList(benefits.variantId, "ids"),
            sql`lower(${benefits.benefitName}) IN (SELECT value FROM json_each(${sql.placeholder("names")}))`,
          ),
        )
        .prepare(),
    documents: () =>
      db
        .select()
        .from(planDocuments)
        .where(and(eq(planDocuments.planYear, P.year), inList(planDocuments.planId, "ids")))
        .prepare(),
    benefitsOfVariants: () =>
      db
        .select()
        .from(benefits)
        .where(and(eq(benefits.planYear, P.year), inList(benefits.variantId, "ids")))
        .orderBy(asc(benefits.variantId), asc(benefits.benefitName))
        .prepare(),
    limitsOfVariants: () =>
      db
        .select()
        .from(costLimits)
        .where(and(eq(costLimits.planYear, P.year), inList(costLimits.variantId, "ids")))
        .prepare(),
    sbcOfVariants: () =>
      db
        .select()
        .from(sbcScenarios)
        .where(and(eq(sbcScenarios.planYear, P.year), inList(sbcScenarios.variantId, "ids")))
        .orderBy(asc(sbcScenarios.variantId), asc(sbcScenarios.scenario))
        .prepare(),
    // Rates are read as arrays (.values()) in RATE_COLUMNS order: thousands of rows per answer.
    ratesOfPlan: () =>
      db
        .select(RATE_COLUMNS)
        .from(rates)
        .where(and(eq(rates.planYear, P.year), eq(rates.planId, sql.placeholder("planId"))))
        .orderBy(asc(rates.ratingArea), asc(rates.effectiveDate))
        .prepare(),
    ratesInArea: () =>
      db
        .select(RATE_COLUMNS)
        .from(rates)
        .where(
          and(eq(rates.planYear, P.year), inList(rates.planId, "ids"), eq(rates.ratingArea, sql.placeholder("area"))),
        )
        .orderBy(asc(rates.planId), asc(rates.effectiveDate))
        .prepare(),
    // With and without a plan filter: separate statements so that the
    // (year, rxcui, plan) index serves both lists.
    formularyRows: () =>
      db
        .selectDistinct(FORMULARY_COLUMNS)
        .from(formulary)
        .where(and(eq(formulary.planYear, P.year), inList(formulary.rxcui, "rxcuis")))
        .orderBy(asc(formulary.rxcui), asc(formulary.planId), asc(formulary.drugTier))
        .prepare(),
    formularyRowsOfPlans: () =>
      db
        .selectDistinct(FORMULARY_COLUMNS)
        .from(formulary)
        .where(
          and(eq(formulary.planYear, P.year), inList(formulary.rxcui, "rxcuis"), inList(formulary.planId, "planIds")),
        )
        .orderBy(asc(formulary.rxcui), asc(formulary.planId), asc(formulary.drugTier))
        .prepare(),
    networkRows: () =>
      db
        .selectDistinct(NETWORK_COLUMNS)
        .from(providerNetwork)
        .where(and(eq(providerNetwork.planYear, P.year), inList(providerNetwork.npi, "npis")))
        .orderBy(asc(providerNetwork.npi), asc(providerNetwork.planId), asc(providerNetwork.networkTier))
        .prepare(),
    networkRowsOfPlans: () =>
      db
        .selectDistinct(NETWORK_COLUMNS)
        .from(providerNetwork)
        .where(
          and(
            eq(providerNetwork.planYear, P.year),
            inList(providerNetwork.npi, "npis"),
            inList(providerNetwork.planId, "planIds"),
          ),
        )
        .orderBy(asc(providerNetwork.npi), asc(providerNetwork.planId), asc(providerNetwork.networkTier))
        .prepare(),
  });
}

/**
 * The statements, each built and prepared when first used, then kept: a store handle is opened by
 * the first request that reads the store (a health check, at a server's start), which used to pay
 * for preparing every statement of the store (~30) before its answer (issue 29, decision 461).
 */
function preparedOnFirstUse<T extends Record<string, () => unknown>>(
  makers: T,
): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const statements = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const name of Object.keys(makers) as Array<keyof T>) {
    Object.defineProperty(statements, name, {
      enumerable: true,
      configurable: true,
      get() {
        const statement = makers[name]() as ReturnType<T[typeof name]>;
        Object.defineProperty(statements, name, { value: statement, enumerable: true, writable: false });
        return statement;
      },
    });
  }
  return statements;
}

export type Queries = ReturnType<typeof prepareQueries>;
