import { Link } from "@remix-run/react";
import { planHref, type ShoppingState } from "../../lib/shopping-url";
import enrollWords from "virtual:english/enroll";
import { addEnglish, type Catalogue } from "../../i18n/i18n";
import { money, useWords } from "./format";

// Its words come with it (the plan page, the comparison; decision 407).
addEnglish({ enroll: enrollWords } as Partial<Catalogue>);

/** The plan's take-away summary for the household: /plans/<id>/summary?… (issue 28 item 5). */
export function summaryHref(planId: string, state: ShoppingState): string {
  const href = planHref(planId, state);
  const query = href.indexOf("?");
  return query < 0 ? `${href}/summary` : `${href.slice(0, query)}/summary${href.slice(query)}`;
}

/** One outbound next step, as the components show it (app/domain/marketplaces' EnrollLink). */
export interface EnrollLinkView {
  kind: "marketplace" | "insurer";
  href: string;
  host: string;
  name: string;
  planId: string;
  planName: string;
  year: number;
}

/**
 * The "Take this plan to …" next step of a plan (issue 28 item 5): the marketplace link with the
 * plan ID to look for, the one-page summary to print or save (and email) when there is one, and
 * the insurer's own site with the credit warning always beside it: enrolling there forfeits the
 * advance credit. Each link says where it leads (site name and host) and opens in the same tab,
 * so Back returns to the plan.
 */
export function EnrollLinks({
  links,
  planName,
  credit = 0,
  summaryHref,
}: {
  links: EnrollLinkView[];
  planName: string;
  /** The monthly credit the household would lose by enrolling with the insurer (0: none known). */
  credit?: number;
  /** The plan's take-away summary (/plans/<id>/summary with the household), when priced for one. */
  summaryHref?: string;
}) {
  const { t, lang } = useWords();
  if (links.length === 0) return null;
  return (
    <ul className="enroll-links" data-testid="enroll-links">
      {links.map((link) => (
        <li key={link.kind} data-enroll={link.kind}>
          <a
            href={link.href}
            className={link.kind === "marketplace" ? "enroll-link primary" : "enroll-link"}
            rel="noopener"
          >
            {link.kind === "marketplace"
              ? t("enroll.marketplace", { name: link.name })
              : t("enroll.insurer", { name: link.name })}
            <span className="visually-hidden"> {t("enroll.forPlan", { plan: planName })}</span>{" "}
            <span className="link-host">{`(${link.host})`}</span>
          </a>
          {link.kind === "marketplace" ? (
            <span className="hint enroll-note">
              {t("enroll.marketplaceNote", { planId: link.planId, plan: link.planName, year: link.year })}
            </span>
          ) : (
            <span className="enroll-warning" data-testid="credit-warning">
              {credit > 0
                ? t("enroll.insurerWarningAmount", { credit: money(credit, lang), marketplace: links[0].name })
                : t("enroll.insurerWarning", { marketplace: links[0].name })}
            </span>
          )}
          {link.kind === "marketplace" && summaryHref ? (
            <span className="enroll-summary">
              <Link to={summaryHref} data-testid="summary-link">
                {t("enroll.summaryLink")}
                <span className="visually-hidden"> {t("enroll.forPlan", { plan: planName })}</span>
              </Link>
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
