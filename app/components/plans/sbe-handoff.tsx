import { Link } from "@remix-run/react";

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
  return (
    <>
      <p>
        {countyName ? `${countyName}, ${redirect.state}` : `ZIP code ${zip}`} is in a state that runs its own health
        insurance marketplace. Plans, prices and savings for people who live there are on {redirect.marketplace_name},
        not on HealthCare.gov or this site.
      </p>
      <p>
        <a className="button" href={redirect.marketplace_url} rel="noopener noreferrer">
          Go to {redirect.marketplace_name}
        </a>
      </p>
      <h2>What to expect there</h2>
      <ul>
        <li>
          The same kinds of help: a premium tax credit that lowers your monthly bill, and extra savings on silver plans
          if your income qualifies.
        </li>
        <li>Medicaid and CHIP: the state marketplace can tell you if you qualify and help you apply.</li>
        <li>Have your household's income for the year and everyone's date of birth ready.</li>
      </ul>
      <p>
        {chooseCountyHref ? (
          <>
            <Link to={chooseCountyHref}>Choose a different county</Link> or{" "}
          </>
        ) : null}
        <Link to="/plans">use a different ZIP code</Link>.
      </p>
    </>
  );
}
