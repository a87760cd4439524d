import { DEFAULT_LANGUAGE, tFor, type Language } from "./i18n";
import { localiseMessage } from "./validation";

/**
 * The human-readable `message` of an API error in a language (issue 21 item 4): codes and field
 * names stay English; a message the catalogue knows (a field message under `validation.`, or the one
 * message of a code under `apiErrors.`) is given in the language; any other message stays as it is.
 */
export interface ApiMessageSource {
  code: string;
  message: string;
  fields?: Record<string, string>;
}

/** Codes whose message is always the same sentence, whatever the request (the catalogue's apiErrors). */
export const CODES_WITH_ONE_MESSAGE = [
  "upstream_key_rejected",
  "upstream_busy",
  "upstream_unavailable",
  "upstream_state_not_served",
  "upstream_bad_place",
  "upstream_bad_code",
  "upstream_year_not_served",
  "upstream_refused",
  "eligibility_unavailable",
  "plan_data_unavailable",
  "year_not_available",
  "rate_limited",
  "request_timeout",
  "internal_error",
  "malformed_json",
  "not_found",
] as const;

export function apiMessage(error: ApiMessageSource, lang: Language = DEFAULT_LANGUAGE): string {
  if (lang === DEFAULT_LANGUAGE) return error.message;
  const t = tFor(lang);
  if ((CODES_WITH_ONE_MESSAGE as readonly string[]).includes(error.code)) return t(`apiErrors.${error.code}`);
  const known = localiseMessage(error.message, t);
  if (known !== undefined) return known;
  // A validation failure the catalogue has no sentence for: the general one, the fields say the rest.
  if (error.code === "validation_failed" && error.fields) return t("apiErrors.validation_failed");
  return error.message;
}

export function apiFields(
  fields: Record<string, string> | undefined,
  lang: Language = DEFAULT_LANGUAGE,
): Record<string, string> | undefined {
  if (!fields || lang === DEFAULT_LANGUAGE) return fields;
  const t = tFor(lang);
  return Object.fromEntries(
    Object.entries(fields).map(([field, message]) => [field, localiseMessage(message, t) ?? message]),
  );
}
