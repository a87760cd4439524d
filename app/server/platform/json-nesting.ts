/**
 * How deep a JSON text nests, read without parsing it (docs/decisions/500).
 * No body any route accepts nests more than a handful of levels, while a
 * 100 KB body of brackets nests 50,000: JSON.parse then builds 50,000
 * containers, twice (the firewall and the route each parse), for an answer
 * that can only be 400. RFC 8259 §9 lets a parser limit nesting; this one
 * scan, linear in the text and allocation-free, applies the limit first.
 */
export const MAX_JSON_NESTING = 64;

/** What a body nested deeper is answered (400 `malformed_json`), by the firewall and by the routes alike. */
export const TOO_DEEP_MESSAGE = `The request body nests arrays and objects more than ${MAX_JSON_NESTING} levels deep.`;

/** Whether arrays and objects in `text` nest deeper than `max`; brackets inside strings do not count. */
export function nestsDeeperThan(text: string, max = MAX_JSON_NESTING): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
