import { Link } from "@remix-run/react";
import { plansHref, type ShoppingState } from "../../lib/shopping-url";
import { formatWholeDollars } from "../../lib/format";
import { money, peopleWords, useWords, type Words } from "./format";

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

/**
 * Who and where the prices are for, in two lines above the list (issue 17 item 3: the list starts
 * within a screen and a half at phone width), with one link to change them: the household step
 * offers a new county or ZIP code too.
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
  return (
    <div className="household-summary" data-testid="household-summary">
      <p>
        <strong>{peopleWords(state.people.length, w)}</strong> (
        {state.people.map((p, i) => personWords(p, i, w)).join(", ")}),{" "}
        {t("householdSummary.line", {
          income: Number.isFinite(income) ? dollars(income, w) : state.income,
          zip: place.zip,
        })}
        {householdSize !== state.people.length
          ? ` ${t("householdSummary.taxHousehold", { count: householdSize })}`
          : ""}{" "}
        {/* The household step links on to a new ZIP code or county too. */}
        <Link to={plansHref(state, [["step", "household"]])}>
          {t("householdSummary.change")}
          <span className="visually-hidden"> {t("householdSummary.changeWhat")}</span>
        </Link>
      </p>
    </div>
  );
}
