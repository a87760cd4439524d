import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { benefitRowsFromText, benefitRowsText } from "../../components/plans/benefit-rows-text";
import { BenefitTable, type BenefitRowView } from "../../components/plans/benefit-table";
import { describeTierCostShare } from "../../domain/cost-share";
import { groupByCare } from "../../domain/care-groups";
import { DEFAULT_LANGUAGE, tFor, type Language } from "../../i18n/i18n";
import SPANISH_BENEFIT_NAMES from "../../i18n/locales/es-benefits.json";
import type { BenefitDetail } from "../plan-store/plan-store.server";

/** A row of the benefit table, as <BenefitTable> shows it. */
export type BenefitRow = BenefitRowView;

/**
 * A benefit's name in the page's language: the PUF's standard benefit names have a Spanish name
 * (app/i18n/locales/es-benefits.json); an insurer's own benefit keeps the name the data gives it.
 */
export function benefitName(name: string, lang: Language): string {
  if (lang !== "es") return name;
  return (SPANISH_BENEFIT_NAMES.names as Record<string, string>)[name] ?? name;
}

/** A benefit limit's unit ("Visit(s) per Year") in the page's language; an unknown unit as the data gives it. */
export function limitUnit(unit: string, lang: Language): string {
  if (lang !== "es") return unit;
  return (SPANISH_BENEFIT_NAMES.limitUnits as Record<string, string>)[unit] ?? unit;
}

/**
 * The benefit table in the PUF's own words ("$30 Copay after deductible", "No Charge"), one row per
 * benefit; <BenefitTable> words the cost shares in the page's language. The insurer's notes
 * (limit units, exclusions, explanations) are free text in the data's language.
 */
export function benefitRows(details: readonly BenefitDetail[], lang: Language = DEFAULT_LANGUAGE): BenefitRow[] {
  const t = tFor(lang);
  // Grouped by kind of care in the fixed order (issue 28 item 4), from the data's own English names.
  return groupByCare(details, (b) => b.name).flatMap(({ group, items }) => items.map((b) => ({ ...row(b), group })));
  function row(b: BenefitDetail): Omit<BenefitRow, "group"> {
    const notCovered = b.covered === false;
    const say = (share: BenefitDetail["inNetwork"] | undefined) =>
      notCovered ? t("coverage.notCovered") : (describeTierCostShare(share) ?? "");
    const notes = [
      b.limit && b.limit.quantity !== null
        ? t("benefits.limit", {
            limit: `${b.limit.quantity}${b.limit.unit ? ` ${limitUnit(b.limit.unit, lang)}` : ""}`,
          })
        : null,
      b.exclusions ? t("benefits.exclusions", { text: b.exclusions }) : null,
      b.explanation,
    ].filter((n): n is string => Boolean(n && n.trim()));
    return {
      name: benefitName(b.name, lang),
      covered: b.covered,
      inNetwork: say(b.inNetwork),
      inNetworkTier2: b.inNetworkTier2 && !notCovered ? (describeTierCostShare(b.inNetworkTier2) ?? "") : null,
      outOfNetwork: say(b.outOfNetwork),
      notes: notes.length ? notes.join(". ").slice(0, 400) : null,
    };
  }
}

/**
 * The benefit table, as rows for the page's data and as React's markup for
 * the document.
 *
 * It is the same for everyone who looks at one plan variant, and it is most
 * of the plan page (60-odd rows), so its rows and markup are made once per
 * variant and caption and kept for as long as the store version keeps the
 * plan record (keyed by the record's own frozen benefit list). The document
 * puts the markup in place as it is (<Prerendered>); the browser hydrates the
 * rows over it. Measured in docs/benchmarks.md; decisions 127 and 132.
 */
export interface BenefitTableView {
  caption: string;
  /** The rows as text (benefitRowsText, decision 133). */
  rowsText: string;
}

const benefitTables = new WeakMap<readonly BenefitDetail[], Map<string, { view: BenefitTableView; html: string }>>();

export function benefitTableMarkup(
  details: readonly BenefitDetail[],
  caption: string,
  lang: Language = DEFAULT_LANGUAGE,
): { view: BenefitTableView; html: string } {
  let byCaption = benefitTables.get(details);
  if (!byCaption) {
    byCaption = new Map();
    benefitTables.set(details, byCaption);
  }
  // One table per language and caption: the rows and the markup are worded in the page's language.
  const key = `${lang}\u0000${caption}`;
  let table = byCaption.get(key);
  if (!table) {
    const rowsText = benefitRowsText(benefitRows(details, lang));
    // The markup is made from the rows as the browser will read them back from the text.
    table = {
      view: Object.freeze({ caption, rowsText }),
      html: renderToString(createElement(BenefitTable, { caption, rows: benefitRowsFromText(rowsText), lang })),
    };
    byCaption.set(key, table);
  }
  return table;
}
