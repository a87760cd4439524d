import { Form } from "@remix-run/react";
import { DEFAULT_LANGUAGE } from "../i18n/i18n";
import { useLanguage, useT } from "../i18n/use-t";

/** The first step of shopping: a ZIP code, sent as a plain GET so it works without JavaScript. */
export function ZipForm({ defaultZip = "", error }: { defaultZip?: string; error?: string }) {
  const t = useT();
  const lang = useLanguage();
  return (
    <Form method="get" action="/plans" className="zip-form">
      {/* The results open in this page's language, also for a shared link (issue 21). */}
      {lang === DEFAULT_LANGUAGE ? null : <input type="hidden" name="lang" value={lang} />}
      <label htmlFor="zip">{t("zipForm.label")}</label>
      <p className="hint" id="zip-hint">
        {t("zipForm.hint")}
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
        // A refused ZIP: the field is focused as the page loads (no JavaScript), so its error is in view.
        autoFocus={Boolean(error)}
      />
      {error ? (
        <p className="error-text" id="zip-error">
          {error}
        </p>
      ) : null}
      <div>
        <button type="submit">{t("zipForm.submit")}</button>
      </div>
    </Form>
  );
}
