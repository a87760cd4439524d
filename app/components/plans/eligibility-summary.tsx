import { eligibilityMessages, fplWords, type EligibilityFacts } from "./eligibility-words";

/** The eligibility result in plain words: credit, savings level, Medicaid/CHIP, coverage gap or Essential Plan, and what to do next. */
export function EligibilitySummary({
  eligibility,
  unavailable,
  state,
  headingLevel = 2,
}: {
  eligibility: EligibilityFacts | null;
  unavailable: string | null;
  state: string;
  headingLevel?: 2 | 3;
}) {
  const messages = eligibilityMessages(eligibility, unavailable, state);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const SubHeading = headingLevel === 2 ? "h3" : "h4";
  const fpl = fplWords(eligibility?.fpl_percent ?? null);
  return (
    <section className="eligibility" aria-labelledby="eligibility-heading" data-testid="eligibility-summary">
      <Heading id="eligibility-heading">Your savings estimate</Heading>
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
      <p className="hint">This is an estimate. The marketplace decides your final credit and savings when you apply.</p>
    </section>
  );
}
