import {
  data,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PlanSummaryTable, SummarySteps } from "../components/plans/plan-summary";
import { useWords } from "../components/plans/format";
import { useHydrated } from "../components/plans/use-hydrated";
import { useFocusHeadingOnArrival } from "../components/plans/use-focus-heading";
import { metaT } from "../i18n/meta";
import { requestLanguage } from "../i18n/language.server";
import { planHref } from "../lib/shopping-url";
import { PlanNotFoundError } from "../server/pages/plan-detail-page.server";
import { planSummaryPage } from "../server/pages/plan-summary-page.server";
import { emailPlanSummary } from "../server/intake/plan-summary-email.server";
import plansStyles from "../styles/plans.css?url";
import summaryWords from "virtual:english/summary";
import { addEnglish, type Catalogue } from "../i18n/i18n";

addEnglish({ summary: summaryWords } as Partial<Catalogue>);

export const links: LinksFunction = () => [{ rel: "stylesheet", href: plansStyles }];

export const meta: MetaFunction<typeof loader> = ({ data: page, matches }) => {
  const t = metaT(matches);
  const market = page?.enroll.find((l) => l.kind === "marketplace")?.name ?? "";
  return [
    {
      title: t("meta.pageTitle", {
        page: page ? t("summary.title", { plan: page.plan.name, marketplace: market }) : "",
      }),
    },
  ];
};

/** /plans/<planId>/summary: the plan's one-page summary to take to the marketplace (issue 28 item 5). */
export async function loader({ params, request }: LoaderFunctionArgs) {
  try {
    const page = await planSummaryPage(params.planId ?? "", new URL(request.url), requestLanguage(request));
    return data(page, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    if (error instanceof PlanNotFoundError) throw data({ planId: error.planId }, { status: 404 });
    throw error;
  }
}

/** The summary by email to the shopper, with their consent, through the outbox (a 400 names the field). */
export async function action({ params, request }: ActionFunctionArgs) {
  const lang = requestLanguage(request);
  const url = new URL(request.url);
  const form = await request.formData();
  const answer = await emailPlanSummary(params.planId ?? "", url, form, lang);
  return data(answer, { status: answer.ok ? 200 : answer.status });
}

export default function PlanSummaryPage() {
  const page = useLoaderData<typeof loader>();
  const sent = useActionData<typeof action>();
  const hydrated = useHydrated();
  const w = useWords();
  const { t } = w;
  const heading = useFocusHeadingOnArrival<HTMLHeadingElement>(page.plan.id);
  const market = page.enroll.find((l) => l.kind === "marketplace")?.name ?? "";
  const fieldError = sent && !sent.ok ? sent : null;
  return (
    <div className="plan-summary-page">
      <p className="back-link">
        <Link to={planHref(page.plan.id, page.state)}>← {t("summary.backToPlan")}</Link>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        {t("summary.title", { plan: page.plan.name, marketplace: market })}
      </h1>
      <p>{t("summary.intro", { marketplace: market })}</p>
      {hydrated ? (
        <p className="no-print">
          <button type="button" onClick={() => window.print()}>
            {t("summary.print")}
          </button>
        </p>
      ) : null}
      <PlanSummaryTable summary={page} />
      <h2>{t("summary.stepsHeading")}</h2>
      <SummarySteps summary={page} />
      <section aria-labelledby="email-heading" className="summary-email no-print">
        <h2 id="email-heading">{t("summary.emailHeading")}</h2>
        {sent?.ok ? (
          <p className="notice good" role="status" data-testid="summary-sent">
            {t("summary.emailSent", { email: sent.email })}
          </p>
        ) : (
          <Form method="post" noValidate>
            {fieldError && fieldError.field === "form" ? (
              <p className="error-text" role="alert">
                {fieldError.message}
              </p>
            ) : null}
            <label htmlFor="summary-email">{t("summary.emailLabel")}</label>
            <input
              id="summary-email"
              name="email"
              type="email"
              autoComplete="email"
              defaultValue={fieldError?.email ?? ""}
              aria-invalid={fieldError?.field === "email" || undefined}
              aria-describedby={fieldError?.field === "email" ? "summary-email-error" : undefined}
            />
            {fieldError?.field === "email" ? (
              <p className="error-text" id="summary-email-error" role="alert">
                {fieldError.message}
              </p>
            ) : null}
            <div className="choice">
              <input
                type="checkbox"
                id="summary-consent"
                name="consent"
                value="yes"
                aria-invalid={fieldError?.field === "consent" || undefined}
                aria-describedby={fieldError?.field === "consent" ? "summary-consent-error" : undefined}
              />
              <label htmlFor="summary-consent">{t("summary.consent")}</label>
            </div>
            {fieldError?.field === "consent" ? (
              <p className="error-text" id="summary-consent-error" role="alert">
                {fieldError.message}
              </p>
            ) : null}
            <button type="submit">{t("summary.emailSubmit")}</button>
          </Form>
        )}
      </section>
    </div>
  );
}
