/**
 * Streams the elements of a top-level JSON array without holding the file in
 * memory: issuers' provider files can run to gigabytes (puf-formats.md §10).
 * Each element's text is cut out by a small bracket/string scanner and parsed
 * with JSON.parse; a malformed element is reported and the scan goes on.
 */
import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { Hash } from "node:crypto";

export type JsonElement = { index: number; value?: unknown; error?: string };

export type JsonReadOptions = {
  onBytes?: (bytes: number) => void;
  hash?: Hash;
  chunkSize?: number;
  /** Largest accepted element, in characters. */
  maxElementChars?: number;
};

export class JsonStreamError extends Error {}

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 0xfeff;
}

/**
 * Yields the array's elements in batches (one batch per chunk read). Throws
 * JsonStreamError when the file is not a JSON array at all; a truncated file
 * ends with an element carrying `error`.
 */
export async function* jsonArrayElementBatches(
  path: string,
  options: JsonReadOptions = {},
): AsyncGenerator<JsonElement[]> {
  const maxElement = options.maxElementChars ?? 256 * 1024 * 1024;
  const decoder = new StringDecoder("utf8");
  const stream = createReadStream(path, { highWaterMark: options.chunkSize ?? 1 << 20 });
  let buf = "";
  let i = 0;
  let depth = 0;
  let inString = false;
  let escape = false;
  let elementStart = -1;
  let started = false;
  let ended = false;
  let index = 0;

  const emit = (out: JsonElement[], text: string) => {
    try {
      out.push({ index, value: JSON.parse(text) });
    } catch {
      out.push({ index, error: "malformed JSON element" });
    }
    index++;
  };

  const scan = (out: JsonElement[]) => {
    const n = buf.length;
    for (; i < n; i++) {
      const c = buf.charCodeAt(i);
      if (inString) {
        if (escape) escape = false;
        else if (c === BACKSLASH) escape = true;
        else if (c === QUOTE) inString = false;
        continue;
      }
      if (!started) {
        if (isSpace(c)) continue;
        if (c !== OPEN_BRACKET) throw new JsonStreamError("not a JSON array");
        started = true;
        depth = 1;
        continue;
      }
      if (ended) {
        if (isSpace(c)) continue;
        throw new JsonStreamError("text after the end of the JSON array");
      }
      if (c === QUOTE) {
        inString = true;
        if (depth === 1 && elementStart < 0) elementStart = i;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (depth === 1 && elementStart < 0) elementStart = i;
        depth++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (depth === 1) {
          // The top-level array closes; a pending primitive element ends here.
          if (elementStart >= 0) emit(out, buf.slice(elementStart, i));
          elementStart = -1;
          depth = 0;
          ended = true;
          continue;
        }
        depth--;
        if (depth === 1 && elementStart >= 0) {
          emit(out, buf.slice(elementStart, i + 1));
          elementStart = -1;
        }
      } else if (c === COMMA) {
        if (depth === 1 && elementStart >= 0) {
          emit(out, buf.slice(elementStart, i));
          elementStart = -1;
        }
      } else if (!isSpace(c) && depth === 1 && elementStart < 0) {
        elementStart = i; // number, true, false, null
      }
    }
    // Keep only the unfinished element.
    if (elementStart >= 0) {
      buf = buf.slice(elementStart);
      i -= elementStart;
      elementStart = 0;
      if (buf.length > maxElement) throw new JsonStreamError("JSON element too large");
    } else {
      buf = "";
      i = 0;
    }
  };

  for await (const chunk of stream) {
    const b = chunk as Buffer;
    options.hash?.update(b);
    options.onBytes?.(b.length);
    buf += decoder.write(b);
    const out: JsonElement[] = [];
    scan(out);
    if (out.length) yield out;
  }
  buf += decoder.end();
  const out: JsonElement[] = [];
  scan(out);
  if (!started) throw new JsonStreamError("empty file (not a JSON array)");
  if (!ended) out.push({ index, error: "truncated JSON (the array is not closed)" });
  if (out.length) yield out;
}
