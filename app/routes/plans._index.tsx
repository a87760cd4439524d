import {
  data,
  redirect,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import type { ClientLoaderFunctionArgs, ShouldRevalidateFunction } from "@remix-run/react";
import { Link, useLoaderData } from "@remix-run/react";
import { lazy, Suspense, useMemo, useRef, type RefObject } from "react";
import { useCompareTicks } from "../components/plans/compare-ticks";
import { useHydrated } from "../components/plans/use-hydrated";
import { keptMarkup, useServerDrawn } from "../components/kept-markup";
import { liveOnUse } from "../components/live-on-use";
import { RESULTS_ANCHOR } from "../components/plans/results-anchor";
import { creditInPricesSentence } from "../components/plans/credit-in-prices";
import { COVERAGE_SORT } from "../domain/coverage-order";
import { KeptPlanList, preloadListCode, useKeptListPatches } from "../components/plans/kept-plan-list";
import { useFocusHeading } from "../components/plans/use-focus-heading";
import { useWords, type Words } from "../components/plans/format";
import { Trans } from "../i18n/trans";
import { metaT } from "../i18n/meta";
import { requestLanguage } from "../i18n/language.server";
import { pathInLanguage } from "../lib/language-url";
import { shoppingPage, shoppingRedirect, type ShoppingPage } from "../server/pages/shopping-page.server";
import { COMPARE_SUBMIT, plansHref, sameListExceptTicks, withoutFilters } from "../lib/shopping-url";
import plansStyles from "../styles/plans.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: plansStyles }];

/**
 * The steps before the list (ZIP, county, household, another marketplace) load their forms only
 * when shown (issue 29 item 4, decision 406): the results page's JavaScript carries none of them.
 * The server renders them whole (the document is sent once all is ready); the browser hydrates
 * them once their chunk is in, and keeps the server's markup until then.
 */
const ZipForm = lazy(() => import("../components/zip-form").then((m) => ({ default: m.ZipForm })));
const CountyChoice = lazy(() => import("../components/plans/county-choice").then((m) => ({ default: m.CountyChoice })));
const HouseholdForm = lazy(() =>
  import("../components/plans/household-form").then((m) => ({ default: m.HouseholdForm })),
);
/**
 * The savings estimate (with the what-if chart) and the yearly-cost method only show the server's
 * figures: kept as drawn (decisions 406, 407).
 */
const ResultsEligibility = keptMarkup(
  () => import("../components/plans/results-eligibility").then((m) => m.ResultsEligibility),
  "eligibility-part",
);
const YearlyCostMethod = keptMarkup(
  () => import("../components/plans/yearly-cost-method").then((m) => m.YearlyCostMethod),
  "method-part",
);
/**
 * The compare tray (decision 406): without JavaScript it is the compare form at the list's end,
 * kept as the server drew it while the page hydrates; with JavaScript it comes with the first
 * tick, and its code with it.
 */
const loadCompareTray = () => import("../components/plans/compare-tray").then((m) => m.CompareTray);
const ServerTray = keptMarkup(loadCompareTray, "compare-tray-part");
const CompareTray = lazy(() => loadCompareTray().then((component) => ({ default: component })));
/**
 * The parts that work as plain HTML forms and links without JavaScript (the household line, the
 * repayment-risk form, the drug and doctor pickers, the filters, the pager) stay as the server drew
 * them until first used; their code loads then (decision 440).
 */
const HouseholdSummary = liveOnUse(
  () => import("../components/plans/household-summary").then((m) => m.HouseholdSummary),
  "household-part",
);
const RepaymentRisk = liveOnUse(
  () => import("../components/plans/repayment-risk").then((m) => m.RepaymentRisk),
  "repayment-part",
);
const ResultsPickers = liveOnUse(
  () => import("../components/plans/results-pickers").then((m) => m.ResultsPickers),
  "pickers-part",
);
const FiltersForm = liveOnUse(
  () => import("../components/plans/filters-form").then((m) => m.FiltersForm),
  "filters-part",
);
const ResultsPager = liveOnUse(
  () => import("../components/plans/results-pager").then((m) => m.ResultsPager),
  "pager-part",
);
const LIVE_PARTS = [HouseholdSummary, RepaymentRisk, ResultsPickers, FiltersForm, ResultsPager];
const SbeHandoff = lazy(() => import("../components/plans/sbe-handoff").then((m) => ({ default: m.SbeHandoff })));

export const meta: MetaFunction<typeof loader> = ({ data: page, matches }) => {
  const t = metaT(matches);
  return [
    { title: t("meta.pageTitle", { page: t(`results.title.${page ? page.step : "zip"}`) }) },
    { name: "description", content: t("results.description") },
  ];
};

function statusOf(page: ShoppingPage): number {
  if (page.step === "unavailable") return 503;
  if (page.step === "results") return page.compareError ? 400 : 200;
  if (page.step === "zip" || page.step === "county") return page.error ? 400 : 200;
  if (page.step === "household") return Object.keys(page.errors).length ? 400 : 200;
  return 200;
}

/**
 * /plans: every step of shopping from one GET route, chosen by what the URL
 * holds (docs/decisions/080-shopping-state-in-the-url.md). Edits that a GET
 * form asks for (add/remove a person, remove a chip) redirect to the
 * canonical URL.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const to = shoppingRedirect(url);
  if (to) throw redirect(to);
  const page = await shoppingPage(url, requestLanguage(request));
  return data(page, {
    status: statusOf(page),
    headers: { "cache-control": "no-store", "set-cookie": pageMadeCookie(request) },
  });
}

/**
 * Issue 17 item 2 without JavaScript (decision 261): the page is sent `no-store` (its data is, and
 * it holds the household's income), and every /plans page renews an HttpOnly cookie that holds only
 * the time it was made. Chrome keeps no-store pages in its back/forward cache but drops them when
 * an HttpOnly cookie has changed since: so Back shows the page made again from its URL (the form
 * as the list was made), not the copy with the controls as the shopper left them.
 */
const PAGE_MADE_COOKIE = "plans_page_made";

function pageMadeCookie(request: Request): string {
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("X-Forwarded-Proto") === "https";
  return `${PAGE_MADE_COOKIE}=${Date.now()}; Path=/plans; Max-Age=600; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
}

// The loader's Set-Cookie reaches the page by itself (Remix merges every loader's cookies).
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const cacheControl = loaderHeaders.get("cache-control");
  return cacheControl ? { "cache-control": cacheControl } : new Headers();
};

/**
 * In the browser (not while hydrating: the server's data and markup are used then), the list's
 * code loads with the list's data: the list is drawn at once in place of the old (decision 407).
 */
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  try {
    const [page] = await Promise.all([
      serverLoader<typeof loader>(),
      preloadListCode(new URL(request.url)),
      // The page's parts are drawn anew with the new list.
      ...LIVE_PARTS.map((part) => part.preload().catch(() => {})),
    ]);
    return page;
  } catch (error) {
    // A newer navigation (Back again, a filter changed again) aborted this one: the router has
    // already moved on and reads nothing from here, but a rejection left here would reach the page
    // as an unhandled one ("signal is aborted without reason").
    if (request.signal.aborted) return null;
    throw error;
  }
}

/**
 * A tick for comparison changes only the URL's `compare` (issue 17 item 4): the list is the same,
 * so it is not priced again; the page reads the ticks from the address.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) => {
  if (
    currentUrl.pathname === nextUrl.pathname &&
    !nextUrl.searchParams.has(COMPARE_SUBMIT) &&
    sameListExceptTicks(currentUrl.searchParams, nextUrl.searchParams)
  ) {
    return false;
  }
  return defaultShouldRevalidate;
};

export default function PlansPage() {
  const page = useLoaderData<typeof loader>();
  const heading = useFocusHeading<HTMLHeadingElement>(page.step);
  const w = useWords();
  const { t } = w;

  if (page.step === "zip") {
    return (
      <>
        <h1 ref={heading} tabIndex={-1}>
          {t("results.title.zip")}
        </h1>
        <p>{t("results.zipIntro")}</p>
        <Suspense fallback={null}>
          <ZipForm defaultZip={page.zip} error={page.error ?? undefined} />
        </Suspense>
      </>
    );
  }
  if (page.step === "county") {
    return (
      <>
        <h1 ref={heading} tabIndex={-1}>
          {t("results.title.county")}
        </h1>
        <Suspense fallback={null}>
          <CountyChoice
            state={page.state}
            zip={page.zip}
            counties={page.counties}
            error={page.error}
            zipPrefixState={page.zipPrefixState}
          />
        </Suspense>
      </>
    );
  }
  if (page.step === "sbe") {
    return (
      <>
        <h1 ref={heading} tabIndex={-1}>
          {t("results.sbeHeading", { marketplace: page.redirect.marketplace_name })}
        </h1>
        <Suspense fallback={null}>
          <SbeHandoff
            zip={page.zip}
            countyName={page.countyName}
            redirect={page.redirect}
            chooseCountyHref={
              page.otherCounties ? plansHref({ ...page.state, county: "" }, [["step", "county"]]) : null
            }
          />
        </Suspense>
      </>
    );
  }
  if (page.step === "unavailable") {
    return (
      <>
        <h1 ref={heading} tabIndex={-1}>
          {t("results.title.unavailable")}
        </h1>
        <p className="notice warn">{page.message}</p>
        <p>
          <Trans
            t={t}
            i18nKey="results.tryAgainOrStart"
            components={{
              again: <Link to={plansHref(page.state)} />,
              start: <Link to={pathInLanguage("/plans", w.lang)} />,
            }}
          />
        </p>
      </>
    );
  }
  if (page.step === "household") {
    return (
      <>
        <h1 ref={heading} tabIndex={-1}>
          {t("results.title.household")}
        </h1>
        <p>
          {t("results.householdIntro", {
            zip: page.place.zip,
            county: page.place.countyName,
            state: page.place.state,
          })}
        </p>
        <Suspense fallback={null}>
          <HouseholdForm
            state={page.state}
            errors={page.errors}
            changeZipHref="/plans"
            changeCountyHref={page.place.otherCounties ? plansHref(page.state, [["step", "county"]]) : null}
          />
        </Suspense>
      </>
    );
  }
  return <Results page={page} headingRef={heading} />;
}

/** "Plans 11–20 of 32 sold in Dallas County." (or "of 12 that match your filters"); the whole list when it is one page. */
function countWords(
  matching: number,
  total: number,
  list: { first: number; last: number; pageCount: number },
  county: string,
  { t }: Words,
) {
  const filtered = matching !== total;
  if (list.pageCount === 1)
    return filtered
      ? t("results.showingFiltered", { count: matching, total })
      : t("results.showingAll", { total, county });
  return filtered
    ? t("results.rangeFiltered", { first: list.first, last: list.last, matching, total })
    : t("results.range", { first: list.first, last: list.last, total });
}

type ResultsPage = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { step: "results" }>;

function Results({ page, headingRef }: { page: ResultsPage; headingRef: RefObject<HTMLHeadingElement> }) {
  const { place, results, listPage } = page;
  const hydrated = useHydrated();
  const serverDrawn = useServerDrawn();
  // The names the tray shows: the ticked plans the loader found (also those a filter hides) and this list's.
  const names = useMemo(
    () =>
      new Map([
        ...page.compareChoices.map((c) => [c.id, c.name] as const),
        ...results.plans.map((p) => [p.id, p.name] as const),
      ]),
    [page.compareChoices, results.plans],
  );
  const ticks = useCompareTicks(page.compareError, names);
  // Every link and form of the page carries the ticks as they are now (they change without a new loader run).
  const tickKey = ticks.ids.join(",");
  const state = useMemo(() => ({ ...page.state, compare: tickKey ? tickKey.split(",") : [] }), [page.state, tickKey]);
  const filtered = results.plan_count !== results.total_plan_count;
  const clearFilters = plansHref(withoutFilters(state));
  const w = useWords();
  const { t } = w;
  // The list is kept as the server drew it until it changes; the page patches in the ticks (decision 407).
  const listRef = useRef<HTMLDivElement>(null);
  useKeptListPatches(listRef, { state, listPage: listPage.page, ticks });
  const stateWithoutTicks = useMemo(() => ({ ...page.state, compare: [] }), [page.state]);
  return (
    <>
      <h1 ref={headingRef} tabIndex={-1}>
        {t("results.heading", { county: place.countyName, state: place.state })}
      </h1>
      <HouseholdSummary state={state} place={place} householdSize={results.household_size} />
      {page.ignored.length > 0 ? (
        <p className="notice warn">{t("results.ignored", { list: page.ignored.join(", ") })}</p>
      ) : null}
      <ResultsEligibility
        eligibility={results.eligibility}
        unavailable={results.eligibility_unavailable}
        state={place.state}
        ages={state.people.map((p) => p.age)}
        household={{ income: page.income, fplPercent: results.fpl_percent, lines: results.income_lines }}
        whatIf={page.whatIf}
      />
      {results.eligibility && results.eligibility.aptc > 0 && results.eligibility.repayment_risk.length > 0 ? (
        // One line until opened (issue 28 item 1: the first plan within the first screen); open once a part of the credit is chosen.
        <details
          className="repayment-details"
          data-testid="repayment-details"
          open={results.eligibility.aptc_applied < results.eligibility.aptc}
        >
          <summary>{t("repaymentRisk.heading")}</summary>
          <RepaymentRisk eligibility={results.eligibility} state={state} />
        </details>
      ) : null}
      <ResultsPickers
        state={state}
        drugSearch={page.drugSearch}
        doctorSearch={page.doctorSearch}
        year={results.year}
        drugUpstream={page.drugCoverage?.upstream}
        doctorUpstream={page.doctorCoverage?.upstream}
      />
      <section aria-labelledby="plans-heading" className="plans-section">
        <h2 id="plans-heading" tabIndex={-1}>
          {t("results.plansHeading", { count: results.plan_count, year: results.year })}
        </h2>
        {/* Issue 28 item 3: on a phone the filters are one sticky line above the list; from 1024 px a column beside it. */}
        <div className="results-layout">
          <FiltersForm
            state={state}
            options={page.filterOptions}
            sort={state.sort === COVERAGE_SORT ? COVERAGE_SORT : results.sort}
            planCount={results.plan_count}
          />
          <div className="results-list" id={RESULTS_ANCHOR} tabIndex={-1} ref={listRef}>
            {/* A polite live region: with JavaScript a filter applies in place and this sentence says the new count. */}
            <p className="plan-count" role="status" data-testid="plan-count">
              {countWords(results.plan_count, results.total_plan_count, listPage, place.countyName, w)}{" "}
              {results.eligibility && results.eligibility.aptc > 0
                ? creditInPricesSentence(results.eligibility, w)
                : t("results.fullPrices")}
              {filtered ? (
                <>
                  {" "}
                  <Link to={clearFilters} preventScrollReset>
                    {t("results.clearFilters")}
                  </Link>
                </>
              ) : null}
            </p>
            {results.plans.length > 0 ? (
              <>
                <KeptPlanList
                  plans={results.plans}
                  state={stateWithoutTicks}
                  page={listPage.page}
                  first={listPage.first}
                  usage={results.usage}
                  householdSize={results.household_size}
                  drugCoverage={page.drugCoverage}
                  doctorCoverage={page.doctorCoverage}
                  extras={page.extras}
                  compareIds={ticks.ids}
                  compareInvalid={ticks.error !== null}
                  onCompareTick={hydrated ? ticks.tick : undefined}
                />
                <ResultsPager state={state} listPage={listPage} />
              </>
            ) : results.total_plan_count === 0 ? (
              // Issue 28 item 6: no plans for this place in our data is not "no match for your filters".
              <div className="notice warn" data-testid="no-plans-here">
                <p>{t("results.noPlansHere", { county: place.countyName, state: place.state, year: results.year })}</p>
                <p>
                  <Trans
                    t={t}
                    i18nKey="results.noPlansWhatToDo"
                    components={{
                      market: <a href="https://www.healthcare.gov/see-plans/" rel="noopener noreferrer" />,
                    }}
                  />
                </p>
              </div>
            ) : (
              <p className="notice">
                <Trans t={t} i18nKey="results.noMatch" components={{ all: <Link to={clearFilters} /> }} />
              </p>
            )}
          </div>
        </div>
        {/* Issue 28 item 2: with JavaScript the tray comes with the first tick; without, it is the form at the list's end. */}
        {serverDrawn ? (
          results.plans.length > 0 || ticks.ids.length > 0 || ticks.error ? (
            <ServerTray state={state} ticks={ticks} names={names} listPage={listPage.page} />
          ) : null
        ) : ticks.ids.length > 0 || ticks.error ? (
          <Suspense fallback={null}>
            <CompareTray state={state} ticks={ticks} names={names} listPage={listPage.page} />
          </Suspense>
        ) : null}
      </section>
      <YearlyCostMethod rows={page.yearlyCostMethod} />
    </>
  );
}
