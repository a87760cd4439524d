import planPageOnCards from "virtual:english/planPage/hsaEligible,aMonth,tobacco";
import repaymentRiskOfPrices from "virtual:english/repaymentRisk/heading,pricesWithPart";
import type { Catalogue } from "./i18n";
import { english } from "./english-core";

/**
 * The English an English page loads before hydrating (entry.client.tsx, decision 405): the core
 * namespaces, and the plan card's few words of the plan page's namespace (plan-card.tsx:
 * planPage.<key>; the plan page and its summary add the whole namespace, decision 406), and the
 * results page's repayment-risk line and its sentence on a part of the credit (credit-in-prices.ts; repayment-risk.tsx adds
 * the whole namespace, decision 440).
 * tests/unit/i18n/english-core.test.ts checks the card asks for no other key of it. Browser only:
 * the server has all of en.json (and its esbuild bundle knows no virtual modules).
 */
export const englishForBrowser = {
  ...english,
  planPage: planPageOnCards,
  repaymentRisk: repaymentRiskOfPrices,
} as Partial<Catalogue>;
