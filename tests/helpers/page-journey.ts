/**
 * One shopper's journey through the site's pages, in process, as a browser
 * without JavaScript makes it (issue 16's measure, docs/benchmarks.md): the
 * ZIP → the household → the results → "lipitor" searched and added →
 * "metformin" searched and added → a doctor searched and added → the first
 * plan's page → back to the results → the first three plans compared. Each
 * step is one page's model from the server modules the page routes call
 * (shoppingPage, planDetailPage, comparePage), so the upstream calls counted
 * are the ones the pages make. Runs against older commits too.
 */
import { comparePage } from "../../app/server/pages/compare-page.server";
import { planDetailPage } from "../../app/server/pages/plan-detail-page.server";
import { shoppingPage, shoppingRedirect } from "../../app/server/pages/shopping-page.server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Model = any;
type Loader = (url: URL) => Promise<Model>;

/** The results page's model, a redirect followed as the browser would (the route module imports CSS, which tsx cannot). */
const results: Loader = async (url) => {
  const to = shoppingRedirect(url);
  return shoppingPage(to ? new URL(to.split("#")[0], url) : url);
};

export interface PageJourneyStep {
  step: string;
  path: string;
}

/**
 * The journey for one household (`income`, `age`); `morePages` adds a look at
 * the list's second page after the doctor is added. Answers the steps taken.
 */
export async function pageJourney(shopper: {
  income: number;
  age: number;
  morePages?: boolean;
  /** Then sort by "covers my drugs and doctors first" (the whole list's coverage). */
  coverageSort?: boolean;
}): Promise<PageJourneyStep[]> {
  const steps: PageJourneyStep[] = [];
  const place = "zip=75201&county=48113&state=TX";
  const household = `${place}&income=${shopper.income}&age=${shopper.age}&tobacco=no&pregnant=no&rel=self`;
  const go = async (step: string, path: string, loader: Loader = results) => {
    steps.push({ step, path });
    return loader(new URL(path, "http://localhost"));
  };
  const selection = (code: string, name: string) => encodeURIComponent(`${code}:${name}`);

  await go("zip", "/plans?zip=75201");
  let page = await go("results", `/plans?${household}`);
  if (page.step !== "results") throw new Error(`expected results, got ${page.step}`);
  let chosen = "";
  for (const query of ["lipitor", "metformin"]) {
    page = await go(`drug search "${query}"`, `/plans?${household}${chosen}&drugq=${query}`);
    const drug = page.drugSearch?.answer?.drugs?.[0];
    if (drug) {
      chosen += `&drug=${selection(drug.rxcui, drug.name)}`;
      page = await go(`drug added`, `/plans?${household}${chosen}`);
    }
  }
  page = await go("doctor search", `/plans?${household}${chosen}&doctorq=pembrook`);
  const doctor = page.doctorSearch?.answer?.providers?.[0];
  if (doctor) {
    chosen += `&npi=${selection(doctor.npi, doctor.name)}`;
    page = await go("doctor added", `/plans?${household}${chosen}`);
  }
  const ids: string[] = page.results.plans.map((p: { id: string }) => p.id);
  if (shopper.morePages) await go("page 2 of the list", `/plans?${household}${chosen}&page=2`);
  if (shopper.coverageSort) await go("sorted by coverage", `/plans?${household}${chosen}&sort=coverage`);
  await go("plan page", `/plans/${ids[0]}?${household}${chosen}`, (url) => planDetailPage(ids[0], url));
  await go("back to the results", `/plans?${household}${chosen}`);
  const compared = ids
    .slice(0, 3)
    .map((id) => `&compare=${id}`)
    .join("");
  await go("compare", `/plans/compare?${household}${chosen}${compared}`, comparePage);
  return steps;
}
