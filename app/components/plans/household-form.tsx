import { Form, Link } from "@remix-run/react";
import type { ShoppingState } from "../../lib/shopping-url";
import { MAX_PEOPLE, proposedRelationship } from "../../lib/shopping-url";
import { StateFields } from "./state-fields";

const FIELD_LABELS: Record<string, string> = {
  income: "Household income",
  size: "Tax household size",
  year: "Plan year",
  place: "Place",
  form: "Address",
};

function fieldLabel(key: string): string {
  const person = /^age-(\d+)$/.exec(key);
  if (person) return `Age of person ${Number(person[1]) + 1}`;
  const rel = /^rel-(\d+)$/.exec(key);
  if (rel) return `Relationship of person ${Number(rel[1]) + 1}`;
  return FIELD_LABELS[key] ?? key;
}

function fieldTarget(key: string): string {
  if (/^(age|rel)-\d+$/.test(key)) return key;
  return key === "income" || key === "size" ? key : "age-0";
}

/**
 * With JavaScript, a relationship is proposed from the age as it is typed, until the person picks
 * one themselves (docs/decisions/210). Without JavaScript the select stays at "Choose…".
 */
function proposeRelationship(event: React.ChangeEvent<HTMLInputElement>, index: number) {
  const select = event.currentTarget.form?.querySelector<HTMLSelectElement>(`#rel-${index}`);
  if (!select || (select.value !== "" && select.dataset.proposed !== "true")) return;
  const proposed = proposedRelationship(event.currentTarget.value);
  if (proposed === "") return;
  select.value = proposed;
  select.dataset.proposed = "true";
}

/** Step 3: who needs coverage and the household's income. A plain GET form; add/remove are submit buttons too. */
export function HouseholdForm({
  state,
  errors,
  changeZipHref,
  changeCountyHref,
}: {
  state: ShoppingState;
  errors: Record<string, string>;
  changeZipHref: string;
  changeCountyHref: string | null;
}) {
  const people =
    state.people.length > 0
      ? state.people
      : [{ age: "", tobacco: false, pregnant: false, relationship: "self" as const }];
  // The summary lists problems in the order the fields come on the page.
  const rank = (key: string) =>
    /^age-(\d+)$/.test(key)
      ? Number(key.slice(4))
      : /^rel-(\d+)$/.test(key)
        ? Number(key.slice(4)) + 0.5
        : key === "income"
          ? 100
          : key === "size"
            ? 101
            : 102;
  const errorKeys = Object.keys(errors).sort((a, b) => rank(a) - rank(b));
  const describe = (id: string, hint?: string) =>
    [hint, errors[id] ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <Form method="get" action="/plans" className="step-form household-form" noValidate>
      {/* The first submit button is the one Enter presses: make it "See plans", not "Remove person". */}
      <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true">
        See plans
      </button>
      <StateFields state={state} omit={["household"]} />
      {errorKeys.length > 0 ? (
        <div className="error-summary" role="alert" aria-labelledby="household-errors-heading">
          <h2 id="household-errors-heading">Please check {errorKeys.length === 1 ? "this answer" : "these answers"}</h2>
          <ul>
            {errorKeys.map((key) => (
              <li key={key}>
                <a href={`#${fieldTarget(key)}`}>
                  {fieldLabel(key)}: {errors[key]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <fieldset>
        <legend>Who needs coverage?</legend>
        <p className="hint">
          List everyone in your household who wants a plan. Prices depend on each person&apos;s age and tobacco use.
        </p>
        {people.map((person, i) => (
          <fieldset className="person" id={`person-${i}`} key={i}>
            <legend>{i === 0 ? "Person 1 (you)" : `Person ${i + 1}`}</legend>
            <label htmlFor={`age-${i}`}>Age</label>
            <input
              id={`age-${i}`}
              name="age"
              inputMode="numeric"
              autoComplete="off"
              maxLength={3}
              className="short"
              defaultValue={person.age}
              aria-invalid={errors[`age-${i}`] ? true : undefined}
              aria-describedby={describe(`age-${i}`)}
              onChange={i === 0 ? undefined : (event) => proposeRelationship(event, i)}
            />
            {errors[`age-${i}`] ? (
              <p className="error-text" id={`age-${i}-error`}>
                {errors[`age-${i}`]}
              </p>
            ) : null}
            <label htmlFor={`tobacco-${i}`}>Uses tobacco</label>
            <p className="hint" id={`tobacco-${i}-hint`}>
              Tobacco 4 or more times a week in the last 6 months (not counting religious or ceremonial use).
            </p>
            <select
              id={`tobacco-${i}`}
              name="tobacco"
              defaultValue={person.tobacco ? "yes" : "no"}
              aria-describedby={`tobacco-${i}-hint`}
            >
              <option value="no">No</option>
              <option value="yes">Yes</option>
            </select>
            <label htmlFor={`pregnant-${i}`}>Pregnant</label>
            <select id={`pregnant-${i}`} name="pregnant" defaultValue={person.pregnant ? "yes" : "no"}>
              <option value="no">No</option>
              <option value="yes">Yes</option>
            </select>
            <div className="checkbox">
              <input
                type="checkbox"
                id={`no-medicare-${i}`}
                name="no_medicare"
                value={String(i)}
                defaultChecked={person.noMedicare === true}
                aria-describedby={`no-medicare-${i}-hint`}
              />
              <label htmlFor={`no-medicare-${i}`}>Not eligible for premium-free Medicare Part A</label>
            </div>
            <p className="hint" id={`no-medicare-${i}-hint`}>
              Only matters at 65 or older: we assume people 65 and over can get Medicare, which rules out the tax credit
              for them.
            </p>
            {i === 0 ? (
              <input type="hidden" name="rel" value="self" />
            ) : (
              <>
                <label htmlFor={`rel-${i}`}>Relationship to you</label>
                <select
                  id={`rel-${i}`}
                  name="rel"
                  defaultValue={person.relationship}
                  aria-invalid={errors[`rel-${i}`] ? true : undefined}
                  aria-describedby={describe(`rel-${i}`)}
                  onChange={(event) => {
                    // Chosen by the person: no longer proposed from the age.
                    delete event.currentTarget.dataset.proposed;
                  }}
                >
                  <option value="">Choose…</option>
                  <option value="spouse">Spouse</option>
                  <option value="child">Child</option>
                  <option value="other">Other relative</option>
                </select>
                {errors[`rel-${i}`] ? (
                  <p className="error-text" id={`rel-${i}-error`}>
                    {errors[`rel-${i}`]}
                  </p>
                ) : null}
                <div>
                  <button type="submit" name="remove_person" value={String(i)} className="secondary small">
                    Remove person {i + 1}
                  </button>
                </div>
              </>
            )}
          </fieldset>
        ))}
        {people.length < MAX_PEOPLE ? (
          <button type="submit" name="add_person" value="1" className="secondary">
            Add a person
          </button>
        ) : null}
      </fieldset>
      <label htmlFor="income">Expected household income for the year</label>
      <p className="hint" id="income-hint">
        In dollars, before taxes: everyone in your tax household, including people who do not need coverage. For example
        36000.
      </p>
      <div className="money-input">
        <span aria-hidden="true">$</span>
        <input
          id="income"
          name="income"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={state.income}
          aria-invalid={errors.income ? true : undefined}
          aria-describedby={describe("income", "income-hint")}
        />
      </div>
      {errors.income ? (
        <p className="error-text" id="income-error">
          {errors.income}
        </p>
      ) : null}
      <label htmlFor="size">
        Tax household size <span className="optional">(optional)</span>
      </label>
      <p className="hint" id="size-hint">
        Everyone you will claim on your tax return, including people who do not need coverage. Leave blank if it is just
        the people above.
      </p>
      <input
        id="size"
        name="size"
        inputMode="numeric"
        autoComplete="off"
        maxLength={2}
        className="short"
        defaultValue={state.size}
        aria-invalid={errors.size ? true : undefined}
        aria-describedby={describe("size", "size-hint")}
      />
      {errors.size ? (
        <p className="error-text" id="size-error">
          {errors.size}
        </p>
      ) : null}
      {errors.place || errors.form || errors.year ? (
        <p className="error-text">{errors.place ?? errors.form ?? errors.year}</p>
      ) : null}
      <div>
        <button type="submit">See plans and prices</button>
      </div>
      <p className="step-links">
        {changeCountyHref ? (
          <>
            <Link to={changeCountyHref}>Change county</Link>
            {" · "}
          </>
        ) : null}
        <Link to={changeZipHref}>Use a different ZIP code</Link>
      </p>
    </Form>
  );
}
