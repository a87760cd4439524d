import { useFocusHeadingOnArrival } from "../components/plans/use-focus-heading";
import { EnrollLinks } from "../components/plans/enroll-links";
import { STANDARDIZED_HINT, STANDARDIZED_LABEL } from "../domain/plan-design";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useLocation, useParams, useRouteError } from "@remix-run/react";
import { CoverageLines } from "../components/plans/coverage-list";
import { EligibilitySummary } from "../components/plans/eligibility-summary";
import { BENEFIT_TABLE_PART, BenefitTableFromText } from "../components/plans/benefit-table";
import { Prerendered } from "../components/prerendered";
import { csrWords, money, moneyOr, USAGE_SHORT } from "../components/plans/format";
import { ScenarioChart } from "../components/plans/scenario-chart";
import { Stars } from "../components/plans/stars";
import { planDetailPage, PlanNotFoundError } from "../server/pages/plan-detail-page.server";
import type { ServerTiming } from "../server/platform/server-timing.server";
import { plansHref } from "../lib/shopping-url";
import plansStyles from "../styles/plans.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: plansStyles }];

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [
  { title: page ? `${page.plan.name} | Health Plan Marketplace` : "Plan not found | Health Plan Marketplace" },
  {
    name: "description",
    content:
      "A Marketplace plan's price for your household, deductibles, benefits, coverage examples and quality rating.",
  },
];

/**
 * /plans/<planId>: the plan for the household in the URL. Eligibility and
 * pricing are re-run (the same pricePlans as /api/plans); the benefit
 * table, coverage examples and quality rating come from own plan data.
 */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  try {
    const { serverTiming, prerendered } = context as {
      serverTiming?: ServerTiming;
      prerendered?: Record<string, string>;
    };
    return data(await planDetailPage(params.planId ?? "", new URL(request.url), serverTiming, prerendered), {
      headers: { "cache-control": "no-store" },
    });
  } catch (error) {
    if (error instanceof PlanNotFoundError) throw data({ planId: error.planId }, { status: 404 });
    throw error;
  }
}

export default function PlanDetail() {
  const page = useLoaderData<typeof loader>();
  const { plan, state, price } = page;
  const backHref = page.place ? plansHref(state) : "/plans";
  const savings = csrWords(page.csr);
  const many = state.people.length > 1;
  const heading = useFocusHeadingOnArrival<HTMLHeadingElement>(plan.id);
  return (
    <>
      <p className="back-link">
        <Link to={backHref}>← {page.place ? "Back to all plans" : "Find plans for your household"}</Link>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        {plan.name}
      </h1>
      <p className="plan-meta">
        {plan.issuer} ·{" "}
        <span className={`metal metal-${plan.metalLevel.toLowerCase().replace(/\s+/g, "-")}`}>{plan.metalLevel}</span>
        {plan.type ? ` · ${plan.type}` : ""}
        {plan.hsaEligible ? " · HSA-eligible" : ""} · Plan year {plan.year} · Plan ID {plan.id}
      </p>
      {page.extras.standardized ? (
        <p className="standardized" data-testid="standardized">
          <span className="badge">{STANDARDIZED_LABEL}</span> <span className="hint-inline">{STANDARDIZED_HINT}</span>
        </p>
      ) : null}

      <section aria-labelledby="price-heading">
        <h2 id="price-heading">What it costs you</h2>
        {price ? (
          <div className="premium-block">
            <p className="premium">
              <span className="premium-amount" data-testid="premium-after-credit">
                {money(price.premium_w_credit)}
              </span>{" "}
              a month
            </p>
            <p>
              {price.credit_applied > 0
                ? `After your tax credit of ${money(price.credit_applied)} a month. Full price: ${money(price.premium)} a month.`
                : `This is the full price; no tax credit applies.`}
              {price.tobacco_surcharge > 0
                ? ` Includes a ${money(price.tobacco_surcharge)} tobacco surcharge, which the credit does not pay.`
                : ""}
            </p>
            <p>
              Estimated yearly cost at {USAGE_SHORT[page.usage] ?? page.usage} use:{" "}
              <strong>{money(price.estimated_yearly_cost)}</strong>{" "}
              <span className="hint-inline">
                (premiums after credit plus expected out-of-pocket costs
                {price.estimated_yearly_cost_complete ? "" : "; some costs were not stated, so this may be low"})
              </span>
            </p>
          </div>
        ) : (
          <p className="notice">
            {page.priceNote} {page.place ? null : <Link to="/plans">Start with your ZIP code</Link>}
          </p>
        )}
        {savings ? (
          <p className="savings" data-testid="csr-note">
            Your savings level applies to this silver plan: {savings}. The deductibles, out-of-pocket maximums and
            benefits below are the ones for your level{plan.variantName ? ` (${plan.variantName})` : ""}.
          </p>
        ) : null}
      </section>

      <section aria-labelledby="enroll-heading" className="enroll-step">
        <h2 id="enroll-heading">Apply / enroll</h2>
        <EnrollLinks links={page.extras.enroll} planName={plan.name} />
      </section>

      {price || page.eligibilityUnavailable ? (
        <EligibilitySummary
          eligibility={page.eligibility}
          unavailable={page.eligibilityUnavailable}
          state={state.state}
        />
      ) : null}

      <section aria-labelledby="limits-heading">
        <h2 id="limits-heading">Deductible and out-of-pocket maximum</h2>
        <table className="limits-table" data-testid="limits-table">
          <caption>In-network amounts{savings ? " for your savings level" : ""}</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Amount</span>
              </th>
              <th scope="col">Each person</th>
              <th scope="col">Whole family</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{page.deductible.drug ? "Medical deductible" : "Deductible"}</th>
              <td data-testid="deductible-individual">{moneyOr(page.deductible.individual)}</td>
              <td>{moneyOr(page.deductible.family)}</td>
            </tr>
            {page.deductible.drug ? (
              <tr>
                <th scope="row">Drug deductible</th>
                <td>{moneyOr(page.deductible.drug.individual)}</td>
                <td>{moneyOr(page.deductible.drug.family)}</td>
              </tr>
            ) : null}
            <tr>
              <th scope="row">Out-of-pocket maximum</th>
              <td data-testid="moop-individual">{moneyOr(page.moop.individual)}</td>
              <td>{moneyOr(page.moop.family)}</td>
            </tr>
          </tbody>
        </table>
        <p className="hint">
          The deductible is what you pay for covered care before the plan starts to pay its share
          {many ? "; with several people covered, the family amount caps the whole household" : ""}. The out-of-pocket
          maximum is the most you pay for covered in-network care in a year; after that the plan pays everything.
        </p>
      </section>

      {page.drugCoverage || page.doctorCoverage ? (
        <section aria-labelledby="coverage-heading">
          <h2 id="coverage-heading">Your drugs and doctors</h2>
          <CoverageLines check={page.drugCoverage} kind="drug" planId={plan.id} />
          <CoverageLines check={page.doctorCoverage} kind="doctor" planId={plan.id} />
        </section>
      ) : null}

      <section aria-labelledby="examples-heading">
        <h2 id="examples-heading">Coverage examples</h2>
        <p>
          Every plan shows what three standard situations would cost, using the same total costs, so you can compare
          plans. These are examples, not your costs.
        </p>
        <ScenarioChart scenarios={page.scenarios} />
      </section>

      <section aria-labelledby="quality-heading">
        <h2 id="quality-heading">Quality rating</h2>
        {page.quality && page.quality.overall !== null ? (
          <>
            <p className="quality-overall">
              Overall: <Stars rating={page.quality.overall} label="overall" />
            </p>
            <dl className="plan-facts">
              <div>
                <dt>Medical care</dt>
                <dd>
                  <Stars rating={page.quality.medicalCare} label="medical care" />
                </dd>
              </div>
              <div>
                <dt>Member experience</dt>
                <dd>
                  <Stars rating={page.quality.memberExperience} label="member experience" />
                </dd>
              </div>
              <div>
                <dt>Plan administration</dt>
                <dd>
                  <Stars rating={page.quality.planAdministration} label="plan administration" />
                </dd>
              </div>
            </dl>
          </>
        ) : (
          <p>
            This plan has no quality rating yet
            {page.quality?.notRatedReason ? ` (${page.quality.notRatedReason})` : ""}. New plans and plans with few
            members are not rated.
          </p>
        )}
        <p className="hint">Ratings from 1 to 5 stars come from the Marketplace quality rating system.</p>
      </section>

      <section aria-labelledby="documents-heading">
        <h2 id="documents-heading">Plan documents</h2>
        {page.documents.length > 0 ? (
          <ul className="link-list">
            {page.documents.map((d) => (
              <li key={d.href + d.label}>
                <a href={d.href} rel="noopener noreferrer">
                  {d.label}
                </a>
              </li>
            ))}
          </ul>
        ) : (
          <p>The insurer has not published document links for this plan.</p>
        )}
      </section>

      <section aria-labelledby="benefits-heading">
        <h2 id="benefits-heading">All benefits</h2>
        {/* On the server, the markup made once per plan variant (benefitTableMarkup, decisions 127 and 132). */}
        <Prerendered part={BENEFIT_TABLE_PART}>
          <BenefitTableFromText rowsText={page.benefits.rowsText} caption={page.benefits.caption} />
        </Prerendered>
      </section>

      <p className="back-link">
        <Link to={backHref}>← {page.place ? "Back to all plans" : "Find plans for your household"}</Link>
      </p>
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const params = useParams();
  const location = useLocation();
  const back = location.search ? `/plans${location.search}` : "/plans";
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <>
        <h1>We couldn&apos;t find that plan</h1>
        <p>
          There is no plan with the ID &ldquo;{params.planId}&rdquo; in our plan data for this plan year. The address
          may be mistyped, or the plan may no longer be sold.
        </p>
        <p>
          <Link to={back}>See the plans for your household</Link> or{" "}
          <Link to="/plans">start again with your ZIP code</Link>.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>We could not show this plan</h1>
      <p>Something went wrong while loading the plan. Please try again in a moment.</p>
      <p>
        <Link to={back}>Back to your plans</Link>
      </p>
    </>
  );
}
