import { Fragment, useMemo, type ReactNode } from "react";
import { CARE_GROUPS, type CareGroup } from "../../domain/care-groups";
import { benefitRowsFromText } from "../../lib/benefit-rows-text";
import { addEnglish, DEFAULT_LANGUAGE, type Catalogue, type Language } from "../../i18n/i18n";
import benefitsWords from "virtual:english/benefits";
import { costShareWords } from "./cost-share-words";
import { wordsFor } from "./format";

// The plan page's and the comparison's words, loaded with them (decision 363).
addEnglish({ benefits: benefitsWords } as Partial<Catalogue>);

import type { BenefitRowView } from "../../lib/page-views";
export type { BenefitRowView } from "../../lib/page-views";

/**
 * A benefit's name with a line-break chance after each slash ("Transportation/<wbr>Ambulance"): the
 * tables wrap at spaces only (no mid-word breaks, issue 28 item 4), and these joined words would
 * otherwise be wider than a phone's column.
 */
export function breakable(name: string): ReactNode {
  const parts = name.split("/");
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 ? (
        <>
          /<wbr />
        </>
      ) : null}
    </Fragment>
  ));
}

/** Rows in runs of one group each, in the order they come (the server puts them in the groups' order). */
function runsOf(rows: readonly BenefitRowView[]): Array<{ group: CareGroup | null; rows: BenefitRowView[] }> {
  const runs: Array<{ group: CareGroup | null; rows: BenefitRowView[] }> = [];
  for (const row of rows) {
    const group = row.group && CARE_GROUPS.includes(row.group) ? row.group : null;
    const last = runs.at(-1);
    if (last && last.group === group) last.rows.push(row);
    else runs.push({ group, rows: [row] });
  }
  return runs;
}

export { BENEFIT_TABLE_PART } from "../../lib/prerendered-parts";

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
      {runsOf(rows).map((run, i) => (
        <tbody key={run.group ?? `rows-${i}`} data-group={run.group ?? undefined}>
          {run.group ? (
            <tr className="care-group">
              <th scope="colgroup" colSpan={tier2 ? 4 : 3}>
                {t(`benefits.group.${run.group}`)}
              </th>
            </tr>
          ) : null}
          {run.rows.map((r) => (
            <tr key={r.name}>
              <th scope="row">
                {breakable(r.name)}
                {r.notes ? <span className="benefit-notes">{r.notes}</span> : null}
              </th>
              <td>{r.covered === false ? r.inNetwork : costShareWords(r.inNetwork, w)}</td>
              {tier2 ? <td>{r.inNetworkTier2 ? costShareWords(r.inNetworkTier2, w) : "—"}</td> : null}
              <td>{r.covered === false ? r.outOfNetwork : costShareWords(r.outOfNetwork, w)}</td>
            </tr>
          ))}
        </tbody>
      ))}
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
