import { money, moneyOr } from "./format";

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
export function ScenarioChart({ scenarios }: { scenarios: ScenarioViewProps[] }) {
  return (
    <div className="scenarios">
      {scenarios.map((s) => {
        const youShare = s.youPay === null ? 0 : Math.min(100, Math.max(0, (s.youPay / s.totalCost) * 100));
        return (
          <section key={s.key} className="scenario" aria-labelledby={`scenario-${s.key}`} data-scenario={s.key}>
            <h3 id={`scenario-${s.key}`}>{s.title}</h3>
            <p className="hint">
              {s.story}. Total example cost {money(s.totalCost)}.
            </p>
            {s.youPay === null || s.planPays === null ? (
              <p>This plan&apos;s documents do not give this example.</p>
            ) : (
              <>
                <div className="bar" aria-hidden="true">
                  <span className="bar-you" style={{ width: `${youShare.toFixed(1)}%` }} />
                  <span className="bar-plan" style={{ width: `${(100 - youShare).toFixed(1)}%` }} />
                </div>
                <p className="bar-legend">
                  <span className="key key-you" aria-hidden="true" /> You pay{" "}
                  <strong data-testid="you-pay">{money(s.youPay)}</strong>
                  <span className="sep"> · </span>
                  <span className="key key-plan" aria-hidden="true" /> The plan pays{" "}
                  <strong>{money(s.planPays)}</strong>
                </p>
                <details>
                  <summary>
                    How your {money(s.youPay)} adds up<span className="visually-hidden"> ({s.title})</span>
                  </summary>
                  <dl className="plan-facts">
                    <div>
                      <dt>Deductible</dt>
                      <dd>{moneyOr(s.parts.deductible)}</dd>
                    </div>
                    <div>
                      <dt>Copayments</dt>
                      <dd>{moneyOr(s.parts.copayment)}</dd>
                    </div>
                    <div>
                      <dt>Coinsurance</dt>
                      <dd>{moneyOr(s.parts.coinsurance)}</dd>
                    </div>
                    <div>
                      <dt>Limits or exclusions</dt>
                      <dd>{moneyOr(s.parts.limit)}</dd>
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
