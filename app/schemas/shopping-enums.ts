import { z } from "zod";
import { PLAN_SORTS } from "../domain/plan-order";
import { USAGE_LEVELS } from "../domain/yearly-cost";

/** The usage levels and sort orders, shared by the shopping requests and their answers. */
export const UsageLevel = z.enum(USAGE_LEVELS);
export const PlanSort = z.enum(PLAN_SORTS);
