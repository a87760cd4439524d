import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Trans } from "../i18n/trans";
import { isLanguage, tFor } from "../i18n/i18n";
import { requestLanguage } from "../i18n/language.server";
import { metaT } from "../i18n/meta";
import { useT } from "../i18n/use-t";
import { localiseFieldErrors } from "../i18n/validation";
import { ApiError, fieldsFromIssues, type ErrorFields } from "../server/platform/api.server";
import { submitWaitlist, WAITLIST_INTERESTS, WaitlistInput } from "../server/intake/write-store.server";
import { writeOutcomeUnknown } from "../server/intake/write-store-handle.server";
import intakeStyles from "../styles/intake.css?url";
import updatesWords from "virtual:english/updates";
import { addEnglish, type Catalogue } from "../i18n/i18n";

addEnglish({ updates: updatesWords } as Partial<Catalogue>);

export const links: LinksFunction = () => [{ rel: "stylesheet", href: intakeStyles }];

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches);
  return [
    { title: t("meta.pageTitle", { page: t("updates.title") }) },
    { name: "description", content: t("updates.description") },
  ];
};

/** The interests offered on this page, in the order shown (the API also accepts plain "agent"). */
const INTEREST_CHOICES: { value: (typeof WAITLIST_INTERESTS)[number]; label: string }[] = [
  { value: "consumer", label: "updates.interestConsumer" },
  { value: "agent_independent", label: "updates.interestAgentIndependent" },
  { value: "agent_agency", label: "updates.interestAgentAgency" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const requested = url.searchParams.get("interest");
  const interest = WAITLIST_INTERESTS.includes(requested as never) ? requested! : "consumer";
  return {
    joined: url.searchParams.get("joined") === "1",
    interest: requested === "agent" ? "agent_independent" : interest,
  };
}

type ActionResult = { errors: ErrorFields; values: Record<string, string>; formError?: string };

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const values = {
    email: String(form.get("email") ?? "").trim(),
    // The API takes exactly five digits (decision 380); a person's stray space is not an error.
    zip: String(form.get("zip") ?? "").trim(),
    interest: String(form.get("interest") ?? ""),
  };
  const lang = requestLanguage(request);
  const t = tFor(lang);
  const parsed = WaitlistInput.safeParse(values);
  if (!parsed.success) {
    // The schema's interest message lists API codes; the page asks in words.
    const errors = localiseFieldErrors(fieldsFromIssues(parsed.error.issues), t, {
      interest: "validation.interestChoose",
    });
    return data<ActionResult>({ errors, values }, { status: 400 });
  }
  try {
    await submitWaitlist(parsed.data, { source: "form", lang });
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 500;
    return data<ActionResult>(
      {
        errors: {},
        values,
        formError: t(writeOutcomeUnknown(error) ? "updates.saveUnconfirmed" : "updates.saveFailed"),
      },
      { status },
    );
  }
  // Post/Redirect/Get: a reload does not sign up twice.
  // A language chosen in the address stays in it (the cookie keeps it too, where cookies are on).
  const inUrl = new URL(request.url).searchParams.get("lang");
  return redirect(isLanguage(inUrl) ? `/updates?joined=1&lang=${inUrl}` : "/updates?joined=1");
}

const FIELD_ORDER = ["email", "zip", "interest"] as const;
const FIELD_LABELS: Record<string, string> = {
  email: "updates.emailLabel",
  zip: "updates.zipLabel",
  interest: "updates.interestLabel",
};

export default function Updates() {
  const { joined, interest } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useT();
  const errors = result?.errors ?? {};
  const values = result?.values ?? { email: "", zip: "", interest };
  const errorList = FIELD_ORDER.filter((name) => errors[name]);

  return (
    <>
      <h1>{t("updates.title")}</h1>
      {joined ? (
        <div className="success-panel" role="status">
          <h2>{t("updates.joinedTitle")}</h2>
          <p>{t("updates.joined")}</p>
          <p>
            <Link to="/plans">{t("updates.comparePlans")}</Link>
          </p>
        </div>
      ) : null}
      <p>{t("updates.intro")}</p>
      {result?.formError ? (
        <p className="notice bad" role="alert" tabIndex={-1} autoFocus data-error-summary>
          {result.formError}
        </p>
      ) : null}
      {errorList.length > 0 ? (
        <div
          className="error-summary"
          role="alert"
          aria-labelledby="error-summary-title"
          tabIndex={-1}
          // Focused as the page loads (no JavaScript) or is drawn: in view at any width.
          autoFocus
        >
          <h2 id="error-summary-title">{errorList.length === 1 ? t("updates.fixOne") : t("updates.fixMany")}</h2>
          <ul>
            {errorList.map((name) => (
              <li key={name}>
                <a href={`#${name === "interest" ? "interest-consumer" : name}`}>
                  {t(FIELD_LABELS[name])}: {errors[name]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form method="post" className="intake-form" noValidate>
        <div className="field">
          <label htmlFor="email">{t("updates.emailLabel")}</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={values.email}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? "email-error" : undefined}
          />
          {errors.email ? (
            <p id="email-error" className="field-error">
              {errors.email}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="zip">{t("updates.zipLabel")}</label>
          <p id="zip-hint" className="hint">
            {t("updates.zipHint")}
          </p>
          <input
            id="zip"
            name="zip"
            inputMode="numeric"
            pattern="[0-9]{5}"
            maxLength={5}
            autoComplete="postal-code"
            required
            defaultValue={values.zip}
            aria-invalid={errors.zip ? true : undefined}
            aria-describedby={errors.zip ? "zip-hint zip-error" : "zip-hint"}
          />
          {errors.zip ? (
            <p id="zip-error" className="field-error">
              {errors.zip}
            </p>
          ) : null}
        </div>
        <fieldset aria-describedby={errors.interest ? "interest-error" : undefined}>
          <legend>{t("updates.interestLegend")}</legend>
          {INTEREST_CHOICES.map((choice) => (
            <label key={choice.value} className="choice" htmlFor={`interest-${choice.value}`}>
              <input
                id={`interest-${choice.value}`}
                type="radio"
                name="interest"
                value={choice.value}
                defaultChecked={values.interest === choice.value}
              />
              <span>{t(choice.label)}</span>
            </label>
          ))}
          {errors.interest ? (
            <p id="interest-error" className="field-error">
              {errors.interest}
            </p>
          ) : null}
        </fieldset>
        <button type="submit" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? t("updates.submitting") : t("updates.submit")}
        </button>
      </Form>
      <p className="hint">
        <Trans t={t} i18nKey="updates.privacyNote" components={{ privacy: <Link to="/privacy" /> }} />
      </p>
    </>
  );
}
