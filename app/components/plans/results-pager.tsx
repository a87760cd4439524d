import { Link } from "@remix-run/react";
import { pagerItems, type ListPage } from "../../domain/results-pages";
import { listPageParam, plansHref, type ShoppingState } from "../../lib/shopping-url";
import { useWords } from "./format";
import pagerWords from "virtual:english/pager";
import { addEnglish, type Catalogue } from "../../i18n/i18n";

// Its words come with it: the results page loads it when it is used (decision 440).
addEnglish({ pager: pagerWords } as Partial<Catalogue>);

/**
 * The results page's link for page `page` of the list: the same search, the
 * plans ticked for comparison kept, and the list's heading as the place to
 * land (a plain link, so it works without JavaScript; docs/decisions/250).
 */
export function resultsPageHref(state: ShoppingState, page: number): string {
  // The ticks are part of the state (docs/decisions/260): every page link keeps them.
  return plansHref(state, listPageParam(page)) + "#plans-heading";
}

/** Previous / numbered / Next links under the list; nothing for a one-page list. */
export function ResultsPager({ state, listPage }: { state: ShoppingState; listPage: ListPage }) {
  const { t } = useWords();
  const { page, pageCount } = listPage;
  const items = pagerItems(page, pageCount);
  if (items.length === 0) return null;
  const href = (p: number) => resultsPageHref(state, p);
  // With JavaScript, focus moves to the list's heading, where the new page starts (navigation-focus.ts).
  const focus = { focus: ["plans-heading"] };
  return (
    <nav className="pager" aria-label={t("pager.label")} data-testid="pager">
      <ul>
        {page > 1 ? (
          <li className="pager-step">
            <Link to={href(page - 1)} rel="prev" state={focus}>
              ← {t("pager.previous")}
              <span className="visually-hidden"> {t("pager.ofPlans")}</span>
            </Link>
          </li>
        ) : null}
        {items.map((item, i) =>
          "gap" in item ? (
            <li key={`gap-${i}`} className="pager-gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item.page}>
              {item.current ? (
                <span aria-current="page" className="pager-current">
                  <span className="visually-hidden">{t("pager.page")} </span>
                  {item.page}
                </span>
              ) : (
                <Link to={href(item.page)} state={focus}>
                  <span className="visually-hidden">{t("pager.page")} </span>
                  {item.page}
                </Link>
              )}
            </li>
          ),
        )}
        {page < pageCount ? (
          <li className="pager-step">
            <Link to={href(page + 1)} rel="next" state={focus}>
              {t("pager.next")}
              <span className="visually-hidden"> {t("pager.ofPlans")}</span> →
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
