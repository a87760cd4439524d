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

const STRENGTH = /(\d[\d.,]*)\s*(MG|MCG|G|UNT|MEQ|ML|%)(?:\/(?:ML|ACTUAT|HR))?/i;

/** The parts of an RxNorm-style name. */
export function drugNameParts(fullName: string): DrugNameParts {
  const full = fullName.trim().replace(/\s+/g, " ");
  const brand = /\[([^\]]+)\]\s*$/.exec(full)?.[1]?.trim() ?? null;
  const base = full.replace(/\s*\[[^\]]+\]\s*$/, "");
  const combination = base.includes(" / ");
  const strengthMatch = STRENGTH.exec(base);
  const firstStrengthAt = strengthMatch ? strengthMatch.index : base.length;
  // The ingredient is the text before the first strength, without a leading package size ("24 HR").
  const ingredient = base
    .slice(0, firstStrengthAt)
    .replace(/^\d+\s*(HR|ML|ACTUAT)\s+/i, "")
    .trim();
  const lastStrength = [...base.matchAll(new RegExp(STRENGTH.source, "gi"))].pop();
  const doseForm = lastStrength ? base.slice((lastStrength.index ?? 0) + lastStrength[0].length).trim() : "";
  const form = `${base} ${doseForm}`.toLowerCase();
  const oralPill = /oral (tablet|capsule)/.test(form);
  const release = /extended release|delayed release|\b(12|24) hr\b/.test(form);
  const strengths = [...base.matchAll(new RegExp(STRENGTH.source, "gi"))].map((m) => `${m[1]} ${m[2].toLowerCase()}`);
  return {
    name: brand ?? (combination ? base.slice(0, base.length - doseForm.length).trim() : ingredient || base),
    strength: strengths.join(" / "),
    route: oralPill
      ? "Oral Pill"
      : /^oral/i.test(doseForm)
        ? "Oral Liquid"
        : /inject|pen/i.test(form)
          ? "Injectable"
          : doseForm,
    full_name: full,
    combination,
    usualForm: oralPill && !release,
    brand,
    strengthValue: strengthMatch ? Number(strengthMatch[1].replace(/,/g, "")) : Number.POSITIVE_INFINITY,
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
