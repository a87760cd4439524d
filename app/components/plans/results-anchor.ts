/** The id of the results list's top: where "Show N plans" and the form without JavaScript land. */
export const RESULTS_ANCHOR = "results";
