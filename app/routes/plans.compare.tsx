import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { noUpstreamAnswer } from "../components/plans/coverage-words";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { requestedPage } from "../domain/results-pages";
import type { ReactNode } from "react";
import { coverageText, type CoverageCheckView } from "../components/plans/coverage-list";
import { costShareWords } from "../components/plans/cost-share-words";
import { money, useWords } from "../components/plans/format";
import {
  KEY_BENEFITS,
  keyBenefitLabel,
  limitWords,
  metalWords,
  moneyOr,
  usageShort,
} from "../components/plans/plan-words";
import { scenarioTitle } from "../components/plans/scenario-chart";
import { dollars } from "../components/plans/your-year";
import { metaT } from "../i18n/meta";
import { requestLanguage } from "../i18n/language.server";
import { Stars } from "../components/plans/stars";
import { useFocusHeadingOnArrival } from "../components/plans/use-focus-heading";
import { breakable } from "../components/plans/benefit-table";
import { EnrollLinks, summaryHref } from "../components/plans/enroll-links";
import { comparePage } from "../server/pages/compare-page.server";
import { listPageParam, planHref, plansHref, type ShoppingState } from "../lib/shopping-url";
import { pathInLanguage } from "../lib/language-url";
import plansStyles from "../styles/plans.css?url";
import compareWords from "virtual:english/compare";
import { addEnglish, type Catalogue } from "../i18n/i18n";

// The comparison's own words come with it (decisions 363, 406).
addEnglish({ compare: compareWords } as Partial<Catalogue>);

export const links: LinksFunction = () => [{ rel: "stylesheet", href: plansStyles }];

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return [
    { title: t("meta.pageTitle", { page: t("compare.title") }) },
    { name: "description", content: t("compare.description") },
  ];
};

/** /plans/compare?…&compare=ID1&compare=ID2[&compare=ID3]: the chosen plans side by side, priced for the household in the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  const page = await comparePage(new URL(request.url), requestLanguage(request));
  return data(page, { status: page.ok ? 200 : page.status, headers: { "cache-control": "no-store" } });
}

type Page = ReturnType<typeof useLoaderData<typeof loader>>;

/** The benefits in runs of one kind of care (they come in the groups' order). */
function groupRuns<B extends { group: string }>(benefits: readonly B[]): Array<{ group: string; rows: B[] }> {
  const runs: Array<{ group: string; rows: B[] }> = [];
  for (const b of benefits) {
    const last = runs.at(-1);
    if (last && last.group === b.group) last.rows.push(b);
    else runs.push({ group: b.group, rows: [b] });
  }
  return runs;
}
type OkPage = Extract<Page, { ok: true }>;

/** The results with these plans ticked (the ticks live in the URL's `compare`), on the page of the list the comparison was asked from. */
function backToResults(state: ShoppingState, ids: string[], search: string): string {
  const listPage = requestedPage(new URLSearchParams(search).get("page"));
  return plansHref({ ...state, compare: ids }, listPageParam(listPage)) + "#plans-heading";
}

export default function Compare() {
  const page = useLoaderData<typeof loader>();
  const { t, lang } = useWords();
  const { search } = useLocation();
  if (!page.ok) {
    return (
      <>
        <h1>{t("compare.title")}</h1>
        <p className="notice warn" role="alert">
          {page.message}
        </p>
        <p>
          <Link
            to={page.state.zip ? backToResults(page.state, page.compareIds, search) : pathInLanguage("/plans", lang)}
          >
            {t("compare.backToPlans")}
          </Link>
        </p>
      </>
    );
  }
  return <CompareTable page={page} />;
}

function CompareTable({ page }: { page: OkPage }) {
  const { plans, state } = page;
  const w = useWords();
  const { t, lang } = w;
  const ids = plans.map((p) => p.plan.id);
  const many = state.people.length > 1;
  const heading = useFocusHeadingOnArrival<HTMLHeadingElement>(ids.join(","));
  const { search } = useLocation();
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
          const words = coverageText(check!, kind, s.code, p.plan.id, w);
          return (
            <span className={`coverage ${words.tone}`} data-coverage={words.tone}>
              {words.text}
            </span>
          );
        },
        `${kind}-${s.code}`,
      ),
    );
  const credit = page.eligibility && page.eligibility.aptc_applied > 0 ? page.eligibility.aptc_applied : 0;
  return (
    <>
      <p className="back-link">
        <Link to={backToResults(state, ids, search)}>← {t("compare.backToAll")}</Link>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        {t("compare.heading", { count: plans.length })}
      </h1>
      <p>
        {t("compare.pricedFor", { county: page.place.countyName, state: page.place.state })}{" "}
        {credit > 0
          ? t("compare.withCredit", { amount: money(credit, lang) })
          : page.eligibilityUnavailable
            ? t("compare.noEstimate")
            : t("compare.fullPrices")}
      </p>
      <table className={`compare-table cols-${plans.length}`} data-testid="compare-table">
        <caption className="visually-hidden">{t("compare.caption")}</caption>
        <thead>
          <tr>
            <td className="corner" />
            {plans.map((p) => (
              <th scope="col" key={p.plan.id} data-plan-id={p.plan.id}>
                <Link to={planHref(p.plan.id, state)}>{p.plan.name}</Link>
                <span className="compare-meta">
                  {p.plan.issuer.name} · {metalWords(p.plan.metal_level, w)}
                  {p.plan.type ? ` · ${p.plan.type}` : ""}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rowFor(
            t("compare.premiumRow"),
            (p) => (
              <>
                <strong data-testid="premium-after-credit">{money(p.plan.premium_w_credit, lang)}</strong>
                <span className="compare-meta">{t("compare.fullPrice", { amount: money(p.plan.premium, lang) })}</span>
              </>
            ),
            "premium",
          )}
          {rowFor(
            t("compare.yearlyRow", { usage: usageShort(page.usage, w) }),
            (p) => money(p.plan.estimated_yearly_cost, lang),
            "yearly",
          )}
          {/* Your year (issue 26): the range, then its parts, each plan's own. */}
          {rowFor(
            t("myYear.compareRow"),
            (p) =>
              [p.plan.my_yearly_cost.typical, p.plan.my_yearly_cost.bad_year, p.plan.my_yearly_cost.worst_case]
                .map((amount) => dollars(amount, lang))
                .join(" / "),
            "your-year",
          )}
          {(page.drugCoverage?.selections ?? []).map((drug) =>
            rowFor(
              t("myYear.drug", { name: drug.name }),
              (p) => {
                const part = p.plan.my_yearly_cost.parts.drugs.find((d) => d.rxcui === drug.code);
                return part ? money(part.yearly_cost, lang) : "";
              },
              `your-year-drug-${drug.code}`,
            ),
          )}
          {(page.doctorCoverage?.selections ?? []).map((doctor) =>
            rowFor(
              t("myYear.doctor", { name: doctor.name }),
              (p) => {
                const part = p.plan.my_yearly_cost.parts.doctors.find((d) => d.npi === doctor.code);
                return part ? money(part.yearly_cost, lang) : "";
              },
              `your-year-doctor-${doctor.code}`,
            ),
          )}
          {rowFor(
            t("myYear.otherCare", { usage: usageShort(page.usage, w) }),
            (p) => money(p.plan.my_yearly_cost.parts.other_care.yearly_cost, lang),
            "your-year-other",
          )}
          {rowFor(t("compare.deductibleRow"), (p) => limitWords(p.plan.deductible, many, w), "deductible")}
          {rowFor(t("compare.moopRow"), (p) => limitWords(p.plan.moop, many, w), "moop")}
          {KEY_BENEFITS.map((key) =>
            rowFor(keyBenefitLabel(key, w), (p) => costShareWords(p.plan.key_benefits[key], w), key),
          )}
          {(plans[0]?.scenarios ?? []).map((scenario, i) =>
            rowFor(
              t("compare.scenarioRow", { title: scenarioTitle(scenario, w), total: money(scenario.totalCost, lang) }),
              (p) => moneyOr(p.scenarios[i]?.youPay, w, t("plans.notGiven")),
              `scenario-${scenario.key}`,
            ),
          )}
          {rowFor(
            t("compare.standardizedRow"),
            (p) => (p.extras.standardized ? t("compare.standardizedYes") : t("compare.no")),
            "standardized",
          )}
          {rowFor(
            t("compare.qualityRow"),
            (p) => (
              <Stars rating={p.plan.quality_rating} />
            ),
            "quality",
          )}
          {coverageRows(page.drugCoverage, "drug")}
          {coverageRows(page.doctorCoverage, "doctor")}
          {rowFor(
            t("compare.enrollRow"),
            (p) => (
              <EnrollLinks
                links={p.extras.enroll}
                planName={p.plan.name}
                credit={p.plan.credit_applied}
                summaryHref={summaryHref(p.plan.id, state)}
              />
            ),
            "enroll",
          )}
        </tbody>
        {/* Every benefit by kind of care, in the fixed order (issue 28 item 4), under the same sticky plan names. */}
        {groupRuns(page.benefits).map((run) => (
          <tbody key={run.group} data-group={run.group}>
            <tr className="care-group">
              <th scope="colgroup" colSpan={plans.length + 1}>
                {t(`benefits.group.${run.group}`)}
              </th>
            </tr>
            {run.rows.map((b) => (
              <tr key={b.name} data-row={`benefit-${b.name}`}>
                <th scope="row">{breakable(b.name)}</th>
                {b.cells.map((cell, i) => (
                  <td key={plans[i].plan.id} data-plan-id={plans[i].plan.id}>
                    {cell.text === "" ? "—" : cell.covered === false ? cell.text : costShareWords(cell.text, w)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        ))}
      </table>
      {noUpstreamAnswer(page.drugCoverage?.upstream) || noUpstreamAnswer(page.doctorCoverage?.upstream) ? (
        <p className="notice warn">{t("compare.coverageUnknown")}</p>
      ) : null}
      <p>
        <Link to={backToResults(state, ids, search)}>{t("compare.change")}</Link>
      </p>
    </>
  );
}
