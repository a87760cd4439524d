import { Link } from "@remix-run/react";
import enrollWords from "virtual:english/enroll";
import planCardWords from "virtual:english/planCard";
import { addEnglish, type Catalogue } from "../../i18n/i18n";
import { listPageParam, planHref, type ShoppingState } from "../../lib/shopping-url";
import type { CoverageCheckView } from "./coverage-list";
import { money, useWords, type Words } from "./format";
import { csrWords, metalWords, moneyOr, usageShort } from "./plan-words";
import { CoverageCounts, YourYearLine } from "./plan-card-parts";
import { Stars } from "./stars";
import type { PricedPlan } from "../../lib/page-views";

// Its words come with it: the results page draws a list itself only after a change (decision 407).
addEnglish({ planCard: planCardWords, enroll: enrollWords } as Partial<Catalogue>);

/** What a card shows beyond the price: the standardized-design label. */
export interface PlanCardExtras {
  standardized: boolean;
}

/** The fragment id of a plan's card in the results list. */
export function cardId(planId: string): string {
  return `plan-${planId}`;
}

/** The id of a card's plan name (its heading), where focus lands when a shopper comes back to the card. */
export function cardNameId(planId: string): string {
  return `plan-${planId}-name`;
}

/** A limit in one short figure: the family amount for a household of several (what caps it), else each person's. */
function limitShort(limit: PricedPlan["deductible"], many: boolean, w: Words): string {
  if (limit.individual === null && limit.family === null) return w.t("plans.notStated");
  return many && limit.family !== null
    ? w.t("planCard.familyAmount", { amount: money(limit.family, w.lang) })
    : moneyOr(limit.individual, w);
}

/**
 * One plan in the results list, compact enough to scan on a phone (issue 28 item 1: at most about
 * 320 px tall at 360 px): name, insurer, metal and type, the premium after the credit, the
 * yearly cost, the deductible and maximum on one line, the drugs and doctors as counts, the
 * compare tick and the plan's page. Enrolling is on the plan's page and the comparison, where
 * the credit warning stands beside each link.
 */
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
  /** One plan of the priced list (PricedPlan: the one name for it, app/lib/page-views.ts). */
  plan: PricedPlan;
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
  extras?: PlanCardExtras;
}) {
  const nameId = cardNameId(plan.id);
  const href = planHref(plan.id, state, listPageParam(listPage));
  const many = householdSize > 1;
  const w = useWords();
  const { t, lang } = w;
  const savings = plan.csr_variant ? csrWords(plan.csr_variant, w) : null;
  const familyLimits = many && plan.deductible.family !== null && plan.moop.family !== null;
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
        <div className="card-figures">
          <p className="premium">
            <span className="premium-amount" data-testid="premium-after-credit">
              {money(plan.premium_w_credit, lang)}
            </span>{" "}
            {t("planPage.aMonth")}
            <span className="figure-note">
              {plan.credit_applied > 0
                ? t("planCard.beforeCredit", {
                    credit: money(plan.credit_applied, lang),
                    full: money(plan.premium, lang),
                  })
                : plan.metal_level === "Catastrophic"
                  ? t("planCard.fullPriceCatastrophic")
                  : t("planCard.fullPrice")}
              {plan.tobacco_surcharge > 0
                ? ` ${t("planPage.tobacco", { amount: money(plan.tobacco_surcharge, lang) })}`
                : ""}
            </span>
          </p>
          {plan.my_yearly_cost ? (
            // Issue 26: the shopper's own year (with their drugs and doctors) stands for the usage-level estimate.
            <YourYearLine year={plan.my_yearly_cost} warnings={plan.ranking?.warnings} />
          ) : (
            <p className="yearly" data-testid="yearly-cost">
              <span className="yearly-amount">{money(plan.estimated_yearly_cost, lang)}</span> {t("planCard.aYear")}
              <span className="figure-note">
                {t("planCard.yearlyAt", { usage: usageShort(usage, w) })}
                {plan.estimated_yearly_cost_complete ? null : ` ${t("planCard.mayBeLow")}`}
              </span>
            </p>
          )}
        </div>
        <p className="card-limits" data-testid="card-limits">
          {familyLimits
            ? t("planCard.limitsLineFamily", {
                deductible: money(plan.deductible.family!, lang),
                moop: money(plan.moop.family!, lang),
              })
            : t("planCard.limitsLine", {
                deductible: limitShort(plan.deductible, many, w),
                moop: limitShort(plan.moop, many, w),
              })}
        </p>
        {savings ? (
          <p className="savings" title={t("planCard.extraSavings", { savings })}>
            {t("planCard.extraSavingsShort", { level: plan.csr_variant })}
          </p>
        ) : null}
        {drugCoverage?.selections.length || doctorCoverage?.selections.length ? (
          <CoverageCounts drugs={drugCoverage} doctors={doctorCoverage} planId={plan.id} />
        ) : null}
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
          <Stars rating={plan.quality_rating} compact />
          <Link to={href} className="details-link">
            {t("planCard.details")}
            <span className="visually-hidden"> {t("enroll.forPlan", { plan: plan.name })}</span>
          </Link>
        </div>
      </article>
    </li>
  );
}
