import { Link } from "@remix-run/react";
import { plansHref, type ShoppingState } from "../../lib/shopping-url";
import { money, peopleWords } from "./format";

export interface PlaceView {
  zip: string;
  countyName: string;
  state: string;
  otherCounties: boolean;
}

function personWords(p: ShoppingState["people"][number], i: number): string {
  const who =
    i === 0 ? "you" : p.relationship === "spouse" ? "spouse" : p.relationship === "child" ? "child" : "relative";
  const extras = [p.tobacco ? "uses tobacco" : null, p.pregnant ? "pregnant" : null].filter(Boolean).join(", ");
  return `${who} ${p.age}${extras ? ` (${extras})` : ""}`;
}

/** Whole dollars without cents ("$60,000"): the income as typed is a yearly estimate. */
function dollars(amount: number): string {
  return Number.isInteger(amount) ? `$${amount.toLocaleString("en-US")}` : money(amount);
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
  const income = Number(state.income.replace(/[\s$,]/g, ""));
  return (
    <div className="household-summary" data-testid="household-summary">
      <p>
        <strong>{peopleWords(state.people.length)}</strong> ({state.people.map(personWords).join(", ")}),{" "}
        {Number.isFinite(income) ? dollars(income) : state.income} a year, ZIP {place.zip}.
        {householdSize !== state.people.length ? ` Tax household of ${householdSize}.` : ""}{" "}
        {/* The household step links on to a new ZIP code or county too. */}
        <Link to={plansHref(state, [["step", "household"]])}>
          Change<span className="visually-hidden"> your household, income, county or ZIP code</span>
        </Link>
      </p>
    </div>
  );
}
