import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { useNonce } from "./components/nonce";
import appStyles from "./styles/app.css?url";
import { siteDataStatus } from "./server/platform/site-status.server";
import { browserAnalyticsSettings } from "./server/platform/analytics.server";
import { Analytics } from "./components/analytics";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStyles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: "Health Plan Marketplace: compare subsidised health plans" },
  {
    name: "description",
    content:
      "Find out what you would pay for a Marketplace health plan after your tax credit, and check your drugs and doctors.",
  },
];

export async function loader(_args: LoaderFunctionArgs) {
  return { status: siteDataStatus(), analytics: browserAnalyticsSettings() };
}

// The site's header and footer use plain links: they lead to other parts of the site, where a
// new document is what a browser without JavaScript gets anyway, and twelve router <Link>s cost
// every page ~7 % of its server time (docs/decisions/134). Links inside a page's content stay
// <Link>s (client-side navigation).
const NAV = [
  { to: "/plans", label: "Find a plan" },
  { to: "/updates", label: "Get updates" },
  { to: "/agents", label: "For agents" },
];

const FOOTER = [
  { to: "/", label: "Home" },
  { to: "/plans", label: "Find a plan" },
  { to: "/agents", label: "For agents" },
  { to: "/agent-onboarding", label: "Agent onboarding" },
  { to: "/agent-discovery", label: "Agent discovery form" },
  { to: "/updates", label: "Get updates" },
  { to: "/privacy", label: "Privacy" },
  { to: "/terms", label: "Terms" },
];

function SourceBanners() {
  const data = useRouteLoaderData<typeof loader>("root");
  if (!data) return null;
  const { planData, sampleUpstream } = data.status;
  if (planData !== "sample" && planData !== "missing" && !sampleUpstream) return null;
  // Inside a landmark (axe `region`): every piece of content belongs to one.
  return (
    <aside className="notices" aria-label="About the data on this site">
      {planData === "sample" ? (
        <p className="banner" role="note" data-testid="sample-data-banner">
          <strong>Sample data:</strong> the plans and prices on this site are made up for demonstration. Counties and
          ZIP codes are real. Do not use these figures to choose coverage.
        </p>
      ) : null}
      {planData === "missing" ? (
        <p className="banner" role="note">
          <strong>No plan data loaded:</strong> plan prices are unavailable until the plan store is seeded.
        </p>
      ) : null}
      {sampleUpstream ? (
        <p className="banner" role="note" data-testid="sample-upstream-banner">
          <strong>Sample answers:</strong> drug, doctor and federal subsidy look-ups come from a built-in stand-in for
          the HealthCare.gov API, not from the real service.
        </p>
      ) : null}
    </aside>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <a href="/" className="brand">
            Health Plan Marketplace
          </a>
          <nav className="site-nav" aria-label="Main">
            <ul>
              {NAV.map((item) => (
                <li key={item.to}>
                  <a href={item.to}>{item.label}</a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <SourceBanners />
        <main id="main">{children}</main>
        <footer className="site-footer">
          <nav aria-label="Site">
            <ul>
              {FOOTER.map((item) => (
                <li key={item.to}>
                  <a href={item.to}>{item.label}</a>
                </li>
              ))}
            </ul>
          </nav>
          <p>
            We are not HealthCare.gov or a state marketplace. Estimates are not an offer of coverage; your marketplace
            makes the final eligibility decision.
          </p>
        </footer>
        <Analytics config={data?.analytics} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const notFound = error.status === 404;
    return (
      <>
        <h1>{notFound ? "We couldn't find that page" : `Something went wrong (${error.status})`}</h1>
        <p>
          {notFound
            ? "The address may be mistyped, or the page may have moved."
            : typeof error.data === "string" && error.data
              ? error.data
              : "Please try again in a moment."}
        </p>
        <p>
          <Link to="/">Go to the start page</Link> or <Link to="/plans">look up plans by ZIP code</Link>.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Something went wrong</h1>
      <p>We could not show this page. Please try again in a moment.</p>
      <p>
        <Link to="/">Go to the start page</Link>
      </p>
    </>
  );
}
