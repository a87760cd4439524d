/**
 * Drug names as the formulary files and RxNorm write them ("metformin
 * hydrochloride 500 MG Oral Tablet", "atorvastatin 20 MG Oral Tablet
 * [Lipitor]", "sitagliptin 50 MG / metformin hydrochloride 500 MG Oral
 * Tablet"), and the order a person typing a name expects to see them in
 * (docs/decisions/204-own-drug-name-index.md): the plain ingredient before
 * combinations, the usual forms (tablets and capsules taken by mouth,
 * immediate release) before others, the strengths most plans list first.
 * Upstream's autocomplete answers at most 10, by RxCUI, which can leave plain
 * metformin out of "metformin" altogether.
 */

export interface DrugNameParts {
  /** What the list shows as the name: the brand when there is one, else the ingredient(s). */
  name: string;
  strength: string;
  route: string;
  full_name: string;
  /** More than one ingredient ("a / b"). */
  combination: boolean;
  /** Extended or delayed release, or anything but a plain oral tablet or capsule. */
  usualForm: boolean;
  brand: string | null;
  /** The first strength as a number (for ordering), or Infinity. */
  strengthValue: number;
}

const NUMBER = /^\d[\d.,]*$/;
const UNIT = /^(?:MG|MCG|G|UNT|MEQ|ML|%)(?:\/(?:ML|ACTUAT|HR))?$/i;
const PACKAGE_UNIT = /^(?:HR|ML|ACTUAT)$/i;

/**
 * The parts of an RxNorm-style name. Read word by word (no searching regular
 * expressions: the names come from files and from upstream).
 */
export function drugNameParts(fullName: string): DrugNameParts {
  const full = fullName.trim().split(/\s+/).join(" ");
  const open = full.lastIndexOf("[");
  const hasBrand = open >= 0 && full.endsWith("]");
  const brand = hasBrand ? full.slice(open + 1, -1).trim() || null : null;
  const base = hasBrand ? full.slice(0, open).trim() : full;
  const tokens = base.split(" ");
  const combination = tokens.includes("/");
  // Strengths: a number followed by a unit ("500 MG", "0.09 MG/ACTUAT").
  const strengthAt: number[] = [];
  for (let t = 0; t + 1 < tokens.length; t++) {
    if (NUMBER.test(tokens[t]) && UNIT.test(tokens[t + 1])) strengthAt.push(t);
  }
  // A leading package size ("24 HR", "3 ML") is not part of the ingredient.
  const start = tokens.length > 2 && NUMBER.test(tokens[0]) && PACKAGE_UNIT.test(tokens[1]) ? 2 : 0;
  const first = strengthAt.find((t) => t >= start) ?? tokens.length;
  const last = strengthAt.length ? strengthAt[strengthAt.length - 1] : -1;
  const ingredient = tokens.slice(start, first).join(" ");
  const doseForm = last >= 0 ? tokens.slice(last + 2).join(" ") : "";
  const form = base.toLowerCase();
  const oralPill = form.includes("oral tablet") || form.includes("oral capsule");
  const release =
    form.includes("extended release") || form.includes("delayed release") || tokens[1] === "HR" || tokens[1] === "hr";
  const strengths = strengthAt.filter((t) => t >= start).map((t) => `${tokens[t]} ${tokens[t + 1].toLowerCase()}`);
  const combinationName = tokens.slice(start, last >= 0 ? last + 2 : tokens.length).join(" ");
  return {
    name: brand ?? (combination ? combinationName : ingredient || base),
    strength: strengths.join(" / "),
    route: oralPill
      ? "Oral Pill"
      : doseForm.toLowerCase().startsWith("oral")
        ? "Oral Liquid"
        : form.includes("inject") || form.includes("pen ")
          ? "Injectable"
          : doseForm,
    full_name: full,
    combination,
    usualForm: oralPill && !release,
    brand,
    strengthValue: first < tokens.length ? Number(tokens[first].split(",").join("")) : Number.POSITIVE_INFINITY,
  };
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9.]+/)
    .filter(Boolean);
}

/** Every typed word begins a word of the name (or its brand): "metf", "metformin 500", "lipit". */
export function drugNameMatches(query: string, fullName: string): boolean {
  const typed = words(query);
  if (typed.length === 0) return false;
  const have = words(fullName);
  return typed.every((t) => have.some((w) => w.startsWith(t)));
}

export interface RankableDrug {
  rxcui: string;
  full_name: string;
  /** How many plans list it (own formulary rows); more is more usual. */
  plans?: number;
}

/**
 * The order to show: names that begin with what was typed, then the plain
 * ingredient before combinations, brand names after generics unless the brand
 * was typed, usual forms first, the strengths most plans list first, then the
 * lower strength, then the name. Items not matching the typed words go last
 * (upstream may match on things we do not see), in their given order.
 */
export function rankDrugs<T extends RankableDrug>(query: string, items: readonly T[]): T[] {
  const typed = query.trim().toLowerCase();
  const keyed = items.map((item, index) => {
    const parts = drugNameParts(item.full_name);
    const matches = drugNameMatches(query, item.full_name);
    const ingredientFirst = parts.full_name
      .toLowerCase()
      .replace(/^\d+\s*(hr|ml|actuat)\s+/, "")
      .startsWith(typed);
    const brandTyped = parts.brand !== null && parts.brand.toLowerCase().startsWith(typed);
    return {
      item,
      index,
      key: [
        matches ? 0 : 1,
        ingredientFirst || brandTyped ? 0 : 1,
        parts.combination ? 1 : 0,
        parts.brand && !brandTyped ? 1 : 0,
        parts.usualForm ? 0 : 1,
        -(item.plans ?? 0),
        parts.strengthValue,
      ],
      name: parts.full_name.toLowerCase(),
    };
  });
  keyed.sort((a, b) => {
    if (a.key[0] === 1 && b.key[0] === 1) return a.index - b.index;
    for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i] - b.key[i];
    return a.name.localeCompare(b.name) || a.index - b.index;
  });
  return keyed.map((k) => k.item);
}
