import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalHeader } from "../components/legal-facts";
import { legalFacts } from "../server/pages/legal-page.server";
import { metaT } from "../i18n/meta";
import { useT } from "../i18n/use-t";
import termsWords from "virtual:english/terms";
import { addEnglish, type Catalogue } from "../i18n/i18n";

addEnglish({ terms: termsWords } as Partial<Catalogue>);

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return [{ title: t("meta.pageTitle", { page: t("terms.title") }) }];
};

/** The operator, contact and effective date come from the settings (issue 28 item 8). */
export function loader() {
  return legalFacts();
}

export default function Terms() {
  const t = useT();
  const facts = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("terms.title")}</h1>
      <LegalHeader facts={facts} />
      <h2>{t("terms.estimatesTitle")}</h2>
      <p>{t("terms.estimates")}</p>
      <h2>{t("terms.planInfoTitle")}</h2>
      <p>{t("terms.planInfo")}</p>
      <h2>{t("terms.usingTitle")}</h2>
      <p>{t("terms.using")}</p>
      <h2>{t("terms.agentsTitle")}</h2>
      <p>{t("terms.agents")}</p>
    </>
  );
}
