import { Form, Link } from "@remix-run/react";
import type { ShoppingState } from "../../lib/shopping-url";
import { useEffect, useRef, useState } from "react";
import { MAX_PEOPLE, pregnancyAsked, pregnancyValue } from "../../lib/shopping-url";
import { StateFields } from "./state-fields";
import { useWords, type Words } from "./format";
import { pathInLanguage } from "../../lib/language-url";
import compareWords from "virtual:english/compare";
import countyWords from "virtual:english/county";
import householdFormWords from "virtual:english/householdForm";
import { addEnglish, type Catalogue } from "../../i18n/i18n";

// Its words come with the form, which loads on the household step only (decision 406); "No" of
// its yes/no questions is the comparison's word (compare.no).
addEnglish({ householdForm: householdFormWords, county: countyWords, compare: compareWords } as Partial<Catalogue>);

const FIELDS = ["income", "size", "year", "place", "form"];

function fieldLabel(key: string, { t }: Words): string {
  const person = /^age-(\d+)$/.exec(key);
  if (person) return t("householdForm.field.age", { number: Number(person[1]) + 1 });
  const rel = /^rel-(\d+)$/.exec(key);
  if (rel) return t("householdForm.field.rel", { number: Number(rel[1]) + 1 });
  return FIELDS.includes(key) ? t(`householdForm.field.${key}`) : key;
}

function fieldTarget(key: string): string {
  if (/^(age|rel)-\d+$/.test(key)) return key;
  return key === "income" || key === "size" ? key : "age-0";
}

/** With JavaScript, the pregnancy question is shown only while the typed age is one it is asked for. */
function showPregnancyFor(event: React.ChangeEvent<HTMLInputElement>, index: number) {
  const block = event.currentTarget.form?.querySelector<HTMLElement>(`#pregnancy-${index}`);
  if (!block) return;
  const asked = pregnancyAsked(event.currentTarget.value);
  block.hidden = !asked;
  const select = block.querySelector("select");
  if (!asked && select) select.value = "no";
}

/**
 * With JavaScript, "Person 3 added" said in a polite live region once the form shows the new
 * person (its age box has focus by then: autoFocus). Without JavaScript the page loads with focus
 * in the new person's age box, whose fieldset names the person.
 */
function useAddedAnnouncement(count: number, newest: number, { t }: Words): string {
  const [message, setMessage] = useState("");
  const before = useRef(count);
  useEffect(() => {
    if (count > before.current && newest >= 0) {
      setMessage(t("householdForm.added", { number: newest + 1 }));
      document.getElementById(`age-${newest}`)?.focus();
    }
    before.current = count;
  }, [count, newest, t]);
  return message;
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
  const w = useWords();
  const { t } = w;
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
  // The person "Add a person" just added: no age yet and nothing to fix (a sent form with an empty age has an error).
  const newest =
    people.length > 1 && errorKeys.length === 0 && people[people.length - 1].age === "" ? people.length - 1 : -1;
  const added = useAddedAnnouncement(people.length, newest, w);
  const describe = (id: string, hint?: string) =>
    [hint, errors[id] ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <Form method="get" action="/plans" className="step-form household-form" noValidate>
      {/* The first submit button is the one Enter presses: make it "See plans", not "Remove person". */}
      <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true">
        {t("householdForm.seePlans")}
      </button>
      <StateFields state={state} omit={["household"]} />
      {errorKeys.length > 0 ? (
        <div
          className="error-summary"
          role="alert"
          aria-labelledby="household-errors-heading"
          tabIndex={-1}
          // Focused as the page loads (no JavaScript) or is drawn: in view at any width.
          autoFocus
        >
          <h2 id="household-errors-heading">{t("householdForm.check", { count: errorKeys.length })}</h2>
          <ul>
            {errorKeys.map((key) => (
              <li key={key}>
                <a href={`#${fieldTarget(key)}`}>
                  {fieldLabel(key, w)}: {errors[key]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <fieldset>
        <legend>{t("householdForm.whoLegend")}</legend>
        <p className="hint">{t("householdForm.whoHint")}</p>
        {people.map((person, i) => (
          <fieldset className="person" id={`person-${i}`} key={i}>
            <legend>{i === 0 ? t("householdForm.personYou") : t("householdForm.person", { number: i + 1 })}</legend>
            <label htmlFor={`age-${i}`}>{t("householdForm.age")}</label>
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
              onChange={(event) => showPregnancyFor(event, i)}
              // A person just added (no age yet, nothing to fix) takes focus: issue 28 item 7.
              autoFocus={i === newest}
            />
            {errors[`age-${i}`] ? (
              <p className="error-text" id={`age-${i}-error`}>
                {errors[`age-${i}`]}
              </p>
            ) : null}
            <label htmlFor={`tobacco-${i}`}>{t("householdForm.tobacco")}</label>
            <p className="hint" id={`tobacco-${i}-hint`}>
              {t("householdForm.tobaccoHint")}
            </p>
            <select
              id={`tobacco-${i}`}
              name="tobacco"
              defaultValue={person.tobacco ? "yes" : "no"}
              aria-describedby={`tobacco-${i}-hint`}
            >
              <option value="no">{t("compare.no")}</option>
              <option value="yes">{t("householdForm.yes")}</option>
            </select>
            {pregnancyAsked(person.age) ? (
              <div className="pregnancy" id={`pregnancy-${i}`}>
                <label htmlFor={`pregnant-${i}`}>{t("householdForm.pregnant")}</label>
                <p className="hint" id={`pregnant-${i}-hint`}>
                  {t("householdForm.pregnantHint")}
                </p>
                <select
                  id={`pregnant-${i}`}
                  name="pregnant"
                  defaultValue={pregnancyValue(person)}
                  aria-describedby={`pregnant-${i}-hint`}
                >
                  <option value="no">{t("compare.no")}</option>
                  <option value="yes">{t("householdForm.pregnantOne")}</option>
                  <option value="2">{t("householdForm.pregnantTwins")}</option>
                  <option value="3">{t("householdForm.pregnantThree")}</option>
                </select>
              </div>
            ) : (
              // Not asked at this age (decision 311); the nth value still belongs to the nth person.
              <input type="hidden" name="pregnant" value="no" />
            )}
            {/* Medicare in plain words (issue 28 item 7): a question with yes and no, no double negative. */}
            <label htmlFor={`medicare-${i}`}>{t("householdForm.medicareQuestion")}</label>
            <p className="hint" id={`medicare-${i}-hint`}>
              {t("householdForm.medicareHint")}
            </p>
            <select
              id={`medicare-${i}`}
              name="no_medicare"
              defaultValue={person.noMedicare === true ? String(i) : ""}
              aria-describedby={`medicare-${i}-hint`}
            >
              <option value="">{t("householdForm.medicareYes")}</option>
              <option value={String(i)}>{t("householdForm.medicareNo")}</option>
            </select>
            {i === 0 ? (
              <input type="hidden" name="rel" value="self" />
            ) : (
              <>
                <label htmlFor={`rel-${i}`}>{t("householdForm.relLabel")}</label>
                <select
                  id={`rel-${i}`}
                  name="rel"
                  defaultValue={person.relationship}
                  aria-invalid={errors[`rel-${i}`] ? true : undefined}
                  aria-describedby={describe(`rel-${i}`)}
                >
                  <option value="">{t("householdForm.choose")}</option>
                  <option value="spouse">{t("householdForm.spouse")}</option>
                  <option value="child">{t("householdForm.child")}</option>
                  <option value="other">{t("householdForm.otherRelative")}</option>
                </select>
                {errors[`rel-${i}`] ? (
                  <p className="error-text" id={`rel-${i}-error`}>
                    {errors[`rel-${i}`]}
                  </p>
                ) : null}
                <div>
                  <button type="submit" name="remove_person" value={String(i)} className="secondary small">
                    {t("householdForm.removePerson", { number: i + 1 })}
                  </button>
                </div>
              </>
            )}
          </fieldset>
        ))}
        <div className="checkbox">
          <input
            type="checkbox"
            id="hardship-exemption"
            name="hardship_exemption"
            value="yes"
            defaultChecked={state.hardshipExemption === true}
            aria-describedby="hardship-exemption-hint"
          />
          <label htmlFor="hardship-exemption">{t("householdForm.hardshipExemption")}</label>
        </div>
        <p className="hint" id="hardship-exemption-hint">
          {t("householdForm.hardshipExemptionHint")}
        </p>
        <p className="visually-hidden" role="status" aria-live="polite" data-testid="household-announcer">
          {added}
        </p>
        {people.length < MAX_PEOPLE ? (
          <button type="submit" name="add_person" value="1" className="secondary">
            {t("householdForm.addPerson")}
          </button>
        ) : null}
      </fieldset>
      <label htmlFor="income">{t("householdForm.incomeLabel")}</label>
      <p className="hint" id="income-hint">
        {t("householdForm.incomeHint")}
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
        {t("householdForm.sizeLabel")} <span className="optional">{t("householdForm.optional")}</span>
      </label>
      <p className="hint" id="size-hint">
        {t("householdForm.sizeHint")}
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
        <button type="submit">{t("householdForm.submit")}</button>
      </div>
      <p className="step-links">
        {changeCountyHref ? (
          <>
            <Link to={changeCountyHref}>{t("householdForm.changeCounty")}</Link>
            {" · "}
          </>
        ) : null}
        <Link to={changeZipHref === "/plans" ? pathInLanguage("/plans", w.lang) : changeZipHref}>
          {t("county.otherZip")}
        </Link>
      </p>
    </Form>
  );
}
