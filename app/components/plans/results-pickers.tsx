import { noUpstreamAnswer } from "./upstream-state";
import type { ShoppingState } from "../../lib/shopping-url";
import { DrugsAndDoctors } from "./drugs-and-doctors";
import { doctorOption, drugOption, Picker, type SearchView } from "./picker";

/** A search as the results page's loader answers it (the drug or doctor search of the URL). */
export interface PickerSearch {
  query: string;
  error: string | null;
  answer: { upstream: string; drugs?: unknown[]; providers?: unknown[] } | null;
}

function searchView(search: PickerSearch | null, kind: "drug" | "doctor"): SearchView | null {
  if (!search) return null;
  const answer = search.answer;
  const options = !answer
    ? []
    : kind === "drug"
      ? ((answer.drugs ?? []) as Parameters<typeof drugOption>[0][]).map(drugOption)
      : ((answer.providers ?? []) as Parameters<typeof doctorOption>[0][]).map(doctorOption);
  return {
    query: search.query,
    error: search.error,
    // Own drug names can answer while upstream does not: then they show, marked as possibly incomplete.
    unavailable: noUpstreamAnswer(answer?.upstream) && options.length === 0,
    partial: answer?.upstream === "partial" || (noUpstreamAnswer(answer?.upstream) && options.length > 0),
    options,
  };
}

/**
 * The results page's drugs and doctors: the disclosure with its two pickers, one part of the page
 * that becomes live on use (decision 440).
 */
export function ResultsPickers({
  state,
  drugSearch,
  doctorSearch,
  year,
  drugUpstream,
  doctorUpstream,
}: {
  state: ShoppingState;
  drugSearch: PickerSearch | null;
  doctorSearch: PickerSearch | null;
  year: number;
  /** The coverage answers' `upstream`, if any. */
  drugUpstream: unknown;
  doctorUpstream: unknown;
}) {
  return (
    <DrugsAndDoctors
      drugs={state.drugs}
      doctors={state.doctors}
      searching={drugSearch !== null || doctorSearch !== null}
    >
      <Picker
        kind="drug"
        state={state}
        selections={state.drugs}
        search={searchView(drugSearch, "drug")}
        year={year}
        coverageUnavailable={noUpstreamAnswer(drugUpstream)}
      />
      <Picker
        kind="doctor"
        state={state}
        selections={state.doctors}
        search={searchView(doctorSearch, "doctor")}
        year={year}
        coverageUnavailable={noUpstreamAnswer(doctorUpstream)}
      />
    </DrugsAndDoctors>
  );
}
