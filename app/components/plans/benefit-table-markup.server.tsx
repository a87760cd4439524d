import { renderToString } from "react-dom/server";
import { benefitRowsFromText } from "../../lib/benefit-rows-text";
import type { BenefitTableView } from "../../lib/page-views";
import { DEFAULT_LANGUAGE, type Language } from "../../i18n/i18n";
import { BenefitTable } from "./benefit-table";

/**
 * React's markup of the plan page's benefit table, for <Prerendered> (decisions 127 and 132). The
 * page model keeps one frozen view per plan variant, language and caption, so the markup is made
 * once per view object and kept with it. It is made from the rows as the browser reads them back
 * from the text, so the browser hydrates them over it without a mismatch.
 */
const markups = new WeakMap<BenefitTableView, string>();

export function benefitTableMarkup(view: BenefitTableView, lang: Language = DEFAULT_LANGUAGE): string {
  let html = markups.get(view);
  if (html === undefined) {
    html = renderToString(
      <BenefitTable caption={view.caption} rows={benefitRowsFromText(view.rowsText)} lang={lang} />,
    );
    markups.set(view, html);
  }
  return html;
}
