import { formatDate } from "../lib/format";
import { usePageLanguage, useT } from "../i18n/use-t";
import legalWords from "virtual:english/legal";
import { addEnglish, type Catalogue } from "../i18n/i18n";

addEnglish({ legal: legalWords } as Partial<Catalogue>);

/** The legal pages' facts as the components read them (app/server/pages/legal-page.server.ts). */
export interface LegalFactsView {
  operator: string;
  contact: string;
  effectiveDate: string;
  retentionDays: Record<string, number>;
  analyticsVendor: string | null;
  emailVendor: string;
}

/** Who runs the site, how to reach them, and since when the page holds. */
export function LegalHeader({ facts }: { facts: LegalFactsView }) {
  const t = useT();
  const lang = usePageLanguage();
  return (
    <p className="legal-facts" data-testid="legal-facts">
      {t("legal.operator", { operator: facts.operator })} {t("legal.contact")}{" "}
      <a href={`mailto:${facts.contact}`}>{facts.contact}</a>.{" "}
      {t("legal.effective", { date: formatDate(facts.effectiveDate, lang) })}
    </p>
  );
}

/** How long each kind of record is kept, and who processes it for us. */
export function RetentionTable({ facts }: { facts: LegalFactsView }) {
  const t = useT();
  return (
    <table className="retention-table" data-testid="retention-table">
      <caption>{t("legal.retentionCaption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("legal.recordKind")}</th>
          <th scope="col">{t("legal.keptFor")}</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(facts.retentionDays).map(([kind, days]) => (
          <tr key={kind} data-kind={kind}>
            <th scope="row">{t(`legal.kind.${kind}`)}</th>
            <td>{t("legal.days", { count: days })}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
