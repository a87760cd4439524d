import { csrWords, money } from "./format";

/**
 * The eligibility summary in plain words, with what to do next and real
 * links. Pure: the results, detail and compare pages render these messages,
 * and tests read them without a browser.
 */

export interface EligibilityFacts {
  aptc: number;
  csr: string | null;
  is_medicaid_chip: boolean;
  in_coverage_gap: boolean;
  essential_plan?: boolean;
  fpl_percent: number | null;
  /** On our own estimate standing in for the federal one: a sentence saying so. */
  note?: string;
}

export interface Link {
  label: string;
  href: string;
}

export interface EligibilityMessage {
  id: string;
  tone: "good" | "info" | "warn";
  heading: string;
  body: string[];
  links: Link[];
}

export const LINKS = {
  medicaidChip: { label: "Medicaid and CHIP on HealthCare.gov", href: "https://www.healthcare.gov/medicaid-chip/" },
  medicaidExpansion: {
    label: "Medicaid expansion and the coverage gap (HealthCare.gov)",
    href: "https://www.healthcare.gov/medicaid-chip/medicaid-expansion-and-you/",
  },
  healthCenter: { label: "Find a low-cost community health center", href: "https://findahealthcenter.hrsa.gov/" },
  essentialPlan: {
    label: "About the Essential Plan (NY State of Health)",
    href: "https://info.nystateofhealth.ny.gov/EssentialPlan",
  },
  nyApply: { label: "Apply at NY State of Health", href: "https://nystateofhealth.ny.gov/" },
  taxCredit: {
    label: "How the premium tax credit works (HealthCare.gov)",
    href: "https://www.healthcare.gov/lower-costs/",
  },
} satisfies Record<string, Link>;

export function eligibilityMessages(
  eligibility: EligibilityFacts | null,
  unavailable: string | null,
  state: string,
): EligibilityMessage[] {
  const messages: EligibilityMessage[] = [];
  if (!eligibility) {
    messages.push({
      id: "estimate-unavailable",
      tone: "warn",
      heading: "We could not estimate your tax credit right now",
      body: [
        unavailable ?? "The subsidy estimate is unavailable right now.",
        "The prices below are full prices, before any tax credit. You may pay less: try again in a few minutes.",
      ],
      links: [LINKS.taxCredit],
    });
    return messages;
  }
  const ny = state === "NY";
  if (eligibility.note) {
    messages.push({
      id: "own-estimate",
      tone: "info",
      heading: "Our own estimate",
      body: [eligibility.note],
      links: [LINKS.taxCredit],
    });
  }
  if (eligibility.is_medicaid_chip) {
    messages.push({
      id: "medicaid",
      tone: "info",
      heading: "You may qualify for Medicaid or CHIP",
      body: [
        "Based on your income and household size, you (or your children) may be able to get free or low-cost coverage from Medicaid or the Children's Health Insurance Program (CHIP) instead of a Marketplace plan.",
        ny
          ? "What to do next: apply at NY State of Health, New York's marketplace, which decides Medicaid and CHIP too."
          : "What to do next: apply through your state's Medicaid agency or on HealthCare.gov. If you are told you do not qualify, come back and choose a plan below.",
      ],
      links: ny ? [LINKS.nyApply, LINKS.medicaidChip] : [LINKS.medicaidChip],
    });
  }
  if (eligibility.essential_plan) {
    messages.push({
      id: "essential-plan",
      tone: "info",
      heading: "You may qualify for New York's Essential Plan",
      body: [
        "The Essential Plan is New York's low-cost coverage for people with your income: most people pay no monthly premium and there is no deductible.",
        "What to do next: apply at NY State of Health and ask for the Essential Plan. The plans below are there if you do not qualify.",
      ],
      links: [LINKS.essentialPlan, LINKS.nyApply],
    });
  }
  if (eligibility.in_coverage_gap) {
    messages.push({
      id: "coverage-gap",
      tone: "warn",
      heading: "You may be in the coverage gap",
      body: [
        "Your income is below the lowest level for a tax credit on Marketplace plans, and your state has not expanded Medicaid to adults at your income.",
        "What to do next: check whether you qualify for Medicaid under your state's own rules (for example if you are pregnant, have a disability or care for children), and look for a community health center for low-cost care. You can still buy a plan below at full price.",
      ],
      links: [LINKS.medicaidExpansion, LINKS.healthCenter],
    });
  }
  if (eligibility.aptc > 0) {
    messages.push({
      id: "credit",
      tone: "good",
      heading: `You could get a tax credit of ${money(eligibility.aptc)} a month`,
      body: [
        `That is ${money(eligibility.aptc * 12)} over the year. We have taken it off the prices below ("after credit"). You can also take less each month and get the rest when you file your taxes.`,
      ],
      links: [LINKS.taxCredit],
    });
  } else if (!eligibility.is_medicaid_chip && !eligibility.in_coverage_gap && !eligibility.essential_plan) {
    messages.push({
      id: "no-credit",
      tone: "info",
      heading: "At this income you would not get a tax credit",
      body: [
        "The prices below are full prices. If your income for the year turns out lower, you may qualify: change your income to see.",
      ],
      links: [LINKS.taxCredit],
    });
  }
  const savings = csrWords(eligibility.csr);
  if (savings) {
    messages.push({
      id: "csr",
      tone: "good",
      heading: `Your savings level: silver plans have ${savings}`,
      body: [
        "You get these extra savings only with a silver plan. The deductibles, copays and out-of-pocket maximums shown for silver plans already include them.",
      ],
      links: [],
    });
  }
  return messages;
}

/** "about 250% of the federal poverty level", when the service computed it (NY). */
export function fplWords(fplPercent: number | null): string | null {
  if (fplPercent === null || !Number.isFinite(fplPercent)) return null;
  return `Your income is about ${Math.round(fplPercent)}% of the federal poverty level.`;
}
