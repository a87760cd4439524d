import coverageWords from "virtual:english/coverage";
import planCardWords from "virtual:english/planCard";
import { addEnglish, type Catalogue } from "../../i18n/i18n";
import type { Selection } from "../../lib/shopping-url";
import {
  doctorCoverageWords,
  drugCoverageWords,
  type CoverageAnswer,
  type CoverageTone,
  type UpstreamState,
} from "./coverage-words";
import { ENGLISH, useWords, type Words } from "./format";

// Its words (coverage-words.ts words them) come with it: the plan page, the comparison, a card drawn in the browser (decision 407).
addEnglish({ coverage: coverageWords, planCard: planCardWords } as Partial<Catalogue>);

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

const MARKS: Record<CoverageTone, string> = { covered: "✓", restricted: "!", "not-covered": "✗", unknown: "?" };
const TONES: readonly CoverageTone[] = ["covered", "restricted", "not-covered", "unknown"];

/** How many of the chosen drugs (or doctors) each answer has for one plan: covered, with limits, not covered, unknown. */
export function coverageCounts(check: CoverageCheckView, kind: "drug" | "doctor", planId: string, w: Words) {
  const counts: Record<CoverageTone, number> = { covered: 0, restricted: 0, "not-covered": 0, unknown: 0 };
  for (const s of check.selections) counts[coverageText(check, kind, s.code, planId, w).tone] += 1;
  return counts;
}

/**
 * A card's drugs and doctors in one line (issue 28 item 1): per kind, a mark and a count for each
 * answer there is ("Drugs ✓ 2 ✗ 1"), the words for screen readers; the line opens (a native
 * disclosure, no JavaScript needed) on one line per drug and doctor.
 */
export function CoverageCounts({
  drugs,
  doctors,
  planId,
}: {
  drugs: CoverageCheckView | null;
  doctors: CoverageCheckView | null;
  planId: string;
}) {
  const w = useWords();
  const { t } = w;
  const kinds = (
    [
      ["drug", drugs],
      ["doctor", doctors],
    ] as const
  ).filter(([, check]) => check && check.selections.length > 0) as Array<["drug" | "doctor", CoverageCheckView]>;
  if (kinds.length === 0) return null;
  return (
    <details className="coverage-counts" data-testid="coverage-counts">
      <summary>
        {kinds.map(([kind, check], i) => {
          const counts = coverageCounts(check, kind, planId, w);
          return (
            <span key={kind} className="coverage-count">
              {i > 0 ? <span aria-hidden="true"> · </span> : null}
              <span className="coverage-kind">{t(kind === "drug" ? "planCard.drugs" : "planCard.doctors")}</span>
              {TONES.filter((tone) => counts[tone] > 0).map((tone) => (
                <span key={tone} className={`coverage ${tone}`} data-coverage-count={tone}>
                  {" "}
                  <span className="coverage-mark" aria-hidden="true">
                    {MARKS[tone]}
                  </span>
                  <span aria-hidden="true">{counts[tone]}</span>
                  <span className="visually-hidden">
                    {t(`planCard.count.${kind}.${tone}`, { count: counts[tone] })}
                    {","}
                  </span>
                </span>
              ))}
            </span>
          );
        })}
      </summary>
      <CoverageLines check={drugs} kind="drug" planId={planId} />
      <CoverageLines check={doctors} kind="doctor" planId={planId} />
    </details>
  );
}
