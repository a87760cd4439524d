import { noUpstreamAnswer } from "./upstream-state";
import {
  doctorOption,
  drugOption,
  type DrugSuggestionView,
  type Kind,
  type ProviderSuggestionView,
  type SuggestionAnswer,
} from "./picker-options";

/**
 * The autocomplete's requests to /api/drugs/autocomplete and /api/providers/autocomplete: loaded
 * with the first letter typed in a picker's box (app/components/plans/suggest-input.tsx), not with
 * the page (issue 29 item 4, decision 406).
 */

async function postJson(path: string, body: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok) throw new Error(`suggestions answered ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

export function suggestionFetcher(kind: Kind, zip: string, year: number | undefined) {
  return async (query: string, signal: AbortSignal): Promise<SuggestionAnswer> => {
    if (kind === "drug") {
      const body = await postJson("/api/drugs/autocomplete", { query, ...(year ? { year } : {}) }, signal);
      const options = ((body.drugs as DrugSuggestionView[]) ?? []).map(drugOption);
      // Our own drug names answer while upstream does not: shown, with a hint that some may be missing.
      return {
        unavailable: noUpstreamAnswer(body.upstream) && options.length === 0,
        partial: noUpstreamAnswer(body.upstream) && options.length > 0,
        options,
      };
    }
    const body = await postJson("/api/providers/autocomplete", { query, zip }, signal);
    return {
      unavailable: noUpstreamAnswer(body.upstream),
      partial: body.upstream === "partial",
      options: ((body.providers as ProviderSuggestionView[]) ?? []).map(doctorOption),
    };
  };
}
