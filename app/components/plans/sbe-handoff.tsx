import { Link } from "@remix-run/react";
import { Trans } from "../../i18n/trans";
import { pathInLanguage } from "../../lib/language-url";
import { useWords } from "./format";
import sbeWords from "virtual:english/sbe";
import { addEnglish, type Catalogue } from "../../i18n/i18n";

// Its words come with it: it loads on the other-marketplace step only (decision 406).
addEnglish({ sbe: sbeWords } as Partial<Catalogue>);

export interface SbeRedirectView {
  state: string;
  marketplace_name: string;
  marketplace_url: string;
}

/** A state that runs its own marketplace: we do not sell or price its plans, so we send people there. */
export function SbeHandoff({
  zip,
  countyName,
  redirect,
  chooseCountyHref,
}: {
  zip: string;
  countyName: string | null;
  redirect: SbeRedirectView;
  chooseCountyHref: string | null;
}) {
  const { t, lang } = useWords();
  const where = countyName ? `${countyName}, ${redirect.state}` : t("sbe.zip", { zip });
  const otherZip = pathInLanguage("/plans", lang);
  return (
    <>
      <p>{t("sbe.intro", { where, marketplace: redirect.marketplace_name })}</p>
      <p>
        <a className="button" href={redirect.marketplace_url} rel="noopener noreferrer">
          {t("sbe.goTo", { marketplace: redirect.marketplace_name })}
        </a>
      </p>
      <h2>{t("sbe.expectHeading")}</h2>
      <ul>
        <li>{t("sbe.expectHelp")}</li>
        <li>{t("sbe.expectMedicaid")}</li>
        <li>{t("sbe.expectReady")}</li>
      </ul>
      <p>
        {chooseCountyHref ? (
          <Trans
            t={t}
            i18nKey="sbe.countyOrZip"
            components={{ county: <Link to={chooseCountyHref} />, zip: <Link to={otherZip} /> }}
          />
        ) : (
          <Trans t={t} i18nKey="sbe.otherZip" components={{ zip: <Link to={otherZip} /> }} />
        )}
      </p>
    </>
  );
}
