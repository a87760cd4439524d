import { data as withHeaders, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { Trans } from "./i18n/trans";
import { LANGUAGE_NAMES, LANGUAGES, type Language } from "./i18n/i18n";
import { resolveLanguage } from "./i18n/language.server";
import { metaT } from "./i18n/meta";
import { useLanguage, useT } from "./i18n/use-t";
import { PageLanguage } from "./i18n/language-context";
import { urlWithLanguage } from "./lib/language-url";
import { env } from "./server/platform/env.server";
import { useNonce } from "./components/nonce";
import { PageAnnouncer } from "./components/page-announcer";
import appStyles from "./styles/app.css?url";
import { siteDataStatus } from "./server/platform/site-status.server";
import { browserAnalyticsSettings } from "./server/platform/analytics.server";
import { Analytics } from "./components/analytics";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStyles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = ({ matches, data }) => {
  // Without loader data (a 404 for an unknown URL) Document writes a title in the request's language.
  if (!data) return [];
  const t = metaT(matches);
  return [{ title: t("meta.homeTitle") }, { name: "description", content: t("meta.homeDescription") }];
};

function withoutTrailingSlash(address: string): string {
  let end = address.length;
  while (end > 0 && address[end - 1] === "/") end--;
  return address.slice(0, end);
}

/**
 * The page's language (docs/decisions/230): `lang` in the URL, then the cookie, then
 * Accept-Language. A `lang` in the URL is remembered in the cookie.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const language = resolveLanguage(request);
  const body = {
    status: siteDataStatus(),
    analytics: browserAnalyticsSettings(),
    lang: language.lang,
    // hreflang alternates must be absolute addresses: the configured public address, else this request's.
    origin: withoutTrailingSlash(env().PUBLIC_BASE_URL ?? new URL(request.url).origin),
  };
  return language.setCookie ? withHeaders(body, { headers: { "Set-Cookie": language.setCookie } }) : body;
}

// The site's header and footer use plain links: they lead to other parts of the site, where a
// new document is what a browser without JavaScript gets anyway, and twelve router <Link>s cost
// every page ~7 % of its server time (docs/decisions/134). Links inside a page's content stay
// <Link>s (client-side navigation).
const NAV = [
  { to: "/plans", label: "site.nav.plans" },
  { to: "/updates", label: "site.nav.updates" },
  { to: "/agents", label: "site.nav.agents" },
] as const;

const FOOTER = [
  { to: "/", label: "site.nav.home" },
  { to: "/plans", label: "site.nav.plans" },
  { to: "/agents", label: "site.nav.agents" },
  { to: "/agent-onboarding", label: "site.nav.agentOnboarding" },
  { to: "/agent-discovery", label: "site.nav.agentDiscovery" },
  { to: "/updates", label: "site.nav.updates" },
  { to: "/privacy", label: "site.nav.privacy" },
  { to: "/terms", label: "site.nav.terms" },
] as const;

function SourceBanners() {
  const data = useRouteLoaderData<typeof loader>("root");
  const t = useT();
  if (!data) return null;
  const { planData, sampleUpstream } = data.status;
  if (planData !== "sample" && planData !== "missing" && !sampleUpstream) return null;
  // Inside a landmark (axe `region`): every piece of content belongs to one.
  return (
    <aside className="notices" aria-label={t("banner.label")}>
      {planData === "sample" ? (
        <p className="banner" role="note" data-testid="sample-data-banner">
          <strong>{t("banner.sampleDataLead")}</strong> {t("banner.sampleData")}
        </p>
      ) : null}
      {planData === "missing" ? (
        <p className="banner" role="note">
          <strong>{t("banner.noPlanDataLead")}</strong> {t("banner.noPlanData")}
        </p>
      ) : null}
      {sampleUpstream ? (
        <p className="banner" role="note" data-testid="sample-upstream-banner">
          <strong>{t("banner.sampleUpstreamLead")}</strong> {t("banner.sampleUpstream")}
        </p>
      ) : null}
    </aside>
  );
}

/**
 * "Español / English": the same address (path and every query parameter) with `lang` swapped,
 * as a plain link so it works without JavaScript; the current language is marked, not linked.
 */
function LanguageSwitch({ lang }: { lang: Language }) {
  const location = useLocation();
  const t = useT();
  return (
    <nav className="language-switch" aria-label={t("site.languageNav")}>
      {LANGUAGES.map((other, index) => (
        <span key={other}>
          {index > 0 ? " / " : null}
          {other === lang ? (
            <span lang={other} aria-current="true">
              {LANGUAGE_NAMES[other]}
            </span>
          ) : (
            <a
              href={urlWithLanguage(location.pathname, location.search, other)}
              lang={other}
              hrefLang={other}
              data-testid="language-link"
            >
              {LANGUAGE_NAMES[other]}
            </a>
          )}
        </span>
      ))}
    </nav>
  );
}

/** Search engines see every page in both languages; x-default is the address without `lang`. */
function LanguageAlternates({ origin }: { origin: string }) {
  const location = useLocation();
  return (
    <>
      {LANGUAGES.map((other) => (
        <link
          key={other}
          rel="alternate"
          hrefLang={other}
          href={origin + urlWithLanguage(location.pathname, location.search, other)}
        />
      ))}
      <link
        rel="alternate"
        hrefLang="x-default"
        href={origin + urlWithLanguage(location.pathname, location.search, null)}
      />
    </>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const lang = useLanguage();
  // A plain string in context: useT() and useWords() look up the language's shared translate function.
  return (
    <PageLanguage.Provider value={lang}>
      <Document lang={lang}>{children}</Document>
    </PageLanguage.Provider>
  );
}

function Document({ lang, children }: { lang: Language; children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  const t = useT();
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {data ? null : <title>{notFound ? t("error.notFoundTitle") : t("error.title")}</title>}
        <Meta />
        {data ? <LanguageAlternates origin={data.origin} /> : null}
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          {t("site.skipLink")}
        </a>
        <header className="site-header">
          <a href="/" className="brand">
            {t("site.brand")}
          </a>
          <nav className="site-nav" aria-label={t("site.mainNav")}>
            <ul>
              {NAV.map((item) => (
                <li key={item.to}>
                  <a href={item.to}>{t(item.label)}</a>
                </li>
              ))}
            </ul>
          </nav>
          <LanguageSwitch lang={lang} />
        </header>
        <SourceBanners />
        <main id="main">
          <PageAnnouncer />
          {children}
        </main>
        <footer className="site-footer">
          <nav aria-label={t("site.footerNav")}>
            <ul>
              {FOOTER.map((item) => (
                <li key={item.to}>
                  <a href={item.to}>{t(item.label)}</a>
                </li>
              ))}
            </ul>
          </nav>
          <p>{t("site.disclaimer")}</p>
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
  const t = useT();
  if (isRouteErrorResponse(error)) {
    const notFound = error.status === 404;
    return (
      <>
        <h1>{notFound ? t("error.notFoundTitle") : t("error.statusTitle", { status: error.status })}</h1>
        <p>
          {notFound
            ? t("error.notFoundBody")
            : typeof error.data === "string" && error.data
              ? error.data
              : t("error.tryAgain")}
        </p>
        <p>
          <Trans t={t} i18nKey="error.nextSteps" components={{ home: <Link to="/" />, plans: <Link to="/plans" /> }} />
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{t("error.title")}</h1>
      <p>{t("error.couldNotShow")}</p>
      <p>
        <Link to="/">{t("error.startPage")}</Link>
      </p>
    </>
  );
}
