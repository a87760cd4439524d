/**
 * Upstream calls per shopper journey (docs/benchmarks.md, issue 16):
 *   npx tsx scripts/journey-upstream-calls.ts
 * Starts the fake CMS API over seed/sample, points the service's routes at
 * it (in process, the test plan store data/test/plan-store.sqlite), and runs
 * tests/helpers/shopper-journey.ts for a first shopper (nothing kept yet) and
 * a second shopper (what the first left kept), printing the calls the fake
 * recorded. Uses only route modules and the fake's call list, so the same
 * script measures older commits. `--pages` runs the journey through the
 * pages (tests/helpers/page-journey.ts) instead of the JSON API; with
 * `--more-pages` the shopper also looks at page 2, with `--coverage-sort`
 * sorts by "covers my drugs and doctors first".
 */
import path from "node:path";
import { startFakeUpstream } from "../mocks/cms-api/index";
import { pageJourney } from "../tests/helpers/page-journey";
import { shopperJourney } from "../tests/helpers/shopper-journey";

const KEY = "journey-calls-key-0123456789";
const root = path.resolve(import.meta.dirname, "..");

async function main() {
  const fake = await startFakeUpstream({ apiKey: KEY, dataDir: path.join(root, "seed/sample") });
  Object.assign(process.env, {
    LOG_LEVEL: "silent",
    PLAN_STORE_PATH: process.env.PLAN_STORE_PATH ?? path.join(root, "data/test/plan-store.sqlite"),
    MARKETPLACE_API_BASE_URL: fake.url,
    MARKETPLACE_API_KEY: KEY,
  });
  const report = (label: string) => {
    const counts: Record<string, number> = {};
    for (const c of fake.calls) {
      const key = c.path.replace(/^\/api\/v1/, "").replace(/\/\d+$/, "/…");
      counts[key] = (counts[key] ?? 0) + 1;
    }
    const years = (fake as { marketYearsCalls?: number }).marketYearsCalls ?? 0;
    if (years) counts["/market-years"] = years;
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    console.log(`${label}: ${total} upstream calls ${JSON.stringify(counts)}`);
  };
  const morePages = process.argv.includes("--more-pages");
  const coverageSort = process.argv.includes("--coverage-sort");
  const pages = process.argv.includes("--pages") || morePages || coverageSort;
  const journey = (income: number, age: number) =>
    pages ? pageJourney({ income, age, morePages, coverageSort }) : shopperJourney({ income, age });
  await journey(36_000, 35);
  report(`first shopper${pages ? " (pages)" : " (API)"}`);
  fake.reset();
  await journey(41_000, 44);
  report(`second shopper${pages ? " (pages)" : " (API)"}`);
  await fake.close();
  process.exit(0);
}

void main();
