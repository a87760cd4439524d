import { describe, expect, it } from "vitest";
import { rankingContext, rankingOf, type RankFacts } from "../../../../app/domain/yearly-cost/ranking";

const plan = (id: string, over: Partial<RankFacts> = {}): RankFacts => ({
  id,
  name: `Plan ${id}`,
  metalLevel: "Silver",
  csr: false,
  typical: 5000,
  badYear: 12000,
  drugs: [],
  doctors: [],
  ...over,
});

describe("ranking reasons (decision 333)", () => {
  const a = plan("A", { typical: 4000, badYear: 13000, metalLevel: "Bronze", drugs: [{ rxcui: "1", covered: false }] });
  const b = plan("B", { typical: 4500, badYear: 9000, csr: true, drugs: [{ rxcui: "1", covered: true }] });
  const c = plan("C", { typical: 6000, badYear: 8000, metalLevel: "Gold", drugs: [{ rxcui: "1", covered: null }] });
  const ctx = rankingContext([c, a, b]);

  it("the cheapest typical year says by how much, and what more care would change", () => {
    const r = rankingOf(ctx, a, 1);
    // $4,500 − $4,000 = $500 less than the next plan, B.
    expect(r.reasons[0]).toEqual({ code: "lowest_typical", values: { amount: 500, plan: "Plan B" } });
    expect(r.reasons).toContainEqual({ code: "drugs_covered", values: { covered: 0, total: 1 } });
    // Bad year: $13,000 − $8,000 (C) = $5,000 more.
    expect(r.reasons).toContainEqual({ code: "bad_year_more", values: { amount: 5000, plan: "Plan C" } });
    expect(r.changes).toEqual([{ code: "more_care_other_least", values: { plan: "Plan C" } }]);
  });

  it("warns about a bronze plan when a CSR silver is cheaper, and a missed drug a cheaper plan covers", () => {
    const r = rankingOf(ctx, a, 1);
    expect(r.warnings).toEqual([]); // A is the cheapest: nothing cheaper covers the drug or has CSR
    const dear = plan("D", {
      typical: 7000,
      badYear: 14000,
      metalLevel: "Gold",
      drugs: [{ rxcui: "1", covered: false }],
    });
    const ctx2 = rankingContext([a, b, c, dear]);
    const w = rankingOf(ctx2, dear, 4).warnings;
    // B: CSR silver at $4,500, $2,500 less than D's $7,000; B also covers drug 1.
    expect(w).toContainEqual({ code: "csr_silver_cheaper", values: { amount: 2500, plan: "Plan B" } });
    expect(w).toContainEqual({
      code: "misses_drug_cheaper_covers",
      values: { rxcui: "1", plan: "Plan B", amount: 2500 },
    });
  });

  it("a dearer plan with a lower bad year says what more care would change; unknown coverage is named, never warned about", () => {
    const r = rankingOf(ctx, c, 3);
    // $6,000 − $4,000 = $2,000 more than A.
    expect(r.reasons[0]).toEqual({ code: "typical_more", values: { amount: 2000, plan: "Plan A" } });
    expect(r.reasons).toContainEqual({ code: "coverage_unknown", values: { count: 1 } });
    expect(r.reasons).toContainEqual({ code: "lowest_bad_year", values: {} });
    // $13,000 (A's bad year) − $8,000 = $5,000 less with more care.
    expect(r.changes).toEqual([{ code: "more_care_this_less", values: { amount: 5000, plan: "Plan A" } }]);
    expect(r.warnings.filter((w) => w.code === "misses_drug_cheaper_covers")).toEqual([]);
  });

  it("a list of one plan says so", () => {
    expect(rankingOf(rankingContext([a]), a, 1).reasons[0]).toEqual({ code: "only_plan", values: {} });
  });
});

describe("rankingContext without sorting the list (issue 29)", () => {
  /** The context as it was made before: the whole list sorted by cost, then read in that order. */
  function sortedContext(plans: RankFacts[]) {
    const byCost = (a: RankFacts, b: RankFacts) =>
      a.typical - b.typical || a.badYear - b.badYear || a.id.localeCompare(b.id);
    const byTypical = [...plans].sort(byCost);
    let lowestBadYear: RankFacts | null = null;
    let cheapestCsrSilver: RankFacts | null = null;
    const cheapestCovering = new Map<string, RankFacts>();
    const cheapestInNetwork = new Map<string, RankFacts>();
    for (const p of byTypical) {
      if (!lowestBadYear || p.badYear < lowestBadYear.badYear) lowestBadYear = p;
      if (p.csr && !cheapestCsrSilver) cheapestCsrSilver = p;
      for (const d of p.drugs)
        if (d.covered === true && !cheapestCovering.has(d.rxcui)) cheapestCovering.set(d.rxcui, p);
      for (const d of p.doctors)
        if (d.inNetwork === true && !cheapestInNetwork.has(d.npi)) cheapestInNetwork.set(d.npi, p);
    }
    return { byTypical: byTypical.slice(0, 2), lowestBadYear, cheapestCsrSilver, cheapestCovering, cheapestInNetwork };
  }

  it("finds the same plans as sorting the whole list, ties included, on 300 random lists", () => {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 300; round++) {
      const plans: RankFacts[] = Array.from({ length: 1 + random(40) }, (_, i) => ({
        id: `P${random(1000)}-${i}`,
        name: `Plan ${i}`,
        metalLevel: ["Bronze", "Silver", "Gold"][random(3)],
        csr: random(4) === 0,
        // Few distinct amounts, so that ties are common.
        typical: 1000 + 100 * random(5),
        badYear: 5000 + 100 * random(4),
        drugs: [{ rxcui: "1", covered: random(2) === 0 }],
        doctors: [{ npi: "9", inNetwork: random(3) === 0 ? null : random(2) === 0 }],
      }));
      const ctx = rankingContext(plans);
      const want = sortedContext(plans);
      expect(ctx.byTypical).toEqual(want.byTypical);
      expect(ctx.lowestBadYear).toBe(want.lowestBadYear);
      expect(ctx.cheapestCsrSilver).toBe(want.cheapestCsrSilver);
      expect(ctx.cheapestCovering).toEqual(want.cheapestCovering);
      expect(ctx.cheapestInNetwork).toEqual(want.cheapestInNetwork);
      expect(ctx.count).toBe(plans.length);
    }
  });
});
