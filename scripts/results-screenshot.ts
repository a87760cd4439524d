/**
 * A full-page screenshot of the results page at phone width (issue 17 item 3):
 *   npx tsx scripts/results-screenshot.ts results-360-after [--no-js]
 * Starts the built server (`npm run build` first) on the test plan store with
 * the sample fake upstream, opens Dallas County results for a family of three
 * at 360 × 780 in Debian's chromium, prints where the first plan card's top
 * is, and writes tests/artifacts/<name>.png.
 */
import { launchBrowser, screenshot } from "../tests/e2e/browser";
import { startServer } from "../tests/helpers/server";

const FAMILY =
  "zip=75201&county=48113&state=TX&income=60000" +
  "&age=40&tobacco=no&pregnant=no&rel=self&age=38&tobacco=no&pregnant=no&rel=spouse" +
  "&age=10&tobacco=no&pregnant=no&rel=child";

async function main() {
  const name = process.argv[2] ?? "results-360";
  const javaScript = !process.argv.includes("--no-js");
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 360, height: 780 }, javaScriptEnabled: javaScript });
    const page = await context.newPage();
    await page.goto(`${server.url}/plans?${FAMILY}`, { waitUntil: "load" });
    const top = await page.evaluate(() => {
      const card = document.querySelector(".plan-card");
      return card ? card.getBoundingClientRect().top + window.scrollY : null;
    });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`first plan card top: ${top} px; page height ${height} px; viewport 780 px`);
    await screenshot(page, name);
  } finally {
    await browser.close();
    await server.stop();
  }
}

void main();
