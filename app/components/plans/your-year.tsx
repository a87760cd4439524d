import myYearWords from "virtual:english/myYear";
import { addEnglish, INTL_LOCALES, type Catalogue, type Language } from "../../i18n/i18n";
import { money, useWords, type Words } from "./format";
import { tierWords, usageShort } from "./plan-words";

// Its words come with it: the plan page, the comparison, a card drawn in the browser (decision 407).
addEnglish({ myYear: myYearWords } as Partial<Catalogue>);

/**
 * "Your year" (issue 26; docs/yearly-cost.md): the shopper's own yearly cost of a plan with their
 * drugs and doctors, as a range. A one-line summary for a card (`YourYearLine`), the breakdown for
 * the plan page (`YourYearBreakdown`) and the words of a comparison cell (`yourYearWords`). Server
 * rendered; no JavaScript needed.
 */

/** The parts of POST /api/plans' `my_yearly_cost` these components read. */
export interface YourYear {
  typical: number;
  bad_year: number;
  worst_case: number;
  parts: {
    premiums: number;
    drugs: Array<{
      rxcui: string;
      coverage: string;
      tier: string | null;
      fills_per_year: number;
      yearly_cost: number;
      counts_toward_max: boolean;
      prior_authorization: boolean;
      step_therapy: boolean;
    }>;
    doctors: Array<{
      npi: string;
      in_network: boolean | null;
      visits_per_year: number;
      yearly_cost: number;
      counts_toward_max: boolean;
    }>;
    other_care: { usage: string; yearly_cost: number };
    out_of_pocket_max: number;
    outside_max: number;
  };
  unknowns: Array<{ kind: string; rxcui?: string; npi?: string; low?: number; high?: number }>;
}

const whole = new Map<Language, Intl.NumberFormat>();

/** $1,235: the range is an estimate, so whole dollars. */
export function dollars(amount: number, lang: Language): string {
  let format = whole.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(INTL_LOCALES[lang], {
      style: "currency",
      currency: "USD",
      maximumFractionDigits: 0,
    });
    whole.set(lang, format);
  }
  return format.format(Math.round(amount));
}

/** "Your year: about $X (bad year $Y; at most $Z)" in the page's language. */
export function yourYearWords(year: YourYear, w: Words): string {
  return w.t("myYear.line", {
    typical: dollars(year.typical, w.lang),
    badYear: dollars(year.bad_year, w.lang),
    worstCase: dollars(year.worst_case, w.lang),
  });
}

/**
 * The card's line, and the ranking's warnings of a likely poor choice (issue 26 item 4; already in
 * the page's words) folded at its end ("⚠ 1 warning"): the card keeps its height (issue 28).
 */
export function YourYearLine({ year, warnings }: { year: YourYear; warnings?: readonly string[] }) {
  const w = useWords();
  return (
    <div className="your-year" data-testid="your-year">
      {yourYearWords(year, w)}
      <RankingWarnings warnings={warnings} />
    </div>
  );
}

/** The warnings, folded into one short summary; nothing when none. */
export function RankingWarnings({ warnings }: { warnings: readonly string[] | undefined }) {
  const { t } = useWords();
  if (!warnings || warnings.length === 0) return null;
  return (
    <details className="ranking-warnings" data-testid="ranking-warnings">
      <summary>
        <span aria-hidden="true">⚠ </span>
        {t("myYear.warnings", { count: warnings.length })}
      </summary>
      <ul>
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
    </details>
  );
}

type Names = ReadonlyMap<string, string>;

function drugNote(d: YourYear["parts"]["drugs"][number], year: YourYear, w: Words): string {
  const notes: string[] = [w.t("myYear.fills", { count: d.fills_per_year })];
  if (d.coverage === "NotCovered") notes.push(w.t("myYear.notCovered"));
  else if (d.coverage === "DataNotProvided") {
    const range = year.unknowns.find((u) => u.kind === "drug_coverage" && u.rxcui === d.rxcui);
    if (range?.low !== undefined && range.high !== undefined)
      notes.push(w.t("myYear.unknown", { low: dollars(range.low, w.lang), high: dollars(range.high, w.lang) }));
  } else if (d.tier) notes.push(w.t("myYear.tier", { tier: tierWords(d.tier, w) ?? d.tier }));
  if (d.prior_authorization) notes.push(w.t("myYear.priorAuth"));
  if (d.step_therapy) notes.push(w.t("myYear.stepTherapy"));
  return notes.join("; ");
}

function doctorNote(d: YourYear["parts"]["doctors"][number], year: YourYear, w: Words): string {
  const notes: string[] = [w.t("myYear.visits", { count: d.visits_per_year })];
  if (d.in_network === false) notes.push(w.t("myYear.outOfNetwork"));
  if (d.in_network === null) {
    const range = year.unknowns.find((u) => u.kind === "doctor_network" && u.npi === d.npi);
    if (range?.low !== undefined && range.high !== undefined)
      notes.push(w.t("myYear.unknown", { low: dollars(range.low, w.lang), high: dollars(range.high, w.lang) }));
  }
  return notes.join("; ");
}

/**
 * The plan page's breakdown: premiums, each drug, each doctor and other care for a typical year,
 * then the range, what lies outside the maximum, the ranking reasons and the assumptions.
 */
export function YourYearBreakdown({
  year,
  drugNames,
  doctorNames,
  reasons = [],
}: {
  year: YourYear;
  drugNames: Names;
  doctorNames: Names;
  reasons?: readonly string[];
}) {
  const w = useWords();
  const { t, lang } = w;
  const { parts } = year;
  return (
    <section className="your-year-breakdown" aria-labelledby="your-year-heading" data-testid="your-year-breakdown">
      <h2 id="your-year-heading">{t("myYear.heading")}</h2>
      <p>{t("myYear.intro", { usage: usageShort(parts.other_care.usage, w) })}</p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={t("myYear.tableLabel")}>
        <table>
          <tbody>
            <tr>
              <th scope="row">{t("myYear.premiums")}</th>
              <td>{money(parts.premiums, lang)}</td>
            </tr>
            {parts.drugs.map((d) => (
              <tr key={`drug-${d.rxcui}`}>
                <th scope="row">
                  {t("myYear.drug", { name: drugNames.get(d.rxcui) ?? d.rxcui })}
                  <span className="figure-note"> ({drugNote(d, year, w)})</span>
                </th>
                <td>{money(d.yearly_cost, lang)}</td>
              </tr>
            ))}
            {parts.doctors.map((d) => (
              <tr key={`doctor-${d.npi}`}>
                <th scope="row">
                  {t("myYear.doctor", { name: doctorNames.get(d.npi) ?? d.npi })}
                  <span className="figure-note"> ({doctorNote(d, year, w)})</span>
                </th>
                <td>{money(d.yearly_cost, lang)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">{t("myYear.otherCare", { usage: usageShort(parts.other_care.usage, w) })}</th>
              <td>{money(parts.other_care.yearly_cost, lang)}</td>
            </tr>
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{t("myYear.typical")}</th>
              <td data-testid="your-year-typical">{money(year.typical, lang)}</td>
            </tr>
            <tr>
              <th scope="row">{t("myYear.badYear")}</th>
              <td>{money(year.bad_year, lang)}</td>
            </tr>
            <tr>
              <th scope="row">
                {t("myYear.worstCase")}
                <span className="figure-note">
                  {" "}
                  ({t("myYear.maxLine")}: {money(parts.out_of_pocket_max, lang)})
                </span>
              </th>
              <td>{money(year.worst_case, lang)}</td>
            </tr>
            {parts.outside_max > 0 ? (
              <tr>
                <th scope="row">
                  {t("myYear.outsideMax")}
                  <span className="figure-note"> ({t("myYear.notCovered")})</span>
                </th>
                <td>{money(parts.outside_max, lang)}</td>
              </tr>
            ) : null}
          </tfoot>
        </table>
      </div>
      {reasons.length > 0 ? (
        <>
          <h3>{t("myYear.rankingHeading")}</h3>
          <ul>
            {reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </>
      ) : null}
      <details>
        <summary>{t("myYear.assumptions")}</summary>
        <p>{t("myYear.assumptionsBody")}</p>
      </details>
    </section>
  );
}
