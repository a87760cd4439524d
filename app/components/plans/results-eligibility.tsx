import { keptMarkup } from "../kept-markup";
import { EligibilitySummary } from "./eligibility-summary";
import type { EligibilityFacts } from "./eligibility-words";
import type { IncomeLineFact } from "./income-line-words";
import type { WhatIfView } from "./income-what-if";

/** The what-if chart only shows the server's figures: kept as drawn (decision 406). */
const IncomeWhatIf = keptMarkup(() => import("./income-what-if").then((m) => m.IncomeWhatIf), "what-if-part");

/**
 * The results page's savings estimate: the compact eligibility summary with the income what-if in
 * its details. It only shows the server's words and a native disclosure, so the results page keeps
 * it as the server drew it and loads this module (and its words) only to draw it itself
 * (routes/plans._index.tsx, decision 407).
 */
export function ResultsEligibility({
  eligibility,
  unavailable,
  state,
  ages,
  household,
  whatIf,
}: {
  eligibility: EligibilityFacts | null;
  unavailable: string | null;
  state: string;
  ages: readonly string[];
  household: { income: number; fplPercent: number; lines: readonly IncomeLineFact[] };
  whatIf: WhatIfView | null;
}) {
  return (
    <EligibilitySummary
      eligibility={eligibility}
      unavailable={unavailable}
      state={state}
      ages={ages}
      household={household}
      compact
      more={whatIf ? <IncomeWhatIf whatIf={whatIf} /> : null}
    />
  );
}
