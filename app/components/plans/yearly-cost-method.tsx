import { Fragment } from "react";
import { addEnglish, type Catalogue } from "../../i18n/i18n";
import yearlyCostWords from "virtual:english/yearlyCost";
import { money, useWords } from "./format";

// Its words come with its code, which the browser loads only to draw it itself (decision 406).
addEnglish({ yearlyCost: yearlyCostWords } as Partial<Catalogue>);

export interface YearlyCostMethodRowView {
  key?: string;
  service: string;
  allowedCost: number;
  low: number;
  medium: number;
  high: number;
}

/** How "estimated yearly cost" is worked out (docs/yearly-cost.md), on the page where it is used. */
export function YearlyCostMethod({ rows }: { rows: YearlyCostMethodRowView[] }) {
  const { t, lang } = useWords();
  const total = (level: "low" | "medium" | "high") => rows.reduce((sum, r) => sum + r[level] * r.allowedCost, 0);
  return (
    <section aria-labelledby="method-heading" className="method">
      <h2 id="method-heading">{t("yearlyCost.heading")}</h2>
      <p>{t("yearlyCost.body")}</p>
      <details>
        <summary>{t("yearlyCost.summary")}</summary>
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="method-caption">
          <table className="method-table">
            <caption id="method-caption">{t("yearlyCost.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("yearlyCost.care")}</th>
                <th scope="col">{t("yearlyCost.assumedCost")}</th>
                {(["low", "medium", "high"] as const).map((level) => (
                  <Fragment key={level}>
                    <th scope="col">{t(`yearlyCost.level.${level}`)}</th>
                  </Fragment>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.service}>
                  <th scope="row">{r.key ? t(`yearlyCost.service.${r.key}`) : r.service}</th>
                  <td>{money(r.allowedCost, lang)}</td>
                  <td>{r.low}</td>
                  <td>{r.medium}</td>
                  <td>{r.high}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{t("yearlyCost.total")}</th>
                <td />
                <td>{money(total("low"), lang)}</td>
                <td>{money(total("medium"), lang)}</td>
                <td>{money(total("high"), lang)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
        <p className="hint">{t("yearlyCost.hint")}</p>
      </details>
    </section>
  );
}
