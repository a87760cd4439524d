import type { TFunction } from "i18next";
import { validation } from "./locales/en.json";

/**
 * Form pages show the schemas' field messages (English, as the JSON API gives them) in the page's
 * language: a message equal to an English catalogue value under `validation.` is shown from that key;
 * any other message is shown as it is. tests/unit/i18n-catalogues checks the schemas' messages are here.
 */
const KEY_BY_ENGLISH = new Map<string, string>(
  Object.entries(validation).map(([key, english]) => [english, `validation.${key}`]),
);

/** A schema message in the page's language, or undefined when the catalogue does not know it. */
export function localiseMessage(message: string, t: TFunction): string | undefined {
  const key = KEY_BY_ENGLISH.get(message);
  return key ? t(key) : undefined;
}

export function localiseFieldErrors(
  errors: Record<string, string>,
  t: TFunction,
  /** Fields whose message is always one key, whatever the schema said (an enum's list of codes). */
  fixed: Record<string, string> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors)) {
    const key = fixed[field] ?? KEY_BY_ENGLISH.get(message);
    out[field] = key ? t(key) : message;
  }
  return out;
}
