import { Form } from "@remix-run/react";

/** The first step of shopping: a ZIP code, sent as a plain GET so it works without JavaScript. */
export function ZipForm({ defaultZip = "", error }: { defaultZip?: string; error?: string }) {
  return (
    <Form method="get" action="/plans" className="zip-form">
      <label htmlFor="zip">Your ZIP code</label>
      <p className="hint" id="zip-hint">
        Five digits. We use it to find your county and the plans sold there.
      </p>
      <input
        id="zip"
        name="zip"
        inputMode="numeric"
        autoComplete="postal-code"
        pattern="[0-9]{5}"
        maxLength={5}
        required
        defaultValue={defaultZip}
        aria-describedby={error ? "zip-hint zip-error" : "zip-hint"}
        aria-invalid={error ? true : undefined}
      />
      {error ? (
        <p className="error-text" id="zip-error">
          {error}
        </p>
      ) : null}
      <div>
        <button type="submit">See plans</button>
      </div>
    </Form>
  );
}
