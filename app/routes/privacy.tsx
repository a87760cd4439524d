import type { MetaFunction } from "@remix-run/node";
import { Trans } from "../i18n/trans";
import { metaT } from "../i18n/meta";
import { useT } from "../i18n/use-t";

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return [{ title: t("meta.pageTitle", { page: t("privacy.title") }) }];
};

export default function Privacy() {
  const t = useT();
  return (
    <>
      <h1>{t("privacy.title")}</h1>
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
      <h2>{t("privacy.neverTitle")}</h2>
      <ul>
        <li>{t("privacy.never1")}</li>
        <li>{t("privacy.never2")}</li>
      </ul>
      <h2>{t("privacy.questionsTitle")}</h2>
      <p>{t("privacy.questions")}</p>
    </>
  );
}
