import { useFocusHeadingOnArrival } from "../components/plans/use-focus-heading";
import { EnrollLinks, summaryHref } from "../components/plans/enroll-links";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useLocation, useParams, useRouteError } from "@remix-run/react";
import { CoverageLines } from "../components/plans/coverage-list";
import { EligibilitySummary } from "../components/plans/eligibility-summary";
import { BENEFIT_TABLE_PART, BenefitTableFromText } from "../components/plans/benefit-table";
import { Prerendered } from "../components/prerendered";
import { benefitTableMarkup } from "../components/plans/benefit-table-markup.server";
import { money, useWords } from "../components/plans/format";
import { csrWords, metalWords, moneyOr, usageShort } from "../components/plans/plan-words";
import { Trans } from "../i18n/trans";
import { metaT } from "../i18n/meta";
import { requestLanguage } from "../i18n/language.server";
import { useLanguage } from "../i18n/use-t";
import { pathInLanguage } from "../lib/language-url";
import { ScenarioChart } from "../components/plans/scenario-chart";
import { Stars } from "../components/plans/stars";
import { planDetailPage, PlanNotFoundError } from "../server/pages/plan-detail-page.server";
import type { ServerTiming } from "../server/platform/server-timing.server";
import { listPageParam, plansHref } from "../lib/shopping-url";
import { cardId, cardNameId } from "../components/plans/plan-card";
import { YourYearBreakdown } from "../components/plans/your-year";
import plansStyles from "../styles/plans.css?url";
import planPageWords from "virtual:english/planPage";
import { addEnglish, type Catalogue } from "../i18n/i18n";

// The plan page's own words come with it (decisions 363, 406; the plan card has three of them from the core).
addEnglish({ planPage: planPageWords } as Partial<Catalogue>);

export const links: LinksFunction = () => [{ rel: "stylesheet", href: plansStyles }];

export const meta: MetaFunction<typeof loader> = ({ data: page, matches }) => {
  const t = metaT(matches);
  return [
    { title: t("meta.pageTitle", { page: page ? page.plan.name : t("planPage.notFoundTitle") }) },
    { name: "description", content: t("planPage.description") },
  ];
};

/**
 * /plans/<planId>: the plan for the household in the URL. Eligibility and
 * pricing are re-run (the same pricePlans as /api/plans); the benefit
 * table, coverage examples and quality rating come from own plan data.
 */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  try {
    const { serverTiming, prerendered, keptDocument } = context as {
      serverTiming?: ServerTiming;
      prerendered?: Record<string, string>;
      /** Present when the server may keep this document (server/kept-documents.ts, decision 420). */
      keptDocument?: { keep: boolean };
    };
    const lang = requestLanguage(request);
    const page = await planDetailPage(params.planId ?? "", new URL(request.url), serverTiming, lang, keptDocument);
    // The benefit table's markup, made once per table view, for <Prerendered> (decision 132).
    if (prerendered) prerendered[BENEFIT_TABLE_PART] = benefitTableMarkup(page.benefits, lang);
    return data(page, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    if (error instanceof PlanNotFoundError) throw data({ planId: error.planId }, { status: 404 });
    throw error;
  }
}

export default function PlanDetail() {
  const page = useLoaderData<typeof loader>();
  const { plan, state, price } = page;
  const w = useWords();
  const { t, lang } = w;
  // Back to the page of the list the plan was opened from, at its card (docs/decisions/250).
  const backHref = page.place
    ? plansHref(state, listPageParam(page.listPage)) + `#${cardId(plan.id)}`
    : pathInLanguage("/plans", lang);
  // With JavaScript, focus lands on the plan's name in its card (navigation-focus.ts, decision 270).
  const backState = page.place ? { focus: [cardNameId(plan.id)] } : undefined;
  const savings = csrWords(page.csr, w);
  const many = state.people.length > 1;
  const heading = useFocusHeadingOnArrival<HTMLHeadingElement>(plan.id);
  return (
    <>
      <p className="back-link">
        <Link to={backHref} state={backState}>
          ← {page.place ? t("planPage.backToPlans") : t("planPage.findPlans")}
        </Link>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        {plan.name}
      </h1>
      <p className="plan-meta">
        {plan.issuer} ·{" "}
        <span className={`metal metal-${plan.metalLevel.toLowerCase().replace(/\s+/g, "-")}`}>
          {metalWords(plan.metalLevel, w)}
        </span>
        {plan.type ? ` · ${plan.type}` : ""}
        {plan.hsaEligible ? ` · ${t("planPage.hsaEligible")}` : ""} · {t("planPage.planYear", { year: plan.year })} ·{" "}
        {t("planPage.planId", { id: plan.id })}
      </p>
      {page.extras.standardized ? (
        <p className="standardized" data-testid="standardized">
          <span className="badge">{t("standardized.label")}</span>{" "}
          <span className="hint-inline">{t("standardized.hint")}</span>
        </p>
      ) : null}

      <section aria-labelledby="price-heading">
        <h2 id="price-heading">{t("planPage.costHeading")}</h2>
        {price ? (
          <div className="premium-block">
            <p className="premium">
              <span className="premium-amount" data-testid="premium-after-credit">
                {money(price.premium_w_credit, lang)}
              </span>{" "}
              {t("planPage.aMonth")}
            </p>
            <p>
              {price.credit_applied > 0
                ? t("planPage.afterCredit", {
                    credit: money(price.credit_applied, lang),
                    full: money(price.premium, lang),
                  })
                : t("planPage.fullPrice")}
              {price.tobacco_surcharge > 0
                ? ` ${t("planPage.tobacco", { amount: money(price.tobacco_surcharge, lang) })}`
                : ""}
            </p>
            <p>
              {t("planPage.yearlyAt", { usage: usageShort(page.usage, w) })}{" "}
              <strong>{money(price.estimated_yearly_cost, lang)}</strong>{" "}
              <span className="hint-inline">
                ({t("planPage.yearlyHint")}
                {price.estimated_yearly_cost_complete ? "" : t("planPage.yearlyIncomplete")})
              </span>
            </p>
          </div>
        ) : (
          <p className="notice">
            {page.priceNote}{" "}
            {page.place ? null : <Link to={pathInLanguage("/plans", lang)}>{t("planPage.startWithZip")}</Link>}
          </p>
        )}
        {savings ? (
          <p className="savings" data-testid="csr-note">
            {t("planPage.savingsApplies", { savings })}
            {/* The PUF's variant name is English ("94% AV Level Silver Plan"): the sentence names the level already. */}
            {plan.variantName && lang === "en" ? ` (${plan.variantName})` : ""}.
          </p>
        ) : null}
      </section>

      <section aria-labelledby="enroll-heading" className="enroll-step">
        <h2 id="enroll-heading">{t("planPage.enrollHeading")}</h2>
        {/* Issue 28 item 5: the marketplace with the plan ID, the summary to take there, the insurer with the credit warning. */}
        <EnrollLinks
          links={page.extras.enroll}
          planName={plan.name}
          credit={price?.credit_applied ?? 0}
          summaryHref={page.place ? summaryHref(plan.id, state) : undefined}
        />
      </section>

      {price || page.eligibilityUnavailable ? (
        <EligibilitySummary
          eligibility={page.eligibility}
          unavailable={page.eligibilityUnavailable}
          state={state.state}
        />
      ) : null}

      <section aria-labelledby="limits-heading">
        <h2 id="limits-heading">{t("planPage.limitsHeading")}</h2>
        <table className="limits-table" data-testid="limits-table">
          <caption>{savings ? t("planPage.limitsCaptionCsr") : t("planPage.limitsCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t("planPage.amount")}</span>
              </th>
              <th scope="col">{t("planPage.eachPerson")}</th>
              <th scope="col">{t("planPage.wholeFamily")}</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{page.deductible.drug ? t("planPage.medicalDeductible") : t("planPage.deductible")}</th>
              <td data-testid="deductible-individual">{moneyOr(page.deductible.individual, w)}</td>
              <td>{moneyOr(page.deductible.family, w)}</td>
            </tr>
            {page.deductible.drug ? (
              <tr>
                <th scope="row">{t("planPage.drugDeductible")}</th>
                <td>{moneyOr(page.deductible.drug.individual, w)}</td>
                <td>{moneyOr(page.deductible.drug.family, w)}</td>
              </tr>
            ) : null}
            <tr>
              <th scope="row">{t("planPage.moop")}</th>
              <td data-testid="moop-individual">{moneyOr(page.moop.individual, w)}</td>
              <td>{moneyOr(page.moop.family, w)}</td>
            </tr>
          </tbody>
        </table>
        <p className="hint">{many ? t("planPage.limitsHintMany") : t("planPage.limitsHint")}</p>
      </section>

      {page.drugCoverage || page.doctorCoverage ? (
        <section aria-labelledby="coverage-heading">
          <h2 id="coverage-heading">{t("planPage.coverageHeading")}</h2>
          <CoverageLines check={page.drugCoverage} kind="drug" planId={plan.id} />
          <CoverageLines check={page.doctorCoverage} kind="doctor" planId={plan.id} />
        </section>
      ) : null}

      {page.price ? (
        <YourYearBreakdown
          year={page.price.my_yearly_cost}
          drugNames={new Map((page.drugCoverage?.selections ?? []).map((s) => [s.code, s.name]))}
          doctorNames={new Map((page.doctorCoverage?.selections ?? []).map((s) => [s.code, s.name]))}
        />
      ) : null}

      <section aria-labelledby="examples-heading">
        <h2 id="examples-heading">{t("planPage.examplesHeading")}</h2>
        <p>{t("planPage.examplesIntro")}</p>
        <ScenarioChart scenarios={page.scenarios} />
      </section>

      <section aria-labelledby="quality-heading">
        <h2 id="quality-heading">{t("planPage.qualityHeading")}</h2>
        {page.quality && page.quality.overall !== null ? (
          <>
            <p className="quality-overall">
              {t("planPage.overall")} <Stars rating={page.quality.overall} label={t("planPage.overallLabel")} />
            </p>
            <dl className="plan-facts">
              <div>
                <dt>{t("planPage.medicalCare")}</dt>
                <dd>
                  <Stars rating={page.quality.medicalCare} label={t("planPage.medicalCare")} />
                </dd>
              </div>
              <div>
                <dt>{t("planPage.memberExperience")}</dt>
                <dd>
                  <Stars rating={page.quality.memberExperience} label={t("planPage.memberExperience")} />
                </dd>
              </div>
              <div>
                <dt>{t("planPage.planAdministration")}</dt>
                <dd>
                  <Stars rating={page.quality.planAdministration} label={t("planPage.planAdministration")} />
                </dd>
              </div>
            </dl>
          </>
        ) : (
          <p>
            {page.quality?.notRatedReason
              ? t("planPage.notRatedWhy", { reason: page.quality.notRatedReason })
              : t("planPage.notRated")}
          </p>
        )}
        <p className="hint">{t("planPage.ratingsHint")}</p>
      </section>

      <section aria-labelledby="documents-heading">
        <h2 id="documents-heading">{t("planPage.documentsHeading")}</h2>
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
          <p>{t("planPage.noDocuments")}</p>
        )}
      </section>

      <section aria-labelledby="benefits-heading">
        <h2 id="benefits-heading">{t("planPage.benefitsHeading")}</h2>
        {/* On the server, the markup made once per plan variant (benefitTableMarkup, decisions 127 and 132). */}
        <Prerendered part={BENEFIT_TABLE_PART}>
          <BenefitTableFromText rowsText={page.benefits.rowsText} caption={page.benefits.caption} lang={lang} />
        </Prerendered>
      </section>

      <p className="back-link">
        <Link to={backHref} state={backState}>
          ← {page.place ? t("planPage.backToPlans") : t("planPage.findPlans")}
        </Link>
      </p>
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const params = useParams();
  const location = useLocation();
  const { t } = useWords();
  const back = location.search ? `/plans${location.search}` : "/plans";
  const start = pathInLanguage("/plans", useLanguage());
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <>
        <h1>{t("planPage.notFoundHeading")}</h1>
        <p>{t("planPage.notFoundBody", { planId: params.planId })}</p>
        <p>
          <Trans
            t={t}
            i18nKey="planPage.notFoundNext"
            components={{ back: <Link to={back} />, start: <Link to={start} /> }}
          />
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{t("planPage.errorHeading")}</h1>
      <p>{t("planPage.errorBody")}</p>
      <p>
        <Link to={back}>{t("planPage.backToYourPlans")}</Link>
      </p>
    </>
  );
}
