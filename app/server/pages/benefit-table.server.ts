import { benefitRowsText } from "../../lib/benefit-rows-text";
import type { BenefitRowView, BenefitTableView } from "../../lib/page-views";
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

export type { BenefitTableView } from "../../lib/page-views";

/**
 * The benefit table's view (caption and rows as text) for one plan variant, language and caption.
 *
 * It is the same for everyone who looks at one plan variant, and it is most of the plan page
 * (60-odd rows), so it is made once per variant, language and caption and kept for as long as the
 * store version keeps the plan record (keyed by the record's own frozen benefit list). The view is
 * frozen and the same object each time: the route pre-renders its markup once per view object
 * (app/components/plans/benefit-table-markup.server.tsx, <Prerendered>); the browser hydrates the
 * rows over it. Measured in docs/benchmarks.md; decisions 127 and 132.
 */
const benefitTables = new WeakMap<readonly BenefitDetail[], Map<string, BenefitTableView>>();

export function benefitTableView(
  details: readonly BenefitDetail[],
  caption: string,
  lang: Language = DEFAULT_LANGUAGE,
): BenefitTableView {
  let byCaption = benefitTables.get(details);
  if (!byCaption) {
    byCaption = new Map();
    benefitTables.set(details, byCaption);
  }
  // One table per language and caption: the rows are worded in the page's language.
  const key = `${lang}\u0000${caption}`;
  let view = byCaption.get(key);
  if (!view) {
    view = Object.freeze({ caption, rowsText: benefitRowsText(benefitRows(details, lang)) });
    byCaption.set(key, view);
  }
  return view;
}
