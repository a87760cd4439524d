import type { IncomingHttpHeaders } from "node:http";
import { decodedView } from "./decode";
import { ADDRESS } from "./ruleset";

/**
 * Turn a request into the engine's inputs, read the way the routes read it
 * (docs/decisions/182): the path split into percent-decoded segments (route
 * params), the query as URLSearchParams gives it (`+` as space), JSON as
 * JSON.parse gives it, urlencoded and multipart text fields as
 * `request.formData()` gives them. Everything here is linear in the input:
 * no regular expression with backtracking runs over a request.
 *
 * Values are handed over flattened into chunks of at most 200 entries and
 * strings cut into overlapping 4,000-character windows, because the engine
 * looks at no more than 256 entries of a container, 20 levels deep, and the
 * first 4,096 characters of a string: a payload in element 300 of an array
 * or past the 4th kilobyte of a field would otherwise go unread.
 */

/** Field names (the last key of a JSON path, or a form field's name) stored and shown as text. */
export const FREE_TEXT_FIELDS = new Set([
  "name",
  "first_name",
  "last_name",
  "full_name",
  "agency",
  "needs",
  "notes",
  "note",
  "message",
  "comments",
  "tools",
  "tools_other",
  "current_tools",
  "address",
  "address1",
  "address2",
  "address_line1",
  "address_line2",
  "street",
  "city",
]);

const WINDOW = 4_000;
const WINDOW_STEP = 3_500;
/** More leaves than any 10 MB form could have with sense; the rest is counted as truncated. */
const MAX_LEAVES = 200 * 256;
const MAX_DEPTH = 64;

type Leaves = Array<[string, string]>;
export type EngineInput = Record<string, unknown>;

export interface RequestData {
  /** Path and query as sent, e.g. `/plans/x?zip=1`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The parsed body: JSON value, or form / multipart fields as [name, value] pairs. */
  body?: { json: unknown } | { fields: Array<[string, string]> } | { text: string };
}

export interface Collected {
  input: EngineInput;
  /** The field path of each flattened value, by address: chunk c, index i is paths[address][c * CHUNK_ENTRIES + i]. */
  paths: Record<string, string[]>;
  /** Whether leaves past MAX_LEAVES or MAX_DEPTH were left unread. */
  truncated: boolean;
}

class Collector {
  structured: Leaves = [];
  freeText: Leaves = [];
  names: string[] = [];
  truncated = false;
  private count = 0;
  // A value seen once needs no second look: 10,000 copies of "'" cost the engine as much as 10,000 fields.
  private readonly seen = [new Set<string>(), new Set<string>()];

  add(path: string, raw: string, free: boolean): void {
    if (++this.count > MAX_LEAVES) {
      this.truncated = true;
      return;
    }
    const value = collapseRuns(raw);
    const seen = this.seen[free ? 1 : 0]!;
    if (seen.has(value)) return;
    seen.add(value);
    const into = free ? this.freeText : this.structured;
    const view = decodedView(value);
    if (view !== undefined) this.push(into, `${path}~decoded`, view);
    this.push(into, path, value);
  }

  private push(into: Leaves, path: string, value: string): void {
    if (value.length <= WINDOW) into.push([path, value]);
    else
      for (let start = 0; start < value.length; start += WINDOW_STEP)
        into.push([`${path}@${start}`, value.slice(start, start + WINDOW)]);
  }

  /** A key that is not a plain identifier is itself inspected (`{"' OR 1=1 --": 1}`). */
  name(key: string): void {
    if (!PLAIN_NAME.test(key) && this.names.length < MAX_LEAVES) this.names.push(key);
  }
}

const PLAIN_NAME = /^[\w.[\]-]{1,64}$/;

export function collect(data: RequestData): Collected {
  const q = data.url.indexOf("?");
  const path = q === -1 ? data.url : data.url.slice(0, q);
  const query = q === -1 ? "" : data.url.slice(q + 1);
  const input: EngineInput = { [ADDRESS.uriRaw]: data.url };
  const paths: Record<string, string[]> = {};

  const segments: Record<string, string> = {};
  path
    .split("/")
    .filter((s) => s !== "")
    .slice(0, 64)
    .forEach((segment, i) => (segments[String(i)] = safeDecode(segment)));
  for (const [i, segment] of Object.entries(segments)) {
    const view = decodedView(segment);
    if (view !== undefined) segments[`${i}~decoded`] = view;
  }
  input[ADDRESS.pathParams] = segments;

  if (query !== "") {
    const c = new Collector();
    for (const [name, value] of new URLSearchParams(query)) {
      c.name(name);
      c.add(name, value, false);
    }
    input[ADDRESS.query] = chunked(c.structured, c.names, (paths[ADDRESS.query] = []));
  }

  const { headers, text, cookies } = splitHeaders(data.headers);
  input[ADDRESS.headers] = headers;
  input[ADDRESS.textHeaders] = text;
  if (cookies) input[ADDRESS.cookies] = cookies;

  let truncated = false;
  if (data.body) {
    const c = new Collector();
    if ("json" in data.body) walkJson(data.body.json, c);
    else if ("fields" in data.body)
      for (const [name, value] of data.body.fields) {
        c.name(name);
        c.add(name, value, FREE_TEXT_FIELDS.has(name.toLowerCase()));
      }
    else c.add("", data.body.text, false);
    if (c.structured.length > 0 || c.names.length > 0)
      input[ADDRESS.body] = chunked(c.structured, c.names, (paths[ADDRESS.body] = []));
    if (c.freeText.length > 0) input[ADDRESS.freeText] = chunked(c.freeText, [], (paths[ADDRESS.freeText] = []));
    truncated = c.truncated;
  }
  return { input, paths, truncated };
}

/** Depth-first over a parsed JSON value without recursion (a body can nest 50,000 levels). */
function walkJson(root: unknown, c: Collector): void {
  const stack: Array<{ value: unknown; path: string; free: boolean; depth: number }> = [
    { value: root, path: "", free: false, depth: 0 },
  ];
  while (stack.length > 0) {
    const { value, path, free, depth } = stack.pop()!;
    if (typeof value === "string") c.add(path, value, free);
    else if (value === null || typeof value !== "object") continue;
    else if (depth >= MAX_DEPTH) c.truncated = true;
    else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: `${path}[${i}]`, free, depth: depth + 1 });
    } else {
      for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
        c.name(key);
        stack.push({
          value: child,
          path: path === "" ? key : `${path}.${key}`,
          free: free || FREE_TEXT_FIELDS.has(key.toLowerCase()),
          depth: depth + 1,
        });
      }
    }
  }
}

/**
 * Leaves as `{ "0": [value, …], "1": … }`, each chunk within the engine's
 * container limit (arrays: building objects with 10,000 keys cost more than
 * the engine's run); their paths go to `paths` in the same order.
 */
export const CHUNK_ENTRIES = 200;

function chunked(leaves: Leaves, names: string[], paths: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let n = 0;
  for (let i = 0; i < leaves.length; i += CHUNK_ENTRIES) {
    const chunk: string[] = [];
    for (let k = i; k < Math.min(leaves.length, i + CHUNK_ENTRIES); k++) {
      chunk.push(leaves[k]![1]);
      paths.push(leaves[k]![0]);
    }
    out[String(n++)] = chunk;
  }
  for (let i = 0; i < names.length; i += CHUNK_ENTRIES) out[`names${i}`] = names.slice(i, i + CHUNK_ENTRIES);
  return out;
}

/** Headers the engine reads: the text ones separately (every rule family reads those), cookies by name. */
function splitHeaders(raw: IncomingHttpHeaders): {
  headers: Record<string, string>;
  text: Record<string, string>;
  cookies: Record<string, string> | undefined;
} {
  const headers: Record<string, string> = {};
  const text: Record<string, string> = {};
  let cookies: Record<string, string> | undefined;
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const joined = Array.isArray(value) ? value.join(", ") : value;
    if (name === "cookie") {
      cookies = {};
      for (const pair of joined.split(";").slice(0, 256)) {
        const eq = pair.indexOf("=");
        const key = (eq === -1 ? pair : pair.slice(0, eq)).trim();
        const value = safeDecode(eq === -1 ? "" : pair.slice(eq + 1).trim());
        cookies[key in cookies ? `${key}#` : key] = value;
        const view = decodedView(value);
        if (view !== undefined) cookies[`${key}~decoded`] = view;
      }
      continue;
    }
    headers[name] = joined;
    if (name === "user-agent" || name === "referer" || name.startsWith("x-")) {
      text[name] = joined;
      const view = decodedView(joined);
      if (view !== undefined) text[`${name}~decoded`] = view;
    }
  }
  return { headers, text, cookies };
}

/** Longest run of one character handed to the engine. */
const MAX_RUN = 32;

/**
 * Runs of one character longer than MAX_RUN cut to MAX_RUN: no attack needs
 * 99,000 dots, but matching them cost the engine tens of milliseconds, and
 * padding made of one repeated character can no longer push a payload out of
 * reach of the time budget. One pass, no regular expression.
 */
export function collapseRuns(value: string): string {
  if (value.length <= MAX_RUN) return value;
  let out = "";
  let kept = 0;
  let run = 0;
  for (let i = 0; i < value.length; i++) {
    run = i > 0 && value.charCodeAt(i) === value.charCodeAt(i - 1) ? run + 1 : 1;
    if (run > MAX_RUN) {
      // Copy what came before this run's excess, then skip the excess.
      if (kept < i) out += value.slice(kept, i);
      let end = i;
      while (end < value.length && value.charCodeAt(end) === value.charCodeAt(i)) end++;
      kept = end;
      i = end - 1;
      run = 0;
    }
  }
  return kept === 0 ? value : out + value.slice(kept);
}

function safeDecode(s: string): string {
  if (!s.includes("%")) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
