import { formatNumber } from "../../lib/format";
import { addEnglish, type Catalogue } from "../../i18n/i18n";
import whatIfWords from "virtual:english/whatIf";
import { money, useWords, type Words } from "./format";

// Its words come with its code, which the browser loads only to draw it itself (decision 406).
addEnglish({ whatIf: whatIfWords } as Partial<Catalogue>);

import type { WhatIfPointView, WhatIfView } from "../../lib/page-views";
export type { WhatIfPointView, WhatIfView } from "../../lib/page-views";

const WIDTH = 640;
const HEIGHT = 280;
const PAD = { left: 64, right: 16, top: 16, bottom: 40 };

function who(p: WhatIfPointView, { t }: Words): string {
  const parts = [
    p.medicaidChip ? t("whatIf.onMedicaid", { count: p.medicaidChip }) : null,
    p.essentialPlan ? t("whatIf.onEssential", { count: p.essentialPlan }) : null,
    p.medicare ? t("whatIf.onMedicare", { count: p.medicare }) : null,
    p.coverageFamily ? t("whatIf.buying", { count: p.coverageFamily }) : null,
  ].filter(Boolean);
  return parts.join(", ") || "—";
}

/**
 * The income what-if: the monthly credit and the net price of the benchmark silver plan from 50%
 * to 500% of the poverty level, as an SVG chart (lines marked, the household's income pointed
 * out) and the same figures as a table. Server-rendered; no JavaScript (docs/decisions/213).
 */
export function IncomeWhatIf({ whatIf }: { whatIf: WhatIfView }) {
  const w = useWords();
  const { t, lang } = w;
  const { points } = whatIf;
  if (points.length < 2) return null;
  const minX = points[0].income;
  const maxX = points[points.length - 1].income;
  const maxY = Math.max(1, ...points.map((p) => Math.max(p.aptcMonthly, p.netBenchmarkMonthly ?? 0)));
  const x = (income: number) => PAD.left + ((income - minX) / (maxX - minX || 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (amount: number) => HEIGHT - PAD.bottom - (amount / maxY) * (HEIGHT - PAD.top - PAD.bottom);
  const path = (values: Array<number | null>) =>
    points
      .map((p, i) => (values[i] === null ? null : `${x(p.income).toFixed(1)},${y(values[i]!).toFixed(1)}`))
      .filter(Boolean)
      .join(" ");
  const own = points.find((p) => p.own);
  const ticks = [0, 0.5, 1].map((f) => Math.round(maxY * f));
  return (
    <section className="what-if" aria-labelledby="what-if-heading" data-testid="income-what-if">
      <h2 id="what-if-heading">{t("whatIf.heading")}</h2>
      <p className="hint" id="what-if-hint">
        {t("whatIf.hint")}
        {whatIf.ourEstimate ? ` ${t("whatIf.ourEstimate")}` : ""}
      </p>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="what-if-chart"
        role="img"
        aria-labelledby="what-if-title what-if-desc"
      >
        <title id="what-if-title">{t("whatIf.chartTitle")}</title>
        <desc id="what-if-desc">
          {own
            ? `${t("whatIf.atYourIncome", { income: money(own.income, lang), credit: money(own.aptcMonthly, lang) })} ${t("whatIf.tableBelow")}`
            : t("whatIf.tableBelow")}
        </desc>
        <line x1={PAD.left} y1={HEIGHT - PAD.bottom} x2={WIDTH - PAD.right} y2={HEIGHT - PAD.bottom} stroke="#374151" />
        <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={HEIGHT - PAD.bottom} stroke="#374151" />
        {ticks.map((tick) => (
          <text key={tick} x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" fontSize="11" fill="#1f2937">
            {`$${formatNumber(tick, lang)}`}
          </text>
        ))}
        <text x={PAD.left} y={HEIGHT - 8} fontSize="11" fill="#1f2937">
          {money(minX, lang)}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 8} fontSize="11" fill="#1f2937" textAnchor="end">
          {money(maxX, lang)}
        </text>
        {whatIf.lines
          .filter((l) => l.amount >= minX && l.amount <= maxX)
          .map((l) => (
            <g key={`${l.kind}-${l.amount}`}>
              <line
                x1={x(l.amount)}
                x2={x(l.amount)}
                y1={PAD.top}
                y2={HEIGHT - PAD.bottom}
                stroke="#6b7280"
                strokeDasharray="2 3"
              />
              <text x={x(l.amount) + 2} y={PAD.top + 10} fontSize="10" fill="#1f2937">
                {`${l.percent}%`}
              </text>
            </g>
          ))}
        <polyline
          points={path(points.map((p) => p.netBenchmarkMonthly))}
          fill="none"
          stroke="#9a3412"
          strokeWidth="2"
          strokeDasharray="6 3"
        />
        <polyline points={path(points.map((p) => p.aptcMonthly))} fill="none" stroke="#1d4ed8" strokeWidth="2.5" />
        {own ? (
          <g>
            <circle cx={x(own.income)} cy={y(own.aptcMonthly)} r="5" fill="#1d4ed8" />
            <text x={x(own.income) + 7} y={y(own.aptcMonthly) - 7} fontSize="12" fill="#1f2937" fontWeight="bold">
              {t("whatIf.you")}
            </text>
          </g>
        ) : null}
      </svg>
      <p className="bar-legend">
        <span className="key key-credit" aria-hidden="true" /> {t("whatIf.legendCredit")}
        <span className="sep"> · </span>
        <span className="key key-net" aria-hidden="true" /> {t("whatIf.legendNet")}
      </p>
      <details>
        <summary>{t("whatIf.tableSummary")}</summary>
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t("whatIf.tableLabel")}>
          <table className="what-if-table">
            <caption className="visually-hidden">{t("whatIf.tableCaption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("whatIf.colIncome")}</th>
                <th scope="col">{t("whatIf.colFpl")}</th>
                <th scope="col">{t("whatIf.colCredit")}</th>
                <th scope="col">{t("whatIf.colNet")}</th>
                <th scope="col">{t("whatIf.colWho")}</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.income} className={p.own ? "own" : undefined}>
                  <th scope="row">
                    {money(p.income, lang)}
                    {p.own ? ` (${t("whatIf.youLower")})` : ""}
                  </th>
                  <td>{p.fplPercent}%</td>
                  <td>{money(p.aptcMonthly, lang)}</td>
                  <td>
                    {p.netBenchmarkMonthly === null ? t("whatIf.noPlanNeeded") : money(p.netBenchmarkMonthly, lang)}
                  </td>
                  <td>{who(p, w)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
