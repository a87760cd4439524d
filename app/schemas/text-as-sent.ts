/**
 * Patterns for text a route trims before checking it, written on the text as
 * sent, so the JSON Schema generated from the zod schema (which shows the
 * checks made before the trim) is as strict as the check (decision 380).
 * A check placed before `.trim()` runs on the raw text; `.min` after the trim
 * is then stated by one of these.
 */

/** Trimmed, at least one character: some non-space. */
export const NOT_BLANK = /\S/;
/** Trimmed, at least two characters: a first and a last non-space. */
export const AT_LEAST_TWO = /\S[\s\S]*\S/;
/** Trimmed, at least three characters: a first and a last non-space with something between. */
export const AT_LEAST_THREE = /\S[\s\S]+\S/;

/** A whole-string pattern (^…$) that also accepts surrounding spaces, for a value that is trimmed before it is checked. */
export function paddedWith(pattern: RegExp): RegExp {
  const body = pattern.source.replace(/^\^/, "").replace(/\$$/, "");
  return new RegExp(`^\\s*(?:${body})\\s*$`);
}
