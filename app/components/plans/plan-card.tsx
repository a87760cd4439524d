import { Link } from "@remix-run/react";
import { listPageParam, planHref, type ShoppingState } from "../../lib/shopping-url";
import { CoverageLines, type CoverageCheckView } from "./coverage-list";
import {
  costShareWords,
  csrWords,
  KEY_BENEFITS,
  keyBenefitLabel,
  limitWords,
  metalWords,
  money,
  usageShort,
  useWords,
} from "./format";
import { Stars } from "./stars";
import { EnrollLinks } from "./enroll-links";
import type { PlanExtras } from "../../server/pages/plan-extras.server";
import type { PricedPlan } from "../../server/shopping/plan-list.server";

/** The fields of a priced plan (POST /api/plans) a card shows. */
export type PlanCardPlan = Omit<PricedPlan, "variant_id" | "ehb_premium" | "csr_variant"> & {
  csr_variant: string | null;
};

/** The fragment id of a plan's card in the results list. */
export function cardId(planId: string): string {
  return `plan-${planId}`;
}

/** The id of a card's plan name (its heading), where focus lands when a shopper comes back to the card. */
export function cardNameId(planId: string): string {
  return `plan-${planId}-name`;
}

export function PlanCard({
  plan,
  state,
  usage,
  householdSize,
  drugCoverage,
  doctorCoverage,
  compareChecked,
  onCompareTick,
  compareInvalid = false,
  extras,
  listPage,
}: {
  plan: PlanCardPlan;
  state: ShoppingState;
  /** The results page the card is on: its plan links carry it, so "Back to all plans" returns there. */
  listPage?: number;
  usage: string;
  householdSize: number;
  drugCoverage: CoverageCheckView | null;
  doctorCoverage: CoverageCheckView | null;
  compareChecked: boolean;
  /** With JavaScript: the tick box is controlled by the URL's ticks and changes them. */
  onCompareTick?: (planId: string, ticked: boolean) => void;
  /** The compare form's error is shown: the tick box points to it. */
  compareInvalid?: boolean;
  extras?: PlanExtras;
}) {
  const nameId = cardNameId(plan.id);
  const href = planHref(plan.id, state, listPageParam(listPage));
  const many = householdSize > 1;
  const w = useWords();
  const { t, lang } = w;
  const savings = plan.csr_variant ? csrWords(plan.csr_variant, w) : null;
  return (
    // The id is the place "Back to all plans" on the plan's page returns to (docs/decisions/250).
    <li className="plan-card" id={cardId(plan.id)} data-plan-id={plan.id}>
      <article aria-labelledby={nameId}>
        <h3 id={nameId} className="plan-name">
          <Link to={href}>{plan.name}</Link>
        </h3>
        <p className="plan-meta">
          {plan.issuer.name} ·{" "}
          <span className={`metal metal-${plan.metal_level.toLowerCase().replace(/\s+/g, "-")}`}>
            {metalWords(plan.metal_level, w)}
          </span>
          {plan.type ? ` · ${plan.type}` : ""}
          {plan.hsa_eligible ? ` · ${t("planPage.hsaEligible")}` : ""}
          {extras?.standardized ? (
            <>
              {" · "}
              <span className="badge" data-testid="standardized">
                {t("standardized.label")}
              </span>
            </>
          ) : null}
        </p>
        <div className="premium-block">
          <p className="premium">
            <span className="premium-amount" data-testid="premium-after-credit">
              {money(plan.premium_w_credit, lang)}
            </span>{" "}
            {t("planPage.aMonth")}
          </p>
          <p className="hint">
            {plan.credit_applied > 0
              ? t("planCard.afterCredit", { credit: money(plan.credit_applied, lang), full: money(plan.premium, lang) })
              : plan.metal_level === "Catastrophic"
                ? t("planCard.fullPriceCatastrophic")
                : t("planCard.fullPrice")}
            {plan.tobacco_surcharge > 0
              ? ` ${t("planPage.tobacco", { amount: money(plan.tobacco_surcharge, lang) })}`
              : ""}
          </p>
        </div>
        <dl className="plan-facts">
          <div>
            <dt>{t("planCard.deductible")}</dt>
            <dd>{limitWords(plan.deductible, many, w)}</dd>
          </div>
          <div>
            <dt>{t("planCard.moop")}</dt>
            <dd>{limitWords(plan.moop, many, w)}</dd>
          </div>
          <div>
            <dt>{t("planCard.yearly")}</dt>
            <dd>
              {money(plan.estimated_yearly_cost, lang)}{" "}
              <span className="hint-inline">{t("planCard.atUse", { usage: usageShort(usage, w) })}</span>
              {plan.estimated_yearly_cost_complete ? null : (
                <span className="hint-inline"> {t("planCard.mayBeLow")}</span>
              )}
            </dd>
          </div>
          <div>
            <dt>{t("planCard.quality")}</dt>
            <dd>
              <Stars rating={plan.quality_rating} />
            </dd>
          </div>
        </dl>
        {savings ? <p className="savings">{t("planCard.extraSavings", { savings })}</p> : null}
        <details className="copays">
          <summary>
            {t("planCard.commonCare")}
            <span className="visually-hidden"> {t("planCard.withPlan", { plan: plan.name })}</span>
          </summary>
          <dl className="plan-facts">
            {KEY_BENEFITS.map((key) => (
              <div key={key}>
                <dt>{keyBenefitLabel(key, w)}</dt>
                <dd>{costShareWords(plan.key_benefits[key], w)}</dd>
              </div>
            ))}
          </dl>
        </details>
        <CoverageLines check={drugCoverage} kind="drug" planId={plan.id} />
        <CoverageLines check={doctorCoverage} kind="doctor" planId={plan.id} />
        <div className="card-actions">
          <div className="choice compare-choice">
            <input
              type="checkbox"
              id={`compare-${plan.id}`}
              name="compare"
              value={plan.id}
              form="compare-form"
              {...(onCompareTick
                ? { checked: compareChecked, onChange: (e) => onCompareTick(plan.id, e.currentTarget.checked) }
                : { defaultChecked: compareChecked })}
              aria-invalid={compareInvalid || undefined}
              aria-describedby={compareInvalid ? "compare-error" : undefined}
            />
            <label htmlFor={`compare-${plan.id}`}>
              {t("planCard.compare")}
              <span className="visually-hidden"> {plan.name}</span>
            </label>
          </div>
          <Link to={href} className="details-link">
            {t("planCard.details")}
            <span className="visually-hidden"> {t("enroll.forPlan", { plan: plan.name })}</span>
          </Link>
        </div>
        {extras ? <EnrollLinks links={extras.enroll} planName={plan.name} compact /> : null}
      </article>
    </li>
  );
}
