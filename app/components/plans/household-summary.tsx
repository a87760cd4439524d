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
  return `${who}, ${p.age}${extras ? ` (${extras})` : ""}`;
}

/** Who and where the prices are for, with links back to change each step. */
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
    <div className="household-summary">
      <p>
        <strong>{peopleWords(state.people.length)}</strong>: {state.people.map(personWords).join("; ")}.
        {householdSize !== state.people.length ? ` Tax household of ${householdSize}.` : ""} Income{" "}
        {Number.isFinite(income) ? money(income) : state.income} a year. ZIP code {place.zip}, {place.countyName},{" "}
        {place.state}.
      </p>
      <p className="step-links">
        <Link to={plansHref(state, [["step", "household"]])}>Change household or income</Link>
        {place.otherCounties ? (
          <>
            {" · "}
            <Link to={plansHref(state, [["step", "county"]])}>Change county</Link>
          </>
        ) : null}
        {" · "}
        <Link to="/plans">Use a different ZIP code</Link>
      </p>
    </div>
  );
}
