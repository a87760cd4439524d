import { Link } from "@remix-run/react";
import { Trans } from "../i18n/trans";
import { ZipForm } from "../components/zip-form";
import { useT } from "../i18n/use-t";
import homeWords from "virtual:english/home";
import renewWords from "virtual:english/renew";
import { addEnglish, type Catalogue } from "../i18n/i18n";

addEnglish({ home: homeWords, renew: renewWords } as Partial<Catalogue>);

export default function Home() {
  const t = useT();
  return (
    <>
      <h1>{t("home.title")}</h1>
      <p>{t("home.intro")}</p>
      <ZipForm />
      <p>
        <Link to="/renew">{t("renew.homeLink")}</Link>
      </p>
      <h2>{t("home.whatTitle")}</h2>
      <ul>
        <li>{t("home.what1")}</li>
        <li>{t("home.what2")}</li>
        <li>{t("home.what3")}</li>
        <li>{t("home.what4")}</li>
      </ul>
      <p>
        <Trans t={t} i18nKey="home.agents" components={{ agents: <Link to="/agents" /> }} />
      </p>
    </>
  );
}
