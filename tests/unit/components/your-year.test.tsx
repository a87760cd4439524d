import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PageLanguage } from "../../../app/i18n/language-context";
import {
  RankingWarnings,
  YourYearBreakdown,
  YourYearLine,
  type YourYear,
} from "../../../app/components/plans/your-year";

/** Issue 26 item 5: the card's line and the plan page's breakdown, server-rendered, in English and Spanish. */

const YEAR: YourYear = {
  typical: 5226.88,
  bad_year: 13386.88,
  worst_case: 12786.88,
  parts: {
    premiums: 2636.88,
    drugs: [
      {
        rxcui: "617318",
        coverage: "NotCovered",
        tier: null,
        fills_per_year: 12,
        yearly_cost: 3600,
        counts_toward_max: false,
        prior_authorization: false,
        step_therapy: false,
      },
      {
        rxcui: "861007",
        coverage: "PartialCovered",
        tier: "PREFERRED-GENERIC",
        fills_per_year: 12,
        yearly_cost: 120,
        counts_toward_max: true,
        prior_authorization: true,
        step_therapy: false,
      },
    ],
    doctors: [{ npi: "1480000045", in_network: null, visits_per_year: 4, yearly_cost: 240, counts_toward_max: true }],
    other_care: { usage: "medium", yearly_cost: 630 },
    out_of_pocket_max: 10150,
    outside_max: 3600,
  },
  unknowns: [{ kind: "doctor_network", npi: "1480000045", low: 240, high: 1000 }],
};

const render = (lang: "en" | "es", element: ReturnType<typeof createElement>) =>
  renderToString(createElement(PageLanguage.Provider, { value: lang }, element)).replace(/<!-- -->/g, "");

describe("your year on the pages", () => {
  it("the card line, whole dollars, in each language", () => {
    expect(render("en", createElement(YourYearLine, { year: YEAR }))).toContain(
      "Your year: about $5,227 (bad year $13,387; at most $12,787)",
    );
    expect(render("es", createElement(YourYearLine, { year: YEAR }))).toContain(
      "Su año: unos $5,227 (año malo $13,387; como máximo $12,787)",
    );
  });

  it("the breakdown names each drug and doctor with what was assumed", () => {
    const html = render(
      "en",
      createElement(YourYearBreakdown, {
        year: YEAR,
        drugNames: new Map([
          ["617318", "Lipitor 20 mg"],
          ["861007", "metformin 500 mg"],
        ]),
        doctorNames: new Map([["1480000045", "Dr Silverdale"]]),
      }),
    );
    expect(html).toContain("Drug Lipitor 20 mg");
    expect(html).toContain("not covered: full price, not capped");
    expect(html).toContain("needs prior authorization");
    expect(html).toContain("coverage not known: $240 to $1,000 a year");
    expect(html).toContain("$3,600.00");
    expect(html).toContain("Care outside the maximum");
    const es = render(
      "es",
      createElement(YourYearBreakdown, { year: YEAR, drugNames: new Map(), doctorNames: new Map() }),
    );
    expect(es).toContain("Su año con este plan");
    expect(es).toContain("Año típico");
  });

  it("a card lists the ranking's warnings, and nothing when there are none", () => {
    const warning = "A silver plan with your extra savings (Plan B) has a lower typical cost: $2,500 a year less";
    const html = render("en", createElement(RankingWarnings, { warnings: [warning] }));
    expect(html).toContain("1 warning");
    expect(html).toContain(`<li>${warning}</li>`);
    expect(render("en", createElement(RankingWarnings, { warnings: [] }))).toBe("");
  });
});
