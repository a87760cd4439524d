// How a covered person relates to the subscriber (the first person of a household). Standalone,
// so that the browser's URL codec (app/lib/shopping-url.ts) can use it without the rating rules.

/** Every relationship, as the plans API and the /plans URL spell it (the schema's enum is built from it). */
export const RELATIONSHIPS = ["self", "spouse", "child", "other"] as const;

/** How a covered person relates to the subscriber. */
export type Relationship = (typeof RELATIONSHIPS)[number];
