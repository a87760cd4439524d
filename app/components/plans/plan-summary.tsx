import type { ShoppingState } from "../../lib/shopping-url";
import { coverageText, type CoverageCheckView } from "./coverage-list";
import { EnrollLinks, type EnrollLinkView } from "./enroll-links";
import { money, useWords, type Words } from "./format";
import { metalWords, moneyOr, peopleWords } from "./plan-words";
import { peopleList } from "./household-summary";
import summaryWords from "virtual:english/summary";
import planPageWords from "virtual:english/planPage";
import { addEnglish, type Catalogue } from "../../i18n/i18n";

addEnglish({ summary: summaryWords, planPage: planPageWords } as Partial<Catalogue>);

/** What the take-away summary shows (the page model's fields it reads). */
export interface PlanSummaryView {
  state: ShoppingState;
  place: { zip: string; countyName: string; state: string } | null;
  plan: { id: string; name: string; issuer: string; metalLevel: string; type: string | null; year: number };
  price: { premium: number; premium_w_credit: number; credit_applied: number; tobacco_surcharge: number } | null;
  priceNote: string | null;
  credit: number;
  deductible: { individual: number | null; family: number | null };
  moop: { individual: number | null; family: number | null };
  drugCoverage: CoverageCheckView | null;
  doctorCoverage: CoverageCheckView | null;
  enroll: EnrollLinkView[];
  madeOn: string;
}

function limitRow(limit: PlanSummaryView["deductible"], w: Words): string {
  return limit.family !== null
    ? w.t("summary.limitBoth", { person: moneyOr(limit.individual, w), family: money(limit.family, w.lang) })
    : moneyOr(limit.individual, w);
}

function CoverageRows({
  check,
  kind,
  planId,
}: {
  check: CoverageCheckView | null;
  kind: "drug" | "doctor";
  planId: string;
}) {
  const w = useWords();
  if (!check || check.selections.length === 0) return null;
  return (
    <>
      {check.selections.map((s) => (
        <tr key={`${kind}-${s.code}`}>
          <th scope="row">
            {w.t(kind === "drug" ? "summary.drug" : "summary.doctor")}: {s.name}
          </th>
          <td>{coverageText(check, kind, s.code, planId, w).text}</td>
        </tr>
      ))}
    </>
  );
}

/**
 * The one-page summary of a plan for a household (issue 28 item 5): a table that prints on one
 * page, to take to the marketplace, where the shopper applies with the plan ID.
 */
export function PlanSummaryTable({ summary }: { summary: PlanSummaryView }) {
  const w = useWords();
  const { t, lang } = w;
  const { plan, price, state, place } = summary;
  const income = Number(state.income.replace(/[\s$,]/g, ""));
  return (
    <table className="summary-table" data-testid="plan-summary">
      <caption>{t("summary.caption", { date: summary.madeOn })}</caption>
      <tbody>
        <tr>
          <th scope="row">{t("summary.plan")}</th>
          <td>
            <strong>{plan.name}</strong>
            <span className="compare-meta">
              {plan.issuer} · {metalWords(plan.metalLevel, w)}
              {plan.type ? ` · ${plan.type}` : ""}
            </span>
          </td>
        </tr>
        <tr>
          <th scope="row">{t("summary.planId")}</th>
          <td data-testid="summary-plan-id">
            <strong className="plan-id">{plan.id}</strong>
          </td>
        </tr>
        <tr>
          <th scope="row">{t("summary.year")}</th>
          <td>{plan.year}</td>
        </tr>
        {place ? (
          <tr>
            <th scope="row">{t("summary.household")}</th>
            <td>
              {peopleWords(state.people.length, w)} ({peopleList(state.people, w)})
              {Number.isFinite(income) ? ` · ${t("summary.income", { income: money(income, lang) })}` : ""}
              {` · ${place.countyName}, ${place.state} ${place.zip}`}
            </td>
          </tr>
        ) : null}
        {price ? (
          <>
            <tr>
              <th scope="row">{t("summary.fullPremium")}</th>
              <td>{money(price.premium, lang)}</td>
            </tr>
            <tr>
              <th scope="row">{t("summary.credit")}</th>
              <td>{money(price.credit_applied, lang)}</td>
            </tr>
            <tr>
              <th scope="row">{t("summary.netPremium")}</th>
              <td>
                <strong data-testid="summary-net">{money(price.premium_w_credit, lang)}</strong>
                {price.tobacco_surcharge > 0
                  ? ` ${t("planPage.tobacco", { amount: money(price.tobacco_surcharge, lang) })}`
                  : ""}
              </td>
            </tr>
          </>
        ) : (
          <tr>
            <th scope="row">{t("summary.netPremium")}</th>
            <td>{summary.priceNote}</td>
          </tr>
        )}
        <tr>
          <th scope="row">{t("summary.deductible")}</th>
          <td>{limitRow(summary.deductible, w)}</td>
        </tr>
        <tr>
          <th scope="row">{t("summary.moop")}</th>
          <td>{limitRow(summary.moop, w)}</td>
        </tr>
        <CoverageRows check={summary.drugCoverage} kind="drug" planId={plan.id} />
        <CoverageRows check={summary.doctorCoverage} kind="doctor" planId={plan.id} />
      </tbody>
    </table>
  );
}

/** The summary's next steps: the marketplace (plan ID to look for) and the insurer, with the credit warning. */
export function SummarySteps({ summary }: { summary: PlanSummaryView }) {
  const { t } = useWords();
  const market = summary.enroll.find((l) => l.kind === "marketplace");
  return (
    <ol className="summary-steps">
      <li>{t("summary.step1")}</li>
      <li>{t("summary.step2", { marketplace: market?.name ?? "", planId: summary.plan.id })}</li>
      <li>{t("summary.step3")}</li>
      <li className="summary-links">
        <EnrollLinks links={summary.enroll} planName={summary.plan.name} credit={summary.credit} />
      </li>
    </ol>
  );
}
