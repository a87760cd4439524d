/**
 * Benefits and Cost Sharing PUF (benefits-and-cost-sharing-puf.csv): one row
 * per plan variant × benefit, with copay and coinsurance per network tier.
 * Formats: puf-formats.md §5; PY2026 and PY2016 headers are both accepted.
 */
import { VARIANT_ID, cleanText, parseDecimal, parseMoney, parseRate, parseYesNo } from "../../db/plan-store-values";
import { column, reject, row, yearCheck, type CsvFormat, type Parsed } from "./types";

export type BenefitRecord = {
  planYear: number;
  planId: string;
  variantId: string;
  benefitName: string;
  isCovered: boolean | null;
  isEhb: boolean | null;
  copayInnTier1: string | null;
  copayInnTier1Amount: number | null;
  copayInnTier2: string | null;
  copayInnTier2Amount: number | null;
  copayOutOfNet: string | null;
  copayOutOfNetAmount: number | null;
  coinsInnTier1: string | null;
  coinsInnTier1Rate: number | null;
  coinsInnTier2: string | null;
  coinsInnTier2Rate: number | null;
  coinsOutOfNet: string | null;
  coinsOutOfNetRate: number | null;
  quantLimitOnSvc: boolean | null;
  limitQty: number | null;
  limitUnit: string | null;
  exclusions: string | null;
  explanation: string | null;
  ehbVarReason: string | null;
  isExclFromInnMoop: boolean | null;
  isExclFromOonMoop: boolean | null;
};

export const benefitsFormat: CsvFormat<BenefitRecord> = {
  name: "benefits-and-cost-sharing-puf",
  required: [["PlanId"], ["BenefitName"]],
  create(header, options) {
    const c = (...n: string[]) => column(header, ...n);
    const year = yearCheck(header, options);
    const businessYear = c("BusinessYear");
    const f = {
      scid: c("StandardComponentId"),
      planId: c("PlanId"),
      name: c("BenefitName"),
      covered: c("IsCovered"),
      ehb: c("IsEHB"),
      copay1: c("CopayInnTier1"),
      copay2: c("CopayInnTier2"),
      copayOon: c("CopayOutofNet"),
      coins1: c("CoinsInnTier1"),
      coins2: c("CoinsInnTier2"),
      coinsOon: c("CoinsOutofNet"),
      quantLimit: c("QuantLimitOnSvc"),
      limitQty: c("LimitQty"),
      limitUnit: c("LimitUnit"),
      exclusions: c("Exclusions"),
      explanation: c("Explanation"),
      ehbVar: c("EHBVarReason"),
      exclInn: c("IsExclFromInnMOOP"),
      exclOon: c("IsExclFromOonMOOP"),
    };
    return (fields): Parsed<BenefitRecord> => {
      const wrongYear = year(fields);
      if (wrongYear) return wrongYear;
      const variantId = f.planId(fields).toUpperCase();
      const vm = VARIANT_ID.exec(variantId);
      if (!vm) return reject("malformed PlanId (expected 14-character standard component + -NN)");
      const scid = f.scid(fields).toUpperCase();
      if (scid !== "" && scid !== vm[1]) return reject("PlanId does not start with StandardComponentId");
      const benefitName = f.name(fields);
      if (!benefitName) return reject("missing BenefitName");
      const coveredText = f.covered(fields);
      const isCovered = parseYesNo(coveredText);
      if (coveredText !== "" && isCovered === null) return reject("unknown IsCovered value");
      const limitQtyText = f.limitQty(fields);
      const limitQty = parseDecimal(limitQtyText);
      if (limitQtyText !== "" && limitQty === null) return reject("malformed LimitQty");
      const yearText = businessYear(fields);
      const planYear = options.year ?? (/^[0-9]{4}$/.test(yearText) ? Number(yearText) : NaN);
      if (!Number.isFinite(planYear)) return reject("malformed BusinessYear");
      const copay1 = cleanText(f.copay1(fields));
      const copay2 = cleanText(f.copay2(fields));
      const copayOon = cleanText(f.copayOon(fields));
      const coins1 = cleanText(f.coins1(fields));
      const coins2 = cleanText(f.coins2(fields));
      const coinsOon = cleanText(f.coinsOon(fields));
      return row({
        planYear,
        planId: vm[1],
        variantId,
        benefitName,
        isCovered,
        isEhb: parseYesNo(f.ehb(fields)),
        copayInnTier1: copay1,
        copayInnTier1Amount: parseMoney(copay1),
        copayInnTier2: copay2,
        copayInnTier2Amount: parseMoney(copay2),
        copayOutOfNet: copayOon,
        copayOutOfNetAmount: parseMoney(copayOon),
        coinsInnTier1: coins1,
        coinsInnTier1Rate: parseRate(coins1),
        coinsInnTier2: coins2,
        coinsInnTier2Rate: parseRate(coins2),
        coinsOutOfNet: coinsOon,
        coinsOutOfNetRate: parseRate(coinsOon),
        quantLimitOnSvc: parseYesNo(f.quantLimit(fields)),
        limitQty,
        limitUnit: cleanText(f.limitUnit(fields)),
        exclusions: cleanText(f.exclusions(fields)),
        explanation: cleanText(f.explanation(fields)),
        ehbVarReason: cleanText(f.ehbVar(fields)),
        isExclFromInnMoop: parseYesNo(f.exclInn(fields)),
        isExclFromOonMoop: parseYesNo(f.exclOon(fields)),
      });
    };
  },
};
