import { Form } from "@remix-run/react";
import { Link } from "@remix-run/react";
import { APTC_APPLIED, plansHref, type ShoppingState } from "../../lib/shopping-url";
import { money, useWords, type Words } from "./format";
import { StateFields } from "./state-fields";

import type { CreditChoiceFacts } from "./credit-in-prices";
import repaymentRiskWords from "virtual:english/repaymentRisk";
import { addEnglish, type Catalogue } from "../../i18n/i18n";

// Its words come with it: the results page loads it when it is used (decision 440).
addEnglish({ repaymentRisk: repaymentRiskWords } as Partial<Catalogue>);

export { creditInPricesSentence, type CreditChoiceFacts, type RepaymentRiskRowFacts } from "./credit-in-prices";

/** The one plain sentence on the risk: what taking the credit in advance can cost at tax time. */
function riskSentence(eligibility: CreditChoiceFacts, { t, lang }: Words): string {
  const rows = eligibility.repayment_risk;
  const above = rows.find((r) => r.scenario === "above_400_fpl");
  const advance = rows[0]?.advance_credit ?? 0;
  if (advance === 0) return t("repaymentRisk.nothingTaken");
  const capped = rows.some((r) => r.cap !== null);
  return t(capped ? "repaymentRisk.sentenceCapped" : "repaymentRisk.sentence", {
    year: eligibility.year,
    advance: money(advance, lang),
    line: money(above ? above.income - 1 : 0, lang),
    repayment: money(above?.repayment ?? advance, lang),
  });
}

/**
 * Issue 25 item 5: what the household pays back at tax time if its income ends higher, in one
 * sentence and a small table, and a GET form that sets how much of the credit to take in advance
 * (`aptc_applied` in the URL; works without JavaScript). docs/decisions/320.
 */
export function RepaymentRisk({ eligibility, state }: { eligibility: CreditChoiceFacts; state: ShoppingState }) {
  const w = useWords();
  const { t, lang } = w;
  if (eligibility.aptc <= 0 || eligibility.repayment_risk.length === 0) return null;
  const chosen = eligibility.aptc_applied < eligibility.aptc;
  return (
    <section aria-labelledby="repayment-risk-heading" className="repayment-risk" data-testid="repayment-risk">
      <h2 id="repayment-risk-heading">{t("repaymentRisk.heading")}</h2>
      <p data-testid="repayment-sentence">{riskSentence(eligibility, w)}</p>
      <table className="repayment-table">
        <caption>{t("repaymentRisk.caption", { amount: money(eligibility.aptc_applied, lang) })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("repaymentRisk.colIncome")}</th>
            <th scope="col">{t("repaymentRisk.colAllowed")}</th>
            <th scope="col">{t("repaymentRisk.colAdvance")}</th>
            <th scope="col">{t("repaymentRisk.colRepayment")}</th>
          </tr>
        </thead>
        <tbody>
          {eligibility.repayment_risk.map((r) => (
            <tr key={r.scenario} data-scenario={r.scenario}>
              <th scope="row">
                {money(r.income, lang)} <span className="hint">{t(`repaymentRisk.scenario.${r.scenario}`)}</span>
              </th>
              <td>{money(r.allowed_credit, lang)}</td>
              <td>{money(r.advance_credit, lang)}</td>
              <td>
                {money(r.repayment, lang)}
                {r.cap !== null && r.repayment === r.cap ? ` ${t("repaymentRisk.capped")}` : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Form method="get" action="/plans" className="credit-choice" preventScrollReset>
        <StateFields state={state} omit={["credit"]} />
        <label htmlFor="aptc-applied">{t("repaymentRisk.label", { credit: money(eligibility.aptc, lang) })}</label>{" "}
        <span className="hint" id="aptc-applied-hint">
          {t("repaymentRisk.hint")}
        </span>{" "}
        <input
          id="aptc-applied"
          name={APTC_APPLIED}
          type="number"
          inputMode="decimal"
          min={0}
          max={eligibility.aptc}
          step={0.01}
          key={eligibility.aptc_applied}
          defaultValue={eligibility.aptc_applied}
          aria-describedby="aptc-applied-hint"
        />{" "}
        <button type="submit">{t("repaymentRisk.submit")}</button>
        {chosen ? (
          <>
            {" "}
            <Link to={plansHref({ ...state, aptcApplied: undefined })}>{t("repaymentRisk.useAll")}</Link>
          </>
        ) : null}
      </Form>
    </section>
  );
}
