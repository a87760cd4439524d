import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BenefitTable } from "../../../app/components/plans/benefit-table";
import { benefitRows, benefitTableMarkup } from "../../../app/server/plan-page.server";
import type { BenefitDetail, CostShareValue } from "../../../app/server/plan-store.server";

/**
 * The plan page's benefit table is React's markup of <BenefitTable>, made
 * once per plan variant and caption (decision 127). It must be exactly what
 * the component renders, escaped as React escapes, and shared only where the
 * rows and caption are the same.
 */

const share = (display: string | null): CostShareValue => ({ display, value: null, noCharge: /no charge/i.test(display ?? ""), afterDeductible: /after deductible/i.test(display ?? ""), notApplicable: display === "Not Applicable" });

function benefit(name: string, copay: string | null, coinsurance: string | null, extra: Partial<BenefitDetail> = {}): BenefitDetail {
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
    benefit('Dental <b>Check-Up</b> & "cleaning"', "No Charge", "No Charge", { limit: { quantity: 2, unit: "Visit(s) per Year" } }),
  ]);

describe("benefitTableMarkup", () => {
  it("is the markup <BenefitTable> renders for the plan's rows, with React's escaping", () => {
    const rows = details();
    const table = benefitTableMarkup(rows, "What you pay for each service");
    expect(table.rows).toBe(3);
    expect(table.html).toBe(renderToStaticMarkup(<BenefitTable rows={benefitRows([...rows])} caption="What you pay for each service" />));
    expect(table.html).toContain("Dental &lt;b&gt;Check-Up&lt;/b&gt; &amp; &quot;cleaning&quot;");
    expect(table.html).not.toContain("<b>");
    expect(table.html).toContain("Limit: 2 Visit(s) per Year");
    expect(table.html).toContain("Not covered");
  });

  it("is made once per benefit list and caption", () => {
    const rows = details();
    const plain = benefitTableMarkup(rows, "What you pay for each service");
    expect(benefitTableMarkup(rows, "What you pay for each service")).toBe(plain);
    const atSavings = benefitTableMarkup(rows, "What you pay for each service at your savings level");
    expect(atSavings).not.toBe(plain);
    expect(atSavings.html).toContain("<caption>What you pay for each service at your savings level</caption>");
    // Another list (another variant, or the same plan in a new store version) gets its own markup.
    const other = benefitTableMarkup(details().slice(0, 1), "What you pay for each service");
    expect(other.rows).toBe(1);
    expect(other.html).not.toContain("Acupuncture");
  });
});
