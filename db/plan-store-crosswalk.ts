/**
 * The Plan ID Crosswalk table of the plan store (seed/readers/crosswalk.ts):
 * one row per previous-year plan × county (× ZIP for ZIP-level rows) with the
 * plan of the next year it maps to. Kept apart from db/plan-store.ts only for
 * that file's length; it is one of `planStoreTables`. A store built before
 * this table existed has none: readers treat that as "no crosswalk loaded".
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const planCrosswalk = sqliteTable(
  "plan_crosswalk",
  {
    fromYear: integer("from_year").notNull(),
    toYear: integer("to_year").notNull(),
    state: text("state").notNull(),
    fromPlanId: text("from_plan_id").notNull(),
    fromIssuerId: text("from_issuer_id"),
    fromMultistate: integer("from_multistate", { mode: "boolean" }),
    fromMetal: text("from_metal"),
    fromChildAdultOnly: integer("from_child_adult_only"),
    countyFips: text("county_fips").notNull(),
    /** null = the whole county (`00000` in the file). */
    zip: text("zip"),
    /** CrosswalkLevel 0–5 (decision 340). */
    level: integer("level").notNull(),
    /** ReasonForCrosswalk code (decision 340). */
    reason: integer("reason"),
    /** null = no plan to re-enrol into (`00000XX0000000`). */
    toPlanId: text("to_plan_id"),
    toIssuerId: text("to_issuer_id"),
    toMultistate: integer("to_multistate", { mode: "boolean" }),
    toMetal: text("to_metal"),
    toChildAdultOnly: integer("to_child_adult_only"),
    ageOffPlanId: text("age_off_plan_id"),
    ageOffIssuerId: text("age_off_issuer_id"),
    ageOffMetal: text("age_off_metal"),
    bronzeToSilverReason: integer("bronze_to_silver_reason"),
    silverCsrPlanId: text("silver_csr_plan_id"),
    silverCsrIssuerId: text("silver_csr_issuer_id"),
  },
  (t) => [index("plan_crosswalk_from").on(t.fromYear, t.fromPlanId, t.countyFips)],
);
