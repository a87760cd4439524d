import { keptMarkup } from "../kept-markup";

/**
 * A card's own year and its drugs and doctors only show the server's figures and native
 * disclosures: kept as the server drew them while the page hydrates, their code and words loaded
 * only to draw them in the browser (decision 407; a wrapper of `display: contents`).
 */
export const YourYearLine = keptMarkup(() => import("./your-year").then((m) => m.YourYearLine), "your-year-part");
export const CoverageCounts = keptMarkup(
  () => import("./coverage-list").then((m) => m.CoverageCounts),
  "coverage-part",
);

/** Loads the card's kept parts' code ahead of a list the browser draws (the results page's clientLoader). */
export function preloadCardParts(): Promise<unknown> {
  return Promise.all([YourYearLine.preload(), CoverageCounts.preload()]);
}
