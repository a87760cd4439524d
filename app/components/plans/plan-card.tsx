import { Link } from "@remix-run/react";
import { listPageParam, planHref, type ShoppingState } from "../../lib/shopping-url";
import { CoverageLines, type CoverageCheckView } from "./coverage-list";
import { costShareWords, csrWords, money, moneyOr, USAGE_SHORT } from "./format";
import { Stars } from "./stars";
import { EnrollLinks } from "./enroll-links";
import type { PlanExtras } from "../../server/pages/plan-extras.server";
import { STANDARDIZED_LABEL } from "../../domain/plan-design";
import type { PricedPlan } from "../../server/shopping/plan-list.server";

/** The fields of a priced plan (POST /api/plans) a card shows. */
export type PlanCardPlan = Omit<PricedPlan, "variant_id" | "ehb_premium" | "csr_variant"> & {
  csr_variant: string | null;
};

export const KEY_BENEFIT_WORDS: Array<[string, string]> = [
  ["primary_care", "Primary care visit"],
  ["specialist", "Specialist visit"],
  ["generic_drugs", "Generic drugs"],
  ["emergency_room", "Emergency room"],
  ["urgent_care", "Urgent care"],
];

/** The fragment id of a plan's card in the results list. */
export function cardId(planId: string): string {
  return `plan-${planId}`;
}

/** The id of a card's plan name (its heading), where focus lands when a shopper comes back to the card. */
export function cardNameId(planId: string): string {
  return `plan-${planId}-name`;
}

export function limitWords(limit: { individual: number | null; family: number | null }, manyPeople: boolean): string {
  if (limit.individual === null && limit.family === null) return "Not stated";
  const person = `${moneyOr(limit.individual)} per person`;
  return manyPeople && limit.family !== null ? `${person}, ${money(limit.family)} per family` : person;
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
  const savings = plan.csr_variant ? csrWords(plan.csr_variant) : null;
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
            {plan.metal_level}
          </span>
          {plan.type ? ` · ${plan.type}` : ""}
          {plan.hsa_eligible ? " · HSA-eligible" : ""}
          {extras?.standardized ? (
            <>
              {" · "}
              <span className="badge" data-testid="standardized">
                {STANDARDIZED_LABEL}
              </span>
            </>
          ) : null}
        </p>
        <div className="premium-block">
          <p className="premium">
            <span className="premium-amount" data-testid="premium-after-credit">
              {money(plan.premium_w_credit)}
            </span>{" "}
            a month
          </p>
          <p className="hint">
            {plan.credit_applied > 0
              ? `After your ${money(plan.credit_applied)} tax credit. Full price ${money(plan.premium)}.`
              : `Full price${plan.metal_level === "Catastrophic" ? " (the tax credit cannot be used on catastrophic plans)" : ""}.`}
            {plan.tobacco_surcharge > 0
              ? ` Includes a ${money(plan.tobacco_surcharge)} tobacco surcharge, which the credit does not pay.`
              : ""}
          </p>
        </div>
        <dl className="plan-facts">
          <div>
            <dt>Deductible</dt>
            <dd>{limitWords(plan.deductible, many)}</dd>
          </div>
          <div>
            <dt>Out-of-pocket maximum</dt>
            <dd>{limitWords(plan.moop, many)}</dd>
          </div>
          <div>
            <dt>Estimated yearly cost</dt>
            <dd>
              {money(plan.estimated_yearly_cost)}{" "}
              <span className="hint-inline">at {USAGE_SHORT[usage] ?? usage} use</span>
              {plan.estimated_yearly_cost_complete ? null : (
                <span className="hint-inline"> (some costs were not stated, so this may be low)</span>
              )}
            </dd>
          </div>
          <div>
            <dt>Quality rating</dt>
            <dd>
              <Stars rating={plan.quality_rating} />
            </dd>
          </div>
        </dl>
        {savings ? <p className="savings">Includes your extra savings: {savings}.</p> : null}
        <details className="copays">
          <summary>
            What you pay for common care<span className="visually-hidden"> with {plan.name}</span>
          </summary>
          <dl className="plan-facts">
            {KEY_BENEFIT_WORDS.map(([key, label]) => (
              <div key={key}>
                <dt>{label}</dt>
                <dd>{costShareWords(plan.key_benefits[key])}</dd>
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
              Compare<span className="visually-hidden"> {plan.name}</span>
            </label>
          </div>
          <Link to={href} className="details-link">
            Plan details<span className="visually-hidden"> for {plan.name}</span>
          </Link>
        </div>
        {extras ? <EnrollLinks links={extras.enroll} planName={plan.name} compact /> : null}
      </article>
    </li>
  );
}
