/**
 * Plan Attributes PUF (plan-attributes-puf.csv): one row per plan variant.
 * Columns: puf-formats.md §3; PY2026 order in seed/reference/puf-column-headers.json.
 * SHOP and dental-only rows are skipped (the skip names the plan, so that the
 * loader can skip its rates and benefits with the same reason).
 */
import {
  CSR_LEVEL_BY_SUFFIX,
  STANDARD_COMPONENT_ID,
  VARIANT_ID,
  cleanText,
  isNotApplicable,
  parseDate,
  parseDecimal,
  parseMoney,
  parseRate,
  parseYesNo,
} from "../../db/plan-store-values";
import { column, firstFilled, reject, row, yearCheck, type CsvFormat, type Parsed } from "./types";

export type CostLimitCell = {
  kind: "deductible" | "moop" | "coinsurance";
  coverage: "medical" | "drug" | "total";
  networkTier: "in_network_tier1" | "in_network_tier2" | "out_of_network" | "combined";
  familyCost: "individual" | "family_per_person" | "family_per_group" | null;
  raw: string;
  amount: number | null;
};

export type SbcScenarioCells = {
  scenario: "having_a_baby" | "managing_diabetes" | "simple_fracture";
  deductibleRaw: string | null;
  deductible: number | null;
  copaymentRaw: string | null;
  copayment: number | null;
  coinsuranceRaw: string | null;
  coinsurance: number | null;
  limitRaw: string | null;
  limit: number | null;
};

export type PlanDocumentUrls = Partial<Record<"summary_of_benefits" | "formulary" | "brochure" | "enrollment", string>>;

export type PlanAttributesRecord = {
  planYear: number;
  state: string;
  issuerId: string;
  issuerName: string | null;
  planId: string;
  variantId: string;
  suffix: string;
  csrLevel: 73 | 87 | 94 | null;
  plan: {
    name: string;
    metalLevel: string;
    planType: string | null;
    hiosProductId: string | null;
    networkId: string | null;
    serviceAreaId: string | null;
    formularyId: string | null;
    isNewPlan: boolean | null;
    designType: string | null;
    uniquePlanDesign: boolean | null;
    qhpType: string | null;
    hsaEligible: boolean | null;
    ehbPercentPremium: number | null;
    nationalNetwork: boolean | null;
    childOnlyOffering: string | null;
    isReferralRequiredForSpecialist: boolean | null;
    specialistRequiringReferral: string | null;
    isNoticeRequiredForPregnancy: boolean | null;
    planLevelExclusions: string | null;
    wellnessProgramOffered: boolean | null;
    diseaseManagementPrograms: string | null;
    outOfCountryCoverage: boolean | null;
    outOfServiceAreaCoverage: boolean | null;
    effectiveDate: string | null;
    expirationDate: string | null;
  };
  variant: {
    csrVariationType: string | null;
    marketingName: string | null;
    issuerActuarialValue: number | null;
    avCalculatorOutput: number | null;
    deductiblesIntegrated: boolean | null;
    moopIntegrated: boolean | null;
    multipleInNetworkTiers: boolean | null;
    firstTierUtilization: string | null;
    secondTierUtilization: string | null;
    deductibleIndividualRaw: string | null;
    deductibleIndividual: number | null;
    deductibleFamilyRaw: string | null;
    deductibleFamily: number | null;
    drugDeductibleIndividualRaw: string | null;
    drugDeductibleIndividual: number | null;
    drugDeductibleFamilyRaw: string | null;
    drugDeductibleFamily: number | null;
    moopIndividualRaw: string | null;
    moopIndividual: number | null;
    moopFamilyRaw: string | null;
    moopFamily: number | null;
    specialtyDrugMaxCoinsurance: string | null;
    inpatientCopaymentMaxDays: string | null;
    primaryCareCostSharingAfterVisits: string | null;
    primaryCareDeductibleCoinsuranceAfterCopays: string | null;
  };
  costLimits: CostLimitCell[];
  sbcScenarios: SbcScenarioCells[];
  urls: PlanDocumentUrls;
};

const COVERAGE = [
  ["M", "medical"],
  ["D", "drug"],
  ["T", "total"],
] as const;
const TIERS = [
  ["InnTier1", "in_network_tier1"],
  ["InnTier2", "in_network_tier2"],
  ["OutOfNet", "out_of_network"],
  ["CombInnOon", "combined"],
] as const;
const FAMILY = [
  ["Individual", "individual"],
  ["FamilyPerPerson", "family_per_person"],
  ["FamilyPerGroup", "family_per_group"],
] as const;
const SCENARIOS = [
  ["aBaby", "having_a_baby"],
  ["Diabetes", "managing_diabetes"],
  ["Simplefracture", "simple_fracture"],
] as const;

/** A document link as given, with "https://" added to a bare host name; null when not a link. */
export function normalizeUrl(raw: string | null | undefined): string | null {
  const t = cleanText(raw);
  if (!t || isNotApplicable(t)) return null;
  if (/^https?:\/\/\S+$/i.test(t)) return t;
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+(\/\S*)?$/i.test(t)) return `https://${t}`;
  return null;
}

export const planAttributesFormat: CsvFormat<PlanAttributesRecord> = {
  name: "plan-attributes-puf",
  required: [["StandardComponentId"], ["PlanId"], ["StateCode"], ["IssuerId"], ["PlanMarketingName"], ["MetalLevel"]],
  create(header, options) {
    const c = (...names: string[]) => column(header, ...names);
    const year = yearCheck(header, options);
    const businessYear = c("BusinessYear");
    const market = c("MarketCoverage");
    const dental = firstFilled(header, "DentalOnlyPlan", "DentalOnly");
    const f = {
      state: c("StateCode"),
      issuerId: c("IssuerId"),
      issuerName: c("IssuerMarketPlaceMarketingName"),
      scid: c("StandardComponentId"),
      planId: c("PlanId"),
      name: c("PlanMarketingName"),
      metal: c("MetalLevel"),
      planType: c("PlanType"),
      hiosProductId: c("HIOSProductId"),
      networkId: c("NetworkId"),
      serviceAreaId: c("ServiceAreaId"),
      formularyId: c("FormularyId"),
      isNewPlan: c("IsNewPlan"),
      designType: c("DesignType"),
      uniquePlanDesign: c("UniquePlanDesign"),
      qhpType: c("QHPNonQHPTypeId"),
      hsa: c("IsHSAEligible"),
      ehbPercent: c("EHBPercentTotalPremium"),
      nationalNetwork: c("NationalNetwork"),
      childOnly: c("ChildOnlyOffering"),
      referral: c("IsReferralRequiredForSpecialist"),
      specialists: c("SpecialistRequiringReferral"),
      pregnancyNotice: c("IsNoticeRequiredForPregnancy"),
      exclusions: c("PlanLevelExclusions"),
      wellness: c("WellnessProgramOffered"),
      disease: c("DiseaseManagementProgramsOffered"),
      outOfCountry: c("OutOfCountryCoverage"),
      outOfArea: c("OutOfServiceAreaCoverage"),
      effective: c("PlanEffectiveDate"),
      expiration: c("PlanExpirationDate"),
      csrType: c("CSRVariationType"),
      variantName: c("PlanVariantMarketingName"),
      av: c("IssuerActuarialValue"),
      avCalc: c("AVCalculatorOutputNumber"),
      dedIntegrated: c("MedicalDrugDeductiblesIntegrated"),
      moopIntegrated: c("MedicalDrugMaximumOutofPocketIntegrated"),
      multiTier: c("MultipleInNetworkTiers"),
      tier1: c("FirstTierUtilization"),
      tier2: c("SecondTierUtilization"),
      specialtyMax: c("SpecialtyDrugMaximumCoinsurance"),
      inpatientDays: c("InpatientCopaymentMaximumDays"),
      pcAfterVisits: c("BeginPrimaryCareCostSharingAfterNumberOfVisits"),
      pcAfterCopays: c("BeginPrimaryCareDeductibleCoinsuranceAfterNumberOfCopays"),
      sbcUrl: c("URLForSummaryofBenefitsCoverage"),
      formularyUrl: c("FormularyURL"),
      brochureUrl: c("PlanBrochure"),
      enrollmentUrl: c("URLForEnrollmentPayment"),
    };
    type Cell = {
      get: (fields: string[]) => string;
      kind: CostLimitCell["kind"];
      coverage: CostLimitCell["coverage"];
      networkTier: CostLimitCell["networkTier"];
      familyCost: CostLimitCell["familyCost"];
    };
    const cells: Cell[] = [];
    for (const [letter, coverage] of COVERAGE) {
      for (const [tierName, networkTier] of TIERS) {
        for (const [famName, familyCost] of FAMILY) {
          cells.push({
            get: c(`${letter}EHB${tierName}${famName}MOOP`),
            kind: "moop",
            coverage,
            networkTier,
            familyCost,
          });
        }
      }
    }
    for (const [letter, coverage] of COVERAGE) {
      for (const [tierName, networkTier] of TIERS) {
        for (const [famName, familyCost] of FAMILY) {
          cells.push({
            get: c(`${letter}EHBDed${tierName}${famName}`),
            kind: "deductible",
            coverage,
            networkTier,
            familyCost,
          });
        }
        if (networkTier === "in_network_tier1" || networkTier === "in_network_tier2") {
          cells.push({
            get: c(`${letter}EHBDed${tierName}Coinsurance`),
            kind: "coinsurance",
            coverage,
            networkTier,
            familyCost: null,
          });
        }
      }
    }
    const cell = (letter: string, name: string) => c(`${letter}EHB${name}`);
    const headline = {
      tDed: cell("T", "DedInnTier1Individual"),
      tDedFam: cell("T", "DedInnTier1FamilyPerGroup"),
      tDedFamPP: cell("T", "DedInnTier1FamilyPerPerson"),
      mDed: cell("M", "DedInnTier1Individual"),
      mDedFam: cell("M", "DedInnTier1FamilyPerGroup"),
      mDedFamPP: cell("M", "DedInnTier1FamilyPerPerson"),
      dDed: cell("D", "DedInnTier1Individual"),
      dDedFam: cell("D", "DedInnTier1FamilyPerGroup"),
      dDedFamPP: cell("D", "DedInnTier1FamilyPerPerson"),
      tMoop: cell("T", "InnTier1IndividualMOOP"),
      tMoopFam: cell("T", "InnTier1FamilyPerGroupMOOP"),
      tMoopFamPP: cell("T", "InnTier1FamilyPerPersonMOOP"),
      mMoop: cell("M", "InnTier1IndividualMOOP"),
      mMoopFam: cell("M", "InnTier1FamilyPerGroupMOOP"),
      mMoopFamPP: cell("M", "InnTier1FamilyPerPersonMOOP"),
    };
    const sbc = SCENARIOS.map(([name, scenario]) => ({
      scenario,
      deductible: c(`SBCHaving${name}Deductible`),
      copayment: c(`SBCHaving${name}Copayment`),
      coinsurance: c(`SBCHaving${name}Coinsurance`),
      limit: c(`SBCHaving${name}Limit`),
    }));
    const pick = (fields: string[], ...getters: Array<(f: string[]) => string>): string | null => {
      for (const g of getters) {
        const v = g(fields);
        if (!isNotApplicable(v)) return v;
      }
      return null;
    };

    return (fields): Parsed<PlanAttributesRecord> => {
      const wrongYear = year(fields);
      if (wrongYear) return wrongYear;
      const variantId = f.planId(fields).toUpperCase();
      const vm = VARIANT_ID.exec(variantId);
      if (!vm) return reject("malformed PlanId (expected 14-character standard component + -NN)");
      const planId = vm[1];
      const scid = f.scid(fields).toUpperCase();
      if (scid !== "" && scid !== planId) return reject("PlanId does not start with StandardComponentId");
      if (!STANDARD_COMPONENT_ID.test(planId)) return reject("malformed StandardComponentId");
      // SHOP and dental-only rows: the skip names the plan so its rates are skipped alike.
      const m = market(fields).toLowerCase();
      if (m.startsWith("shop"))
        return { kind: "skip", reason: "SHOP (small group) plan", subject: { planId, planClass: "shop" } };
      if (dental(fields).toLowerCase() === "yes")
        return { kind: "skip", reason: "dental-only plan", subject: { planId, planClass: "dental" } };
      const state = f.state(fields).toUpperCase();
      if (!/^[A-Z]{2}$/.test(state)) return reject("malformed StateCode");
      if (planId.slice(5, 7) !== state) return reject("StateCode does not match the plan id");
      const issuerId = f.issuerId(fields) || planId.slice(0, 5);
      if (issuerId !== planId.slice(0, 5)) return reject("IssuerId does not match the plan id");
      const name = f.name(fields);
      if (!name) return reject("missing PlanMarketingName");
      const metalLevel = f.metal(fields);
      if (!metalLevel) return reject("missing MetalLevel");
      const suffix = vm[2];
      const yearText = businessYear(fields);
      const planYear = options.year ?? (/^[0-9]{4}$/.test(yearText) ? Number(yearText) : NaN);
      if (!Number.isFinite(planYear)) return reject("malformed BusinessYear");

      const costLimits: CostLimitCell[] = [];
      for (const cellDef of cells) {
        const raw = cellDef.get(fields);
        if (isNotApplicable(raw)) continue;
        costLimits.push({
          kind: cellDef.kind,
          coverage: cellDef.coverage,
          networkTier: cellDef.networkTier,
          familyCost: cellDef.familyCost,
          raw,
          amount: cellDef.kind === "coinsurance" ? parseRate(raw) : parseMoney(raw),
        });
      }
      const integrated = parseYesNo(f.dedIntegrated(fields));
      const tDed = pick(fields, headline.tDed);
      // Integrated plans state the deductible in TEHB…; others in MEHB… (medical) and DEHB… (drug).
      const useTotal = integrated === true || (integrated === null && tDed !== null);
      const dedInd = useTotal ? tDed : pick(fields, headline.mDed);
      const dedFam = useTotal
        ? pick(fields, headline.tDedFam, headline.tDedFamPP)
        : pick(fields, headline.mDedFam, headline.mDedFamPP);
      const drugInd = useTotal ? null : pick(fields, headline.dDed);
      const drugFam = useTotal ? null : pick(fields, headline.dDedFam, headline.dDedFamPP);
      const moopInd = pick(fields, headline.tMoop, headline.mMoop);
      const moopFam = pick(fields, headline.tMoopFam, headline.mMoopFam, headline.tMoopFamPP, headline.mMoopFamPP);

      const urls: PlanDocumentUrls = {};
      const sbcUrl = normalizeUrl(f.sbcUrl(fields));
      if (sbcUrl) urls.summary_of_benefits = sbcUrl;
      const formularyUrl = normalizeUrl(f.formularyUrl(fields));
      if (formularyUrl) urls.formulary = formularyUrl;
      const brochureUrl = normalizeUrl(f.brochureUrl(fields));
      if (brochureUrl) urls.brochure = brochureUrl;
      const enrollmentUrl = normalizeUrl(f.enrollmentUrl(fields));
      if (enrollmentUrl) urls.enrollment = enrollmentUrl;

      const text = (g: (fields: string[]) => string) => cleanText(g(fields));
      const flag = (g: (fields: string[]) => string) => parseYesNo(g(fields));
      const isNew = f.isNewPlan(fields).toLowerCase();
      // "0.9985" (PY2026) or "99.85%": a fraction either way.
      const ehbRaw = parseRate(f.ehbPercent(fields)) ?? parseDecimal(f.ehbPercent(fields));
      const ehb = ehbRaw !== null && ehbRaw > 1.5 ? ehbRaw / 100 : ehbRaw;
      const av = parseRate(f.av(fields)) ?? parseDecimal(f.av(fields));

      return row({
        planYear,
        state,
        issuerId,
        issuerName: text(f.issuerName),
        planId,
        variantId,
        suffix,
        csrLevel: CSR_LEVEL_BY_SUFFIX[suffix] ?? null,
        plan: {
          name,
          metalLevel,
          planType: text(f.planType),
          hiosProductId: text(f.hiosProductId),
          networkId: text(f.networkId),
          serviceAreaId: text(f.serviceAreaId),
          formularyId: text(f.formularyId),
          isNewPlan: isNew === "new" ? true : isNew === "existing" ? false : null,
          designType: text(f.designType),
          uniquePlanDesign: flag(f.uniquePlanDesign),
          qhpType: text(f.qhpType),
          hsaEligible: flag(f.hsa),
          ehbPercentPremium: ehb,
          nationalNetwork: flag(f.nationalNetwork),
          childOnlyOffering: text(f.childOnly),
          isReferralRequiredForSpecialist: flag(f.referral),
          specialistRequiringReferral: text(f.specialists),
          isNoticeRequiredForPregnancy: flag(f.pregnancyNotice),
          planLevelExclusions: text(f.exclusions),
          wellnessProgramOffered: flag(f.wellness),
          diseaseManagementPrograms: text(f.disease),
          outOfCountryCoverage: flag(f.outOfCountry),
          outOfServiceAreaCoverage: flag(f.outOfArea),
          effectiveDate: parseDate(f.effective(fields)),
          expirationDate: parseDate(f.expiration(fields)),
        },
        variant: {
          csrVariationType: text(f.csrType),
          marketingName: text(f.variantName),
          issuerActuarialValue: av,
          avCalculatorOutput: parseDecimal(f.avCalc(fields)),
          deductiblesIntegrated: integrated,
          moopIntegrated: flag(f.moopIntegrated),
          multipleInNetworkTiers: flag(f.multiTier),
          firstTierUtilization: text(f.tier1),
          secondTierUtilization: text(f.tier2),
          deductibleIndividualRaw: dedInd,
          deductibleIndividual: parseMoney(dedInd),
          deductibleFamilyRaw: dedFam,
          deductibleFamily: parseMoney(dedFam),
          drugDeductibleIndividualRaw: drugInd,
          drugDeductibleIndividual: parseMoney(drugInd),
          drugDeductibleFamilyRaw: drugFam,
          drugDeductibleFamily: parseMoney(drugFam),
          moopIndividualRaw: moopInd,
          moopIndividual: parseMoney(moopInd),
          moopFamilyRaw: moopFam,
          moopFamily: parseMoney(moopFam),
          specialtyDrugMaxCoinsurance: text(f.specialtyMax),
          inpatientCopaymentMaxDays: text(f.inpatientDays),
          primaryCareCostSharingAfterVisits: text(f.pcAfterVisits),
          primaryCareDeductibleCoinsuranceAfterCopays: text(f.pcAfterCopays),
        },
        costLimits,
        sbcScenarios: sbc.map((s) => {
          const d = cleanText(s.deductible(fields));
          const cp = cleanText(s.copayment(fields));
          const co = cleanText(s.coinsurance(fields));
          const li = cleanText(s.limit(fields));
          return {
            scenario: s.scenario,
            deductibleRaw: d,
            deductible: parseMoney(d),
            copaymentRaw: cp,
            copayment: parseMoney(cp),
            coinsuranceRaw: co,
            coinsurance: parseMoney(co),
            limitRaw: li,
            limit: parseMoney(li),
          };
        }),
        urls,
      });
    };
  },
};
