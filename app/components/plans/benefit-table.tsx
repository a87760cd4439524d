import { useMemo } from "react";
import { benefitRowsFromText } from "./benefit-rows-text";
import { costShareWords } from "./format";

export interface BenefitRowView {
  name: string;
  covered: boolean | null;
  inNetwork: string;
  inNetworkTier2: string | null;
  outOfNetwork: string;
  notes: string | null;
}

/** The benefit table's part name in a plan page document (<Prerendered>, docs/decisions/132). */
export const BENEFIT_TABLE_PART = "benefit-table";

/** Every benefit of the plan (the household's cost-sharing variant), what you pay in and out of network. */
export function BenefitTable({ rows, caption }: { rows: BenefitRowView[]; caption: string }) {
  const tier2 = rows.some((r) => r.inNetworkTier2);
  return (
    <table className="benefit-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Service</th>
          <th scope="col">In network</th>
          {tier2 ? <th scope="col">In network, tier 2</th> : null}
          <th scope="col">Out of network</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name}>
            <th scope="row">
              {r.name}
              {r.notes ? <span className="benefit-notes">{r.notes}</span> : null}
            </th>
            <td>{r.covered === false ? r.inNetwork : costShareWords(r.inNetwork)}</td>
            {tier2 ? <td>{r.inNetworkTier2 ? costShareWords(r.inNetworkTier2) : "—"}</td> : null}
            <td>{r.covered === false ? r.outOfNetwork : costShareWords(r.outOfNetwork)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** <BenefitTable> for rows sent as text (benefitRowsText, the plan page's data): read only when rendered. */
export function BenefitTableFromText({ rowsText, caption }: { rowsText: string; caption: string }) {
  const rows = useMemo(() => benefitRowsFromText(rowsText), [rowsText]);
  return <BenefitTable rows={rows} caption={caption} />;
}
