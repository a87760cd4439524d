import { requestLanguage } from "../i18n/language.server";
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
import { acceptAgentUpload, UPLOAD_DOC_TYPE_LABELS, UPLOAD_DOC_TYPES } from "../server/intake/storage.server";

import {
  AGENT_DISCOVERY_CONSENT,
  AgentDiscoveryInput,
  clientIp,
  COMMON_AGENT_TOOLS,
  submitAgentDiscovery,
} from "../server/intake/write-store.server";
import { writeOutcomeUnknown } from "../server/intake/write-store-handle.server";
import { formIdempotencyKey, newFormIdempotencyKey } from "../server/intake/idempotency.server";
import intakeStyles from "../styles/intake.css?url";
import { EnglishOnly } from "../components/english-only";
import { UploadForm } from "../components/intake/upload-form";
import { UPLOAD_WORDS, uploadRefusalWords } from "../lib/upload-rules";
import { FieldError as ErrorText } from "../components/field-error";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: intakeStyles }];

export const meta: MetaFunction = () => [
  { title: "Agent discovery form | Health Plan Marketplace" },
  {
    name: "description",
    content: "Tell us how you help clients enroll in Marketplace plans today, and what would make it easier.",
  },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return {
    // This form's idempotency key (decision 495): sent again after "could not confirm", or twice by
    // a double tap, the answers are saved once.
    submissionKey: newFormIdempotencyKey(),
    // The upload form's own key (decision 503), in its action's query string so that the action can
    // read it before the file: a page drawn again after an error keeps it, a new page load gets a
    // new one.
    uploadKey: formIdempotencyKey(url.searchParams.get("upload_key")) ?? newFormIdempotencyKey(),
    submitted: url.searchParams.get("submitted") === "1",
    uploaded: url.searchParams.get("uploaded") === "1",
    consent: AGENT_DISCOVERY_CONSENT,
    tools: COMMON_AGENT_TOOLS,
    docTypes: UPLOAD_DOC_TYPES.map((value) => ({ value, label: UPLOAD_DOC_TYPE_LABELS[value] })),
  };
}

type DiscoveryResult = {
  form: "discovery";
  errors: ErrorFields;
  values: Record<string, string | string[]>;
  formError?: string;
};
/** The page's words for an upload whose key already stored another file (decision 503). */
const UPLOAD_KEY_USED =
  "This page already stored a different file, so this one was not sent. To send it too, choose it again and press Upload.";

type UploadResult = { form: "upload"; errors: ErrorFields; formError?: string; uploadKey?: string };

function splitList(value: string): string[] {
  return value
    .split(/[,;\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The firewall's note of a body over its limit, never read (server.ts puts it in the context). */
function refusedBody(context: unknown): { status: number; multipart: boolean } | undefined {
  const refused = (context as { refusedBody?: { status?: unknown; multipart?: unknown } } | null)?.refusedBody;
  return refused && typeof refused.status === "number"
    ? { status: refused.status, multipart: refused.multipart === true }
    : undefined;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const refused = refusedBody(context);
  const uploadKey = formIdempotencyKey(new URL(request.url).searchParams.get("upload_key"));
  if (refused?.multipart) {
    // An upload over 10 MB, or one that came while the server held as many uploads as it may
    // (503, decision 518): answered here, beside the upload form, not by a bare error page.
    return data<UploadResult>(
      {
        form: "upload",
        uploadKey,
        ...uploadRefusalWords(
          refused.status === 503
            ? { status: 503, code: "uploads_busy", message: UPLOAD_WORDS.busy }
            : { status: 413, code: "", message: "" },
        ),
      },
      { status: refused.status, headers: refused.status === 503 ? { "retry-after": "5" } : undefined },
    );
  }
  if (refused) {
    return data<DiscoveryResult>(
      {
        form: "discovery",
        errors: {},
        values: {},
        formError: "Your answers are too long to send (over 100 KB). Shorten the longest answer and send again.",
      },
      { status: 413 },
    );
  }
  const type = request.headers.get("content-type") ?? "";
  if (type.toLowerCase().startsWith("multipart/form-data")) {
    try {
      await acceptAgentUpload(request, { ip: clientIp(context), idempotencyKey: uploadKey });
    } catch (error) {
      if (error instanceof ApiError && error.code === "idempotency_key_reused") {
        // This page's key already stored another file (its answer was lost, or a link carried the
        // key): nothing was stored now. A new key lets the visitor send this file on purpose.
        return data<UploadResult>(
          {
            form: "upload",
            uploadKey: newFormIdempotencyKey(),
            errors: {},
            formError: UPLOAD_KEY_USED,
          },
          { status: 422 },
        );
      }
      if (error instanceof ApiError) {
        // Field messages name document types by their API codes; the page says them in words.
        return data<UploadResult>(
          {
            form: "upload",
            uploadKey,
            ...uploadRefusalWords({
              status: error.status,
              code: error.code,
              message: error.message,
              fields: error.fields ?? undefined,
            }),
          },
          { status: error.status },
        );
      }
      return data<UploadResult>(
        { form: "upload", uploadKey, errors: {}, formError: "We could not store your file. Please try again." },
        { status: 500 },
      );
    }
    return redirect("/agent-discovery?uploaded=1#upload");
  }

  const form = await request.formData();
  const text = (name: string) => String(form.get(name) ?? "");
  const tools = [...form.getAll("tools").map(String), ...splitList(text("tools_other"))];
  const values = {
    name: text("name"),
    email: text("email"),
    phone: text("phone"),
    npn: text("npn"),
    licensed_states: text("licensed_states"),
    agency: text("agency"),
    tools: form.getAll("tools").map(String),
    tools_other: text("tools_other"),
    needs: text("needs"),
    consent: text("consent"),
    submission_key: text("submission_key"),
  };
  const parsed = AgentDiscoveryInput.safeParse({
    name: values.name,
    email: values.email,
    phone: values.phone,
    npn: values.npn,
    licensed_states: splitList(values.licensed_states),
    agency: values.agency,
    current_tools: tools,
    needs: values.needs,
    consent: values.consent === "yes",
    consent_version: text("consent_version"),
  });
  if (!parsed.success) {
    const errors = fieldsFromIssues(parsed.error.issues);
    // Array item errors ("licensed_states.2") are shown on the field itself.
    for (const key of Object.keys(errors)) {
      const base = key.split(".")[0]!;
      if (base !== key && !errors[base]) errors[base] = errors[key]!;
    }
    return data<DiscoveryResult>({ form: "discovery", errors, values }, { status: 400 });
  }
  try {
    await submitAgentDiscovery(parsed.data, {
      source: "form",
      ip: clientIp(context),
      lang: requestLanguage(request),
      idempotencyKey: formIdempotencyKey(form.get("submission_key")),
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === "idempotency_key_reused") {
      // This page's key already saved other answers (the answer to that was lost, and these were
      // changed since): nothing was saved now. A new key lets the visitor save these on purpose.
      return data<DiscoveryResult>(
        {
          form: "discovery",
          errors: {},
          values: { ...values, submission_key: newFormIdempotencyKey() },
          formError:
            "This page already saved a different set of answers, so these were not saved. To save these too, send them again.",
        },
        { status: 422 },
      );
    }
    const status = error instanceof ApiError ? error.status : 500;
    return data<DiscoveryResult>(
      {
        form: "discovery",
        errors: {},
        values,
        formError: writeOutcomeUnknown(error)
          ? "We could not confirm that your answers were saved: our database did not answer in time. Please send them again in a few minutes."
          : "We could not save your answers just now. Nothing was sent; please try again in a few minutes.",
      },
      { status },
    );
  }
  return redirect("/agent-discovery?submitted=1");
}

const DISCOVERY_FIELDS: [string, string][] = [
  ["name", "Your name"],
  ["email", "Email address"],
  ["phone", "Phone number"],
  ["npn", "National Producer Number"],
  ["licensed_states", "States where you are licensed"],
  ["agency", "Agency"],
  ["current_tools", "Tools you use"],
  ["needs", "What would help"],
  ["consent", "Consent"],
  ["consent_version", "Consent"],
];

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const list = ids.filter(Boolean).join(" ");
  return list || undefined;
}

export default function AgentDiscovery() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const discovery = result?.form === "discovery" ? (result as DiscoveryResult) : undefined;
  const upload = result?.form === "upload" ? (result as UploadResult) : undefined;
  const errors = discovery?.errors ?? {};
  const values = (discovery?.values ?? {}) as Record<string, string | string[] | undefined>;
  const value = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : "");
  const chosenTools = Array.isArray(values.tools) ? values.tools : [];
  const summary = DISCOVERY_FIELDS.filter(([name]) => errors[name]);
  const busy = navigation.state === "submitting";

  return (
    <EnglishOnly>
      <h1>Agent discovery form</h1>
      <p>
        We are deciding what to build for licensed agents and brokers who help people enroll in Marketplace plans. No
        agent features exist yet: before we build any, we want to hear how you work today and what slows you down. The
        form takes about ten minutes. See <Link to="/agents">what we are exploring</Link>.
      </p>

      {loaded.submitted ? (
        <div className="success-panel" role="status">
          <h2>Thank you: we have your answers</h2>
          <p>
            We saved your form. We will send a confirmation to your email address in the next few minutes. Someone from
            the team may contact you with a follow-up question. You can also{" "}
            <a href="#upload">share a blank copy of a form you use</a>.
          </p>
        </div>
      ) : null}

      {discovery?.formError ? (
        <p className="notice bad" role="alert" tabIndex={-1} autoFocus data-error-summary>
          {discovery.formError}
        </p>
      ) : null}
      {summary.length > 0 ? (
        <div
          className="error-summary"
          role="alert"
          aria-labelledby="discovery-errors-title"
          tabIndex={-1}
          // Without JavaScript the page loads with the summary focused (in view); with it, root focuses it.
          autoFocus
          data-testid="discovery-error-summary"
        >
          <h2 id="discovery-errors-title">Please fix {summary.length === 1 ? "this" : "these"} before sending</h2>
          <ul>
            {summary.map(([name, label]) => (
              <li key={name}>
                <a
                  href={`#${name === "consent_version" ? "consent" : name === "current_tools" ? "tools_other" : name}`}
                >
                  {label}: {errors[name]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <Form method="post" className="intake-form" noValidate aria-labelledby="discovery-title">
        <h2 id="discovery-title">About you</h2>
        <div className="field">
          <label htmlFor="name">Your name</label>
          <input
            id="name"
            name="name"
            autoComplete="name"
            required
            defaultValue={value("name")}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy(errors.name && "name-error")}
          />
          <ErrorText id="name-error" message={errors.name} />
        </div>
        <div className="field">
          <label htmlFor="email">Email address</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={value("email")}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={describedBy(errors.email && "email-error")}
          />
          <ErrorText id="email-error" message={errors.email} />
        </div>
        <div className="field">
          <label htmlFor="phone">Phone number</label>
          <input
            id="phone"
            name="phone"
            type="tel"
            autoComplete="tel-national"
            required
            defaultValue={value("phone")}
            aria-invalid={errors.phone ? true : undefined}
            aria-describedby={describedBy(errors.phone && "phone-error")}
          />
          <ErrorText id="phone-error" message={errors.phone} />
        </div>
        <div className="field">
          <label htmlFor="npn">National Producer Number (NPN)</label>
          <p id="npn-hint" className="hint">
            Up to 10 digits. You can look it up on the NIPR website.
          </p>
          <input
            id="npn"
            name="npn"
            inputMode="numeric"
            required
            defaultValue={value("npn")}
            aria-invalid={errors.npn ? true : undefined}
            aria-describedby={describedBy("npn-hint", errors.npn && "npn-error")}
          />
          <ErrorText id="npn-error" message={errors.npn} />
        </div>
        <div className="field">
          <label htmlFor="licensed_states">States where you hold a health insurance licence</label>
          <p id="licensed_states-hint" className="hint">
            Two-letter codes separated by commas, for example: NY, NJ, CT
          </p>
          <input
            id="licensed_states"
            name="licensed_states"
            required
            defaultValue={value("licensed_states")}
            aria-invalid={errors.licensed_states ? true : undefined}
            aria-describedby={describedBy("licensed_states-hint", errors.licensed_states && "licensed_states-error")}
          />
          <ErrorText id="licensed_states-error" message={errors.licensed_states} />
        </div>
        <div className="field">
          <label htmlFor="agency">
            Agency name <span className="optional">(optional)</span>
          </label>
          <input
            id="agency"
            name="agency"
            autoComplete="organization"
            defaultValue={value("agency")}
            aria-invalid={errors.agency ? true : undefined}
            aria-describedby={describedBy(errors.agency && "agency-error")}
          />
          <ErrorText id="agency-error" message={errors.agency} />
        </div>

        <fieldset aria-describedby={describedBy(errors.current_tools && "tools-error")}>
          <legend>Which tools do you use to quote and enroll clients today?</legend>
          {loaded.tools.map((tool, index) => (
            <label key={tool} className="choice" htmlFor={`tool-${index}`}>
              <input
                id={`tool-${index}`}
                type="checkbox"
                name="tools"
                value={tool}
                defaultChecked={chosenTools.includes(tool)}
              />
              <span>{tool}</span>
            </label>
          ))}
          <label htmlFor="tools_other">
            Other tools <span className="optional">(optional, separated by commas)</span>
          </label>
          <input id="tools_other" name="tools_other" defaultValue={value("tools_other")} />
          <ErrorText id="tools-error" message={errors.current_tools} />
        </fieldset>

        <div className="field">
          <label htmlFor="needs">
            What takes the most time, or what would you like a tool to do for you?{" "}
            <span className="optional">(optional)</span>
          </label>
          <textarea
            id="needs"
            name="needs"
            rows={5}
            defaultValue={value("needs")}
            aria-invalid={errors.needs ? true : undefined}
            aria-describedby={describedBy(errors.needs && "needs-error")}
          />
          <ErrorText id="needs-error" message={errors.needs} />
        </div>

        <fieldset
          aria-describedby={describedBy("consent-text", (errors.consent || errors.consent_version) && "consent-error")}
        >
          <legend>Consent</legend>
          <p id="consent-text" className="consent-text">
            {loaded.consent.text}
          </p>
          <input type="hidden" name="consent_version" value={loaded.consent.version} />
          <input
            type="hidden"
            name="submission_key"
            value={
              typeof values.submission_key === "string" && values.submission_key
                ? values.submission_key
                : loaded.submissionKey
            }
          />
          <label className="choice" htmlFor="consent">
            <input
              id="consent"
              type="checkbox"
              name="consent"
              value="yes"
              defaultChecked={value("consent") === "yes"}
              aria-invalid={errors.consent ? true : undefined}
            />
            <span>I agree to the statement above.</span>
          </label>
          <ErrorText id="consent-error" message={errors.consent ?? errors.consent_version} />
        </fieldset>
        <button type="submit" disabled={busy}>
          Send my answers
        </button>
      </Form>

      <UploadForm
        docTypes={loaded.docTypes}
        serverErrors={upload?.errors ?? {}}
        formError={upload?.formError}
        uploaded={loaded.uploaded}
        uploadKey={upload?.uploadKey ?? loaded.uploadKey}
        busy={busy}
      />
    </EnglishOnly>
  );
}
