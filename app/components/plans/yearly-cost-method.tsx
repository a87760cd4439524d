import { money } from "./format";

export interface YearlyCostMethodRowView {
  service: string;
  allowedCost: number;
  low: number;
  medium: number;
  high: number;
}

/** How "estimated yearly cost" is worked out (docs/yearly-cost.md), on the page where it is used. */
export function YearlyCostMethod({ rows }: { rows: YearlyCostMethodRowView[] }) {
  const total = (level: "low" | "medium" | "high") => rows.reduce((sum, r) => sum + r[level] * r.allowedCost, 0);
  return (
    <section aria-labelledby="method-heading" className="method">
      <h2 id="method-heading">How we estimate the yearly cost</h2>
      <p>
        Estimated yearly cost = the monthly premium after your tax credit × 12, plus what you would pay out of pocket
        for an assumed year of care. We price that care with each plan&apos;s own rules: its deductible, copays,
        coinsurance and out-of-pocket maximum (and your savings level on silver plans). Everyone in the household is
        assumed to use the level you choose.
      </p>
      <details>
        <summary>The assumed year of care for each level</summary>
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="method-caption">
          <table className="method-table">
            <caption id="method-caption">
              Visits and prescriptions per person per year, and the cost we assume for each
            </caption>
            <thead>
              <tr>
                <th scope="col">Care</th>
                <th scope="col">Assumed cost</th>
                <th scope="col">Low</th>
                <th scope="col">Medium</th>
                <th scope="col">High</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.service}>
                  <th scope="row">{r.service}</th>
                  <td>{money(r.allowedCost)}</td>
                  <td>{r.low}</td>
                  <td>{r.medium}</td>
                  <td>{r.high}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Cost of the year of care</th>
                <td />
                <td>{money(total("low"))}</td>
                <td>{money(total("medium"))}</td>
                <td>{money(total("high"))}</td>
              </tr>
            </tfoot>
          </table>
        </div>
        <p className="hint">
          These are our own round-number assumptions, not prices you will be charged. They do not include preventive
          care (free on every plan), out-of-network care or separate drug deductibles.
        </p>
      </details>
    </section>
  );
}
