import { csrWords, money } from "./format";
import { membersWords } from "./income-line-words";

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
  /** Indexes of the people on each programme (issue 15); absent in old answers. */
  medicaid_chip_members?: number[];
  essential_plan_members?: number[];
  medicare_members?: number[];
  coverage_family_members?: number[];
  source?: "own" | "upstream";
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
  medicare: {
    label: "Get started with Medicare (Medicare.gov)",
    href: "https://www.medicare.gov/basics/get-started-with-medicare",
  },
  medicareMarketplace: {
    label: "Medicare and the Marketplace (HealthCare.gov)",
    href: "https://www.healthcare.gov/medicare/medicare-and-the-marketplace/",
  },
} satisfies Record<string, Link>;

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function eligibilityMessages(
  eligibility: EligibilityFacts | null,
  unavailable: string | null,
  state: string,
  /** The ages as typed, to name the people a message is about. */
  ages: readonly string[] = [],
): EligibilityMessage[] {
  const messages: EligibilityMessage[] = [];
  const ny = state === "NY";
  // New Yorkers apply and get their credit at NY State of Health, not HealthCare.gov.
  const creditLinks = ny ? [LINKS.nyApply] : [LINKS.taxCredit];
  if (!eligibility) {
    messages.push({
      id: "estimate-unavailable",
      tone: "warn",
      heading: "We could not estimate your tax credit right now",
      body: [
        unavailable ?? "The subsidy estimate is unavailable right now.",
        "The prices below are full prices, before any tax credit. You may pay less: try again in a few minutes.",
      ],
      links: creditLinks,
    });
    return messages;
  }
  if (eligibility.note) {
    messages.push({
      id: "own-estimate",
      tone: "info",
      heading: "Our own estimate",
      body: [eligibility.note],
      links: creditLinks,
    });
  }
  const everyone = ages.length;
  // Whether a list names only part of the household: then the prices below are for the others.
  const some = (list: readonly number[] | undefined) => list !== undefined && list.length > 0 && list.length < everyone;
  const forOthers = "The plans and prices below are for the others in your household.";
  const medicare = eligibility.medicare_members ?? [];
  if (medicare.length > 0) {
    messages.push({
      id: "medicare",
      tone: "info",
      heading: `Medicare, not a Marketplace tax credit, for ${membersWords(medicare, ages)}`,
      body: [
        "People who can get premium-free Medicare Part A (most people 65 and older) cannot get a premium tax credit for a Marketplace plan, so we have left them out of the credit.",
        `What to do next: sign up for Medicare. If someone cannot get premium-free Part A, tick "Not eligible for premium-free Medicare Part A" for them and we will include them. ${some(medicare) ? forOthers : ""}`.trim(),
      ],
      links: [LINKS.medicare, LINKS.medicareMarketplace],
    });
  }
  if (eligibility.is_medicaid_chip && some(eligibility.medicaid_chip_members)) {
    messages.push({
      id: "medicaid",
      tone: "info",
      heading: `${capital(membersWords(eligibility.medicaid_chip_members!, ages))} may qualify for Medicaid or CHIP`,
      body: [
        "Based on your income and household size, they can likely get free or low-cost coverage from Medicaid or the Children's Health Insurance Program (CHIP), which rules out the tax credit for them.",
        `${ny ? "What to do next: apply at NY State of Health, which decides Medicaid and Child Health Plus too." : "What to do next: apply through your state's Medicaid agency or on HealthCare.gov."} ${forOthers}`,
      ],
      links: ny ? [LINKS.nyApply, LINKS.medicaidChip] : [LINKS.medicaidChip],
    });
  } else if (eligibility.is_medicaid_chip) {
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
  if (eligibility.essential_plan && some(eligibility.essential_plan_members)) {
    messages.push({
      id: "essential-plan",
      tone: "info",
      heading: `${capital(membersWords(eligibility.essential_plan_members!, ages))} may qualify for New York's Essential Plan`,
      body: [
        "The Essential Plan is New York's low-cost coverage for adults 19–64 with your income: most people pay no monthly premium and there is no deductible.",
        `What to do next: apply at NY State of Health and ask for the Essential Plan. ${forOthers}`,
      ],
      links: [LINKS.essentialPlan, LINKS.nyApply],
    });
  } else if (eligibility.essential_plan) {
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
      links: creditLinks,
    });
  } else if (
    !eligibility.is_medicaid_chip &&
    !eligibility.in_coverage_gap &&
    !eligibility.essential_plan &&
    !(medicare.length > 0 && medicare.length >= everyone)
  ) {
    messages.push({
      id: "no-credit",
      tone: "info",
      heading: "At this income you would not get a tax credit",
      body: [
        "The prices below are full prices. If your income for the year turns out lower, you may qualify: change your income to see.",
      ],
      links: creditLinks,
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

/** "250.3% of the federal poverty level", labelled as our estimate where the credit is the federal one. */
export function fplWords(fplPercent: number | null, source: "own" | "upstream" = "own"): string | null {
  if (fplPercent === null || !Number.isFinite(fplPercent)) return null;
  return `Your income is ${fplPercent}% of the federal poverty level${source === "upstream" ? " (our estimate; the credit is the federal Marketplace's)" : ""}.`;
}
