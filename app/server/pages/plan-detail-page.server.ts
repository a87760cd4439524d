import { DEFAULT_LANGUAGE, tFor, type Language } from "../../i18n/i18n";
import type { CsrLevel } from "../../domain/eligibility/csr";
import { EVERY_PLAN } from "../../domain/plan-order";
import { requestedPage } from "../../domain/results-pages";
import { readShoppingState, type ShoppingState } from "../../lib/shopping-url";
import { planStore, type CostLimit, type PlanDetail, type QualityRating } from "../plan-store/plan-store.server";
import { apiMessage } from "../../i18n/api-messages";
import { ApiError } from "../platform/api.server";
import { ServerTiming } from "../platform/server-timing.server";
import type { EligibilityAnswer } from "../shopping/eligibility.server";
import type { PlansAnswer, PricedPlan } from "../shopping/plan-list.server";
import { resolvePlanYear } from "../shopping/plan-year.server";
import { pricePlans } from "../shopping/priced-plans.server";
import { checkHousehold } from "../shopping/shopping-url.server";
import { listWithinCredit } from "./credit-choice.server";
import { benefitTableView, type BenefitTableView } from "./benefit-table.server";
import {
  doctorCoverageFor,
  drugCoverageFor,
  eligibilityUnavailableIn,
  placeOf,
  yearOf,
  type DoctorCoverageCheck,
  type DrugCoverageCheck,
  type PlaceSummary,
} from "./page-parts.server";
import { planExtrasOf, type PlanExtras } from "./plan-extras.server";
import { hasScenarios, scenarioViews, type ScenarioView } from "./scenarios.server";
import { pricedWhole } from "../shopping/plan-list-cache.server";

/** The plan detail page (/plans/<planId>): the plan's costs, priced for the URL's household when it has one. */

export interface DocumentLink {
  label: string;
  href: string;
}

export interface PlanDetailModel {
  state: ShoppingState;
  plan: {
    id: string;
    name: string;
    issuer: string;
    metalLevel: string;
    type: string | null;
    hsaEligible: boolean;
    year: number;
    variantId: string;
    variantName: string | null;
  };
  /** The household's price, when the URL holds a household this plan is sold to. */
  price: Pick<
    PricedPlan,
    | "premium"
    | "premium_w_credit"
    | "credit_applied"
    | "tobacco_surcharge"
    | "estimated_yearly_cost"
    | "estimated_yearly_cost_complete"
    | "my_yearly_cost"
  > | null;
  usage: string;
  eligibility: EligibilityAnswer | null;
  eligibilityUnavailable: string | null;
  /** Why no household price is shown (no household in the URL, plan not sold there, …). */
  priceNote: string | null;
  csr: CsrLevel | null;
  deductible: CostLimit & { drug?: CostLimit };
  moop: CostLimit;
  /** Made once per plan variant, language and caption (benefitTableView); the route pre-renders its markup. */
  benefits: BenefitTableView;
  scenarios: ScenarioView[];
  quality: QualityRating | null;
  documents: DocumentLink[];
  drugCoverage: DrugCoverageCheck | null;
  doctorCoverage: DoctorCoverageCheck | null;
  place: PlaceSummary | null;
  extras: PlanExtras;
  /** The results page the plan was opened from (the URL's `page`), for "Back to all plans". */
  listPage: number;
}

/** The plan's documents, labelled from the catalogue (planPage.documents.*). */
const DOCUMENTS: Array<keyof PlanDetail["puf"]["urls"]> = [
  "summaryOfBenefits",
  "formulary",
  "providerDirectory",
  "brochure",
  // The enrollment page is the plan's "Apply / enroll" next step (PlanExtras.enroll), not a document.
];

export function documentLinks(urls: PlanDetail["puf"]["urls"], lang: Language = DEFAULT_LANGUAGE): DocumentLink[] {
  const t = tFor(lang);
  return DOCUMENTS.flatMap((key) => {
    const href = urls[key];
    return typeof href === "string" && /^https?:\/\//i.test(href)
      ? [{ label: t(`planPage.documents.${key}`), href }]
      : [];
  });
}

/** No such plan in the plan year shown: the route answers 404 with a readable page. */
export class PlanNotFoundError extends Error {
  constructor(readonly planId: string) {
    super(`No plan ${planId}`);
    this.name = "PlanNotFoundError";
  }
}

function planNotFound(planId: string): PlanNotFoundError {
  return new PlanNotFoundError(planId);
}

/** The plan year the URL asks for, or the one being shopped today; null when there is no such year. */
function planYearFor(state: ShoppingState): number | null {
  try {
    return resolvePlanYear(yearOf(state));
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/**
 * `timing` (the request's context.serverTiming) gets the store / eligibility / pricing entries
 * (docs/decisions/116). The benefit table's markup is the route's to make (benefitTableMarkup).
 */
export async function planDetailPage(
  planIdParam: string,
  url: URL,
  timing: ServerTiming = new ServerTiming(),
  /** The page's language: the notes and the benefit table are worded in it. */
  lang: Language = DEFAULT_LANGUAGE,
  /** Set to keep: true when the page may be kept a minute (server/kept-documents.ts, decision 420). */
  kept?: { keep: boolean },
): Promise<PlanDetailModel> {
  const t = tFor(lang);
  const planId = planIdParam.trim().toUpperCase();
  const found = readShoppingState(url.searchParams);
  const place = placeOf(found);
  const state: ShoppingState = place ? { ...found, state: place.state } : found;
  const check = place ? checkHousehold(state) : null;

  // Price first: it resolves the plan year the way /api/plans does.
  let answer: PlansAnswer | null = null;
  let priceNote: string | null = null;
  if (!place) priceNote = t("planPage.priceNote.noPlace");
  else if (!check?.ok) priceNote = t("planPage.priceNote.incomplete");
  else {
    try {
      answer = await listWithinCredit(
        (request) => pricePlans({ ...request, ...EVERY_PLAN, filters: undefined }, timing, { onlyPlanIds: [planId] }),
        check,
        lang,
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      priceNote =
        error.status === 404 ? null : t("planPage.priceNote.couldNotPrice", { reason: apiMessage(error, lang) });
      if (error.status === 404) throw planNotFound(planId);
    }
  }
  const year = answer?.year ?? planYearFor(state);
  if (year === null) throw planNotFound(planId);
  const ratingArea =
    answer?.place.rating_area ??
    (place
      ? planStore().ratingAreaFor({ year, state: place.state, countyFips: place.countyFips, zip: place.zip })
      : undefined);
  const detail = timing.measure("store", () => planStore().planById(planId, year, ratingArea ? { ratingArea } : {}));
  if (!detail) throw planNotFound(planId);

  const priced = answer?.plans.find((p) => p.id === detail.id) ?? null;
  if (answer && !priced)
    priceNote = t("planPage.priceNote.notSoldIn", { county: place?.countyName ?? t("planPage.priceNote.yourCounty") });
  const csr = priced?.csr_variant ?? null;
  const variant = csr ? detail.puf.csrVariants[csr] : undefined;
  const benefits = variant && variant.benefitDetails.length > 0 ? variant.benefitDetails : detail.puf.benefitDetails;
  const scenarios = variant && hasScenarios(variant.sbcScenarios) ? variant.sbcScenarios : detail.puf.sbcScenarios;

  const [drugCoverage, doctorCoverage] = await timing.measureAsync("coverage", () =>
    Promise.all([drugCoverageFor(state.drugs, [detail.id], year), doctorCoverageFor(state.doctors, [detail.id], year)]),
  );
  // Priced from our own store with an estimate that came whole, and no coverage asked upstream.
  if (kept && answer && priced && priceNote === null && pricedWhole(answer))
    kept.keep = state.drugs.length === 0 && state.doctors.length === 0;
  const benefitTable = benefitTableView(
    benefits,
    t(variant && (csr === "73" || csr === "87" || csr === "94") ? "benefits.captionCsr" : "benefits.caption"),
    lang,
  );
  return {
    state,
    plan: {
      id: detail.id,
      name: detail.name,
      issuer: detail.issuer.name,
      metalLevel: detail.metalLevel,
      type: detail.type,
      hsaEligible: detail.hsaEligible,
      year,
      variantId: variant?.variantId ?? detail.variantId,
      variantName: variant?.csrVariationType ?? null,
    },
    price: priced
      ? {
          premium: priced.premium,
          premium_w_credit: priced.premium_w_credit,
          credit_applied: priced.credit_applied,
          tobacco_surcharge: priced.tobacco_surcharge,
          estimated_yearly_cost: priced.estimated_yearly_cost,
          estimated_yearly_cost_complete: priced.estimated_yearly_cost_complete,
          my_yearly_cost: priced.my_yearly_cost,
        }
      : null,
    usage: answer?.usage ?? "medium",
    eligibility: answer?.eligibility ?? null,
    eligibilityUnavailable: eligibilityUnavailableIn(answer?.eligibility_unavailable, lang),
    priceNote,
    csr: variant ? csr : null,
    deductible: variant?.deductible ?? detail.deductible,
    moop: variant?.moop ?? detail.moop,
    benefits: benefitTable,
    scenarios: scenarioViews(scenarios),
    quality: detail.puf.qualityRating,
    documents: documentLinks(detail.puf.urls, lang),
    extras: planExtrasOf(
      detail,
      { id: detail.id, name: detail.name, issuerName: detail.issuer.name, state: detail.state },
      year,
    ),
    drugCoverage,
    doctorCoverage,
    place,
    listPage: requestedPage(url.searchParams.get("page")),
  };
}
