/**
 * The shapes the page models (app/server/pages) hand to the components (app/components), and the
 * few constants both sides name. Neither side imports the other (issue 28 item 9,
 * tests/unit/pages/layering.test.ts): a component takes its view as props, a page model builds it.
 */
import type { z } from "zod";
import type { CareGroup } from "../domain/care-groups";
import type { PricedPlan as PricedPlanSchema } from "../schemas/shopping-answers";
import { compareProblem, type CompareProblem } from "./shopping-url";

/** The county question's error, in English (the server's word, tests read it); the page shows county.choose. */
export const CHOOSE_A_COUNTY = "Choose a county";
/** The hidden field the county form sends (see shoppingPage). */
export const COUNTY_FORM_FIELD = "county_form";

/** One income of the what-if series (the page model's shape of app/domain/what-if.ts). */
export interface WhatIfPointView {
  income: number;
  fplPercent: number;
  aptcMonthly: number;
  netBenchmarkMonthly: number | null;
  medicaidChip: number;
  essentialPlan: number;
  medicare: number;
  coverageFamily: number;
  own: boolean;
}

export interface WhatIfView {
  points: WhatIfPointView[];
  lines: Array<{ kind: string; percent: number; amount: number }>;
  /** True where the credit itself comes from the federal estimate (the what-if is our own). */
  ourEstimate: boolean;
}

/** A ticked plan as the compare tray names it. */
export interface CompareChoice {
  id: string;
  name: string;
}

/**
 * Why the ticks cannot be compared (issue 17 item 4): the facts, worded by the tray in the page's
 * language (compareErrorWords), so the server need not know the language.
 */
export interface CompareError {
  problem: CompareProblem;
  /** Plans ticked. */
  count: number;
  /** The plan ticked, when only one is. */
  name: string | null;
}

/** The error for ticks that cannot be compared (0, 1, or 4 and more); null for 2 or 3. */
export function compareErrorOf(choices: readonly CompareChoice[]): CompareError | null {
  const problem = compareProblem(choices.length);
  if (!problem) return null;
  return { problem, count: choices.length, name: choices.length === 1 ? choices[0].name : null };
}

/** A row of the benefit table, as <BenefitTable> shows it. */
export interface BenefitRowView {
  name: string;
  covered: boolean | null;
  inNetwork: string;
  inNetworkTier2: string | null;
  outOfNetwork: string;
  notes: string | null;
  /** The kind of care it is grouped under (app/domain/care-groups); rows come in the groups' order. */
  group?: CareGroup;
}

/**
 * The plan page's benefit table: its caption and its rows as text (benefitRowsText, decision 133).
 * The page model makes one per plan variant, language and caption and keeps it (frozen) for as long
 * as the store keeps the plan record; the route pre-renders its markup once per view object.
 */
export interface BenefitTableView {
  caption: string;
  /** The rows as text (benefitRowsText, decision 133). */
  rowsText: string;
}

/**
 * One plan of the priced list (the plans API's answer, the results page's cards, the plan page's
 * price): the one name for it across the app (issue 28 item 9). The shape is the schema's.
 */
export type PricedPlan = z.infer<typeof PricedPlanSchema>;
