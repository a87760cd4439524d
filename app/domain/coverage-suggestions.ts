/**
 * Merging the three provider autocomplete answers (one per provider type) into
 * one list, and tidying drug suggestions. Pure.
 *
 * Order (docs/decisions/042-provider-autocomplete-merge-order.md): all
 * Individual answers first, then Facility, then Group, each in the order
 * upstream ranked them; an NPI already listed is dropped (first appearance
 * wins). The same input always gives the same list, whichever call finished
 * first.
 */

export const PROVIDER_TYPE_ORDER = ["Individual", "Facility", "Group"] as const;
export type ProviderTypeName = (typeof PROVIDER_TYPE_ORDER)[number];

/** At most this many suggestions of each type reach the list. */
export const MAX_SUGGESTIONS_PER_PROVIDER_TYPE = 20;
/** At most this many drug suggestions reach the list. */
export const MAX_DRUG_SUGGESTIONS = 25;

export function mergeProviderSuggestions<T extends { npi: string }>(
  answers: Partial<Record<ProviderTypeName, readonly T[]>>,
  perType = MAX_SUGGESTIONS_PER_PROVIDER_TYPE,
): Array<T & { type: ProviderTypeName }> {
  const seen = new Set<string>();
  const merged: Array<T & { type: ProviderTypeName }> = [];
  for (const type of PROVIDER_TYPE_ORDER) {
    for (const suggestion of (answers[type] ?? []).slice(0, perType)) {
      if (!suggestion.npi || seen.has(suggestion.npi)) continue;
      seen.add(suggestion.npi);
      merged.push({ ...suggestion, type });
    }
  }
  return merged;
}

/** Upstream's provider search answers this many a page, from an offset, with a total over all pages. */
export const PROVIDER_SEARCH_PAGE_SIZE = 25;

/**
 * Nearest first where upstream gave a distance (provider search; decision 381): suggestions with
 * a distance by miles, nearer first, and in merged order at equal miles; suggestions without one
 * (Group autocomplete) after them, in merged order. Upstream's own search order is not by distance.
 */
export function nearestFirst<T extends { distance: number | null }>(suggestions: readonly T[]): T[] {
  return suggestions
    .map((suggestion, index) => ({ suggestion, index }))
    .sort((a, b) => {
      const [da, db] = [a.suggestion.distance, b.suggestion.distance];
      if (da === null || db === null) return da === db ? a.index - b.index : da === null ? 1 : -1;
      return da - db || a.index - b.index;
    })
    .map(({ suggestion }) => suggestion);
}

/** Drug suggestions in upstream order without repeated RxCUIs, capped. */
export function distinctDrugSuggestions<T extends { rxcui: string }>(
  suggestions: readonly T[],
  max = MAX_DRUG_SUGGESTIONS,
): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const s of suggestions) {
    if (!s.rxcui || seen.has(s.rxcui)) continue;
    seen.add(s.rxcui);
    out.push(s);
    if (out.length >= max) break;
  }
  return out;
}
