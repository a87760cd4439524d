import { useMemo } from "react";
import type { PricedPlan } from "../../lib/page-views";
import type { ShoppingState } from "../../lib/shopping-url";
import type { CoverageCheckView } from "./coverage-list";
import { PlanCard, type PlanCardExtras } from "./plan-card";

export interface PlanListProps {
  plans: readonly PricedPlan[];
  /** The search without its ticks (`compareIds`): the list is the same whatever is ticked. */
  state: ShoppingState;
  /** The list's page and the position of its first plan. */
  page: number;
  first: number;
  usage: string;
  householdSize: number;
  drugCoverage: CoverageCheckView | null;
  doctorCoverage: CoverageCheckView | null;
  extras: Record<string, PlanCardExtras | undefined>;
  /** The ticks for comparison, as they are now. */
  compareIds: readonly string[];
  compareInvalid: boolean;
  onCompareTick?: (planId: string, ticked: boolean) => void;
}

/**
 * The results page's list of plan cards. The page keeps the list as the server drew it while it
 * hydrates, patching in the ticks and the links that carry them, and loads this module (the
 * cards' code and words) only to draw a list itself: a new page, filter or drug (decision 407).
 */
export function PlanList({ state, compareIds, ...list }: PlanListProps) {
  const tickKey = compareIds.join(",");
  const withTicks = useMemo(() => ({ ...state, compare: tickKey ? tickKey.split(",") : [] }), [state, tickKey]);
  return (
    <ol className="plan-list" start={list.first}>
      {list.plans.map((plan) => (
        <PlanCard
          key={plan.id}
          plan={plan}
          state={withTicks}
          listPage={list.page}
          usage={list.usage}
          householdSize={list.householdSize}
          drugCoverage={list.drugCoverage}
          doctorCoverage={list.doctorCoverage}
          compareChecked={compareIds.includes(plan.id)}
          onCompareTick={list.onCompareTick}
          compareInvalid={list.compareInvalid}
          extras={list.extras[plan.id]}
        />
      ))}
    </ol>
  );
}
