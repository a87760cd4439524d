// The parameter tree (this folder: one block per file laid out as the law is, registered in
// ./registry.ts), validated with zod when it is loaded, and the one accessor every reader
// goes through: `parameter("povertyGuidelines", 2026)`.
// No reader knows the file's layout; a bad file stops the process as it starts (checked on first use
// and right after the server's first answer, decision 461) with the block and the path of the bad
// value, instead of a wrong price later (docs/decisions/240-one-shape-parameter-blocks.md).
//
// Every block has one shape: { description, unit, values, reference, notes? }. `values` is keyed
// by year ("2026") or effective date ("2026-07-01"), every key of a block the same kind; a key may
// say { "sameAs": "<key>" } to repeat another key's value. `reference` is one source for the
// block or one per key. Each block's value schema and its lookup rule live in ./parameter-blocks.ts.
// To add a block: add it to the JSON and one entry to BLOCKS there; read it with parameter().

import { z } from "zod";
import { BLOCK_PATHS, PARAMETER_SET as raw } from "./registry";
import { BLOCKS, type BlockName, type ParameterValue } from "./parameter-blocks";

export type { BlockName, ParameterValue } from "./parameter-blocks";

const YEAR = /^\d{4}$/;
const Source = z.string().min(1);
const Key = z.union([z.string().regex(YEAR, "a year (YYYY)"), z.iso.date()]);

/** The units a block may declare; a typo is refused at load. */
export const UNITS = [
  "usd",
  "usd_per_month",
  "percent_of_income",
  "fpl_ratio",
  "ratio",
  "year",
  "years_of_age",
  "state_list",
  "text",
] as const;

/** The common shape of every block, before its values are checked against the block's own schema. */
export const BlockShape = z.strictObject({
  description: z.string().min(1),
  unit: z.enum(UNITS),
  values: z.record(Key, z.unknown()).refine((v) => Object.keys(v).length > 0, "a block needs at least one value"),
  reference: z.union([Source, z.record(Key, Source)]),
  notes: z.array(z.string().min(1)).optional(),
});
type Block = z.infer<typeof BlockShape>;

const SameAs = z.strictObject({ sameAs: Key });

/** One block: the common shape, each value checked against `value` (or a sameAs pointing at a real value). */
function blockSchema(value: z.ZodType) {
  return BlockShape.superRefine((block, ctx) => {
    const keys = Object.keys(block.values);
    if (new Set(keys.map((k) => YEAR.test(k))).size > 1)
      ctx.addIssue({ code: "custom", path: ["values"], message: "keys mix years and dates" });
    for (const key of keys) {
      const entry = block.values[key];
      const isSameAs = typeof entry === "object" && entry !== null && "sameAs" in entry;
      const parsed = (isSameAs ? SameAs : value).safeParse(entry);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: "custom", path: ["values", key, ...issue.path], message: issue.message });
        continue;
      }
      if (isSameAs) {
        const target = block.values[(entry as { sameAs: string }).sameAs];
        if (target === undefined || SameAs.safeParse(target).success)
          ctx.addIssue({
            code: "custom",
            path: ["values", key, "sameAs"],
            message: "must name a key that holds a value",
          });
      }
    }
    if (typeof block.reference === "object") {
      for (const key of keys)
        if (!(key in block.reference))
          ctx.addIssue({ code: "custom", path: ["reference", key], message: "a per-key reference is missing" });
      for (const key of Object.keys(block.reference))
        if (!(key in block.values))
          ctx.addIssue({ code: "custom", path: ["reference", key], message: "reference for a key with no value" });
    }
  });
}

const Rule = z.strictObject({
  topic: z.string().min(1),
  statements: z.array(z.string().min(1)).min(1),
  reference: Source,
});

export const AcaParameterFileSchema = z.strictObject({
  meta: z.strictObject({
    title: z.string().min(1),
    compiled: z.iso.date(),
    notes: z.array(z.string()),
    // Rules in prose that hold no figure of their own; kept beside the figures with their sources.
    rules: z.array(Rule),
  }),
  blocks: z.strictObject(
    Object.fromEntries(Object.entries(BLOCKS).map(([name, spec]) => [name, blockSchema(spec.value)])) as {
      [N in BlockName]: ReturnType<typeof blockSchema>;
    },
  ),
});

export type AcaParameterFile = z.infer<typeof AcaParameterFileSchema>;

/** Thrown at load when the parameter file does not have the expected shape; names the block and every bad value. */
export class ParameterFileError extends Error {}

/** Raised when the file holds no value for the requested year, date or state. */
export class MissingParameterError extends Error {
  readonly parameter: string;
  readonly key: string;
  constructor(parameter: string, key: string | number, detail?: string) {
    super(`the parameters have no ${parameter} for ${key}${detail ? ` (${detail})` : ""}`);
    this.name = "MissingParameterError";
    this.parameter = parameter;
    this.key = String(key);
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const [top, name, ...rest] = issue.path.map(String);
  if (top === "blocks" && name !== undefined) {
    const file = name in BLOCK_PATHS ? ` (parameters/${BLOCK_PATHS[name as keyof typeof BLOCK_PATHS]})` : "";
    return `block "${name}"${rest.length ? ` at ${rest.join(".")}` : ""}: ${issue.message}${file}`;
  }
  return `${issue.path.join(".") || "(file)"}: ${issue.message}`;
}

/** Validate a parameter set (the repository's tree unless given). */
export function parseAcaParameterFile(data: unknown = raw): AcaParameterFile {
  // A copy: the values are frozen below, and the caller's object (the imported JSON) must stay its own.
  const result = AcaParameterFileSchema.safeParse(structuredClone(data));
  if (!result.success) {
    const lines = result.error.issues.map(describeIssue);
    throw new ParameterFileError(`the parameter files are not valid:\n  ${lines.join("\n  ")}`);
  }
  return deepFreeze(result.data);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

let file: AcaParameterFile | undefined;

/**
 * The repository's parameter tree, validated once, on first use: nothing is read from it unchecked.
 * Not when the module is loaded (~20 ms of zod at a server's start, issue 29): the server asks for
 * it right after its first answer and stops if it is bad (server/after-first-answer.ts,
 * docs/decisions/461), so a bad file still stops the process within moments of starting.
 */
export function acaParameterFile(): AcaParameterFile {
  return (file ??= parseAcaParameterFile());
}

function blockOf(name: BlockName): Block {
  return acaParameterFile().blocks[name];
}

const sortedKeys = new Map<BlockName, readonly string[]>();

/** The block's keys, oldest first, sorted once per block (the file never changes after load). */
function keysOf(name: BlockName): readonly string[] {
  let keys = sortedKeys.get(name);
  if (!keys) {
    keys = Object.freeze(Object.keys(blockOf(name).values).sort());
    sortedKeys.set(name, keys);
  }
  return keys;
}

/** The block's keys, oldest first. */
export function parameterKeys(name: BlockName): string[] {
  return [...keysOf(name)];
}

/** One value of a block with the key it was found under and its source. */
export interface ParameterEntry<N extends BlockName> {
  /** The key in force: the year or date asked for ("exact" blocks) or the latest at or before it ("inForce"). */
  key: string;
  value: ParameterValue<N>;
  reference: string;
}

function keyFor(name: BlockName, keys: readonly string[], at: number | string | undefined): string {
  if (at === undefined) {
    // A reader without a year or date may only read a block that holds one value: once a second
    // value is added, it must say which year it means.
    if (keys.length === 1) return keys[0];
    throw new MissingParameterError(
      BLOCKS[name].label,
      "an unspecified year",
      `block ${name} holds ${keys.length} values; name a year or date`,
    );
  }
  if (typeof at === "number" && !Number.isInteger(at)) throw new RangeError(`year must be an integer, got ${at}`);
  if (typeof at === "string" && !YEAR.test(at) && !z.iso.date().safeParse(at).success)
    throw new RangeError(`not a year or ISO calendar date: "${at}"`);
  const datedKeys = !YEAR.test(keys[0]);
  const asked = String(at);
  // Years ask date-keyed blocks about 1 January; dates ask year-keyed blocks about their year.
  const wanted = datedKeys ? (YEAR.test(asked) ? `${asked}-01-01` : asked) : asked.slice(0, 4);
  if (BLOCKS[name].lookup === "exact") {
    if (keys.includes(wanted)) return wanted;
    throw new MissingParameterError(BLOCKS[name].label, at, `block ${name}`);
  }
  const inForce = keys.filter((k) => k <= wanted).pop();
  if (inForce === undefined)
    throw new MissingParameterError(BLOCKS[name].label, at, `block ${name} starts at ${keys[0]}`);
  return inForce;
}

/**
 * The entry of a block for a year or date. "exact" blocks answer only a key they hold; "inForce"
 * blocks answer the latest key at or before it. Without `at`, the block must hold one value.
 */
export function parameterEntry<N extends BlockName>(name: N, at?: number | string): ParameterEntry<N> {
  // Pricing asks the same few blocks for the same year for every plan of a list: each answer is
  // worked out once (a look-up that fails throws again every time: nothing is kept for it). Kept by
  // block, then by `at` itself (2027 and "2027" are two keys, as they were two strings before), with
  // no key string made per look-up: a household's estimate makes a few hundred of them.
  let byAt = entries.get(name);
  const known = byAt?.get(at);
  if (known) return known as ParameterEntry<N>;
  const entry = lookUpEntry(name, at);
  if (entriesKept >= ENTRIES_KEPT) {
    entries.clear();
    entriesKept = 0;
    byAt = undefined;
  }
  if (!byAt) {
    byAt = new Map();
    entries.set(name, byAt);
  }
  byAt.set(at, entry);
  entriesKept++;
  return entry;
}

/** Entries already looked up, by block and `at`; read-only (the file is frozen, so is each entry). */
const entries = new Map<BlockName, Map<number | string | undefined, ParameterEntry<BlockName>>>();
let entriesKept = 0;
/** Dates asked can be any day: the kept entries are forgotten past this many. */
const ENTRIES_KEPT = 2_000;

function lookUpEntry<N extends BlockName>(name: N, at?: number | string): ParameterEntry<N> {
  const block = blockOf(name);
  const key = keyFor(name, keysOf(name), at);
  const entry = block.values[key];
  const base = typeof entry === "object" && entry !== null && "sameAs" in entry ? (entry.sameAs as string) : null;
  const refOf = (k: string) => (typeof block.reference === "string" ? block.reference : block.reference[k]);
  const reference = base === null || typeof block.reference === "string" ? refOf(key) : `${refOf(key)} ${refOf(base)}`;
  return Object.freeze({ key, value: (base === null ? entry : block.values[base]) as ParameterValue<N>, reference });
}

/** A block's value for a year or date (see parameterEntry). */
export function parameter<N extends BlockName>(name: N, at?: number | string): ParameterValue<N> {
  return parameterEntry(name, at).value;
}

/** A block's description and unit, for documentation and tests. */
export function parameterInfo(name: BlockName): { description: string; unit: (typeof UNITS)[number] } {
  const { description, unit } = blockOf(name);
  return { description, unit };
}

/** The names of the file's blocks. */
export function blockNames(): BlockName[] {
  return Object.keys(acaParameterFile().blocks) as BlockName[];
}
