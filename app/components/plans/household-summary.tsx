import { Link } from "@remix-run/react";
import { plansHref, type ShoppingState } from "../../lib/shopping-url";
import { formatWholeDollars } from "../../lib/format";
import { money, useWords, type Words } from "./format";
import { peopleWords } from "./plan-words";
import householdSummaryWords from "virtual:english/householdSummary";
import { addEnglish, type Catalogue } from "../../i18n/i18n";

// Its words come with it: the results page loads it when it is used (decision 440).
addEnglish({ householdSummary: householdSummaryWords } as Partial<Catalogue>);

export interface PlaceView {
  zip: string;
  countyName: string;
  state: string;
  otherCounties: boolean;
}

function personWords(p: ShoppingState["people"][number], i: number, { t }: Words): string {
  const who = t(
    i === 0
      ? "householdSummary.you"
      : p.relationship === "spouse"
        ? "householdSummary.spouse"
        : p.relationship === "child"
          ? "householdSummary.child"
          : "householdSummary.relative",
  );
  const extras = [
    p.tobacco ? t("householdSummary.usesTobacco") : null,
    p.pregnant ? t("householdSummary.pregnant") : null,
  ]
    .filter(Boolean)
    .join(", ");
  return `${who} ${p.age}${extras ? ` (${extras})` : ""}`;
}

/** Whole dollars without cents ("$60,000"): the income as typed is a yearly estimate. */
function dollars(amount: number, w: Words): string {
  return Number.isInteger(amount) ? formatWholeDollars(amount, w.lang) : money(amount, w.lang);
}

/** Who is covered, in words: "you 40, spouse 38, child 10". */
export function peopleList(people: ShoppingState["people"], w: Words): string {
  return people.map((p, i) => personWords(p, i, w)).join(", ");
}

/**
 * Who and where the prices are for, in one line above the list that opens on who is covered
 * (issue 28 item 1: the first plan within the first screen at phone width), with one link to
 * change them: the household step offers a new county or ZIP code too.
 */
export function HouseholdSummary({
  state,
  place,
  householdSize,
}: {
  state: ShoppingState;
  place: PlaceView;
  householdSize: number;
}) {
  const w = useWords();
  const { t } = w;
  const income = Number(state.income.replace(/[\s$,]/g, ""));
  const who = peopleList(state.people, w);
  const incomeWords = Number.isFinite(income) ? dollars(income, w) : state.income;
  return (
    <div className="household-summary" data-testid="household-summary">
      {/* One line once set (issue 28 item 1): who, income and ZIP; the people in the disclosure. */}
      <details>
        <summary>
          <strong>{peopleWords(state.people.length, w)}</strong>
          {" · "}
          {t("householdSummary.short", { income: incomeWords, zip: place.zip })}
        </summary>
        <p>
          {who}.{" "}
          {householdSize !== state.people.length ? t("householdSummary.taxHousehold", { count: householdSize }) : ""}
        </p>
      </details>
      {/* The household step links on to a new ZIP code or county too. */}
      <Link to={plansHref(state, [["step", "household"]])} className="household-change">
        {t("householdSummary.change")}
        <span className="visually-hidden"> {t("householdSummary.changeWhat")}</span>
      </Link>
    </div>
  );
}
