import { addEnglish, type Catalogue } from "../../i18n/i18n";
import scenarioWords from "virtual:english/scenario";
import { money, useWords, type Words } from "./format";
import { moneyOr } from "./plan-words";

// The plan page's and the comparison's words, loaded with them (decision 363).
addEnglish({ scenario: scenarioWords } as Partial<Catalogue>);

export interface ScenarioViewProps {
  key: string;
  title: string;
  story: string;
  totalCost: number;
  youPay: number | null;
  planPays: number | null;
  parts: { deductible: number | null; copayment: number | null; coinsurance: number | null; limit: number | null };
}

/**
 * The three Summary of Benefits coverage examples as a small stacked bar
 * each (you pay / the plan pays), with the numbers written beside it; the
 * bars are decoration for the text, hidden from screen readers.
 */
/** A coverage example's title in the page's language (the SBC's three examples, by key). */
export function scenarioTitle(s: Pick<ScenarioViewProps, "key" | "title">, w: Words): string {
  return SCENARIO_KEYS.includes(s.key) ? w.t(`scenario.${s.key}.title`) : s.title;
}

const SCENARIO_KEYS = ["havingABaby", "managingDiabetes", "simpleFracture"];

export function ScenarioChart({ scenarios }: { scenarios: ScenarioViewProps[] }) {
  const w = useWords();
  const { t, lang } = w;
  return (
    <div className="scenarios">
      {scenarios.map((s) => {
        const youShare = s.youPay === null ? 0 : Math.min(100, Math.max(0, (s.youPay / s.totalCost) * 100));
        return (
          <section key={s.key} className="scenario" aria-labelledby={`scenario-${s.key}`} data-scenario={s.key}>
            <h3 id={`scenario-${s.key}`}>{scenarioTitle(s, w)}</h3>
            <p className="hint">
              {t("scenario.storyAndTotal", {
                story: SCENARIO_KEYS.includes(s.key) ? t(`scenario.${s.key}.story`) : s.story,
                total: money(s.totalCost, lang),
              })}
            </p>
            {s.youPay === null || s.planPays === null ? (
              <p>{t("scenario.notGiven")}</p>
            ) : (
              <>
                <div className="bar" aria-hidden="true">
                  <span className="bar-you" style={{ width: `${youShare.toFixed(1)}%` }} />
                  <span className="bar-plan" style={{ width: `${(100 - youShare).toFixed(1)}%` }} />
                </div>
                <p className="bar-legend">
                  <span className="key key-you" aria-hidden="true" /> {t("scenario.youPay")}{" "}
                  <strong data-testid="you-pay">{money(s.youPay, lang)}</strong>
                  <span className="sep"> · </span>
                  <span className="key key-plan" aria-hidden="true" /> {t("scenario.planPays")}{" "}
                  <strong>{money(s.planPays, lang)}</strong>
                </p>
                <details>
                  <summary>
                    {t("scenario.addsUp", { amount: money(s.youPay, lang) })}
                    <span className="visually-hidden"> ({scenarioTitle(s, w)})</span>
                  </summary>
                  <dl className="plan-facts">
                    <div>
                      <dt>{t("scenario.deductible")}</dt>
                      <dd>{moneyOr(s.parts.deductible, w)}</dd>
                    </div>
                    <div>
                      <dt>{t("scenario.copayments")}</dt>
                      <dd>{moneyOr(s.parts.copayment, w)}</dd>
                    </div>
                    <div>
                      <dt>{t("scenario.coinsurance")}</dt>
                      <dd>{moneyOr(s.parts.coinsurance, w)}</dd>
                    </div>
                    <div>
                      <dt>{t("scenario.limits")}</dt>
                      <dd>{moneyOr(s.parts.limit, w)}</dd>
                    </div>
                  </dl>
                </details>
              </>
            )}
          </section>
        );
      })}
    </div>
  );
}
