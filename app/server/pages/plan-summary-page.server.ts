import { DEFAULT_LANGUAGE, type Language } from "../../i18n/i18n";
import { planDetailPage, type PlanDetailModel } from "./plan-detail-page.server";

/**
 * The plan's take-away summary (/plans/<planId>/summary, issue 28 item 5): what a shopper can
 * carry to HealthCare.gov or the state marketplace, which cannot receive it from us: the plan ID
 * and year, the household, the premium before and after the credit, the credit, the limits and
 * the drugs and doctors checked, on one printable page (and, with consent, by email).
 */
export interface PlanSummaryModel {
  state: PlanDetailModel["state"];
  place: PlanDetailModel["place"];
  plan: Pick<PlanDetailModel["plan"], "id" | "name" | "issuer" | "metalLevel" | "type" | "year">;
  price: PlanDetailModel["price"];
  priceNote: string | null;
  /** The household's monthly credit estimate (0 when none). */
  credit: number;
  deductible: PlanDetailModel["deductible"];
  moop: PlanDetailModel["moop"];
  drugCoverage: PlanDetailModel["drugCoverage"];
  doctorCoverage: PlanDetailModel["doctorCoverage"];
  enroll: PlanDetailModel["extras"]["enroll"];
  /** The day the summary was made (YYYY-MM-DD, UTC): estimates change. */
  madeOn: string;
}

export async function planSummaryPage(
  planId: string,
  url: URL,
  lang: Language = DEFAULT_LANGUAGE,
  now: Date = new Date(),
): Promise<PlanSummaryModel> {
  const detail = await planDetailPage(planId, url, undefined, lang);
  return {
    state: detail.state,
    place: detail.place,
    plan: {
      id: detail.plan.id,
      name: detail.plan.name,
      issuer: detail.plan.issuer,
      metalLevel: detail.plan.metalLevel,
      type: detail.plan.type,
      year: detail.plan.year,
    },
    price: detail.price,
    priceNote: detail.priceNote,
    credit: detail.eligibility?.aptc ?? 0,
    deductible: detail.deductible,
    moop: detail.moop,
    drugCoverage: detail.drugCoverage,
    doctorCoverage: detail.doctorCoverage,
    enroll: detail.extras.enroll,
    madeOn: now.toISOString().slice(0, 10),
  };
}
