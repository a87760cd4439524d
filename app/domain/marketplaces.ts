/**
 * Where a shopper applies and enrolls: the marketplace that sells a state's
 * plans, and the insurer's own enrollment page when the plan data gives one.
 *
 * ONE table of marketplace addresses with the plan year it was checked for and
 * its source (docs/reference/marketplaces.md). Who runs a state's marketplace in
 * a year comes from the plan store's state rows (exchange kind), so a state
 * moving to its own platform (Oregon, 2027) needs only its row here.
 */

export type MarketplaceKind = "healthcaregov" | "sbe_federal_platform" | "sbe";

export type MarketplaceAddress = {
  name: string;
  url: string;
  /** The plan year the address was checked for. */
  year: number;
  source: string;
};

const STATE_SITE = "the state's own marketplace site (open-enrollment page)";

/** HealthCare.gov: the federal marketplace, also the platform of the SBM-FP states (AR, OR in 2026). */
export const HEALTHCARE_GOV: MarketplaceAddress = {
  name: "HealthCare.gov",
  url: "https://www.healthcare.gov/apply-and-enroll/how-to-apply/",
  year: 2026,
  source: "HealthCare.gov, 'How to apply' page; CMS 2026 Open Enrollment National Snapshot (30 HealthCare.gov states)",
};

/** The states (and DC) that run their own enrollment platform, by USPS code. */
export const STATE_MARKETPLACES: Readonly<Record<string, MarketplaceAddress>> = {
  CA: { name: "Covered California", url: "https://www.coveredca.com", year: 2026, source: STATE_SITE },
  CO: { name: "Connect for Health Colorado", url: "https://connectforhealthco.com", year: 2026, source: STATE_SITE },
  CT: { name: "Access Health CT", url: "https://www.accesshealthct.com", year: 2026, source: STATE_SITE },
  DC: { name: "DC Health Link", url: "https://dchealthlink.com", year: 2026, source: STATE_SITE },
  GA: { name: "Georgia Access", url: "https://georgiaaccess.gov", year: 2026, source: STATE_SITE },
  ID: { name: "Your Health Idaho", url: "https://www.yourhealthidaho.org", year: 2026, source: STATE_SITE },
  IL: { name: "Get Covered Illinois", url: "https://getcovered.illinois.gov", year: 2026, source: STATE_SITE },
  KY: { name: "kynect", url: "https://kynect.ky.gov", year: 2026, source: STATE_SITE },
  ME: { name: "CoverME.gov", url: "https://www.coverme.gov", year: 2026, source: STATE_SITE },
  MD: {
    name: "Maryland Health Connection",
    url: "https://www.marylandhealthconnection.gov",
    year: 2026,
    source: STATE_SITE,
  },
  MA: {
    name: "Massachusetts Health Connector",
    url: "https://www.mahealthconnector.org",
    year: 2026,
    source: STATE_SITE,
  },
  MN: { name: "MNsure", url: "https://www.mnsure.org", year: 2026, source: STATE_SITE },
  NV: { name: "Nevada Health Link", url: "https://www.nevadahealthlink.com", year: 2026, source: STATE_SITE },
  NJ: { name: "Get Covered New Jersey", url: "https://www.nj.gov/getcoverednj", year: 2026, source: STATE_SITE },
  NM: { name: "beWellnm", url: "https://www.bewellnm.com", year: 2026, source: STATE_SITE },
  NY: {
    name: "NY State of Health",
    url: "https://nystateofhealth.ny.gov",
    year: 2026,
    source: "NY State of Health, the official marketplace of New York (nystateofhealth.ny.gov)",
  },
  PA: { name: "Pennie", url: "https://pennie.com", year: 2026, source: STATE_SITE },
  RI: { name: "HealthSource RI", url: "https://healthsourceri.com", year: 2026, source: STATE_SITE },
  VT: { name: "Vermont Health Connect", url: "https://info.healthconnect.vermont.gov", year: 2026, source: STATE_SITE },
  VA: {
    name: "Virginia's Insurance Marketplace",
    url: "https://www.marketplace.virginia.gov",
    year: 2026,
    source: STATE_SITE,
  },
  WA: {
    name: "Washington Healthplanfinder",
    url: "https://www.wahealthplanfinder.org",
    year: 2026,
    source: STATE_SITE,
  },
  // On HealthCare.gov in 2026 (SBM-FP); its own platform from plan year 2027 (aca-parameters.json marketplaceType).
  OR: {
    name: "Oregon Health Insurance Marketplace",
    url: "https://healthcare.oregon.gov",
    year: 2027,
    source: "Oregon Health Authority, Oregon Health Insurance Marketplace (SB 972, own platform from PY2027)",
  },
};

/** One outbound next step: the words say where the link goes. */
export type EnrollLink = {
  kind: "marketplace" | "insurer";
  label: string;
  href: string;
  /** The host the link leads to, shown next to the words. */
  host: string;
  /** A sentence under the link (what to bring, the plan ID to look for). */
  note: string;
  /** The facts the words are made of, for pages that word them in another language (issue 21). */
  name: string;
  planId: string;
  planName: string;
  year: number;
};

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The marketplace a state's shoppers enroll through in a plan year. */
export function marketplaceFor(state: string, kind: MarketplaceKind | undefined): MarketplaceAddress {
  const own = STATE_MARKETPLACES[state];
  if (kind === "sbe") return own ?? HEALTHCARE_GOV;
  if (kind === undefined && own && own.year <= 2026) return own;
  return HEALTHCARE_GOV;
}

/**
 * The next steps to enroll in a plan: its marketplace first (where the tax
 * credit is applied), then the insurer's own enrollment page when the plan data
 * has one (PUF URLForEnrollmentPayment), which cannot apply the credit.
 */
export function enrollSteps(args: {
  state: string;
  kind: MarketplaceKind | undefined;
  planId: string;
  planName: string;
  year: number;
  issuerName: string;
  insurerUrl?: string | null;
}): EnrollLink[] {
  const market = marketplaceFor(args.state, args.kind);
  const facts = { planId: args.planId, planName: args.planName, year: args.year };
  const steps: EnrollLink[] = [
    {
      kind: "marketplace",
      label: `Apply and enroll at ${market.name}`,
      href: market.url,
      host: hostOf(market.url),
      note: `Look for plan ID ${args.planId} (${args.planName}, ${args.year}). Your tax credit is applied there.`,
      ...facts,
      name: market.name,
    },
  ];
  const insurer = args.insurerUrl?.trim();
  if (insurer && /^https?:\/\//i.test(insurer)) {
    steps.push({
      kind: "insurer",
      label: `Enroll or pay with ${args.issuerName}`,
      href: insurer,
      host: hostOf(insurer),
      note: "The insurer's own site: apply through the marketplace first if you want your tax credit.",
      ...facts,
      name: args.issuerName,
    });
  }
  return steps;
}
