import type enFull from "./locales/en.json";
import {
  banner,
  error,
  agentsEnglishOnly,
  meta,
  results,
  site,
  standardized,
  validation,
  zipForm,
} from "./locales/en.json";

/**
 * The namespaces of English every English page loads (issue 29 item 4: the results page's
 * JavaScript): in the browser a chunk of their own, which entry.client.tsx loads for an English
 * page only (decision 405; a Spanish page carries no English core). The others — one page's words, or the server's (emails, API errors) — are named
 * here, imported by name from en.json by the modules that show them (Vite keeps only the named
 * parts of a JSON file) and added with `addEnglish`; the server loads the whole catalogue
 * (catalogues.server.ts). The type makes a new namespace of en.json either core or named below.
 */
export const LATER = [
  "renew",
  "privacy",
  "terms",
  "updates",
  "unsubscribe",
  "email",
  "apiErrors",
  "summary",
  "legal",
  "home",
  "householdCheck",
  "scenario",
  "benefits",
  "whatIf",
  "yearlyCost",
  "compare",
  "planPage",
  "householdForm",
  "county",
  "sbe",
  "compareTray",
  "eligibility",
  "incomeLines",
  "members",
  "myYear",
  "coverage",
  "ranking",
  "planCard",
  "stars",
  "enroll",
  "householdSummary",
  "repaymentRisk",
  "drugsDoctors",
  "picker",
  "filters",
  "pager",
  "plans",
] as const;

/**
 * The namespaces only the server words (emails, API errors, household checks, the ranking's reasons): no browser bundle
 * carries them in any language (vite.config.ts's `virtual:catalogue/<lang>` leaves them out).
 */
export const SERVER_ONLY = ["email", "apiErrors", "householdCheck", "ranking"] as const satisfies ReadonlyArray<
  (typeof LATER)[number]
>;

/**
 * Keys of a page-only namespace that the core carries all the same (the plan card's words of the
 * plan page: english-browser.ts for English, vite.config.ts's `virtual:catalogue/<lang>` for the
 * other languages; tests/unit/i18n/english-core.test.ts checks the card asks for no other key).
 */
export const CORE_KEYS_OF_LATER = {
  planPage: ["hsaEligible", "aMonth", "tobacco"],
  repaymentRisk: ["heading", "pricesWithPart"],
} as const satisfies Partial<Record<(typeof LATER)[number], readonly string[]>>;

export const english: Omit<typeof enFull, (typeof LATER)[number]> = {
  meta,
  site,
  banner,
  error,
  agentsEnglishOnly,
  zipForm,
  validation,
  standardized,
  results,
};
