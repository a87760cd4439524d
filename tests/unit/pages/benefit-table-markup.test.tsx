// @vitest-environment jsdom
import { act } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { benefitRowsFromText, benefitRowsText } from "../../../app/lib/benefit-rows-text";
import { BenefitTable, BenefitTableFromText } from "../../../app/components/plans/benefit-table";
import { Prerendered, PrerenderedParts } from "../../../app/components/prerendered";
import { benefitTableMarkup as markupOf } from "../../../app/components/plans/benefit-table-markup.server";
import { benefitRows, benefitTableView } from "../../../app/server/pages/benefit-table.server";
import type { BenefitDetail, CostShareValue } from "../../../app/server/plan-store/plan-store.server";

/**
 * The plan page's benefit table is made once per plan variant and caption:
 * rows for the page's data, React's markup for the document (decisions 127
 * and 132). The markup must be exactly what <BenefitTable> renders for those
 * rows, so that the browser hydrates the rows over it without a mismatch.
 */

const share = (display: string | null): CostShareValue => ({
  display,
  value: null,
  noCharge: /no charge/i.test(display ?? ""),
  afterDeductible: /after deductible/i.test(display ?? ""),
  notApplicable: display === "Not Applicable",
});

function benefit(
  name: string,
  copay: string | null,
  coinsurance: string | null,
  extra: Partial<BenefitDetail> = {},
): BenefitDetail {
  return {
    name,
    covered: true,
    isEhb: true,
    inNetwork: { copay: share(copay), coinsurance: share(coinsurance) },
    outOfNetwork: { copay: share("Not Applicable"), coinsurance: share("100.00%") },
    limit: null,
    exclusions: null,
    explanation: null,
    excludedFromInNetworkMoop: null,
    excludedFromOutOfNetworkMoop: null,
    ...extra,
  };
}

const details = (): readonly BenefitDetail[] =>
  Object.freeze([
    benefit("Primary Care Visit to Treat an Injury or Illness", "$30 Copay after deductible", "No Charge"),
    benefit("Acupuncture", null, null, { covered: false }),
    benefit('Dental <b>Check-Up</b> & "cleaning"', "No Charge", "No Charge", {
      limit: { quantity: 2, unit: "Visit(s) per Year" },
    }),
  ]);

const CAPTION = "What you pay for each service";

/** The page model's view (benefitTableView) and the route's markup of it (benefitTableMarkup). */
function benefitTableMarkup(list: readonly BenefitDetail[], caption: string) {
  const view = benefitTableView(list, caption);
  return { view, html: markupOf(view) };
}

describe("benefitTableView and benefitTableMarkup", () => {
  it("is the markup <BenefitTable> renders for the plan's rows, with React's escaping", () => {
    const list = details();
    const table = benefitTableMarkup(list, CAPTION);
    expect(table.view).toEqual({ caption: CAPTION, rowsText: benefitRowsText(benefitRows([...list])) });
    expect(benefitRowsFromText(table.view.rowsText)).toEqual(benefitRows([...list]));
    expect(table.html).toBe(renderToString(<BenefitTable rows={benefitRows([...list])} caption={CAPTION} />));
    // A line-break chance after the slash (issue 28 item 4: no mid-word breaks, no sideways scroll).
    expect(table.html).toContain("Dental &lt;b&gt;Check-Up&lt;<!-- -->/<wbr/>b&gt; &amp; &quot;cleaning&quot;");
    expect(table.html).not.toContain("<b>");
    expect(table.html).toContain("Limit: 2 Visit(s) per Year");
    expect(table.html).toContain("Not covered");
  });

  it("is made once per benefit list and caption", () => {
    const list = details();
    const plain = benefitTableMarkup(list, CAPTION);
    expect(benefitTableView(list, CAPTION)).toBe(plain.view);
    // The markup is made once per view object (the route's cache).
    expect(markupOf(plain.view)).toBe(plain.html);
    const atSavings = benefitTableMarkup(list, `${CAPTION} at your savings level`);
    expect(atSavings.view).not.toBe(plain.view);
    expect(atSavings.html).toContain(`<caption>${CAPTION} at your savings level</caption>`);
    // Another list (another variant, or the same plan in a new store version) gets its own.
    const other = benefitTableMarkup(details().slice(0, 1), CAPTION);
    expect(benefitRowsFromText(other.view.rowsText)).toHaveLength(1);
    expect(other.html).not.toContain("Acupuncture");
  });
});

describe("<Prerendered>", () => {
  // As the plan page has it: the rows come as text in the page's data.
  const page = (rowsText: string) => (
    <main>
      <h2>All benefits</h2>
      <Prerendered part="benefit-table">
        <BenefitTableFromText rowsText={rowsText} caption={CAPTION} />
      </Prerendered>
    </main>
  );

  it("puts the part's markup in the document as it is, and renders its children when there is none", () => {
    const table = benefitTableMarkup(details(), CAPTION);
    const withPart = renderToString(
      <PrerenderedParts.Provider value={{ "benefit-table": table.html }}>
        {page(table.view.rowsText)}
      </PrerenderedParts.Provider>,
    );
    const without = renderToString(page(table.view.rowsText));
    expect(withPart).toBe(without);
    // The markup really came from the part: a different part shows.
    const marked = renderToString(
      <PrerenderedParts.Provider value={{ "benefit-table": "<p>made ahead</p>" }}>
        {page(table.view.rowsText)}
      </PrerenderedParts.Provider>,
    );
    expect(marked).toContain("<div><p>made ahead</p></div>");
  });

  it("hydrates in the browser over the made-ahead markup without a mismatch", async () => {
    const table = benefitTableMarkup(details(), CAPTION);
    const container = document.createElement("div");
    container.innerHTML = renderToString(
      <PrerenderedParts.Provider value={{ "benefit-table": table.html }}>
        {page(table.view.rowsText)}
      </PrerenderedParts.Provider>,
    );
    document.body.appendChild(container);
    const firstRow = container.querySelector("tbody tr");
    const errors: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, page(table.view.rowsText), { onRecoverableError: (error) => errors.push(error) });
    });
    expect(errors).toEqual([]);
    // The server's DOM was kept (hydrated, not replaced).
    expect(container.querySelector("tbody tr")).toBe(firstRow);
    // Three benefits under their kinds of care (issue 28 item 4): a heading row for each group.
    expect(container.querySelectorAll("tbody tr:not(.care-group)")).toHaveLength(3);
    expect(container.querySelectorAll("tbody tr.care-group")).toHaveLength(container.querySelectorAll("tbody").length);
  });

  it("would be caught by hydration if the markup did not match the rows", async () => {
    const table = benefitTableMarkup(details(), CAPTION);
    const container = document.createElement("div");
    container.innerHTML = renderToString(
      <PrerenderedParts.Provider value={{ "benefit-table": table.html.replace("Acupuncture", "Massage") }}>
        {page(table.view.rowsText)}
      </PrerenderedParts.Provider>,
    );
    const errors: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, page(table.view.rowsText), { onRecoverableError: (error) => errors.push(error) });
    });
    // React reports the mismatch and renders the rows afresh: the browser shows the data's rows.
    expect(errors.length).toBeGreaterThan(0);
    expect(container.textContent).toContain("Acupuncture");
    expect(container.textContent).not.toContain("Massage");
  });
});
