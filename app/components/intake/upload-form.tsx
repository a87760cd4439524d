import { Form } from "@remix-run/react";
import { useRef, useState, type FormEvent } from "react";
import { UPLOAD_LIMIT_MB, UPLOAD_WORDS, uploadFileProblem } from "../../lib/upload-rules";
import { FieldError as ErrorText } from "../field-error";

/** The form's fields in page order: the summary lists problems in this order. */
const FIELDS = ["docType", "file", "blankConfirmed"] as const;
type Field = (typeof FIELDS)[number];

/**
 * The blank-form upload of /agent-discovery. Without JavaScript it posts
 * multipart and the server's answer draws the errors (the summary takes focus
 * as the page loads, so it is in view at 360 px). With JavaScript the same
 * checks run before sending (type, size, the two other fields): a wrong file
 * never travels, and the summary takes focus at once.
 */
export function UploadForm({
  docTypes,
  serverErrors,
  formError,
  uploaded,
  uploadKey,
  busy,
}: {
  docTypes: { value: string; label: string }[];
  serverErrors: Record<string, string>;
  formError: string | undefined;
  uploaded: boolean;
  /** This form's idempotency key (decision 503): the same file sent twice is stored once. */
  uploadKey: string;
  busy: boolean;
}) {
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const summary = useRef<HTMLDivElement>(null);
  const errors = clientErrors ?? serverErrors;
  const listed = FIELDS.filter((name) => errors[name]);

  const check = (form: HTMLFormElement): Record<string, string> => {
    const found: Partial<Record<Field, string>> = {};
    const docType = form.querySelector<HTMLSelectElement>("#upload-docType")?.value ?? "";
    if (!docType) found.docType = UPLOAD_WORDS.docType;
    const file = form.querySelector<HTMLInputElement>("#upload-file")?.files?.[0];
    const problem = file ? uploadFileProblem(file) : UPLOAD_WORDS.noFile;
    if (problem) found.file = problem;
    if (!form.querySelector<HTMLInputElement>("#upload-blankConfirmed")?.checked)
      found.blankConfirmed = UPLOAD_WORDS.blank;
    return found;
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const found = check(event.currentTarget);
    if (Object.keys(found).length === 0) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    setClientErrors(found);
    // After React has drawn the summary.
    requestAnimationFrame(() => summary.current?.focus());
  };

  // A file too large or of the wrong kind is said as soon as it is chosen, where it was chosen.
  const onFileChange = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    const problem = file ? uploadFileProblem(file) : null;
    setClientErrors((current) => {
      const next = { ...(current ?? serverErrors) };
      if (problem) next.file = problem;
      else delete next.file;
      return next;
    });
  };

  return (
    <section id="upload" aria-labelledby="upload-title">
      <h2 id="upload-title">Share a blank form you use (optional)</h2>
      <p>
        If you use your own intake, consent or worksheet forms with clients, a blank copy helps us see what information
        you collect. Send only a blank form: never one filled in with a client&apos;s details. PDF, JPG or PNG, up to{" "}
        {UPLOAD_LIMIT_MB} MB.
      </p>
      {uploaded ? (
        <div className="success-panel" role="status">
          <p>Thank you: we stored your file.</p>
        </div>
      ) : null}
      {formError && !clientErrors ? (
        <p className="notice bad" role="alert" tabIndex={-1} autoFocus data-error-summary>
          {formError}
        </p>
      ) : null}
      {listed.length > 0 ? (
        <div
          ref={summary}
          className="error-summary"
          role="alert"
          aria-labelledby="upload-errors-title"
          tabIndex={-1}
          // Without JavaScript the page loads with the summary focused, so it is in view at any width.
          autoFocus={!clientErrors}
          data-testid="upload-error-summary"
        >
          <h2 id="upload-errors-title">The file was not sent</h2>
          <ul>
            {listed.map((name) => (
              <li key={name}>
                <a href={`#upload-${name}`}>{errors[name]}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form
        method="post"
        action={`/agent-discovery?upload_key=${encodeURIComponent(uploadKey)}`}
        encType="multipart/form-data"
        className="intake-form"
        noValidate
        onSubmit={onSubmit}
        preventScrollReset
      >
        <div className="field">
          <label htmlFor="upload-docType">What kind of document is it?</label>
          <select
            id="upload-docType"
            name="docType"
            defaultValue=""
            aria-invalid={errors.docType ? true : undefined}
            aria-describedby={errors.docType ? "upload-docType-error" : undefined}
          >
            <option value="" disabled>
              Choose one
            </option>
            {docTypes.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </select>
          <ErrorText id="upload-docType-error" message={errors.docType} />
        </div>
        <div className="field">
          <label htmlFor="upload-file">File</label>
          <p id="upload-file-hint" className="hint">
            PDF, JPG or PNG, up to {UPLOAD_LIMIT_MB} MB.
          </p>
          <input
            id="upload-file"
            name="file"
            type="file"
            accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png"
            aria-invalid={errors.file ? true : undefined}
            aria-describedby={errors.file ? "upload-file-hint upload-file-error" : "upload-file-hint"}
            onChange={(event) => onFileChange(event.currentTarget)}
          />
          <ErrorText id="upload-file-error" message={errors.file} />
        </div>
        <input type="hidden" name="blankConfirmed" value="false" />
        <label className="choice" htmlFor="upload-blankConfirmed">
          <input
            id="upload-blankConfirmed"
            type="checkbox"
            name="blankConfirmed"
            value="true"
            aria-invalid={errors.blankConfirmed ? true : undefined}
            aria-describedby={errors.blankConfirmed ? "upload-blankConfirmed-error" : undefined}
          />
          <span>
            This document is blank: it contains no client&apos;s name, contact details, income or other personal
            information.
          </span>
        </label>
        <ErrorText id="upload-blankConfirmed-error" message={errors.blankConfirmed} />
        <button type="submit" disabled={busy}>
          Upload the blank form
        </button>
      </Form>
    </section>
  );
}
