import type { SbcScenario, SbcScenarios } from "../plan-store/plan-store.server";

/**
 * The total allowed cost of each coverage example, fixed by the CMS Summary
 * of Benefits and Coverage template (45 CFR 147.200(a)(2)(i)(M); the SBC
 * instructions' coverage examples: Peg is having a baby $12,700, managing
 * Joe's type 2 diabetes $5,600, Mia's simple fracture $2,800). The plan's
 * data says what the member pays; the plan pays the rest.
 */
export const SBC_EXAMPLES = [
  {
    key: "havingABaby",
    title: "Having a baby",
    story: "Peg: 9 months of in-network prenatal care and a hospital delivery",
    totalCost: 12700,
  },
  {
    key: "managingDiabetes",
    title: "Managing type 2 diabetes",
    story: "Joe: a year of routine in-network care of a well-controlled condition",
    totalCost: 5600,
  },
  {
    key: "simpleFracture",
    title: "A simple fracture",
    story: "Mia: an in-network emergency room visit and follow-up care",
    totalCost: 2800,
  },
] as const;

export interface ScenarioView {
  key: string;
  title: string;
  story: string;
  totalCost: number;
  /** What the member pays; null when the plan's data does not give every part. */
  youPay: number | null;
  planPays: number | null;
  parts: { deductible: number | null; copayment: number | null; coinsurance: number | null; limit: number | null };
}

export function scenarioViews(scenarios: SbcScenarios): ScenarioView[] {
  return SBC_EXAMPLES.map((example) => {
    const s: SbcScenario | undefined = scenarios[example.key];
    const youPay = s?.total ?? null;
    return {
      key: example.key,
      title: example.title,
      story: example.story,
      totalCost: example.totalCost,
      youPay,
      planPays: youPay === null ? null : Math.max(0, example.totalCost - youPay),
      parts: {
        deductible: s?.deductible ?? null,
        copayment: s?.copayment ?? null,
        coinsurance: s?.coinsurance ?? null,
        limit: s?.limit ?? null,
      },
    };
  });
}

export const hasScenarios = (s: SbcScenarios | undefined): s is SbcScenarios =>
  Boolean(s && (s.havingABaby || s.managingDiabetes || s.simpleFracture));
