import { describe, expect, it } from "vitest";
import { benefitRowsFromText, benefitRowsText } from "../../../app/lib/benefit-rows-text";
import type { BenefitRowView } from "../../../app/components/plans/benefit-table";

/** The plan page's benefit rows travel as text (decision 133): they must come back as they went. */
const rows: BenefitRowView[] = [
  {
    name: "Primary Care Visit to Treat an Injury or Illness",
    covered: true,
    inNetwork: "$30 Copay after deductible",
    inNetworkTier2: null,
    outOfNetwork: "Not stated",
    notes: null,
  },
  {
    name: "Acupuncture",
    covered: false,
    inNetwork: "Not covered",
    inNetworkTier2: null,
    outOfNetwork: "Not covered",
    notes: "Exclusions: all",
  },
  {
    name: 'Dental "Check-Up" <b> & co',
    covered: null,
    inNetwork: "No Charge",
    inNetworkTier2: "$10 Copay",
    outOfNetwork: "100.00%",
    notes: "Limit: 2 Visit(s) per Year",
  },
];

describe("benefit rows as text", () => {
  it("reads back exactly the rows written: not-stated coverage, missing tier 2 and notes, quotes and markup characters", () => {
    const text = benefitRowsText(rows);
    expect(benefitRowsFromText(text)).toEqual(rows);
    expect(text.split("\n")).toHaveLength(3);
    expect(text.split("\n")[1]).toBe("Acupuncture\t0\tNot covered\t\tNot covered\tExclusions: all");
  });

  it("grows under JSON escaping by one character per separator or quote, nothing else", () => {
    const text = benefitRowsText(rows);
    expect(JSON.stringify(text).length - 2 - text.length).toBe(text.match(/[\t\n"]/g)?.length ?? 0);
  });

  it("turns tabs and line breaks inside a field into spaces, so rows and fields stay apart", () => {
    const messy: BenefitRowView[] = [
      {
        name: "Hearing\tAids",
        covered: true,
        inNetwork: "20%\r\ncoinsurance",
        inNetworkTier2: null,
        outOfNetwork: "Not stated",
        notes: "line one\nline two",
      },
    ];
    expect(benefitRowsFromText(benefitRowsText(messy))).toEqual([
      { ...messy[0], name: "Hearing Aids", inNetwork: "20% coinsurance", notes: "line one line two" },
    ]);
  });

  it("reads no rows from empty text", () => {
    expect(benefitRowsText([])).toBe("");
    expect(benefitRowsFromText("")).toEqual([]);
  });
});
