import type { IncomingHttpHeaders } from "node:http";
import { decodedView } from "./decode";
import { userDocumentName } from "./user-paths";
import { ADDRESS } from "./ruleset";
import { MAX_KEYED, headerKey, partKey } from "./part-keys";

/**
 * Turn a request into the engine's inputs, read the way the routes read it
 * (docs/decisions/182): the path split into percent-decoded segments (route
 * params), the query as URLSearchParams gives it (`+` as space), JSON as
 * JSON.parse gives it, urlencoded and multipart text fields as
 * `request.formData()` gives them. Everything here is linear in the input:
 * no regular expression with backtracking runs over a request.
 *
 * What the engine is handed is bounded (docs/decisions/281): libddwaf checks
 * its time budget only between rules, so its time per request grows with the
 * number of values and characters it is given (about 7 µs a value and
 * 0.17 µs a character on the development machine). At most
 * ENGINE_INPUT_LIMITS values and characters are handed over; past either, a
 * value made only of letters, digits, `_` and `-` (a plan id, a ZIP, an enum)
 * is left unread and counted, and any other value makes the request
 * unreadable: the middleware refuses it (413) instead of judging part of it.
 *
 * Values are handed over flattened into chunks of at most 200 entries and
 * strings cut into overlapping 4,000-character windows, inside libddwaf's own
 * limits (256 entries a container, 20 levels, 4,096 characters a string;
 * compiled into @datadog/native-appsec, not settable from JavaScript), so the
 * engine never truncates what it is given.
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

/**
 * The most the engine is handed per request: values (each string, decoded
 * copy or window) and their characters in all. The largest legitimate
 * request (agent discovery: two 4,000-character notes with their decoded
 * copies, 20 tools, the headers of a browser) is about a fifth of each.
 */
export const ENGINE_INPUT_LIMITS = { values: 512, chars: 32_768 } as const;

/** libddwaf's own limits (DDWAF_MAX_CONTAINER_SIZE, _DEPTH, _STRING_LENGTH), which the shapes below stay inside. */
export const DDWAF_LIMITS = { containerSize: 256, containerDepth: 20, stringLength: 4_096 } as const;

export const CHUNK_ENTRIES = 200;
const WINDOW = 4_000;
const WINDOW_STEP = 3_500;
/** Nesting a route could mean; strings deeper count as past the limits. */
const MAX_DEPTH = 64;
/**
 * Headers, cookies and path segments read by name, at most (a browser sends
 * ~20 headers): each may bring a decoded copy, and the two stay inside one
 * engine container.
 */
const MAX_NAMED = 100;

type Leaves = Array<[string, string]>;
export type EngineInput = Record<string, unknown>;

export interface RequestData {
  /** Path and query as sent, e.g. `/plans/x?zip=1`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The parsed body: JSON value, or form / multipart fields as [name, value] pairs. */
  body?: { json: unknown } | { fields: Array<[string, string]> } | { text: string };
  /**
   * The body's key (bodyKey): given when the body is short and was parsed from its bytes alone
   * (JSON, a form, text), so the same bytes always make the same part. Without it a body is judged
   * every time.
   */
  bodyKey?: string;
}

/**
 * The keys of a request's parts (the URL, each header, the cookies, a keyed body) worked out
 * without collecting anything for the engine: the firewall's first, cheap check (engine.ts).
 * Undefined when the request has a body without a key, a part too long to have a key, or is
 * anywhere near the engine's input limits (then it is collected and judged in full, as before).
 */
export function partKeys(data: RequestData): string[] | undefined {
  if (data.body && data.bodyKey === undefined) return undefined;
  const url = partKey("u", data.url);
  if (url === undefined) return undefined;
  const keys = [url];
  // A keyed body is at most MAX_KEYED characters (its collected copy counted as the headers' are).
  let chars = data.url.length + (data.bodyKey === undefined ? 0 : MAX_KEYED);
  if (data.bodyKey !== undefined) keys.push(data.bodyKey);
  let count = 0;
  for (const name in data.headers) {
    const value = data.headers[name];
    if (value === undefined) continue;
    const sent = Array.isArray(value) ? value.join(", ") : value;
    chars += sent.length;
    // Decoded copies and text-header copies can make the engine's input up to about four times the text.
    if (++count > MAX_NAMED || chars > ENGINE_INPUT_LIMITS.chars / 4) return undefined;
    const key = name === "cookie" ? partKey("c", sent) : headerKey(name, sent);
    if (key === undefined) return undefined;
    keys.push(key);
  }
  return keys;
}

/**
 * One independently judged part of a request: the URL (path and query), one
 * header, the cookies, the body. `key` identifies a part whose verdict may be
 * remembered (engine.ts); a body has one only when the reader gave it (RequestData.bodyKey).
 */
export interface Part {
  key?: string;
  /**
   * A keyed body's other key: the digest of its bytes (RequestData.bodyKey), the one the cheap first
   * check (partKeys) looks for. `key` is then the digest of what the body hands the engine.
   */
  bytesKey?: string;
  input: EngineInput;
}

export interface Collected {
  parts: Part[];
  /** The field path of each flattened value, by address: chunk c, index i is paths[address][c * CHUNK_ENTRIES + i]. */
  paths: Record<string, string[]>;
  /** More to read than ENGINE_INPUT_LIMITS allows: the request is refused, not judged. */
  overLimit: boolean;
  /** Values past the limits left unread because they are plain tokens. */
  unread: number;
  /** Values (windows counted) and characters handed to the engine. */
  handed: { values: number; chars: number };
  /** A key that reaches an object's prototype (`__proto__`, `constructor` then `prototype`). */
  prototypeKey: boolean;
}

/** The values and characters handed to the engine so far, shared by every part of one request. */
class Budget {
  values = 0;
  chars = 0;
  unread = 0;
  over = false;
  prototypeKey = false;

  /** Whether `value` may be handed over; past the limits a plain token is counted and anything else sets `over`. */
  take(value: string): boolean {
    if (this.over) return false;
    if (this.values < ENGINE_INPUT_LIMITS.values && this.chars + value.length <= ENGINE_INPUT_LIMITS.chars) {
      this.values += value.length <= WINDOW ? 1 : Math.ceil(value.length / WINDOW_STEP);
      this.chars += value.length;
      return true;
    }
    this.beyond(value);
    return false;
  }

  /** No value more can be handed over: what is left only needs to be plain. */
  full(): boolean {
    return this.values >= ENGINE_INPUT_LIMITS.values;
  }

  charsLeft(): number {
    return ENGINE_INPUT_LIMITS.chars - this.chars;
  }

  /** A value that will not be handed over (past a limit): a plain token is harmless alone. */
  beyond(value: string): void {
    if (isPlainToken(value)) this.unread++;
    else this.over = true;
  }
}

/** Letters, digits, `_` and `-`, at most 64: a plan id, a ZIP, a FIPS code, an enum value. */
export function isPlainToken(value: string): boolean {
  if (value.length > 64) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const plain = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
    if (!plain) return false;
  }
  return true;
}

class Collector {
  structured: Leaves = [];
  freeText: Leaves = [];
  names: string[] = [];
  // A value seen once needs no second look: 10,000 copies of "'" cost the engine as much as 10,000 fields.
  private readonly seen = [new Set<string>(), new Set<string>()];

  constructor(private readonly budget: Budget) {}

  add(path: string, raw: string, free: boolean): void {
    if (this.budget.over) return;
    // Past the value limit a plain token is left unread as it would be below (collapsing and
    // document names leave a plain token plain), without the work of getting there: 10,000 plan
    // ids cost the event loop 6 ms before (docs/decisions/500). Anything else goes the long way.
    if (this.budget.full() && isPlainToken(raw)) {
      this.budget.unread++;
      return;
    }
    // A value longer than what is left of the budget needs reading only far enough to know it.
    const value = collapseRuns(userDocumentName(raw) ?? raw, Math.max(this.budget.charsLeft(), 64) + 1);
    const seen = this.seen[free ? 1 : 0]!;
    if (seen.has(value)) return;
    seen.add(value);
    if (!this.budget.take(value)) return;
    const into = free ? this.freeText : this.structured;
    const view = decodedView(value);
    if (view !== undefined && this.budget.take(view)) this.push(into, `${path}~decoded`, view);
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
    if (key.includes("__proto__") || (key.includes("prototype") && key.includes("constructor")))
      this.budget.prototypeKey = true;
    if (PLAIN_NAME.test(key) || this.budget.over) return;
    if (this.budget.take(key)) this.names.push(key);
  }
}

const PLAIN_NAME = /^[\w.[\]-]{1,64}$/;

export function collect(data: RequestData): Collected {
  const budget = new Budget();
  const paths: Record<string, string[]> = {};
  const parts: Part[] = [urlPart(data.url, budget, paths), ...headerParts(data.headers, budget)];
  if (data.body) {
    const c = new Collector(budget);
    if ("json" in data.body) walkJson(data.body.json, c, budget);
    else if ("fields" in data.body)
      for (const [name, value] of data.body.fields) {
        c.name(name);
        c.add(name, value, FREE_TEXT_FIELDS.has(name.toLowerCase()));
      }
    else c.add("", data.body.text, false);
    const input: EngineInput = {};
    if (c.structured.length > 0 || c.names.length > 0)
      input[ADDRESS.body] = chunked(c.structured, c.names, (paths[ADDRESS.body] = []));
    if (c.freeText.length > 0) input[ADDRESS.freeText] = chunked(c.freeText, [], (paths[ADDRESS.freeText] = []));
    // A keyed body is remembered by what it hands the engine (its strings and unusual names; numbers,
    // booleans and nulls are not handed over), so a body that differs from one judged clean only
    // in its numbers (a new income, an age) is not run again (docs/decisions/451).
    const key = data.bodyKey === undefined ? undefined : partKey("b", JSON.stringify(input));
    parts.push(key === undefined ? { key: data.bodyKey, input } : { key, bytesKey: data.bodyKey, input });
  }
  return {
    parts,
    paths,
    overLimit: budget.over,
    unread: budget.unread,
    handed: { values: budget.values, chars: budget.chars },
    prototypeKey: budget.prototypeKey,
  };
}

/** A string as the engine can read it whole: itself, or overlapping windows within its string limit. */
function readable(value: string): string | string[] {
  if (value.length <= WINDOW) return value;
  const windows: string[] = [];
  for (let start = 0; start < value.length; start += WINDOW_STEP) windows.push(value.slice(start, start + WINDOW));
  return windows;
}

/** All parts as one engine input (the shapes of different parts never share a key). */
export function mergeParts(parts: readonly Part[]): EngineInput {
  const input: EngineInput = {};
  for (const part of parts)
    for (const [address, value] of Object.entries(part.input)) {
      const known = input[address];
      input[address] = known !== undefined && typeof value === "object" ? Object.assign(known as object, value) : value;
    }
  return input;
}

/** The path (raw, for the traversal rules, and as decoded segments) and the query's values. */
function urlPart(url: string, budget: Budget, paths: Record<string, string[]>): Part {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? "" : url.slice(q + 1);
  const raw = collapseRuns(url);
  budget.take(raw);
  const input: EngineInput = { [ADDRESS.uriRaw]: readable(raw) };
  const segments: Record<string, string | string[]> = {};
  let i = 0;
  for (const piece of path.split("/")) {
    if (piece === "") continue;
    const decoded = safeDecode(piece);
    const segment = collapseRuns(userDocumentName(decoded) ?? decoded);
    if (i >= MAX_NAMED) budget.beyond(segment);
    else if (budget.take(segment)) {
      segments[String(i)] = readable(segment);
      const view = decodedView(segment);
      if (view !== undefined && budget.take(view)) segments[`${i}~decoded`] = readable(view);
    }
    i++;
  }
  input[ADDRESS.pathParams] = segments;
  if (query !== "") {
    const c = new Collector(budget);
    for (const [name, value] of new URLSearchParams(query)) {
      c.name(name);
      c.add(name, value, false);
    }
    input[ADDRESS.query] = chunked(c.structured, c.names, (paths[ADDRESS.query] = []));
  }
  return { key: partKey("u", url), input };
}

/**
 * Depth-first over a parsed JSON value without recursion (a body can nest
 * 50,000 levels). A value's field path is built only when the value is
 * handed over or has children (10,000 elements past the limits build none),
 * and never past MAX_DEPTH (a path per level would be quadratic in the depth).
 */
function walkJson(root: unknown, c: Collector, budget: Budget): void {
  type Entry = { value: unknown; parent: string; key: string | number | undefined; free: boolean; depth: number };
  const pathOf = ({ parent, key, depth }: Entry): string =>
    key === undefined || depth > MAX_DEPTH
      ? parent
      : typeof key === "number"
        ? `${parent}[${key}]`
        : parent === ""
          ? key
          : `${parent}.${key}`;
  const stack: Entry[] = [{ value: root, parent: "", key: undefined, free: false, depth: 0 }];
  while (stack.length > 0 && !budget.over) {
    const entry = stack.pop()!;
    const { value, free, depth } = entry;
    if (typeof value === "string") {
      if (depth > MAX_DEPTH || budget.over) budget.beyond(value);
      else c.add(pathOf(entry), value, free);
    } else if (value === null || typeof value !== "object") continue;
    else if (Array.isArray(value)) {
      const parent = pathOf(entry);
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], parent, key: i, free, depth: depth + 1 });
    } else {
      const parent = pathOf(entry);
      for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
        if (depth >= MAX_DEPTH) budget.beyond(key);
        else c.name(key);
        if (key === "prototype" && (entry.key === "constructor" || depth >= MAX_DEPTH)) budget.prototypeKey = true;
        stack.push({
          value: child,
          parent,
          key,
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

/**
 * One part per header (all go to the rules written for headers; User-Agent,
 * Referer and every X- header also to every value rule, as text shown in
 * logs and analytics) and one for the cookies, read by name and
 * percent-decoded. A header or cookie past MAX_NAMED counts as past the limits.
 */
function headerParts(raw: IncomingHttpHeaders, budget: Budget): Part[] {
  const parts: Part[] = [];
  let count = 0;
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const sent = Array.isArray(value) ? value.join(", ") : value;
    if (name === "cookie") {
      parts.push(cookiePart(sent, budget));
      continue;
    }
    const joined = collapseRuns(userDocumentName(sent) ?? sent);
    if (++count > MAX_NAMED || !budget.take(joined)) {
      if (count > MAX_NAMED) budget.beyond(joined);
      continue;
    }
    const input: EngineInput = { [ADDRESS.headers]: { [name]: readable(joined) } };
    if ((name === "user-agent" || name === "referer" || name.startsWith("x-")) && budget.take(joined)) {
      const text: Record<string, string | string[]> = { [name]: readable(joined) };
      const view = decodedView(joined);
      if (view !== undefined && budget.take(view)) text[`${name}~decoded`] = readable(view);
      input[ADDRESS.textHeaders] = text;
    }
    parts.push({ key: headerKey(name, sent), input });
  }
  return parts;
}

function cookiePart(header: string, budget: Budget): Part {
  const cookies: Record<string, string | string[]> = {};
  let count = 0;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    const key = (eq === -1 ? pair : pair.slice(0, eq)).trim();
    const decoded = safeDecode(eq === -1 ? "" : pair.slice(eq + 1).trim());
    const value = collapseRuns(userDocumentName(decoded) ?? decoded);
    if (++count > MAX_NAMED) {
      budget.beyond(value);
      continue;
    }
    // A cookie name that is not a plain identifier (`q[$ne]`) is itself inspected, as a query's is.
    if (key !== "" && !PLAIN_NAME.test(key) && budget.take(key)) cookies[`${key}~name`] = key;
    if (!budget.take(value)) continue;
    cookies[key in cookies ? `${key}#` : key] = readable(value);
    const view = decodedView(value);
    if (view !== undefined && budget.take(view)) cookies[`${key}~decoded`] = readable(view);
  }
  return { key: partKey("c", header), input: { [ADDRESS.cookies]: cookies } };
}

/** Longest run of one character handed to the engine. */
const MAX_RUN = 32;

/**
 * Runs of one character longer than MAX_RUN cut to MAX_RUN: no attack needs
 * 99,000 dots, but matching them cost the engine tens of milliseconds, and
 * padding made of one repeated character can no longer push a payload out of
 * reach of the time budget. One pass, no regular expression; it stops once
 * the result is longer than `max`, returning that prefix.
 */
export function collapseRuns(value: string, max = Infinity): string {
  if (value.length <= MAX_RUN) return value;
  let out = "";
  let kept = 0;
  let run = 0;
  for (let i = 0; i < value.length; i++) {
    // Past `max` characters the caller only needs to know it is too long: stop reading.
    if (out.length + (i - kept) > max) return out + value.slice(kept, i);
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
