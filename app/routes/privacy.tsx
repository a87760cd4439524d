import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalHeader, RetentionTable } from "../components/legal-facts";
import { legalFacts } from "../server/pages/legal-page.server";
import { Trans } from "../i18n/trans";
import { metaT } from "../i18n/meta";
import { useT } from "../i18n/use-t";
import legalWords from "virtual:english/legal";
import privacyWords from "virtual:english/privacy";
import { addEnglish, type Catalogue } from "../i18n/i18n";

addEnglish({ legal: legalWords, privacy: privacyWords } as Partial<Catalogue>);

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return [{ title: t("meta.pageTitle", { page: t("privacy.title") }) }];
};

/** The operator, contact, effective date, retention periods and vendors come from the settings (issue 28 item 8). */
export function loader() {
  return legalFacts();
}

export default function Privacy() {
  const t = useT();
  const facts = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("privacy.title")}</h1>
      <LegalHeader facts={facts} />
      <p>{t("privacy.intro")}</p>
      <h2>{t("privacy.shoppingTitle")}</h2>
      <p>{t("privacy.shopping")}</p>
      <p>{t("privacy.pageCookie")}</p>
      <h2>{t("privacy.formsTitle")}</h2>
      <p>{t("privacy.forms")}</p>
      <h2>{t("privacy.analyticsTitle")}</h2>
      <p>
        <Trans t={t} i18nKey="privacy.analytics" components={{ code: <code /> }} />
      </p>
      <h2>{t("legal.vendorsTitle")}</h2>
      <ul data-testid="vendors">
        <li>{t("legal.emailVendor", { vendor: facts.emailVendor })}</li>
        <li>
          {facts.analyticsVendor
            ? t("legal.analyticsVendor", { vendor: facts.analyticsVendor })
            : t("legal.noAnalyticsVendor")}
        </li>
      </ul>
      <h2>{t("legal.retentionTitle")}</h2>
      <RetentionTable facts={facts} />
      <h2>{t("privacy.neverTitle")}</h2>
      <ul>
        <li>{t("privacy.never1")}</li>
        <li>{t("privacy.never2")}</li>
      </ul>
      <h2>{t("privacy.questionsTitle")}</h2>
      <p>
        {t("legal.questions", { operator: facts.operator })} <a href={`mailto:${facts.contact}`}>{facts.contact}</a>.
      </p>
    </>
  );
}
