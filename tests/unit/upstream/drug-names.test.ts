import { describe, expect, it } from "vitest";
import { drugNameMatches, drugNameParts, rankDrugs } from "../../../app/domain/drug-names";

const METFORMIN = [
  { rxcui: "1368001", full_name: "alogliptin 12.5 MG / metformin hydrochloride 500 MG Oral Tablet", plans: 3 },
  { rxcui: "860975", full_name: "24 HR metformin hydrochloride 500 MG Extended Release Oral Tablet", plans: 9 },
  { rxcui: "861004", full_name: "metformin hydrochloride 1000 MG Oral Tablet", plans: 9 },
  {
    rxcui: "1545150",
    full_name: "canagliflozin 50 MG / metformin hydrochloride 500 MG Oral Tablet [Invokamet]",
    plans: 2,
  },
  { rxcui: "861007", full_name: "metformin hydrochloride 500 MG Oral Tablet", plans: 9 },
];

describe("drug names", () => {
  it("reads an RxNorm name into the parts a list shows", () => {
    expect(drugNameParts("atorvastatin 20 MG Oral Tablet [Lipitor]")).toMatchObject({
      name: "Lipitor",
      strength: "20 mg",
      route: "Oral Pill",
      brand: "Lipitor",
      combination: false,
      usualForm: true,
    });
    expect(drugNameParts("24 HR metformin hydrochloride 500 MG Extended Release Oral Tablet")).toMatchObject({
      name: "metformin hydrochloride",
      strength: "500 mg",
      usualForm: false,
    });
    expect(drugNameParts("alogliptin 12.5 MG / metformin hydrochloride 500 MG Oral Tablet")).toMatchObject({
      combination: true,
      strength: "12.5 mg / 500 mg",
    });
  });

  it("matches typed words at the start of the name's words, in any order", () => {
    expect(drugNameMatches("metf", "metformin hydrochloride 500 MG Oral Tablet")).toBe(true);
    expect(drugNameMatches("metformin 1000", "metformin hydrochloride 1000 MG Oral Tablet")).toBe(true);
    expect(drugNameMatches("metformin 1000", "metformin hydrochloride 500 MG Oral Tablet")).toBe(false);
    expect(drugNameMatches("lipit", "atorvastatin 20 MG Oral Tablet [Lipitor]")).toBe(true);
    expect(drugNameMatches("formin", "metformin hydrochloride 500 MG Oral Tablet")).toBe(false);
  });

  it('ranks "metformin": plain tablets (500 mg, then 1000 mg) before extended release and combinations', () => {
    expect(rankDrugs("metformin", METFORMIN).map((d) => d.rxcui)).toEqual([
      "861007",
      "861004",
      "860975",
      "1368001",
      "1545150",
    ]);
  });

  it("puts the strength more plans list first", () => {
    const ranked = rankDrugs("metformin", [
      { rxcui: "861007", full_name: "metformin hydrochloride 500 MG Oral Tablet", plans: 2 },
      { rxcui: "861004", full_name: "metformin hydrochloride 1000 MG Oral Tablet", plans: 7 },
    ]);
    expect(ranked.map((d) => d.rxcui)).toEqual(["861004", "861007"]);
  });

  it("shows a brand first when the brand was typed, generics first otherwise", () => {
    const items = [
      { rxcui: "617318", full_name: "atorvastatin 20 MG Oral Tablet [Lipitor]" },
      { rxcui: "617310", full_name: "atorvastatin 20 MG Oral Tablet" },
    ];
    expect(rankDrugs("lipitor", items)[0].rxcui).toBe("617318");
    expect(rankDrugs("atorva", items)[0].rxcui).toBe("617310");
  });
});
