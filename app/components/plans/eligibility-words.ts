import { ENGLISH, money, type Words } from "./format";
import { csrWords } from "./plan-words";
import { membersWords } from "./income-line-words";

/**
 * The eligibility summary in plain words, with what to do next and real
 * links, in the page's language (the catalogue's eligibility.*). Pure: the
 * results, detail and compare pages render these messages, and tests read
 * them without a browser.
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
  /** Why our own estimate stands in (the answer's `upstream`): the page words the note from it. */
  upstream?: string;
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

/**
 * The links in the page's language: the label from eligibility.links.<name>; in Spanish a
 * HealthCare.gov page is its CuidadoDeSalud.gov twin (same path under /es/) and Medicare.gov's
 * is es.medicare.gov.
 */
function linksIn(w: Words) {
  const href = (url: string) =>
    w.lang === "es"
      ? url
          .replace("https://www.healthcare.gov/", "https://www.cuidadodesalud.gov/es/")
          .replace("https://www.medicare.gov/", "https://es.medicare.gov/")
      : url;
  return Object.fromEntries(
    Object.entries(LINKS).map(([name, link]) => [
      name,
      { label: w.t(`eligibility.links.${name}`), href: href(link.href) },
    ]),
  ) as Record<keyof typeof LINKS, Link>;
}

const OWN_NOTE_REASONS = ["unavailable", "busy", "key_rejected", "year_not_served"];

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function eligibilityMessages(
  eligibility: EligibilityFacts | null,
  unavailable: string | null,
  state: string,
  /** The ages as typed, to name the people a message is about. */
  ages: readonly string[] = [],
  w: Words = ENGLISH,
): EligibilityMessage[] {
  const { t, lang } = w;
  const L = linksIn(w);
  const messages: EligibilityMessage[] = [];
  const ny = state === "NY";
  // New Yorkers apply and get their credit at NY State of Health, not HealthCare.gov.
  const creditLinks = ny ? [L.nyApply] : [L.taxCredit];
  if (!eligibility) {
    messages.push({
      id: "estimate-unavailable",
      tone: "warn",
      heading: t("eligibility.unavailableHeading"),
      // The page model's plain sentence (page-parts' eligibilityUnavailableIn), which says whether trying again can help.
      body: unavailable ? [unavailable] : [t("eligibility.unavailableDefault"), t("eligibility.unavailableBody")],
      links: creditLinks,
    });
    return messages;
  }
  if (eligibility.note) {
    const reason = eligibility.upstream;
    messages.push({
      id: "own-estimate",
      tone: "info",
      heading: t("eligibility.ownHeading"),
      body: [
        lang !== "en" && reason && OWN_NOTE_REASONS.includes(reason)
          ? t(`eligibility.ownNote.${reason}`)
          : eligibility.note,
      ],
      links: creditLinks,
    });
  }
  const everyone = ages.length;
  // Whether a list names only part of the household: then the prices below are for the others.
  const some = (list: readonly number[] | undefined) => list !== undefined && list.length > 0 && list.length < everyone;
  const forOthers = t("eligibility.forOthers");
  const medicare = eligibility.medicare_members ?? [];
  if (medicare.length > 0) {
    messages.push({
      id: "medicare",
      tone: "info",
      heading: t("eligibility.medicareHeading", { who: membersWords(medicare, ages, w) }),
      body: [
        t("eligibility.medicareBody"),
        `${t("eligibility.medicareNext")} ${some(medicare) ? forOthers : ""}`.trim(),
      ],
      links: [L.medicare, L.medicareMarketplace],
    });
  }
  if (eligibility.is_medicaid_chip && some(eligibility.medicaid_chip_members)) {
    messages.push({
      id: "medicaid",
      tone: "info",
      heading: capital(
        t("eligibility.medicaidSomeHeading", { who: membersWords(eligibility.medicaid_chip_members!, ages, w) }),
      ),
      body: [
        t("eligibility.medicaidSomeBody"),
        `${ny ? t("eligibility.medicaidSomeNextNy") : t("eligibility.medicaidSomeNext")} ${forOthers}`,
      ],
      links: ny ? [L.nyApply, L.medicaidChip] : [L.medicaidChip],
    });
  } else if (eligibility.is_medicaid_chip) {
    messages.push({
      id: "medicaid",
      tone: "info",
      heading: t("eligibility.medicaidHeading"),
      body: [t("eligibility.medicaidBody"), ny ? t("eligibility.medicaidNextNy") : t("eligibility.medicaidNext")],
      links: ny ? [L.nyApply, L.medicaidChip] : [L.medicaidChip],
    });
  }
  if (eligibility.essential_plan && some(eligibility.essential_plan_members)) {
    messages.push({
      id: "essential-plan",
      tone: "info",
      heading: capital(
        t("eligibility.essentialSomeHeading", { who: membersWords(eligibility.essential_plan_members!, ages, w) }),
      ),
      body: [t("eligibility.essentialSomeBody"), `${t("eligibility.essentialSomeNext")} ${forOthers}`],
      links: [L.essentialPlan, L.nyApply],
    });
  } else if (eligibility.essential_plan) {
    messages.push({
      id: "essential-plan",
      tone: "info",
      heading: t("eligibility.essentialHeading"),
      body: [t("eligibility.essentialBody"), t("eligibility.essentialNext")],
      links: [L.essentialPlan, L.nyApply],
    });
  }
  if (eligibility.in_coverage_gap) {
    messages.push({
      id: "coverage-gap",
      tone: "warn",
      heading: t("eligibility.gapHeading"),
      body: [t("eligibility.gapBody"), t("eligibility.gapNext")],
      links: [L.medicaidExpansion, L.healthCenter],
    });
  }
  if (eligibility.aptc > 0) {
    messages.push({
      id: "credit",
      tone: "good",
      heading: t("eligibility.creditHeading", { amount: money(eligibility.aptc, lang) }),
      body: [t("eligibility.creditBody", { amount: money(eligibility.aptc * 12, lang) })],
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
      heading: t("eligibility.noCreditHeading"),
      body: [t("eligibility.noCreditBody")],
      links: creditLinks,
    });
  }
  const savings = csrWords(eligibility.csr, w);
  if (savings) {
    messages.push({
      id: "csr",
      tone: "good",
      heading: t("eligibility.csrHeading", { savings }),
      body: [t("eligibility.csrBody")],
      links: [],
    });
  }
  return messages;
}

/** "250.3% of the federal poverty level", labelled as our estimate where the credit is the federal one. */
export function fplWords(
  fplPercent: number | null,
  source: "own" | "upstream" = "own",
  w: Words = ENGLISH,
): string | null {
  if (fplPercent === null || !Number.isFinite(fplPercent)) return null;
  return w.t(source === "upstream" ? "eligibility.fplUpstream" : "eligibility.fpl", { percent: fplPercent });
}
