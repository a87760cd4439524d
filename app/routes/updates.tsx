import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ApiError, fieldsFromIssues, type ErrorFields } from "../server/platform/api.server";
import { submitWaitlist, WAITLIST_INTERESTS, WaitlistInput } from "../server/intake/write-store.server";
import intakeStyles from "../styles/intake.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: intakeStyles }];

export const meta: MetaFunction = () => [
  { title: "Get updates | Health Plan Marketplace" },
  {
    name: "description",
    content: "Join the waitlist for news about Marketplace plans, prices and open enrollment where you live.",
  },
];

/** The interests offered on this page, in the order shown (the API also accepts plain "agent"). */
const INTEREST_CHOICES: { value: (typeof WAITLIST_INTERESTS)[number]; label: string }[] = [
  { value: "consumer", label: "I am shopping for health coverage for myself or my family" },
  { value: "agent_independent", label: "I am a licensed agent or broker" },
  { value: "agent_agency", label: "I run an agency or manage a team of agents" },
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
    email: String(form.get("email") ?? ""),
    zip: String(form.get("zip") ?? ""),
    interest: String(form.get("interest") ?? ""),
  };
  const parsed = WaitlistInput.safeParse(values);
  if (!parsed.success) {
    return data<ActionResult>({ errors: fieldsFromIssues(parsed.error.issues), values }, { status: 400 });
  }
  try {
    await submitWaitlist(parsed.data, { source: "form" });
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 500;
    return data<ActionResult>(
      {
        errors: {},
        values,
        formError:
          "We could not save your sign-up just now, so you are not on the list yet. Please try again in a few minutes.",
      },
      { status },
    );
  }
  // Post/Redirect/Get: a reload does not sign up twice.
  return redirect("/updates?joined=1");
}

const FIELD_ORDER = ["email", "zip", "interest"] as const;
const FIELD_LABELS: Record<string, string> = {
  email: "Email address",
  zip: "ZIP code",
  interest: "What brings you here",
};

export default function Updates() {
  const { joined, interest } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const errors = result?.errors ?? {};
  const values = result?.values ?? { email: "", zip: "", interest };
  const errorList = FIELD_ORDER.filter((name) => errors[name]);

  return (
    <>
      <h1>Get updates</h1>
      {joined ? (
        <div className="success-panel" role="status">
          <h2>You are on the list</h2>
          <p>
            Thank you. We have saved your sign-up. We will send you a confirmation email in the next few minutes (it is
            queued, not yet sent); if it has not arrived in a while, check your spam folder.
          </p>
          <p>
            <Link to="/plans">Compare plans now</Link>
          </p>
        </div>
      ) : null}
      <p>
        Leave your email address and ZIP code and we will write when there is news for your area: when open enrollment
        starts, when next year&apos;s plans and prices are published, and when new features arrive. We send a few emails
        a year, and every one has a one-click unsubscribe link.
      </p>
      {result?.formError ? (
        <p className="notice bad" role="alert">
          {result.formError}
        </p>
      ) : null}
      {errorList.length > 0 ? (
        <div className="error-summary" role="alert" aria-labelledby="error-summary-title">
          <h2 id="error-summary-title">Please fix {errorList.length === 1 ? "this" : "these"} to sign up</h2>
          <ul>
            {errorList.map((name) => (
              <li key={name}>
                <a href={`#${name === "interest" ? "interest-consumer" : name}`}>
                  {FIELD_LABELS[name]}: {errors[name]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form method="post" className="intake-form" noValidate>
        <div className="field">
          <label htmlFor="email">Email address</label>
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
          <label htmlFor="zip">ZIP code</label>
          <p id="zip-hint" className="hint">
            Five digits, so we can tell you about plans where you live.
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
          <legend>What brings you here?</legend>
          {INTEREST_CHOICES.map((choice) => (
            <label key={choice.value} className="choice" htmlFor={`interest-${choice.value}`}>
              <input
                id={`interest-${choice.value}`}
                type="radio"
                name="interest"
                value={choice.value}
                defaultChecked={values.interest === choice.value}
              />
              <span>{choice.label}</span>
            </label>
          ))}
          {errors.interest ? (
            <p id="interest-error" className="field-error">
              {errors.interest}
            </p>
          ) : null}
        </fieldset>
        <button type="submit" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Signing you up..." : "Sign me up"}
        </button>
      </Form>
      <p className="hint">
        We use your email address only to send these updates. See our <Link to="/privacy">privacy page</Link>.
      </p>
    </>
  );
}
