import type { Selection } from "../../lib/shopping-url";
import { doctorCoverageWords, drugCoverageWords, type CoverageAnswer, type UpstreamState } from "./coverage-words";
import { ENGLISH, useWords, type Words } from "./format";

export interface CoverageCheckView {
  upstream: UpstreamState;
  selections: Selection[];
  results: Array<CoverageAnswer & { plan_id: string; rxcui?: string; npi?: string }>;
}

function answerFor(check: CoverageCheckView, kind: "drug" | "doctor", code: string, planId: string) {
  return check.results.find((r) => r.plan_id === planId && (kind === "drug" ? r.rxcui : r.npi) === code);
}

/** One line per chosen drug or doctor for one plan: covered (tier), with restrictions, not covered, unknown. */
export function CoverageLines({
  check,
  kind,
  planId,
}: {
  check: CoverageCheckView | null;
  kind: "drug" | "doctor";
  planId: string;
}) {
  const w = useWords();
  if (!check || check.selections.length === 0) return null;
  return (
    <ul
      className="coverage-lines"
      aria-label={kind === "drug" ? w.t("coverage.yourDrugs") : w.t("coverage.yourDoctors")}
    >
      {check.selections.map((s) => {
        const answer = answerFor(check, kind, s.code, planId);
        const words =
          kind === "drug"
            ? drugCoverageWords(answer, check.upstream, w)
            : doctorCoverageWords(answer, check.upstream, w);
        return (
          <li key={s.code} className={`coverage ${words.tone}`} data-coverage={words.tone}>
            <span className="coverage-mark" aria-hidden="true">
              {words.tone === "covered"
                ? "✓"
                : words.tone === "restricted"
                  ? "!"
                  : words.tone === "not-covered"
                    ? "✗"
                    : "?"}
            </span>{" "}
            <span className="coverage-name">{s.name}:</span> {words.text}
          </li>
        );
      })}
    </ul>
  );
}

/** Just the words, for a table cell. */
export function coverageText(
  check: CoverageCheckView,
  kind: "drug" | "doctor",
  code: string,
  planId: string,
  w: Words = ENGLISH,
) {
  const answer = answerFor(check, kind, code, planId);
  return kind === "drug"
    ? drugCoverageWords(answer, check.upstream, w)
    : doctorCoverageWords(answer, check.upstream, w);
}
