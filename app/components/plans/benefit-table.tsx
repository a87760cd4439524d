import { useMemo } from "react";
import { benefitRowsFromText } from "./benefit-rows-text";
import { DEFAULT_LANGUAGE, type Language } from "../../i18n/i18n";
import { costShareWords, wordsFor } from "./format";

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

/**
 * Every benefit of the plan (the household's cost-sharing variant), what you pay in and out of network.
 * The language comes as a prop, not from context: the server renders this table on its own (benefitTableMarkup).
 */
export function BenefitTable({
  rows,
  caption,
  lang = DEFAULT_LANGUAGE,
}: {
  rows: BenefitRowView[];
  caption: string;
  lang?: Language;
}) {
  const w = wordsFor(lang);
  const { t } = w;
  const tier2 = rows.some((r) => r.inNetworkTier2);
  return (
    <table className="benefit-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t("benefits.service")}</th>
          <th scope="col">{t("benefits.inNetwork")}</th>
          {tier2 ? <th scope="col">{t("benefits.inNetworkTier2")}</th> : null}
          <th scope="col">{t("benefits.outOfNetwork")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name}>
            <th scope="row">
              {r.name}
              {r.notes ? <span className="benefit-notes">{r.notes}</span> : null}
            </th>
            <td>{r.covered === false ? r.inNetwork : costShareWords(r.inNetwork, w)}</td>
            {tier2 ? <td>{r.inNetworkTier2 ? costShareWords(r.inNetworkTier2, w) : "—"}</td> : null}
            <td>{r.covered === false ? r.outOfNetwork : costShareWords(r.outOfNetwork, w)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** <BenefitTable> for rows sent as text (benefitRowsText, the plan page's data): read only when rendered. */
export function BenefitTableFromText({
  rowsText,
  caption,
  lang = DEFAULT_LANGUAGE,
}: {
  rowsText: string;
  caption: string;
  lang?: Language;
}) {
  const rows = useMemo(() => benefitRowsFromText(rowsText), [rowsText]);
  return <BenefitTable rows={rows} caption={caption} lang={lang} />;
}
