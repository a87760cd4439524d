import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { noUpstreamAnswer } from "../components/plans/coverage-words";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { coverageText, type CoverageCheckView } from "../components/plans/coverage-list";
import { costShareWords, money, moneyOr, USAGE_SHORT } from "../components/plans/format";
import { KEY_BENEFIT_WORDS, limitWords } from "../components/plans/plan-card";
import { Stars } from "../components/plans/stars";
import { useFocusHeadingOnArrival } from "../components/plans/use-focus-heading";
import { EnrollLinks } from "../components/plans/enroll-links";
import { comparePage } from "../server/pages/compare-page.server";
import { planHref, plansHref, type ShoppingState } from "../lib/shopping-url";
import plansStyles from "../styles/plans.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: plansStyles }];

export const meta: MetaFunction = () => [
  { title: "Compare plans | Health Plan Marketplace" },
  {
    name: "description",
    content:
      "Two or three Marketplace plans side by side: premiums, deductibles, copays, coverage examples, drugs and doctors.",
  },
];

/** /plans/compare?…&compare=ID1&compare=ID2[&compare=ID3]: the chosen plans side by side, priced for the household in the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  const page = await comparePage(new URL(request.url));
  return data(page, { status: page.ok ? 200 : page.status, headers: { "cache-control": "no-store" } });
}

type Page = ReturnType<typeof useLoaderData<typeof loader>>;
type OkPage = Extract<Page, { ok: true }>;

function backToResults(state: ShoppingState, ids: string[]): string {
  return (
    plansHref(
      state,
      ids.map((id) => ["compare", id] as [string, string]),
    ) + "#plans-heading"
  );
}

export default function Compare() {
  const page = useLoaderData<typeof loader>();
  if (!page.ok) {
    return (
      <>
        <h1>Compare plans</h1>
        <p className="notice warn" role="alert">
          {page.message}
        </p>
        <p>
          <Link to={page.state.zip ? backToResults(page.state, page.compareIds) : "/plans"}>Back to your plans</Link>
        </p>
      </>
    );
  }
  return <CompareTable page={page} />;
}

function CompareTable({ page }: { page: OkPage }) {
  const { plans, state } = page;
  const ids = plans.map((p) => p.plan.id);
  const many = state.people.length > 1;
  const heading = useFocusHeadingOnArrival<HTMLHeadingElement>(ids.join(","));
  const cells = (render: (p: OkPage["plans"][number]) => ReactNode) =>
    plans.map((p) => (
      <td key={p.plan.id} data-plan-id={p.plan.id}>
        {render(p)}
      </td>
    ));
  const rowFor = (label: string, render: (p: OkPage["plans"][number]) => ReactNode, id?: string) => (
    <tr key={label} data-row={id}>
      <th scope="row">{label}</th>
      {cells(render)}
    </tr>
  );
  const coverageRows = (check: CoverageCheckView | null, kind: "drug" | "doctor") =>
    (check?.selections ?? []).map((s) =>
      rowFor(
        s.name,
        (p) => {
          const words = coverageText(check!, kind, s.code, p.plan.id);
          return (
            <span className={`coverage ${words.tone}`} data-coverage={words.tone}>
              {words.text}
            </span>
          );
        },
        `${kind}-${s.code}`,
      ),
    );
  const credit = page.eligibility && page.eligibility.aptc > 0 ? page.eligibility.aptc : 0;
  return (
    <>
      <p className="back-link">
        <Link to={backToResults(state, ids)}>← Back to all plans</Link>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        Compare {plans.length} plans
      </h1>
      <p>
        Priced for your household in {page.place.countyName}, {page.place.state}.{" "}
        {credit > 0
          ? `Premiums include your ${money(credit)} monthly tax credit.`
          : page.eligibilityUnavailable
            ? "We could not estimate your tax credit right now, so premiums are full prices."
            : "Premiums are full prices."}
      </p>
      <table className={`compare-table cols-${plans.length}`} data-testid="compare-table">
        <caption className="visually-hidden">The chosen plans side by side</caption>
        <thead>
          <tr>
            <td className="corner" />
            {plans.map((p) => (
              <th scope="col" key={p.plan.id} data-plan-id={p.plan.id}>
                <Link to={planHref(p.plan.id, state)}>{p.plan.name}</Link>
                <span className="compare-meta">
                  {p.plan.issuer.name} · {p.plan.metal_level}
                  {p.plan.type ? ` · ${p.plan.type}` : ""}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rowFor(
            "Monthly premium after credit",
            (p) => (
              <>
                <strong data-testid="premium-after-credit">{money(p.plan.premium_w_credit)}</strong>
                <span className="compare-meta">Full price {money(p.plan.premium)}</span>
              </>
            ),
            "premium",
          )}
          {rowFor(
            `Estimated yearly cost (${USAGE_SHORT[page.usage] ?? page.usage} use)`,
            (p) => money(p.plan.estimated_yearly_cost),
            "yearly",
          )}
          {rowFor("Deductible", (p) => limitWords(p.plan.deductible, many), "deductible")}
          {rowFor("Out-of-pocket maximum", (p) => limitWords(p.plan.moop, many), "moop")}
          {KEY_BENEFIT_WORDS.map(([key, label]) => rowFor(label, (p) => costShareWords(p.plan.key_benefits[key]), key))}
          {(plans[0]?.scenarios ?? []).map((scenario, i) =>
            rowFor(
              `${scenario.title}: you pay (of ${money(scenario.totalCost)})`,
              (p) => moneyOr(p.scenarios[i]?.youPay, "Not given"),
              `scenario-${scenario.key}`,
            ),
          )}
          {rowFor("Standardized design", (p) => (p.extras.standardized ? "Yes (Easy Pricing)" : "No"), "standardized")}
          {rowFor(
            "Quality rating",
            (p) => (
              <Stars rating={p.plan.quality_rating} />
            ),
            "quality",
          )}
          {coverageRows(page.drugCoverage, "drug")}
          {coverageRows(page.doctorCoverage, "doctor")}
          {rowFor(
            "Apply / enroll",
            (p) => (
              <EnrollLinks links={p.extras.enroll} planName={p.plan.name} compact />
            ),
            "enroll",
          )}
        </tbody>
      </table>
      {noUpstreamAnswer(page.drugCoverage?.upstream) || noUpstreamAnswer(page.doctorCoverage?.upstream) ? (
        <p className="notice warn">
          We could not check drug or doctor coverage right now, so it shows as unknown. Prices are not affected.
        </p>
      ) : null}
      <p>
        <Link to={backToResults(state, ids)}>Change the plans you compare</Link>
      </p>
    </>
  );
}
