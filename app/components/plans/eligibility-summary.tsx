import type { ReactNode } from "react";
import eligibilityWords from "virtual:english/eligibility";
import incomeLinesWords from "virtual:english/incomeLines";
import membersWords from "virtual:english/members";
import { addEnglish, type Catalogue } from "../../i18n/i18n";
import { eligibilityMessages, fplWords, type EligibilityFacts } from "./eligibility-words";
import { useWords } from "./format";
import { incomeLineSentences, type IncomeLineFact } from "./income-line-words";

// Its words come with it (the plan page; the results page loads it only to draw it itself, decision 407).
addEnglish({
  eligibility: eligibilityWords,
  incomeLines: incomeLinesWords,
  members: membersWords,
} as Partial<Catalogue>);

/** The eligibility result in plain words: credit, savings level, Medicaid/CHIP, coverage gap or Essential Plan, and what to do next. */
export function EligibilitySummary({
  eligibility,
  unavailable,
  state,
  headingLevel = 2,
  ages = [],
  household,
  compact = false,
  more,
}: {
  eligibility: EligibilityFacts | null;
  unavailable: string | null;
  state: string;
  headingLevel?: 2 | 3;
  /** The ages as typed, to name who a note is about. */
  ages?: readonly string[];
  /** The household's income, FPL percent and income lines (given also when the estimate is unavailable). */
  household?: { income: number; fplPercent: number; lines: readonly IncomeLineFact[] };
  /**
   * The results page's form (issue 17 item 3): each message's heading in a short list, the rest
   * (and `more`, the income what-if) in a native disclosure that works without JavaScript.
   */
  compact?: boolean;
  more?: ReactNode;
}) {
  const w = useWords();
  const { t } = w;
  const messages = eligibilityMessages(eligibility, unavailable, state, ages, w);
  const where = household ? incomeLineSentences(household.lines, household.income, w) : null;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const SubHeading = headingLevel === 2 ? "h3" : "h4";
  const fpl = fplWords(
    eligibility?.fpl_percent ?? household?.fplPercent ?? null,
    eligibility?.source === "own" ? "own" : "upstream",
    w,
  );
  const details = (
    <>
      {messages.map((m) => (
        <div
          key={m.id}
          className={`notice ${m.tone === "warn" ? "warn" : m.tone === "good" ? "good" : ""}`}
          data-message={m.id}
        >
          <SubHeading className="notice-heading">{m.heading}</SubHeading>
          {m.body.map((text, i) => (
            <p key={i}>{text}</p>
          ))}
          {m.links.length > 0 ? (
            <ul className="link-list">
              {m.links.map((l) => (
                <li key={l.href}>
                  <a href={l.href} rel="noopener noreferrer">
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ))}
      {fpl ? <p className="hint">{fpl}</p> : null}
      {where && (where.above || where.below) ? (
        <div className="income-lines" data-testid="income-lines">
          <SubHeading>{t("eligibility.whereIncomeStands")}</SubHeading>
          <ul>
            {where.below ? <li>{where.below}</li> : null}
            {where.above ? <li>{where.above}</li> : null}
          </ul>
        </div>
      ) : null}
      <p className="hint">{t("eligibility.finalHint")}</p>
      {more}
    </>
  );
  if (compact) {
    // One line once set (issue 28 item 1): the first message's heading; the others and the details open from it.
    const [first, ...rest] = messages;
    const tone = (m: (typeof messages)[number]) => (m.tone === "warn" ? "warn" : m.tone === "good" ? "good" : "");
    return (
      <section className="eligibility compact" aria-labelledby="eligibility-heading" data-testid="eligibility-summary">
        <Heading id="eligibility-heading" className="visually-hidden">
          {t("eligibility.heading")}
        </Heading>
        <details className="savings-details">
          <summary>
            {first ? (
              <span className={`savings-first ${tone(first)}`} data-line={first.id}>
                {first.heading}
              </span>
            ) : (
              t("eligibility.heading")
            )}
            <span className="hint-inline">
              {" · "}
              {rest.length > 0 ? t("eligibility.more", { count: rest.length }) : t("eligibility.detailsSummary")}
            </span>
          </summary>
          {rest.length > 0 ? (
            <ul className="savings-lines">
              {rest.map((m) => (
                <li key={m.id} className={tone(m)} data-line={m.id}>
                  {m.heading}
                </li>
              ))}
            </ul>
          ) : null}
          {details}
        </details>
      </section>
    );
  }
  return (
    <section className="eligibility" aria-labelledby="eligibility-heading" data-testid="eligibility-summary">
      <Heading id="eligibility-heading">{t("eligibility.heading")}</Heading>
      {details}
    </section>
  );
}
